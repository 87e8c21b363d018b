"""Differential tests against seqeval 1.2.2 on random, mostly ill-formed tag sequences.

- seqeval's default mode (``mode=None``, conlleval-like) counts what ``repair="begin"`` counts,
  and what ``repair="conlleval"`` counts on BIO input.
- seqeval's strict mode (``mode="strict"`` with a scheme) counts what ``repair="discard"`` counts,
  for IOB2, IOE2, IOBES and BILOU.

seqeval's per-type counts are its own entity extraction plus a set intersection per type, exactly
as its ``extract_tp_actual_correct`` (a closure inside ``precision_recall_fscore_support``) does;
each comparison also checks seqeval's public ``precision_recall_fscore_support(average=None)``
against those counts, so the extraction here cannot drift from what seqeval reports.
``classification_report`` is not used: it crashes on inputs without entities.

Excluded from strict mode, where seqeval is no reference:

- IOE1: seqeval's strict IOE1 drops a one-token chunk ``E-X`` at the start of a sentence or after a
  chunk of another type (``E-LOC I-LOC I-LOC`` gives one LOC chunk, not two); its source carries a
  "Todo: IOE1 hasn't yet been able to handle some cases" comment.
- IOB1: seqeval's strict IOB1 has no end pattern for ``B-X`` before ``B-Y`` or before the sentence
  end, so it drops the valid one-token entity ``B-X`` of ``I-X B-X B-Y``; and after an invalid
  ``B-Y`` (after ``O``) it starts a new entity at the following ``I-Y`` instead of dropping the
  ill-formed ``B-Y I-Y``. Both are pinned in `test_strict_iob1_and_ioe1_cases_seqeval_gets_wrong`.
"""

from __future__ import annotations

import warnings
from collections import defaultdict

import numpy as np
import pytest
import seqeval.scheme
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seqeval.metrics import sequence_labeling, v1

import nerve

PROFILE = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Counts = dict[str, tuple[int, int, int]]  # type -> (gold, predicted, correct)


# ---------------------------------------------------------------------------------------------
# Random corpora: several sentences, 2 or 3 types, tags drawn uniformly (so many are ill-formed).


@st.composite
def corpora(draw: st.DrawFn, letters: str) -> tuple[list[list[str]], list[list[str]]]:
    types = draw(st.sampled_from([("PER", "LOC"), ("PER", "LOC", "ORG"), ("NP", "Generic-Measure")]))
    alphabet = ["O", *(f"{c}-{t}" for c in letters for t in types)]
    lengths = draw(st.lists(st.integers(0, 10), min_size=1, max_size=6))
    gold = [draw(st.lists(st.sampled_from(alphabet), min_size=n, max_size=n)) for n in lengths]
    pred = [draw(st.lists(st.sampled_from(alphabet), min_size=n, max_size=n)) for n in lengths]
    return gold, pred


# ---------------------------------------------------------------------------------------------
# seqeval's counts.


def _entity_sets_default(seqs: list[list[str]]) -> dict[str, set[tuple[int, int]]]:
    out: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for type_name, start, end in sequence_labeling.get_entities(seqs):
        out[type_name].add((start, end))
    return out


def _entity_sets_strict(seqs: list[list[str]], scheme: type) -> dict[str, set[tuple[int, int, int]]]:
    out: dict[str, set[tuple[int, int, int]]] = defaultdict(set)
    for entity in (e for sentence in seqeval.scheme.Entities(seqs, scheme).entities for e in sentence):
        out[entity.tag].add((entity.sent_id, entity.start, entity.end))
    return out


def seqeval_counts(gold: list[list[str]], pred: list[list[str]], scheme: type | None = None) -> Counts:
    """Per-type (gold, predicted, correct) counts of seqeval: default mode, or strict with ``scheme``."""
    if scheme is None:
        g: dict = _entity_sets_default(gold)
        p: dict = _entity_sets_default(pred)
    else:
        g = _entity_sets_strict(gold, scheme)
        p = _entity_sets_strict(pred, scheme)
    names = sorted(set(g) | set(p))
    counts = {
        n: (len(g.get(n, set())), len(p.get(n, set())), len(g.get(n, set()) & p.get(n, set()))) for n in names
    }
    _check_against_public_api(gold, pred, scheme, counts)
    return counts


def _check_against_public_api(
    gold: list[list[str]], pred: list[list[str]], scheme: type | None, counts: Counts
) -> None:
    """seqeval's own per-type precision, recall and support agree with ``counts``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if scheme is None:
            precision, recall, _, support = sequence_labeling.precision_recall_fscore_support(
                gold, pred, average=None, zero_division=0
            )
        else:
            precision, recall, _, support = v1.precision_recall_fscore_support(
                gold, pred, average=None, zero_division=0, scheme=scheme
            )
    triples = list(counts.values())  # sorted by type name, as seqeval orders its arrays
    assert support.tolist() == [g for g, _, _ in triples]
    expected_p = [c / p if p else 0.0 for _, p, c in triples]
    expected_r = [c / g if g else 0.0 for g, _, c in triples]
    np.testing.assert_allclose(precision, expected_p)
    np.testing.assert_allclose(recall, expected_r)


def nerve_counts(result: nerve.Result) -> Counts:
    return {
        n: (s.gold, s.predicted, s.tp) for n, s in sorted(result.per_type.items()) if s.gold or s.predicted
    }


def _micro(gold: list[list[str]], pred: list[list[str]]) -> tuple[float, float, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, r, f, _ = sequence_labeling.precision_recall_fscore_support(
            gold, pred, average="micro", zero_division=0
        )
    return float(p), float(r), float(f)


# ---------------------------------------------------------------------------------------------
# Default mode.


@PROFILE
@given(corpus=corpora("BI"))
def test_default_mode_on_bio_equals_begin_and_conlleval(
    corpus: tuple[list[list[str]], list[list[str]]],
) -> None:
    gold, pred = corpus
    expected = seqeval_counts(gold, pred)
    begin = nerve.score(gold, pred, repair="begin")
    assert nerve_counts(begin) == expected
    assert nerve_counts(nerve.score(gold, pred, scheme="IOB2", repair="begin")) == expected
    assert nerve_counts(nerve.score(gold, pred, repair="conlleval")) == expected
    assert nerve_counts(nerve.score(gold, pred, scheme="IOB2", repair="conlleval")) == expected
    # The micro scores agree too (seqeval gives 0 for a zero denominator, as nerve does).
    p, r, f = _micro(gold, pred)
    assert begin.micro.precision == pytest.approx(p)
    assert begin.micro.recall == pytest.approx(r)
    assert begin.micro.f1 == pytest.approx(f)


@PROFILE
@given(corpus=corpora("BIES"))
def test_default_mode_on_iobes_equals_begin(corpus: tuple[list[list[str]], list[list[str]]]) -> None:
    # seqeval's lenient start/end rules split E -> B and S -> S like nerve's begin repair (unlike
    # conlleval.pl, which merges B-X E-X B-X E-X; see peers-chunk.md section 7, cases 08 and 09).
    gold, pred = corpus
    assert nerve_counts(nerve.score(gold, pred, scheme="IOBES", repair="begin")) == seqeval_counts(gold, pred)


@PROFILE
@given(corpus=corpora("IE"))
def test_default_mode_on_ioe_equals_begin(corpus: tuple[list[list[str]], list[list[str]]]) -> None:
    gold, pred = corpus
    assert nerve_counts(nerve.score(gold, pred, scheme="IOE2", repair="begin")) == seqeval_counts(gold, pred)


@PROFILE
@given(corpus=corpora("BI"))
def test_default_mode_spans_equal_decode(corpus: tuple[list[list[str]], list[list[str]]]) -> None:
    """Not only the counts: the entities themselves are the same, offsets included."""
    gold, _ = corpus
    # seqeval flattens the sentences with an "O" after each; map its offsets back.
    where: list[tuple[int, int] | None] = []
    for q, sentence in enumerate(gold):
        where.extend((q, i) for i in range(len(sentence)))
        where.append(None)
    expected = set()
    for type_name, start, end in sequence_labeling.get_entities(gold):
        first, last = where[start], where[end]
        assert first is not None
        assert last is not None
        assert first[0] == last[0]  # never across a sentence break
        expected.add((first[0], first[1], last[1] + 1, type_name))
    got = {(s.seq, s.start, s.end, s.label) for s in nerve.decode(gold, scheme="IOB2")}
    assert got == expected


def test_no_entities_at_all() -> None:
    # seqeval's classification_report raises "max() arg is an empty sequence" here; the counts
    # are simply empty, and nerve scores zero.
    gold = [["O", "O"], [], ["O"]]
    assert seqeval_counts(gold, gold) == {}
    r = nerve.score(gold, gold)
    assert nerve_counts(r) == {}
    assert (r.micro.precision, r.micro.recall, r.micro.f1) == (0.0, 0.0, 0.0)
    assert _micro(gold, gold) == (0.0, 0.0, 0.0)


# ---------------------------------------------------------------------------------------------
# Strict mode.

STRICT = [
    ("IOB2", "BI", seqeval.scheme.IOB2),
    ("IOE2", "IE", seqeval.scheme.IOE2),
    ("IOBES", "BIES", seqeval.scheme.IOBES),
    ("BILOU", "BILU", seqeval.scheme.BILOU),
]


@pytest.mark.parametrize(("name", "letters", "seqeval_scheme"), STRICT, ids=[s[0] for s in STRICT])
@PROFILE
@given(data=st.data())
def test_strict_mode_equals_discard(
    data: st.DataObject, name: str, letters: str, seqeval_scheme: type
) -> None:
    gold, pred = data.draw(corpora(letters))
    expected = seqeval_counts(gold, pred, seqeval_scheme)
    assert nerve_counts(nerve.score(gold, pred, scheme=name, repair="discard")) == expected


@pytest.mark.parametrize(
    ("gold", "pred", "counts"),
    [
        # peers-chunk.md section 7, seqeval strict column.
        ([["B-ORG", "I-ORG", "O", "O"]], [["I-ORG", "I-ORG", "O", "O"]], {"ORG": (1, 0, 0)}),
        ([["O", "I-ORG", "I-ORG", "O"]], [["O", "B-ORG", "I-ORG", "O"]], {"ORG": (0, 1, 0)}),
        ([["B-PER", "I-PER", "O"]], [["B-PER", "I-LOC", "O"]], {"PER": (1, 1, 0)}),
        (
            [["B-PER", "I-PER", "I-LOC", "O"]],
            [["B-PER", "I-PER", "B-LOC", "O"]],
            {"PER": (1, 1, 1), "LOC": (0, 1, 0)},
        ),
        ([["O", "B-PER"], ["I-PER", "O"]], [["O", "B-PER"], ["B-PER", "O"]], {"PER": (1, 2, 1)}),
        ([["B-PER", "I-PER", "I-PER", "O"]], [["B-PER", "O", "I-PER", "O"]], {"PER": (1, 1, 0)}),
    ],
)
def test_strict_iob2_table(gold: list[list[str]], pred: list[list[str]], counts: Counts) -> None:
    expected = dict(sorted(counts.items()))
    assert seqeval_counts(gold, pred, seqeval.scheme.IOB2) == expected
    assert nerve_counts(nerve.score(gold, pred, scheme="IOB2", repair="discard")) == expected


@pytest.mark.parametrize(
    ("gold", "pred", "counts"),
    [
        (
            [["B-MISC", "E-MISC", "B-MISC", "E-MISC"]],
            [["B-MISC", "I-MISC", "I-MISC", "E-MISC"]],
            {"MISC": (2, 1, 0)},
        ),
        ([["S-PER", "S-PER", "O"]], [["B-PER", "E-PER", "O"]], {"PER": (2, 1, 0)}),
        ([["B-LOC", "E-LOC", "O"]], [["B-LOC", "I-LOC", "O"]], {"LOC": (1, 0, 0)}),
        ([["B-LOC", "E-LOC", "O"]], [["I-LOC", "E-LOC", "O"]], {"LOC": (1, 0, 0)}),
    ],
)
def test_strict_iobes_table(gold: list[list[str]], pred: list[list[str]], counts: Counts) -> None:
    assert seqeval_counts(gold, pred, seqeval.scheme.IOBES) == counts
    assert nerve_counts(nerve.score(gold, pred, scheme="IOBES", repair="discard")) == counts


def test_strict_iob1_and_ioe1_cases_seqeval_gets_wrong() -> None:
    """The patterns excluded above: nerve follows the scheme definitions, seqeval does not."""
    # IOE1: E-LOC at the sentence start is a whole one-token entity (it ends right before an
    # entity of its type); seqeval strict finds only the second chunk.
    tags = [["E-LOC", "I-LOC", "I-LOC"]]
    assert seqeval_counts(tags, tags, seqeval.scheme.IOE1) == {"LOC": (1, 1, 1)}
    assert nerve_counts(nerve.score(tags, tags, scheme="IOE1", repair="discard")) == {"LOC": (2, 2, 2)}
    # IOB1: B-X right after I-X is a valid one-token entity even when B-Y follows; seqeval drops it.
    tags = [["I-X", "B-X", "B-Y"]]
    assert seqeval_counts(tags, tags, seqeval.scheme.IOB1) == {"X": (1, 1, 1)}
    assert nerve_counts(nerve.score(tags, tags, scheme="IOB1", repair="discard")) == {"X": (2, 2, 2)}
    # IOB1: B-Y after O is ill-formed; nerve drops the entity B-Y I-Y, seqeval keeps I-Y alone.
    tags = [["O", "B-Y", "I-Y"]]
    assert seqeval_counts(tags, tags, seqeval.scheme.IOB1) == {"Y": (1, 1, 1)}
    assert nerve_counts(nerve.score(tags, tags, scheme="IOB1", repair="discard")) == {}
