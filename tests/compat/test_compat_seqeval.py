"""nerve.compat.seqeval against seqeval 1.2.2: its README, random corpora, and its pinned bugs.

The numbers must be seqeval's exactly (same floats, same numpy types), the report byte for byte,
and the warnings the same messages in the same order, wherever seqeval is right. Where it is
wrong, a test shows seqeval's output next to nerve's (the module docstring of
`nerve.compat.seqeval` lists the cases).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from collections.abc import Callable
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from conftest import peer
from nerve.compat.seqeval import scheme as our_scheme
from nerve.compat.seqeval.metrics import (
    accuracy_score,
    classification_report,
    f1_score,
    performance_measure,
    precision_score,
    recall_score,
    sequence_labeling,
    v1,
)
from nerve.compat.seqeval.metrics.v1 import UndefinedMetricWarning

PROFILE = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCORES = ("f1_score", "precision_score", "recall_score")
AVERAGES = (None, "micro", "macro", "weighted")
ZERO_DIVISION = ("warn", 0, 1)


def theirs() -> SimpleNamespace:
    """seqeval's modules (skipped where seqeval is missing, a failure under CI=true)."""
    peer("seqeval")
    return SimpleNamespace(
        metrics=importlib.import_module("seqeval.metrics"),
        labeling=importlib.import_module("seqeval.metrics.sequence_labeling"),
        v1=importlib.import_module("seqeval.metrics.v1"),
        scheme=importlib.import_module("seqeval.scheme"),
    )


def run(call: Callable[[], Any]) -> tuple[Any, list[tuple[str, str]]]:
    """What ``call`` returns (or the type of what it raises) and every warning, as (class name, text)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = call()
        except Exception as err:  # the tests compare which calls fail
            out = ("raised", type(err).__name__, str(err))
    return out, [(w.category.__name__, str(w.message)) for w in caught]


def identical(a: Any, b: Any) -> bool:
    """Equal values of the same types: numpy scalars and arrays (dtype included), dicts, tuples."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(identical(a[k], b[k]) for k in a)
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


# ---------------------------------------------------------------------------------------------
# seqeval's README and docstring examples, as golden outputs (no seqeval needed).

Y_TRUE = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
Y_PRED = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
README_REPORT = """\
              precision    recall  f1-score   support

        MISC       0.00      0.00      0.00         1
         PER       1.00      1.00      1.00         1

   micro avg       0.50      0.50      0.50         2
   macro avg       0.50      0.50      0.50         2
weighted avg       0.50      0.50      0.50         2
"""
NP_REPORT = """\
              precision    recall  f1-score   support

          NP       {0}      {0}      {0}         1

   micro avg       {0}      {0}      {0}         1
   macro avg       {0}      {0}      {0}         1
weighted avg       {0}      {0}      {0}         1
"""


def test_readme_default_and_strict() -> None:
    assert f1_score(Y_TRUE, Y_PRED) == 0.5
    assert accuracy_score(Y_TRUE, Y_PRED) == 0.8
    assert classification_report(Y_TRUE, Y_PRED) == README_REPORT
    assert classification_report(Y_TRUE, Y_PRED, mode="strict", scheme=our_scheme.IOB2) == README_REPORT
    assert v1.classification_report(Y_TRUE, Y_PRED, scheme=our_scheme.IOB2) == README_REPORT


def test_readme_minimum_case_of_the_two_modes() -> None:
    y_true, y_pred = [["B-NP", "I-NP", "O"]], [["I-NP", "I-NP", "O"]]
    assert classification_report(y_true, y_pred) == NP_REPORT.format("1.00")
    with pytest.warns(UndefinedMetricWarning, match="Precision and F-score are ill-defined"):
        strict = classification_report(y_true, y_pred, mode="strict", scheme=our_scheme.IOB2)
    assert strict == NP_REPORT.format("0.00")


def test_docstring_examples_of_the_scores() -> None:
    y_true = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "O", "O"], ["B-PER", "I-PER", "O"]]
    y_pred = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    for score in (f1_score, precision_score, recall_score):
        assert score(y_true, y_pred, average="micro") == 2 / 3
        assert score(y_true, y_pred, average="macro") == 0.75
        assert score(y_true, y_pred, average="weighted") == 2 / 3
        assert score(y_true, y_pred, average=None).tolist() == [0.5, 1.0]
    for average in ("macro", "micro", "weighted"):
        got = sequence_labeling.precision_recall_fscore_support(Y_TRUE, Y_PRED, average=average)
        assert got == (0.5, 0.5, 0.5, 2)
    p, r, f, s = sequence_labeling.precision_recall_fscore_support(Y_TRUE, Y_PRED)
    assert (p.tolist(), r.tolist(), f.tolist(), s.tolist()) == ([0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [1, 1])
    y_true = [["O", "O", "O", "B-MISC", "I-MISC", "O", "B-ORG"], ["B-PER", "I-PER", "O", "B-PER"]]
    y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "O"], ["B-PER", "I-PER", "O", "B-MISC"]]
    assert performance_measure(y_true, y_pred) == {"TP": 3, "FP": 3, "FN": 1, "TN": 4}
    assert sequence_labeling.get_entities(["B-PER", "I-PER", "O", "B-LOC"]) == [("PER", 0, 1), ("LOC", 3, 3)]


def test_issue_examples_iobes_and_bilou() -> None:
    # chakki-works/seqeval#25 (as answered for v1.0.0) and PR #56 (BILOU), their printed reports.
    report = classification_report(
        [["B-PER", "E-PER", "S-PER"]], [["B-PER", "I-PER", "S-PER"]], mode="strict", scheme=our_scheme.IOBES
    )
    assert report.splitlines()[2] == "         PER       1.00      0.50      0.67         2"
    y_true = [["U-ORG", "B-PER", "I-PER", "L-PER", "O"], ["U-ORG"]]
    y_pred = [["U-ORG", "B-PER", "I-PER", "I-PER", "O"], ["U-ORG"]]
    with pytest.warns(UndefinedMetricWarning):
        lines = classification_report(y_true, y_pred, mode="strict", scheme=our_scheme.BILOU).splitlines()
    assert lines[2:8] == [
        "         ORG       1.00      1.00      1.00         2",
        "         PER       0.00      0.00      0.00         1",
        "",
        "   micro avg       1.00      0.67      0.80         3",
        "   macro avg       0.50      0.50      0.50         3",
        "weighted avg       0.67      0.67      0.67         3",
    ]


def test_output_dict_keys_and_numpy_values() -> None:
    report = classification_report(Y_TRUE, Y_PRED, output_dict=True)
    assert list(report) == ["MISC", "PER", "micro avg", "macro avg", "weighted avg"]
    assert report["PER"] == {"precision": 1.0, "recall": 1.0, "f1-score": 1.0, "support": 1}
    assert isinstance(report["micro avg"]["precision"], np.float64)
    assert isinstance(report["micro avg"]["support"], np.int64)


# ---------------------------------------------------------------------------------------------
# Random corpora against seqeval.


@st.composite
def corpora(draw: st.DrawFn, letters: str, suffix: bool) -> tuple[list[list[str]], list[list[str]]]:
    """Gold and predicted sentences of random tags (most of them ill-formed), bare tags included."""
    types = draw(st.sampled_from([("PER", "LOC"), ("PER", "LOC", "ORG"), ("NP", "Generic-Measure"), ("",)]))
    spell = (lambda c, t: f"{t}-{c}") if suffix else (lambda c, t: f"{c}-{t}")
    alphabet = ["O", *(spell(c, t) if t else c for c in letters for t in types)]
    lengths = draw(st.lists(st.integers(0, 9), min_size=1, max_size=5))
    gold = [draw(st.lists(st.sampled_from(alphabet), min_size=n, max_size=n)) for n in lengths]
    pred = [draw(st.lists(st.sampled_from(alphabet), min_size=n, max_size=n)) for n in lengths]
    return gold, pred


def no_entities(result: Any) -> bool:
    """Whether seqeval met no entity at all (its macro mean of nothing, or its report's crash)."""
    text = repr(result)
    return "max() arg is an empty sequence" in text or "nan" in text


# Default mode: each scheme's own letters; seqeval ignores the scheme, nerve decodes in it.
DEFAULT = [
    ("BI", None),
    ("BI", "IOB1"),
    ("BI", "IOB2"),
    ("IE", "IOE1"),
    ("IE", "IOE2"),
    ("IE", None),
    ("BIES", None),
    ("BIES", "IOBES"),
]


def compare_scores(
    data: st.DataObject, sq: SimpleNamespace, strict: bool, letters: str, name: str | None
) -> None:
    suffix = data.draw(st.booleans(), "suffix")
    gold, pred = data.draw(corpora(letters, suffix), "corpus")
    function = data.draw(st.sampled_from(SCORES), "function")
    kwargs = {
        "average": data.draw(st.sampled_from(AVERAGES), "average"),
        "zero_division": data.draw(st.sampled_from(ZERO_DIVISION), "zero_division"),
        "suffix": suffix,
        "mode": "strict" if strict else None,
    }
    expected = run(
        lambda: getattr(sq.metrics, function)(gold, pred, scheme=name and getattr(sq.scheme, name), **kwargs)
    )
    got = run(
        lambda: getattr(sequence_labeling, function)(
            gold, pred, scheme=name and getattr(our_scheme, name), **kwargs
        )
    )
    if kwargs["average"] == "macro" and no_entities(expected):
        micro = run(
            lambda: getattr(sequence_labeling, function)(
                gold, pred, scheme=name, **{**kwargs, "average": "micro"}
            )
        )
        assert identical(got[0], micro[0])  # documented: the macro mean of no types is the micro score
        return
    assert_same(expected, got)


def assert_same(expected: tuple[Any, list[Any]], got: tuple[Any, list[Any]]) -> None:
    """The same result and warnings; nerve refuses what seqeval refuses (a tag outside the scheme)."""
    if isinstance(expected[0], tuple) and expected[0][0] == "raised":
        assert isinstance(got[0], tuple), (expected, got)
        assert got[0][:2] == ("raised", "InputError"), (expected, got)
        return
    assert identical(got[0], expected[0]), (expected, got)
    assert got[1] == expected[1]


def compare_reports(
    data: st.DataObject, sq: SimpleNamespace, strict: bool, letters: str, name: str | None
) -> None:
    suffix = data.draw(st.booleans(), "suffix")
    gold, pred = data.draw(corpora(letters, suffix), "corpus")
    kwargs = {
        "digits": data.draw(st.integers(0, 6), "digits"),
        "output_dict": data.draw(st.booleans(), "output_dict"),
        "zero_division": data.draw(st.sampled_from(ZERO_DIVISION), "zero_division"),
        "suffix": suffix,
        "mode": "strict" if strict else None,
    }
    expected = run(
        lambda: sq.metrics.classification_report(
            gold, pred, scheme=name and getattr(sq.scheme, name), **kwargs
        )
    )
    got = run(lambda: classification_report(gold, pred, scheme=name, **kwargs))
    if no_entities(expected):
        assert isinstance(got[0], str | dict)  # documented: nerve reports zeros
        return
    if "This scheme is not supported" in repr(expected[0]):  # seqeval's auto_detect gives up
        only_o = all(t == "O" for sentence in gold for t in sentence)
        assert only_o or got[0][:2] == ("raised", "SchemeError")  # documented: all-O gold looks at pred
        return
    assert_same(expected, got)


@pytest.mark.parametrize(("letters", "name"), DEFAULT)
@PROFILE
@given(data=st.data())
def test_default_mode_scores_equal_seqeval(data: st.DataObject, letters: str, name: str | None) -> None:
    compare_scores(data, theirs(), False, letters, name)


@pytest.mark.parametrize(("letters", "name"), DEFAULT)
@PROFILE
@given(data=st.data())
def test_default_mode_report_equals_seqeval(data: st.DataObject, letters: str, name: str | None) -> None:
    compare_reports(data, theirs(), False, letters, name)


# Strict mode: where seqeval follows the scheme (not IOB1, IOE1: see the pinned cases below).
STRICT = [("BI", "IOB2"), ("IE", "IOE2"), ("BIES", "IOBES"), ("BILU", "BILOU")]


@pytest.mark.parametrize(("letters", "name"), STRICT)
@PROFILE
@given(data=st.data())
def test_strict_mode_scores_equal_seqeval(data: st.DataObject, letters: str, name: str) -> None:
    compare_scores(data, theirs(), True, letters, name)


@pytest.mark.parametrize(("letters", "name"), [*STRICT, ("BI", None), ("BIES", None), ("BILU", None)])
@PROFILE
@given(data=st.data())
def test_strict_mode_report_equals_seqeval(data: st.DataObject, letters: str, name: str | None) -> None:
    # Without a scheme both detect it from the gold letters, and refuse the sets they cannot place.
    compare_reports(data, theirs(), True, letters, name)


@PROFILE
@given(corpus=corpora("BILUES", False), flat=st.booleans())
def test_token_metrics_equal_seqeval(corpus: tuple[list[list[str]], list[list[str]]], flat: bool) -> None:
    sq = theirs()
    gold, pred = corpus
    if flat:  # seqeval's token metrics take flat lists too
        gold, pred = [t for s in gold for t in s], [t for s in pred for t in s]
    assert performance_measure(gold, pred) == sq.metrics.performance_measure(gold, pred)
    if any(gold):
        expected = sq.metrics.accuracy_score(gold, pred)
        assert accuracy_score(gold, pred) == expected
        assert type(accuracy_score(gold, pred)) is type(expected)


@PROFILE
@given(corpus=corpora("BIES", False), suffix=st.booleans(), flat=st.booleans())
def test_get_entities_equals_seqeval(
    corpus: tuple[list[list[str]], list[list[str]]], suffix: bool, flat: bool
) -> None:
    sq = theirs()
    tags: Any = corpus[0]
    if suffix:
        tags = [[t if len(t) == 1 else f"{t[2:]}-{t[0]}" for t in s] for s in tags]
    if flat:
        tags = tags[0]
    assert sequence_labeling.get_entities(tags, suffix) == sq.labeling.get_entities(tags, suffix)


@PROFILE
@given(corpus=corpora("BIESLU", False), suffix=st.booleans())
def test_auto_detect_equals_seqeval(corpus: tuple[list[list[str]], list[list[str]]], suffix: bool) -> None:
    sq = theirs()
    gold = corpus[0]
    if suffix:
        gold = [[t if len(t) == 1 else f"{t[2:]}-{t[0]}" for t in s] for s in gold]
    expected = run(lambda: sq.scheme.auto_detect(gold, suffix).__name__)[0]
    got = run(lambda: our_scheme.auto_detect(gold, suffix).__name__)[0]
    if isinstance(expected, tuple):
        assert expected[:2] == ("raised", "ValueError")
        assert got[:2] == ("raised", "SchemeError")
    else:
        assert got == expected


def test_scheme_classes_names_and_seqeval_classes_are_one_scheme() -> None:
    sq = theirs()
    gold, pred = [["B-PER", "I-PER", "O", "I-LOC"]], [["B-PER", "I-PER", "O", "B-LOC"]]
    results = {
        float(f1_score(gold, pred, mode="strict", scheme=s))
        for s in (our_scheme.IOB2, sq.scheme.IOB2, "IOB2", "bio")
    }
    assert (
        results == {float(sq.metrics.f1_score(gold, pred, mode="strict", scheme=sq.scheme.IOB2))} == {2 / 3}
    )
    with pytest.raises(nerve.OptionError, match="scheme"):
        f1_score(gold, pred, mode="strict", scheme="IOX")
    with pytest.raises(nerve.OptionError, match="scheme"):
        f1_score(gold, pred, mode="strict", scheme=3)


# ---------------------------------------------------------------------------------------------
# Where seqeval 1.2.2 is wrong: its output, and nerve's.


def test_no_entities_at_all_seqeval_crashes_nerve_reports_zeros() -> None:
    sq = theirs()
    gold = [["O", "O"], [], ["O"]]
    with pytest.raises(ValueError, match=r"max\(\) arg is an empty sequence"):
        sq.metrics.classification_report(gold, gold)
    with pytest.raises(ValueError, match=r"max\(\) arg is an empty sequence"):
        sq.metrics.classification_report(gold, gold, mode="strict", scheme=sq.scheme.IOB2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(
            sq.metrics.classification_report(gold, gold, output_dict=True)["macro avg"]["f1-score"]
        )
        assert np.isnan(sq.metrics.f1_score(gold, gold, average="macro"))
    report = classification_report(gold, gold, zero_division=0)
    assert report == (
        "              precision    recall  f1-score   support\n\n\n"
        "   micro avg       0.00      0.00      0.00         0\n"
        "   macro avg       0.00      0.00      0.00         0\n"
        "weighted avg       0.00      0.00      0.00         0\n"
    )
    assert f1_score(gold, gold, average="macro", zero_division=0) == 0.0
    assert f1_score(gold, gold, average="macro", zero_division=1) == 1.0  # as micro and weighted
    assert classification_report([], [], output_dict=True, zero_division=1)["macro avg"]["f1-score"] == 1.0
    with pytest.raises(ZeroDivisionError):
        sq.metrics.accuracy_score([[]], [[]])
    assert accuracy_score([[]], [[]]) == 0.0


def test_issue_71_bilou_in_the_default_mode() -> None:
    # The same entities spelt in IOBES and in BILOU: seqeval's default mode does not know L and
    # U ("seems not to be NE tag"), so B-LOC I-LOC L-LOC U-LOC is one LOC there and the supports
    # differ. nerve decodes the BILOU tags as BILOU: the supports are equal.
    sq = theirs()
    iobes = [["B-LOC", "I-LOC", "E-LOC", "S-LOC", "O"]], [["B-LOC", "I-LOC", "E-LOC", "O", "O"]]
    bilou = [["B-LOC", "I-LOC", "L-LOC", "U-LOC", "O"]], [["B-LOC", "I-LOC", "L-LOC", "O", "O"]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        theirs_bilou = sq.metrics.classification_report(*bilou, output_dict=True)["LOC"]
    assert {str(w.message) for w in caught} == {
        "L-LOC seems not to be NE tag.",
        "U-LOC seems not to be NE tag.",
    }
    assert sq.metrics.classification_report(*iobes, output_dict=True)["LOC"]["support"] == 2
    assert (theirs_bilou["support"], theirs_bilou["f1-score"]) == (1, 0.0)
    for tags in (iobes, bilou):
        row = classification_report(*tags, output_dict=True)["LOC"]
        assert (row["support"], row["precision"], row["recall"]) == (2, 1.0, 0.5)
    assert classification_report(*bilou) == sq.metrics.classification_report(
        *bilou, mode="strict", scheme=sq.scheme.BILOU
    )


def test_strict_ioe1_and_iob1_follow_the_scheme() -> None:
    sq = theirs()
    cases = [
        # IOE1: E-LOC at the start is a one-token entity (it ends right before one of its type).
        ("IOE1", [["E-LOC", "I-LOC", "I-LOC"]], 1, 2),
        # IOB1: B-X right after I-X is a valid one-token entity, also before B-Y.
        ("IOB1", [["I-X", "B-X", "B-Y"]], 1, 2),
    ]
    for name, tags, seqeval_support, nerve_support in cases:
        got = sq.metrics.classification_report(
            tags, tags, mode="strict", scheme=getattr(sq.scheme, name), output_dict=True
        )
        assert got["micro avg"]["support"] == seqeval_support
        assert (
            classification_report(tags, tags, mode="strict", scheme=name, output_dict=True)["micro avg"][
                "support"
            ]
            == nerve_support
        )
    # IOB1: B-Y after O is ill-formed; seqeval keeps I-Y alone, nerve drops the entity.
    tags = [["O", "B-Y", "I-Y"]]
    assert sq.labeling.get_entities(tags) == [("Y", 1, 2)]  # the default mode: one entity
    assert list(
        sq.metrics.classification_report(tags, tags, mode="strict", scheme=sq.scheme.IOB1, output_dict=True)
    ) == ["Y", "micro avg", "macro avg", "weighted avg"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert (
            classification_report(tags, tags, mode="strict", scheme="IOB1", output_dict=True)["micro avg"][
                "support"
            ]
            == 0
        )


def test_strict_without_scheme_is_seqevals_default_in_the_scores_and_strict_in_the_report() -> None:
    # seqeval's *_score fall back to the default mode without a scheme; its report does not.
    # Issue 25: the drop-in gave the strict number here, so swapping the import changed results.
    sq = theirs()
    gold, pred = [["B-PER", "I-PER", "O"]], [["I-PER", "I-PER", "O"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert sq.metrics.f1_score(gold, pred, mode="strict") == 1.0
        assert (
            sq.metrics.classification_report(gold, pred, mode="strict", output_dict=True)["micro avg"][
                "f1-score"
            ]
            == 0.0
        )
    for function in SCORES:
        with pytest.warns(UserWarning, match=r"mode='strict' is ignored without scheme=") as caught:
            assert getattr(sequence_labeling, function)(gold, pred, mode="strict") == 1.0
        assert [w.filename for w in caught] == [__file__]  # the warning points at the caller
    with pytest.warns(UndefinedMetricWarning):  # strict: the ill-formed prediction is dropped
        report = classification_report(gold, pred, mode="strict", output_dict=True)
    assert report["micro avg"]["f1-score"] == 0.0
    # All-O gold: seqeval's auto_detect raises; the predicted tags choose the scheme.
    with pytest.raises(ValueError, match="This scheme is not supported"):
        sq.metrics.classification_report([["O", "O"]], [["B-X", "E-X"]], mode="strict")
    with pytest.warns(UndefinedMetricWarning):
        assert (
            classification_report([["O", "O"]], [["B-X", "E-X"]], mode="strict", output_dict=True)["X"][
                "support"
            ]
            == 0
        )
    # IOB1 gold: seqeval's report raises a ValueError, and so does this one; the scores do not.
    with pytest.raises(ValueError, match=r"This scheme is not supported: \{I, O\}.*scheme="):
        classification_report([["I-X", "O"]], [["I-X", "O"]], mode="strict")
    with pytest.warns(UserWarning, match="ignored without scheme"):
        assert f1_score([["I-X", "O"]], [["I-X", "O"]], mode="strict") == 1.0


def noisy(gold: list[list[str]], seed: int) -> list[list[str]]:
    """Predictions made from ``gold`` by a seeded hand: B- lost, types swapped, boundaries moved."""
    rng = np.random.default_rng(seed)
    types = sorted({t[2:] for s in gold for t in s if t != "O"})
    pred = []
    for sentence in gold:
        out = list(sentence)
        for i, tag in enumerate(out):
            roll = rng.random()
            if roll < 0.03 and tag.startswith("B-"):
                out[i] = "I-" + tag[2:]
            elif roll < 0.05 and tag != "O":
                out[i] = tag[:2] + types[int(rng.integers(len(types)))]
            elif roll < 0.07:
                out[i] = "O" if tag != "O" else "I-" + types[int(rng.integers(len(types)))]
        pred.append(out)
    return pred


def tsv_tags(path: Any) -> list[list[str]]:
    """The last column of a tab- or space-separated CoNLL file, one list per sentence."""
    out: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if not fields or fields[0] == "-DOCSTART-":
            if out[-1]:
                out.append([])
            continue
        out[-1].append(fields[-1])
    return [s for s in out if s]


@pytest.mark.parametrize(
    "relative", ["bio-bc5cdr/BC5CDR-IOB.test.tsv", "wikigold/wikigold.conll.txt"], ids=["IOB2", "IOB1"]
)
def test_strict_without_scheme_on_real_corpora_gives_seqevals_numbers(
    shared_data: Any, relative: str
) -> None:
    # Issue 25: BC5CDR with noise gave 0.8992 here against seqeval's 0.7515, and IOB1 data raised.
    sq = theirs()
    gold = tsv_tags(shared_data / relative)
    pred = noisy(gold, 25)
    for function in SCORES:
        for average in AVERAGES:
            kwargs = {"mode": "strict", "average": average}
            expected = run(partial(getattr(sq.metrics, function), gold, pred, **kwargs))
            got = run(partial(getattr(sequence_labeling, function), gold, pred, **kwargs))
            assert identical(got[0], expected[0]), (function, average)
            assert got[1] == [("UserWarning", sequence_labeling.STRICT_WITHOUT_SCHEME), *expected[1]]
    expected = run(lambda: sq.metrics.classification_report(gold, pred, mode="strict", digits=6))
    got = run(lambda: classification_report(gold, pred, mode="strict", digits=6))
    if relative.startswith("wikigold"):  # IOB1: seqeval's auto_detect gives up, and a ValueError is raised
        assert expected[0][:2] == ("raised", "ValueError")
        assert got[0][:2] == ("raised", "SchemeError")
        assert issubclass(nerve.SchemeError, ValueError)
    else:
        assert got == expected


def test_mistakes_are_errors() -> None:
    sq = theirs()
    # seqeval cuts to the shorter sentence; nerve names the sentence.
    assert sq.metrics.accuracy_score([["O"]], [["O", "B-X"]]) == 1.0
    with pytest.raises(nerve.InputError, match="sentence 0 has 2 tags, but the gold sentence has 1"):
        accuracy_score([["O"]], [["O", "B-X"]])
    with pytest.raises(nerve.InputError, match="sentence 1 has 1 tag"):
        performance_measure([["O"], ["O", "O"]], [["O"], ["O"]])
    with pytest.raises(nerve.InputError, match="has 1 sentence, but the gold has 2"):
        f1_score([["O"], ["O"]], [["O"]])
    # Tags seqeval reads by their first character, with a warning.
    with pytest.warns(UserWarning, match="<PAD> seems not to be NE tag"):
        sq.metrics.f1_score([["<PAD>", "B-X"]], [["<PAD>", "B-X"]])
    with pytest.raises(nerve.InputError, match="<PAD>"):
        f1_score([["<PAD>", "B-X"]], [["<PAD>", "B-X"]])
    for tags in (["PER", "O"], ["b-PER", "i-PER"]):
        _, caught = run(lambda tags=tags: sq.metrics.f1_score([tags], [tags]))
        assert ("UserWarning", f"{tags[0]} seems not to be NE tag.") in caught
        with pytest.raises(nerve.InputError, match=f"sentence 0, token 0: tag '{tags[0]}'"):
            f1_score([tags], [tags])
    # Options seqeval ignores or reads as something else.
    assert sq.metrics.f1_score([["O"]], [["B-X"]], zero_division="yes", average="macro") == 0.0
    with pytest.raises(nerve.OptionError, match="zero_division: expected 'warn', 0 or 1"):
        f1_score([["O"]], [["B-X"]], zero_division="yes")
    with pytest.raises(nerve.OptionError, match="mode"):
        f1_score([["B-X"]], [["B-X"]], mode="lenient")
    with pytest.raises(nerve.OptionError, match="average"):
        f1_score([["B-X"]], [["B-X"]], average="samples")
    with pytest.raises(nerve.OptionError, match="beta"):
        sequence_labeling.precision_recall_fscore_support([["B-X"]], [["B-X"]], beta=-1)
    # A scheme the tags do not fit: seqeval ignores it in the default mode.
    assert sq.metrics.f1_score([["B-X", "E-X"]], [["B-X", "E-X"]], scheme=sq.scheme.IOB2) == 1.0
    with pytest.raises(nerve.InputError, match="not part of scheme IOB2"):
        f1_score([["B-X", "E-X"]], [["B-X", "E-X"]], scheme=sq.scheme.IOB2)


def test_sample_weight_is_ignored_with_a_warning() -> None:
    sq = theirs()
    gold = [["B-X", "O"], ["B-Y", "O"]]
    pred = [["B-X", "O"], ["O", "O"]]
    expected = sq.metrics.f1_score(gold, pred, sample_weight=[1, 100])
    assert expected == sq.metrics.f1_score(gold, pred)  # seqeval: silently the same
    with pytest.warns(UserWarning, match="sample_weight is ignored"):
        assert f1_score(gold, pred, sample_weight=[1, 100]) == expected
    with pytest.warns(UserWarning, match="sample_weight is ignored"):
        classification_report(gold, pred, sample_weight=[1, 100], zero_division=0)


def test_beta_and_warnings_of_precision_recall_fscore_support() -> None:
    sq = theirs()
    gold = [["B-X", "O", "B-Y", "I-Y"], ["B-Z", "O", "O", "B-X"]]
    pred = [["B-X", "O", "B-Y", "O"], ["O", "O", "B-W", "B-X"]]
    default = (
        sq.labeling.precision_recall_fscore_support,
        sequence_labeling.precision_recall_fscore_support,
        {},
    )
    strict_theirs = (sq.v1.precision_recall_fscore_support, {"scheme": sq.scheme.IOB2})
    strict_ours = (v1.precision_recall_fscore_support, {"scheme": "IOB2"})
    for beta in (0, 0.5, 1, 2, float("inf")):
        for average in AVERAGES:
            kwargs = {"beta": beta, "average": average}
            for (f, extra), (g, ours) in [((default[0], {}), (default[1], {})), (strict_theirs, strict_ours)]:
                expected = run(lambda f=f, extra=extra, kw=kwargs: f(gold, pred, **kw, **extra))
                got = run(lambda g=g, ours=ours, kw=kwargs: g(gold, pred, **kw, **ours))
                assert identical(got[0], expected[0]), (beta, average)
                assert got[1] == expected[1]


def test_no_scikit_learn_needed() -> None:
    code = (
        "import sys, warnings\n"
        "from nerve.compat.seqeval.metrics import classification_report\n"
        "from nerve.compat.seqeval.metrics.v1 import UndefinedMetricWarning\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    classification_report([['B-X']], [['O']])\n"
        "assert 'sklearn' not in sys.modules, 'sklearn was imported'\n"
        "assert issubclass(UndefinedMetricWarning, UserWarning)\n"
        "assert {x.category for x in w} == {UndefinedMetricWarning}, w\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
