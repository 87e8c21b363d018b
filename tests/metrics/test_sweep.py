"""The threshold sweep: each row equals a score of the predictions kept at its threshold.

The reference is the plain score (`nerve.score`, `score_spans`) of the predictions filtered to
``score >= threshold``, one run per threshold; the sweep computes every row from one matching.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from cli_errors import cli_error
from nerve.api.pipeline import score_spans
from nerve.errors import InputError, NerveError
from nerve.metrics.sweep import TIE_RULE, Curve, threshold_sweep
from nerve.model.spans import Fragments, SpanArray

TEXT = "abcdefghij"  # every document's text: offsets up to 10
SCORES = (0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 0.0)  # few values: ties are common
Entity = tuple[int, int, int, str, float]  # document, start, end, type, score

entity = st.tuples(
    st.integers(0, 2), st.integers(0, 8), st.integers(1, 3), st.sampled_from("ABC"), st.sampled_from(SCORES)
).map(lambda t: (t[0], t[1], min(t[1] + t[2], len(TEXT)), t[3], t[4]))


def documents(entities: list[Entity], n_docs: int = 3) -> list[list[tuple[int, int, str]]]:
    docs: list[list[tuple[int, int, str]]] = [[] for _ in range(n_docs)]
    for d, s, e, t, _ in entities:
        docs[d].append((s, e, t))
    return docs


def write_jsonl(path: Path, entities: list[Entity], scored: bool, n_docs: int = 3) -> None:
    lines = []
    for d in range(n_docs):
        spans: list[dict[str, Any]] = []
        for q, s, e, t, score in entities:
            if q == d:
                spans.append({"start": s, "end": e, "label": t, **({"score": score} if scored else {})})
        lines.append(json.dumps({"text": TEXT, "spans": spans}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def counts(score: Any) -> tuple[float, float, float, int, int, int]:
    return (score.precision, score.recall, score.f1, score.tp, score.fp, score.fn)


def row_counts(curve: Curve, i: int) -> tuple[float, float, float, int, int, int]:
    r = curve.row(i)
    return (r["precision"], r["recall"], r["f1"], r["tp"], r["fp"], r["fn"])


def scored_array(entities: list[Entity], n_docs: int = 3) -> SpanArray:
    spans = SpanArray.from_documents(documents(entities, n_docs))
    by_doc = sorted(range(len(entities)), key=lambda i: entities[i][0])  # from_documents' order
    return SpanArray(
        spans.doc, spans.start, spans.end, spans.label, spans.labels, spans.n_docs,
        score=np.asarray([entities[i][4] for i in by_doc], dtype=np.float64),
    )  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(entity, max_size=12), st.lists(entity, max_size=14))
def test_every_row_is_the_score_of_the_predictions_kept(gold: list[Entity], pred: list[Entity]) -> None:
    """Micro and per type, at every distinct threshold; duplicates (same span twice) included."""
    p = scored_array(pred)
    g = SpanArray.from_documents(documents(gold))
    p = p.relabel(g.labels)
    sweep = threshold_sweep(g, p)
    distinct = sorted({e[4] for e in pred}, reverse=True)
    assert sweep.micro.threshold.tolist() == distinct
    for i, t in enumerate(distinct):
        kept = [e for e in pred if e[4] >= t]
        want = score_spans(documents(gold), documents(kept))
        assert row_counts(sweep.micro, i) == counts(want.micro)
    for name, curve in sweep.per_type.items():
        mine = sorted({e[4] for e in pred if e[3] == name}, reverse=True)
        assert curve.threshold.tolist() == mine
        for i, t in enumerate(mine):
            want = score_spans(documents(gold), documents([e for e in pred if e[4] >= t]))
            assert row_counts(curve, i) == counts(want.per_type[name])
    assert set(sweep.per_type) == {e[3] for e in gold + pred}


piece = st.tuples(st.integers(0, 1), st.sampled_from("AB"), st.sampled_from(SCORES), st.integers(0, 2))


@settings(max_examples=150, deadline=None)
@given(st.lists(piece, max_size=8), st.lists(piece, max_size=8))
def test_discontinuous_entities_sweep_as_they_score(gold: list[Any], pred: list[Any]) -> None:
    """Entities of one or two pieces (from a small set, so that they repeat and match)."""
    shapes = (((0, 2),), ((0, 2), (4, 5)), ((1, 3), (4, 5)))

    def array(items: list[Any]) -> SpanArray:
        items = sorted(items, key=lambda x: x[0])
        pieces = [shapes[k] for _, _, _, k in items]
        offsets = np.cumsum([0, *(len(x) for x in pieces)]).astype(np.int64)
        flat = [x for ps in pieces for x in ps]
        col = np.asarray
        return SpanArray(
            col([d for d, *_ in items], dtype=np.int64).reshape(-1),
            col([ps[0][0] for ps in pieces], dtype=np.int64).reshape(-1),
            col([ps[-1][1] for ps in pieces], dtype=np.int64).reshape(-1),
            col(["AB".index(t) for _, t, _, _ in items], dtype=np.int64).reshape(-1),
            ("A", "B"), 2,
            fragments=Fragments(offsets, col([s for s, _ in flat], dtype=np.int64).reshape(-1),
                                col([e for _, e in flat], dtype=np.int64).reshape(-1)),
            score=col([s for _, _, s, _ in items], dtype=np.float64).reshape(-1),
        )  # fmt: skip

    g, p = array(gold), array(pred)
    sweep = threshold_sweep(g, p)
    for i, t in enumerate(sweep.micro.threshold.tolist()):
        want = score_spans(g, p.select(p.score >= t))  # type: ignore[operator]
        assert row_counts(sweep.micro, i) == counts(want.micro)


@settings(max_examples=25, deadline=None)
@given(st.lists(entity, max_size=8), st.lists(entity, min_size=1, max_size=8))
def test_nerve_score_sweep_equals_nerve_score_of_filtered_files(
    gold: list[Entity], pred: list[Entity]
) -> None:
    """Through the files and the public API: ``sweep=True`` against one `nerve.score` per threshold."""
    with tempfile.TemporaryDirectory() as tmp:
        g, p = Path(tmp, "gold.jsonl"), Path(tmp, "pred.jsonl")
        write_jsonl(g, gold, scored=False)
        write_jsonl(p, pred, scored=True)
        result = nerve.score(g, p, sweep=True)
        assert result.sweep is not None
        rows = result.to_dict()["sweep"]["rows"]
        for row in rows:
            kept = Path(tmp, "kept.jsonl")
            write_jsonl(kept, [e for e in pred if e[4] >= row["threshold"]], scored=True)
            want = nerve.score(g, kept).micro
            assert (row["precision"], row["recall"], row["f1"]) == (want.precision, want.recall, want.f1)
            assert (row["tp"], row["fp"], row["fn"]) == (want.tp, want.fp, want.fn)
        assert counts(nerve.score(g, p).micro) == row_counts(result.sweep.micro, len(rows) - 1)


def sweep_of(gold: list[tuple[int, int, str]], pred: list[tuple[int, int, str, float]]) -> Curve:
    g = SpanArray.from_documents([gold])
    p = SpanArray.from_documents([[x[:3] for x in pred]])
    p = SpanArray(
        p.doc, p.start, p.end, p.label, p.labels, 1, score=np.asarray([x[3] for x in pred], dtype=np.float64)
    ).relabel(g.labels)
    return threshold_sweep(g, p).micro


def test_a_duplicated_prediction_matches_with_its_best_score() -> None:
    """One gold entity predicted twice: the copy scored 0.9 is the true positive, the 0.3 one is not."""
    curve = sweep_of([(0, 2, "A")], [(0, 2, "A", 0.3), (0, 2, "A", 0.9)])
    assert [curve.row(i)["tp"] for i in range(2)] == [1, 1]
    assert [curve.row(i)["fp"] for i in range(2)] == [0, 1]
    twice = sweep_of([(0, 2, "A"), (0, 2, "A")], [(0, 2, "A", 0.2), (0, 2, "A", 0.9), (0, 2, "A", 0.5)])
    assert [(r["tp"], r["fp"], r["fn"]) for r in twice.rows()] == [(1, 0, 1), (2, 0, 0), (2, 1, 0)]


def test_equal_scores_are_one_threshold() -> None:
    curve = sweep_of([(0, 2, "A"), (3, 4, "A")], [(0, 2, "A", 0.5), (3, 4, "B", 0.5), (5, 6, "A", 0.2)])
    assert curve.threshold.tolist() == [0.5, 0.2]
    assert [(r["tp"], r["fp"]) for r in curve.rows()] == [(1, 1), (1, 2)]


def test_the_best_threshold_is_the_highest_of_equal_best_f1() -> None:
    """F1 2/3 at 0.9 (one found, none wrong) and again at 0.6 (both found, two wrong): 0.9 wins."""
    curve = sweep_of(
        [(0, 2, "A"), (3, 4, "A")], [(0, 2, "A", 0.9), (5, 6, "A", 0.8), (6, 7, "A", 0.7), (3, 4, "A", 0.6)]
    )
    f1 = curve.f1.tolist()
    assert f1[0] == f1[3] == max(f1)
    assert curve.best == 0
    assert curve.to_dict()["best"]["threshold"] == 0.9
    assert "highest" in TIE_RULE


def test_beta_picks_the_best_f_beta() -> None:
    """With beta 2 recall counts more: the lowest threshold (both found) beats the highest."""
    g = SpanArray.from_documents([[(0, 2, "A"), (3, 4, "A")]])
    p = SpanArray.from_documents([[(0, 2, "A"), (5, 6, "A"), (6, 7, "A"), (3, 4, "A")]])
    p = SpanArray(p.doc, p.start, p.end, p.label, p.labels, 1, score=np.asarray([0.9, 0.8, 0.7, 0.6]))
    curve = threshold_sweep(g, p, beta=2.0).micro
    assert curve.best == 3
    assert (
        curve.rows()[3]["fbeta"]
        == score_spans(
            [[(0, 2, "A"), (3, 4, "A")]], [[(0, 2, "A"), (5, 6, "A"), (6, 7, "A"), (3, 4, "A")]], beta=2.0
        ).micro.fbeta
    )


def test_no_predictions_give_no_rows_and_no_best() -> None:
    g = SpanArray.from_documents([[(0, 2, "A")]])
    sweep = threshold_sweep(g, SpanArray.empty(1).relabel(g.labels))
    assert len(sweep.micro) == 0
    assert sweep.to_dict()["best"] is None
    assert sweep.to_dict()["per_type"]["A"] == {"rows": [], "best": None}


@pytest.mark.parametrize(
    ("score", "says"),
    [
        (None, "document 0, entity 1 has none"),
        (1.5, "document 0, entity 1 has 1.5"),
        (-0.1, "document 0, entity 1 has -0.1"),
    ],
)
def test_a_missing_or_out_of_range_score_is_named(score: float | None, says: str) -> None:
    p = SpanArray.from_documents([[(0, 2, "A"), (3, 4, "A")]])
    p = SpanArray(
        p.doc,
        p.start,
        p.end,
        p.label,
        p.labels,
        1,
        score=np.asarray([0.5, np.nan if score is None else score]),
    )
    with pytest.raises(InputError) as err:
        threshold_sweep(p, p, source="pred.jsonl")
    assert err.value.source == "pred.jsonl"
    assert says in err.value.detail
    assert '"score"' in err.value.detail


def test_a_sweep_does_not_merge(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "g.jsonl", [(0, 0, 2, "A", 1.0)], scored=False)
    write_jsonl(tmp_path / "p.jsonl", [(0, 0, 2, "A", 0.5)], scored=True)
    result = nerve.score(tmp_path / "g.jsonl", tmp_path / "p.jsonl", sweep=True)
    with pytest.raises(NerveError, match="threshold sweep"):
        result.merge(result)


def test_compare_refuses_sweep(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "g.jsonl", [(0, 0, 2, "A", 1.0)], scored=False)
    with pytest.raises(TypeError, match="sweep"):
        nerve.compare(tmp_path / "g.jsonl", [tmp_path / "g.jsonl"] * 2, sweep=True)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("pred", "says"),
    [
        ("unscored", 'pred.jsonl: the predictions have no scores: --sweep needs a "score"'),
        ("partly", 'pred.jsonl: document 0, entity 1 has none: --sweep needs a "score"'),
        ("string", 'pred.jsonl:1: document 0 (line 1): span 0: expected a number under "score", got'),
    ],
)
def test_cli_refuses_predictions_without_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pred: str, says: str
) -> None:
    write_jsonl(tmp_path / "gold.jsonl", [(0, 0, 2, "A", 1.0)], scored=False, n_docs=1)
    spans: list[dict[str, Any]] = [{"start": 0, "end": 2, "label": "A"}, {"start": 3, "end": 4, "label": "A"}]
    if pred == "partly":
        spans[0]["score"] = 0.5
    if pred == "string":
        spans[0]["score"] = "high"
    (tmp_path / "pred.jsonl").write_text(json.dumps({"text": TEXT, "spans": spans}) + "\n", encoding="utf-8")
    line = cli_error(capsys, "score", str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl"), "--sweep")
    assert says in line


def test_cli_refuses_a_sweep_of_tags(capsys: pytest.CaptureFixture[str]) -> None:
    news = Path(__file__).resolve().parents[2] / "examples" / "news.conll"
    line = cli_error(capsys, "score", str(news), "--sweep")
    assert "news.conll: tagged predictions have no scores" in line
    assert '"score"' in line
