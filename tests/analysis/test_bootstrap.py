"""Bootstrap intervals (`nerve.analysis.bootstrap`): the count matrix, the resamples, the options.

The count matrix is checked against a multiset intersection of seqeval-decoded entities on real
data and against the exact counts; the vectorised resamples against a loop that draws and
scores one resample at a time; the intervals against neleval's ``confidence`` on real data.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from conftest import ROOT
from nerve.analysis.aligned import Aligned
from nerve.analysis.bootstrap import CHUNK, Interval, bootstrap_intervals, percentiles, unit_counts
from nerve.api import score_aligned
from nerve.cli import main
from nerve.errors import NerveError, OptionError
from nerve.model.spans import SpanArray
from stats_corpora import (
    entities,
    naive_bootstrap,
    naive_counts,
    neleval_module,
    neleval_per_doc,
    wlp_documents,
)

NEWS = ROOT / "examples" / "news.conll"
Doc = list[tuple[int, int, str]]


@pytest.fixture(scope="module")
def wlp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """122 real documents (wet-lab protocols) with a CRF baseline's predictions."""
    from conftest import shared_data_dir

    return wlp_documents(shared_data_dir(), tmp_path_factory.mktemp("wlp") / "wlp.conll")


def _wnut16(shared: Path) -> Path:
    return shared / "wnut16" / "predictions" / "wnut16_CelmoWglove_lstmCrf_29275447_4533.txt"


# --------------------------------------------------------------------------- the count matrix


@pytest.mark.parametrize("unit", ["document", "sentence"])
def test_counts_are_the_exact_counts_of_each_unit(wlp: Path, unit: str) -> None:
    """Every cell equals a multiset intersection of seqeval's entities; the sums are the exact counts."""
    result, aligned = score_aligned(wlp)
    counts = unit_counts(aligned, unit)
    assert counts.n_units == (122 if unit == "document" else aligned.n_sentences)
    gold, pred = entities(wlp, unit)
    assert len(gold) == counts.n_units
    want = naive_counts(gold, pred)
    got = {
        (u, name): tuple(counts.counts[u, t].tolist())
        for u in range(counts.n_units)
        for t, name in enumerate(counts.types)
        if counts.counts[u, t].any()
    }
    assert got == {k: v for k, v in want.items() if any(v)}
    totals = counts.totals().tolist()
    assert {name: tuple(totals[t]) for t, name in enumerate(counts.types)} == {
        name: (c.tp, c.fp, c.fn) for name, c in result.exact.counts.items()
    }
    assert result.micro.f1 == pytest.approx(0.7466, abs=5e-5)  # test-122docs.conlleval.out: FB1 74.66


def test_counts_of_a_span_file(tmp_path: Path) -> None:
    path = tmp_path / "spans.jsonl"
    docs = [
        {"tokens": ["a", "b", "c"], "gold": [{"start": 0, "end": 2, "label": "PER"}], "pred": []},
        {"tokens": ["d", "e"], "gold": [], "pred": [{"start": 1, "end": 2, "label": "LOC"}]},
        {
            "tokens": ["f"],
            "gold": [{"start": 0, "end": 1, "label": "LOC"}],
            "pred": [{"start": 0, "end": 1, "label": "LOC"}],
        },
    ]
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    _, aligned = score_aligned(path)
    counts = unit_counts(aligned)
    assert counts.types == ("LOC", "PER")
    assert counts.counts.tolist() == [[[0, 0, 0], [0, 0, 1]], [[0, 1, 0], [0, 0, 0]], [[1, 0, 0], [0, 0, 0]]]
    with pytest.raises(OptionError, match="span files have documents but no sentences"):
        unit_counts(aligned, "sentence")
    assert nerve.score(path, bootstrap=10).analysis.bootstrap.units == 3  # type: ignore[union-attr]


def _aligned(gold: list[Doc], pred: list[Doc]) -> Aligned:
    g = SpanArray.from_documents(gold)
    p = SpanArray.from_documents(pred, labels=g.labels)
    g = SpanArray.from_documents(gold, labels=p.labels)
    return Aligned(g, p, None, ("gold", "pred"))


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[Doc], list[Doc]]:
    n_docs = draw(st.integers(1, 5))
    span = st.tuples(st.integers(0, 6), st.integers(1, 3), st.sampled_from("ABC")).map(
        lambda t: (t[0], t[0] + t[1], t[2])
    )
    gold = [draw(st.lists(span, max_size=5)) for _ in range(n_docs)]
    pred = [draw(st.lists(span, max_size=5)) for _ in range(n_docs)]
    return gold, pred


@settings(max_examples=200, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_counts_follow_the_documents_in_any_order(
    corpus: tuple[list[Doc], list[Doc]], rnd: random.Random
) -> None:
    """Duplicates and all: each row is its document's multiset intersection, whatever the order."""
    gold, pred = corpus
    counts = unit_counts(_aligned(gold, pred))
    assert counts.counts.sum(axis=(0, 1)).tolist() == [
        sum(c.tp for c in nerve.api.score_spans(gold, pred).exact.counts.values()),
        sum(len(p) for p in pred) - counts.counts[..., 0].sum(),
        sum(len(g) for g in gold) - counts.counts[..., 0].sum(),
    ]
    want = naive_counts(gold, pred)
    for (u, name), cell in want.items():
        assert tuple(counts.counts[u, counts.types.index(name)].tolist()) == cell
    order = list(range(len(gold)))
    rnd.shuffle(order)
    for doc in (*gold, *pred):
        rnd.shuffle(doc)
    moved = unit_counts(_aligned([gold[i] for i in order], [pred[i] for i in order]))
    assert moved.types == counts.types
    assert (moved.counts == counts.counts[order]).all()
    assert (moved.totals() == counts.totals()).all()


# --------------------------------------------------------------------------- the resamples


@pytest.mark.parametrize(("n", "seed"), [(CHUNK * 25 + 3, 12345), (7, 0)])
def test_resamples_equal_a_loop_over_resamples(wlp: Path, n: int, seed: int) -> None:
    """The same draws, one resample at a time, scored by `nerve.ExactScores`: the same numbers.

    Totals, micro and per-type scores are equal exactly. The macro and weighted means are equal
    to 1e-12: `ExactScores` adds with Python's ``sum``, which compensates rounding from 3.12 on.
    """
    _, aligned = score_aligned(wlp)
    counts = unit_counts(aligned)
    boot = bootstrap_intervals(counts, n, seed, 0.9)
    rep = boot.replicates
    assert rep is not None
    loop = naive_bootstrap(counts, n, seed)
    for i, s in enumerate(loop):
        assert rep.micro[i].tolist() == [s.micro.precision, s.micro.recall, s.micro.f1]
        for t, name in enumerate(counts.types):
            p = s.per_type[name]
            assert rep.per_type[i, t].tolist() == [p.precision, p.recall, p.f1]
        for avg, got in (("macro", rep.macro[i]), ("weighted", rep.weighted[i])):
            a = getattr(s, avg)
            for x, y in zip(got.tolist(), (a.precision, a.recall, a.f1), strict=True):
                assert math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-15)
    micro = np.asarray([[s.micro.precision, s.micro.recall, s.micro.f1] for s in loop])
    lo, hi = percentiles(micro, 0.9)
    assert boot.micro.f1 == (lo[2], hi[2])
    assert boot.micro.precision == (lo[0], hi[0])
    name = counts.types[0]
    per = np.asarray([[s.per_type[name].recall] for s in loop])
    assert boot.per_type[name].recall == tuple(percentiles(per, 0.9)[:, 0].tolist())


def test_the_api_and_threads_give_the_same_intervals(wlp: Path) -> None:
    """`nerve.score` keeps no words for the bootstrap, and reads big files in threads: same numbers."""
    _, aligned = score_aligned(wlp)
    assert aligned.tokens is not None
    assert aligned.tokens.words is not None
    want = bootstrap_intervals(unit_counts(aligned, "sentence"), 40, 3, 0.8).to_dict()
    for workers in (1, 2):
        result = nerve.score(wlp, bootstrap=40, seed=3, confidence=0.8, unit="sentence", workers=workers)
        assert result.analysis is not None
        assert result.analysis.bootstrap is not None
        assert result.analysis.bootstrap.to_dict() == want


def test_seed_and_size_change_the_resamples(wlp: Path) -> None:
    _, aligned = score_aligned(wlp)
    counts = unit_counts(aligned)
    a, b, c = (bootstrap_intervals(counts, 64, s, 0.95) for s in (1, 1, 2))
    assert a.to_dict() == b.to_dict()
    assert a.replicates is not None
    assert c.replicates is not None
    assert not np.array_equal(a.replicates.micro, c.replicates.micro)
    longer = bootstrap_intervals(counts, 65, 1, 0.95).replicates
    assert longer is not None
    assert np.array_equal(longer.micro[:64], a.replicates.micro)  # chunks do not change the draws


# --------------------------------------------------------------------------- degenerate cases


def test_one_unit_gives_no_interval_and_a_flag_with_the_fix() -> None:
    """One sentence (tag lists: one document of one sentence): every resample is the corpus, so
    no interval is computed (``None``, ``null``), and the flag says why and what to do."""
    gold = [["B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG"]]
    pred = [["B-PER", "I-PER", "O", "B-ORG", "O", "B-ORG"]]
    result = nerve.score(gold, pred, bootstrap=50)
    b = result.analysis.bootstrap  # type: ignore[union-attr]
    assert b is not None
    assert b.unit == "sentence"  # auto: fewer than 20 documents
    for i in [b.micro, b.macro, b.weighted, *b.per_type.values()]:
        assert (i.precision, i.recall, i.f1) == (None, None, None)
    assert b.to_dict()["micro"] == {"precision": None, "recall": None, "f1": None}
    assert [(f.kind, f.type) for f in b.flags] == [("one_unit", None)]
    assert b.flags[0].message == (
        "one sentence only: every resample is the corpus itself, so intervals and p-values are n/a; "
        "score a larger corpus"
    )
    by_doc = nerve.score(gold, pred, bootstrap=50, unit="document").analysis.bootstrap  # type: ignore[union-attr]
    assert by_doc is not None
    assert by_doc.micro.f1 is None
    assert by_doc.flags[0].message.endswith(
        "so intervals and p-values are n/a; resample sentences (unit='sentence')"
    )


def test_types_without_gold_or_in_one_document_are_flagged(tmp_path: Path) -> None:
    gold = [["B-PER", "O"], ["B-PER", "O"], ["B-LOC", "O"]]
    pred = [["B-PER", "O"], ["B-MISC", "O"], ["O", "O"]]
    path = _documents(tmp_path, gold, pred)
    b = nerve.score(path, bootstrap=100, unit="document").analysis.bootstrap  # type: ignore[union-attr]
    assert b is not None
    flags = {(f.kind, f.type) for f in b.flags}
    assert flags == {
        ("few_units", None),
        ("no_gold", "MISC"),
        ("few_units", "MISC"),
        ("few_units", "LOC"),
        ("degenerate", "LOC"),  # never predicted: 0 in every resample
    }
    assert b.per_type["MISC"].recall is None  # 0 in every resample: n/a, not [0, 0]
    assert b.per_type["LOC"] == Interval(None, None, None)
    assert None not in (b.per_type["PER"].precision, b.per_type["PER"].recall)  # PER varies
    (loc,) = [f for f in b.flags if f.kind == "degenerate"]
    assert loc.message == (
        "type 'LOC': every resample gives the same precision, recall and F1, so there is no spread to "
        "measure: n/a"
    )


def _documents(tmp_path: Path, gold: list[list[str]], pred: list[list[str]]) -> Path:
    """A merged file with one document per pair of tag lists."""
    lines = []
    for g, p in zip(gold, pred, strict=True):
        lines += ["-DOCSTART- O O", "", *(f"w {a} {b}" for a, b in zip(g, p, strict=True)), ""]
    path = tmp_path / "docs.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_no_documents_and_no_gold_are_flagged() -> None:
    b = nerve.score([["O", "O"]], [["O", "B-PER"]], bootstrap=5).analysis.bootstrap  # type: ignore[union-attr]
    assert b is not None
    assert {(f.kind, f.type) for f in b.flags} == {("one_unit", None), ("no_gold", None), ("no_gold", "PER")}
    empty = nerve.score([], [], bootstrap=5).analysis.bootstrap  # type: ignore[union-attr]
    assert empty is not None
    assert [f.kind for f in empty.flags] == ["no_units"]
    assert empty.micro.f1 is None


# --------------------------------------------------------------------------- results, signature, JSON


def test_json_keys_and_signature(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["score", str(NEWS), "--bootstrap", "100", "--seed", "7", "--unit", "document", "--output", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    b = out["bootstrap"]
    types = list(out["exact"]["per_type"])
    assert list(b) == [
        "micro",
        "macro",
        "weighted",
        *types,
        "n",
        "unit",
        "seed",
        "confidence",
        "method",
        "flags",
    ]
    for scope in ["micro", "macro", "weighted", *types]:
        assert list(b[scope]) == ["precision", "recall", "f1"]
        for bounds in b[scope].values():
            assert bounds is None or 0 <= bounds[0] <= bounds[1] <= 1
    assert (b["n"], b["unit"], b["seed"], b["confidence"], b["method"]) == (
        100,
        "document",
        7,
        0.95,
        "percentile",
    )
    assert b["flags"][0]["kind"] == "few_units"  # 2 documents: a warning, with the fix
    assert b["flags"][0]["message"] == (
        "only 2 documents: intervals and p-values from fewer than 20 documents are unreliable; "
        "resample sentences (--unit sentence)"
    )
    plain = nerve.score(NEWS).signature
    assert out["signature"] == plain + " | bootstrap percentile n=100 unit=document seed=7 confidence=0.95"


def test_plain_signature_is_unchanged() -> None:
    result = nerve.score(NEWS)
    assert result.analysis is None
    assert result.settings.statistics == ()
    fields = "scheme IOB2 (auto) | tags B-X O | repair begin (2 repairs) | match exact | avg micro"
    assert result.signature == f"nerve {nerve.__version__} | {fields}"


def test_defaults_and_the_bare_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(NEWS), "--bootstrap", "--output", "json"]) == 0
    b = json.loads(capsys.readouterr().out)["bootstrap"]
    assert (b["n"], b["unit"], b["seed"], b["confidence"]) == (
        1000,
        "sentence",
        12345,
        0.95,
    )  # auto: 2 documents
    same = nerve.score(NEWS, bootstrap=1000).analysis.bootstrap  # type: ignore[union-attr]
    assert same is not None
    assert same.to_dict() == b


@pytest.mark.parametrize("output", ["table", "markdown", "csv", "latex"])
def test_every_output_has_the_intervals(output: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["score", str(NEWS), "--bootstrap", "50", "--unit", "sentence", "--confidence", "0.9"]
    assert main([*args, "--output", output]) == 0
    out = capsys.readouterr().out
    assert "bootstrap percentile n=50 unit=sentence seed=12345 confidence=0.9" in out
    assert "bootstrap 90% intervals" in out
    assert "percentile, 50 resamples of the 4 sentences, seed 12345" in out
    result = nerve.score(NEWS, bootstrap=50, unit="sentence", confidence=0.9)
    b = result.analysis.bootstrap  # type: ignore[union-attr]
    assert b is not None
    low, high = b.micro.f1
    if output == "csv":
        assert f"micro avg,{result.micro.precision!r}," in out
        assert f",{low!r},{high!r}\n" in out
    else:
        assert f"{100 * low:.2f}" in out
        assert f"{100 * high:.2f}" in out


def test_flags_are_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _documents(tmp_path, [["B-PER", "O"]], [["B-LOC", "O"]])
    assert main(["score", str(path), "--bootstrap", "10"]) == 0
    out = capsys.readouterr().out
    assert "bootstrap flags:" in out
    assert "one sentence only: every resample is the corpus itself" in out
    assert main(["score", str(path), "--bootstrap", "10", "--output", "json"]) == 0
    flags = json.loads(capsys.readouterr().out)["bootstrap"]["flags"]
    assert [(f["kind"], f["type"]) for f in flags] == [("one_unit", None), ("no_gold", "LOC")]
    assert set(flags[0]) == {"kind", "type", "message"}


def test_results_with_intervals_do_not_merge() -> None:
    a = nerve.score(NEWS, bootstrap=10)
    with pytest.raises(NerveError, match="cannot merge bootstrap intervals"):
        a.merge(a)
    with pytest.raises(NerveError, match="cannot merge bootstrap intervals"):
        a.merge(nerve.score(NEWS, bootstrap=10, errors=True))


def test_with_the_error_analysis() -> None:
    result = nerve.score(NEWS, bootstrap=20, errors=True, confusion=True)
    assert result.analysis is not None
    assert result.analysis.errors is not None
    assert result.analysis.bootstrap is not None
    assert {"errors", "confusion", "bootstrap"} <= set(result.to_dict())


# --------------------------------------------------------------------------- options


def _cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", str(NEWS), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("nerve: error: ")
    return err[len("nerve: error: ") : -1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--bootstrap", "0"],
            "--bootstrap: expected a whole number from 1 to 1,000,000, such as 1000, but got '0'",
        ),
        (
            ["--bootstrap", "1.5"],
            "--bootstrap: expected a whole number from 1 to 1,000,000, such as 1000, but got '1.5'",
        ),
        (["--bootstrap", "10", "--seed", "-1"], "--seed: expected a whole number >= 0, but got '-1'"),
        (
            ["--bootstrap", "10", "--confidence", "95"],
            "--confidence: expected a fraction in (0, 1) (0.95 for 95%), but got '95'",
        ),
        (
            ["--bootstrap", "10", "--confidence", "1"],
            "--confidence: expected a fraction in (0, 1), but got '1'",
        ),
        (
            ["--bootstrap", "10", "--confidence", "x"],
            "--confidence: expected a fraction in (0, 1), but got 'x'",
        ),
        (
            ["--bootstrap", "10", "--unit", "word"],
            "--unit: expected one of auto, document, sentence, but got 'word'",
        ),
        (
            ["--bootstrap", "10", "--repair", "conlleval"],
            "--repair: conlleval cannot feed the analysis or the bootstrap: its rules only count chunks; "
            "use begin, discard or error",
        ),
        (["--seed", "3"], "--seed: applies to bootstrap intervals: add --bootstrap 1000"),
        (["--unit", "sentence"], "--unit: applies to bootstrap intervals: add --bootstrap 1000"),
        (["--confidence", "0.9"], "--confidence: applies to bootstrap intervals: add --bootstrap 1000"),
    ],
)
def test_bad_options_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert _cli_error(capsys, *args) == message


def test_bad_options_in_python() -> None:
    cases = [
        ({"bootstrap": 0}, "bootstrap: expected a whole number from 1 to 1,000,000, such as 1000, but got 0"),
        (
            {"bootstrap": True},
            "bootstrap: expected a whole number from 1 to 1,000,000, such as 1000, but got True",
        ),
        (
            {"bootstrap": 10, "confidence": float("nan")},
            "confidence: expected a fraction in (0, 1), but got nan",
        ),
        ({"seed": 1}, "seed: applies to bootstrap intervals: add bootstrap=1000"),
        ({"bootstrap": 10, "seed": -1}, "seed: expected a whole number >= 0, but got -1"),
        ({"bootstrap": 10, "unit": "page"}, "unit: expected one of auto, document, sentence, but got 'page'"),
    ]
    for kwargs, message in cases:
        with pytest.raises(OptionError) as info:
            nerve.score(NEWS, **kwargs)  # type: ignore[arg-type]
        assert str(info.value) == message
    assert nerve.score(NEWS, bootstrap=np.int64(5), seed=np.uint8(3)).analysis.bootstrap.seed == 3  # type: ignore[union-attr]


# --------------------------------------------------------------------------- neleval


@pytest.fixture(scope="module")
def neleval_significance() -> object:
    return neleval_module()


def test_intervals_agree_with_neleval_confidence(
    neleval_significance: object, wlp: Path, tmp_path: Path
) -> None:
    """neleval's percentile bootstrap over the same 122 documents gives the same intervals, within noise.

    Both tools estimate the 2.5th and 97.5th percentiles of the same resampling distribution
    from N = 2000 resamples each, with independent random numbers. For a distribution of
    standard deviation s, a q-quantile estimated from N draws has a standard error of about
    sqrt(q (1 - q) / N) / f(x_q); near-normal, at q = 0.025, that is 0.156 / 0.0584 s / sqrt(N)
    = 2.67 s / sqrt(N), and the difference of two independent estimates has sqrt(2) times that,
    3.78 s / sqrt(N) = 0.085 s at N = 2000. The tolerance is four of those, 0.34 s, plus the
    different quantile rules (neleval interpolates at p (N + 1), numpy at p (N - 1) + 1: at most
    one order statistic apart, about s / (N f) = 0.009 s). s is the standard deviation of nerve's
    resampled scores. The point estimates must be equal.
    """
    n = 2000
    result, aligned = score_aligned(wlp)
    boot = bootstrap_intervals(unit_counts(aligned), n, 12345, 0.95)
    per_doc, overall = neleval_per_doc(tmp_path, wlp, "document", "wlp")
    rows = unit_counts(aligned).micro().tolist()
    assert [[d.ptp, d.fp, d.fn] for d in per_doc] == rows  # the same counts, document by document
    assert len(per_doc) == 122
    theirs = overall.results  # type: ignore[attr-defined]
    assert theirs["precision"] == pytest.approx(result.micro.precision, rel=1e-12)
    assert theirs["recall"] == pytest.approx(result.micro.recall, rel=1e-12)
    assert theirs["fscore"] == pytest.approx(result.micro.f1, rel=1e-12)
    conf = neleval_significance.Confidence(  # type: ignore[attr-defined]
        str(tmp_path / "wlp.sys.tsv"),
        str(tmp_path / "wlp.gold.tsv"),
        trials=n,
        percentiles=(95,),
        n_jobs=1,
        measures=["strong_typed_mention_match"],
    )
    random.seed(20131)
    intervals = conf.intervals(per_doc)
    assert boot.replicates is not None
    for column, (ours, metric) in enumerate(
        [(boot.micro.precision, "precision"), (boot.micro.recall, "recall"), (boot.micro.f1, "fscore")]
    ):
        s = float(boot.replicates.micro[:, column].std())
        assert s > 0.002  # a real spread: 122 documents
        tolerance = (4 * 3.78 / math.sqrt(n) + 0.009) * s
        low, high = intervals[metric][95]
        assert ours[0] == pytest.approx(low, abs=tolerance), metric
        assert ours[1] == pytest.approx(high, abs=tolerance), metric


def test_slice_intervals_come_from_the_same_resamples() -> None:
    """The type slice's band intervals are the bootstrap's per-type intervals (checked against a
    naive loop above): the same units drawn by the same seed."""
    result = nerve.score(
        ROOT / "examples/news.conll", slices="type,length,document", bootstrap=300, unit="sentence", seed=7
    )
    assert result.analysis is not None
    boot, found = result.analysis.bootstrap, result.analysis.slices
    assert boot is not None
    assert found is not None
    assert found.intervals is not None
    for name, interval in boot.per_type.items():
        assert found.intervals["type"][name] == interval
    d = result.to_dict()["slices"]
    assert set(d["length"]["2"]["ci"]) == {"precision", "recall", "f1"}
    assert "ci" in d["document"]["0"]  # sentences resampled: the document slice has intervals
    by_doc = nerve.score(ROOT / "examples/news.conll", slices="document,type", bootstrap=50, unit="document")
    assert by_doc.analysis is not None
    assert by_doc.analysis.slices is not None
    assert "ci" not in by_doc.to_dict()["slices"]["document"]["0"]  # one unit per band: none
    assert "ci" in by_doc.to_dict()["slices"]["type"]["PER"]


def test_discontinuous_entities_match_as_nerve_score_matches_them() -> None:
    """One exact matcher (issue 26): a discontinuous entity matches only when every piece does.

    The bootstrap had its own copy of exact matching, on (document, start, end, type), which took
    ``[0,2) + [3,5)`` for ``[0,5)``; its count matrix no longer summed to the exact counts.
    """
    from nerve.model.spans import Fragments

    one = np.zeros(1, dtype=np.int64)
    pieces = Fragments(np.array([0, 2]), np.array([0, 3]), np.array([2, 5]))
    gold = SpanArray(one, one, one + 5, one, ("X",), 1, fragments=pieces)
    pred = SpanArray(one, one, one + 5, one, ("X",), 1)  # the same extent, in one piece
    counts = unit_counts(Aligned(gold, pred, None, ("gold", "pred")))
    assert counts.totals().tolist() == [[0, 1, 1]]
    assert nerve.api.score_spans(gold, pred).exact.counts["X"].tp == 0
    both = SpanArray(
        np.zeros(2, np.int64), np.zeros(2, np.int64), np.full(2, 5), np.zeros(2, np.int64), ("X",), 1
    )
    joined = Fragments(np.array([0, 2, 3]), np.array([0, 3, 0]), np.array([2, 5, 5]))
    assert unit_counts(
        Aligned(replace(both, fragments=joined), both, None, ("g", "p"))
    ).totals().tolist() == [[1, 1, 1]]
