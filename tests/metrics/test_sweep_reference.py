"""The threshold sweep against references computed apart from it, and the shape of what it gives.

The reference of a row is `nerve.score` of the same files with ``min_score`` set to the row's
threshold (predictions written as ``pipeline("ner")`` output, scored), for any beta, huge ones
included; its F-beta is `nerve.model.counts.fbeta`. Then properties that hold of any curve
(counts that only grow as the threshold falls, the best row as the first argmax of the brute-force
F), and the output: ``to_dict`` and ``rows`` against ``row``, scores refused with exit 2.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from cli_errors import cli_error
from nerve.errors import InputError
from nerve.metrics.sweep import Curve, threshold_sweep
from nerve.model.counts import fbeta
from nerve.model.spans import SpanArray

TEXT = "abcdefghij"  # every document's text: offsets up to 10
SCORES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)  # few values: ties are common
HUGE = (1e155, 1e200, 1e308)  # past 1e154 beta * beta overflows: `fbeta` divides through by it
BETAS = st.one_of(st.sampled_from((1.0, 0.5, 2.0, 1e-3, *HUGE, math.inf)), st.floats(1e-3, 1e3))
Entity = tuple[int, int, int, str, float]  # document, start, end, type, score

entity = st.tuples(
    st.integers(0, 1), st.integers(0, 8), st.integers(1, 3), st.sampled_from("AB"), st.sampled_from(SCORES)
).map(lambda t: (t[0], t[1], min(t[1] + t[2], len(TEXT)), t[3], t[4]))


def write_files(tmp: str, gold: list[Entity], pred: list[Entity], n_docs: int = 2) -> tuple[str, str]:
    """Gold as span JSONL; the predictions as grouped ``pipeline("ner")`` output, one list a text."""
    g, p = Path(tmp, "gold.jsonl"), Path(tmp, "pred.json")
    lines = []
    for d in range(n_docs):
        spans = [{"start": s, "end": e, "label": t} for q, s, e, t, _ in gold if q == d]
        lines.append(json.dumps({"text": TEXT, "spans": spans}) + "\n")
    g.write_text("".join(lines), encoding="utf-8")
    outputs = [
        [
            {"entity_group": t, "score": x, "word": TEXT[s:e], "start": s, "end": e}
            for q, s, e, t, x in pred
            if q == d
        ]
        for d in range(n_docs)
    ]
    p.write_text(json.dumps(outputs), encoding="utf-8")
    return str(g), str(p)


def same_score(row: dict[str, Any], want: Any, beta: float) -> None:
    got = (row["precision"], row["recall"], row["f1"], row["tp"], row["fp"], row["fn"])
    assert got == (want.precision, want.recall, want.f1, want.tp, want.fp, want.fn), row
    assert row.get("fbeta") == (want.fbeta if beta != 1 else None)
    if beta != 1:
        assert row["fbeta"] == fbeta(row["precision"], row["recall"], beta)


def best_of(rows: list[dict[str, Any]], key: str) -> int | None:
    """The first row of the highest F (the rows' thresholds descend): the brute-force best."""
    fs = [r[key] for r in rows]
    return fs.index(max(fs)) if fs else None


@settings(max_examples=40, deadline=None)
@given(st.lists(entity, max_size=8), st.lists(entity, max_size=8), BETAS)
def test_every_row_is_nerve_score_with_min_score_at_its_threshold(
    gold: list[Entity], pred: list[Entity], beta: float
) -> None:
    """Micro and per type, F-beta included; the best row is the first argmax of the reference F."""
    with tempfile.TemporaryDirectory() as tmp:
        g, p = write_files(tmp, gold, pred)
        sweep = nerve.score(g, p, sweep=True, beta=beta).sweep
        assert sweep is not None
        out = sweep.to_dict()
        key = "f1" if beta == 1 else "fbeta"
        for curve, name in [(sweep.micro, None), *((c, k) for k, c in sweep.per_type.items())]:
            rows = curve.rows()
            assert [r["threshold"] for r in rows] == sorted({x for *_, t, x in pred if name in (None, t)})[
                ::-1
            ]
            for row in rows:
                at = nerve.score(g, p, min_score=row["threshold"], beta=beta)
                same_score(row, at.micro if name is None else at.per_type[name], beta)
            assert curve.best == best_of(rows, key)
            assert (out if name is None else out["per_type"][name])["best"] == (
                rows[curve.best] if rows else None
            )


@pytest.mark.parametrize("beta", [*HUGE, math.inf])
def test_past_beta_1e154_f_beta_is_recall(beta: float) -> None:
    """The limit of F-beta as beta grows: recall, so the best row is the highest of the best recall."""
    g = SpanArray.from_documents([[(0, 2, "A"), (3, 4, "A"), (6, 8, "A")]])
    p = SpanArray.from_documents([[(0, 2, "A"), (2, 3, "A"), (3, 4, "A"), (5, 6, "A"), (6, 8, "A")]])
    p = SpanArray(p.doc, p.start, p.end, p.label, p.labels, 1, score=np.asarray([0.9, 0.8, 0.7, 0.6, 0.5]))
    curve = threshold_sweep(g, p, beta=beta).micro
    assert curve.fbeta is not None
    assert curve.recall.tolist() == [1 / 3, 1 / 3, 2 / 3, 2 / 3, 1.0]
    assert curve.fbeta.tolist() == pytest.approx(curve.recall.tolist(), rel=1e-15)
    assert curve.fbeta.tolist() == [
        fbeta(p, r, beta) for p, r in zip(curve.precision, curve.recall, strict=True)
    ]
    assert curve.best == 4
    assert curve.f1.tolist() != curve.fbeta.tolist()


def scored(entities: list[Entity], n_docs: int = 2) -> SpanArray:
    entities = sorted(entities, key=lambda e: e[0])  # from_documents' order
    docs: list[list[tuple[int, int, str]]] = [[] for _ in range(n_docs)]
    for d, s, e, t, _ in entities:
        docs[d].append((s, e, t))
    a = SpanArray.from_documents(docs)
    score = np.asarray([e[4] for e in entities], dtype=np.float64)
    return SpanArray(a.doc, a.start, a.end, a.label, a.labels, n_docs, score=score)


def sweep_of(gold: list[Entity], pred: list[Entity], beta: float = 1.0) -> Any:
    g = SpanArray.from_documents([[(s, e, t) for q, s, e, t, _ in gold if q == d] for d in range(2)])
    return threshold_sweep(g, scored(pred).relabel(g.labels), beta=beta)


@settings(max_examples=200, deadline=None)
@given(st.lists(entity, max_size=12), st.lists(entity, max_size=12))
def test_counts_only_grow_as_the_threshold_falls(gold: list[Entity], pred: list[Entity]) -> None:
    """tp, fp and recall never fall from one row to the next, fn never rises; the last row keeps all."""
    sweep = sweep_of(gold, pred)
    for curve in [sweep.micro, *sweep.per_type.values()]:
        assert np.all(np.diff(curve.threshold) < 0)
        for column in (curve.tp, curve.fp, curve.recall):
            assert np.all(np.diff(column) >= 0)
        assert np.all(np.diff(curve.fn) <= 0)
    if pred:
        assert sweep.micro.rows()[-1]["tp"] + sweep.micro.rows()[-1]["fp"] == len(pred)
        assert sweep.micro.rows()[-1]["fn"] == len(gold) - sweep.micro.rows()[-1]["tp"]


def test_a_type_without_gold_scores_zero_and_its_best_is_the_highest_threshold() -> None:
    sweep = sweep_of([(0, 0, 2, "A", 1.0)], [(0, 0, 2, "A", 0.5), (0, 3, 4, "B", 0.7), (1, 3, 4, "B", 0.2)])
    b = sweep.per_type["B"]
    assert b.gold == 0
    assert (b.precision.tolist(), b.recall.tolist(), b.f1.tolist()) == ([0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    assert b.best == 0
    assert b.to_dict()["best"]["threshold"] == 0.7


def test_a_score_equal_to_a_threshold_is_kept_at_it() -> None:
    sweep = sweep_of([(0, 0, 2, "A", 1.0)], [(0, 0, 2, "A", 0.5), (0, 3, 4, "A", 0.5000000000000001)])
    assert [(r["threshold"], r["tp"], r["fp"]) for r in sweep.micro.rows()] == [
        (0.5000000000000001, 0, 1),
        (0.5, 1, 1),
    ]


@pytest.mark.parametrize("beta", [1.0, 2.0, 1e200])
def test_a_curve_gives_its_rows_by_default_and_its_best_is_one_of_them(beta: float) -> None:
    """`Curve.to_dict` and `Curve.rows` (one pass over columns) against `Curve.row` (one row)."""
    pred = [(0, 0, 2, "A", 0.9), (0, 3, 4, "A", 0.6), (1, 0, 2, "B", 0.6), (1, 5, 7, "A", 0.1)]
    curve = sweep_of([(0, 0, 2, "A", 1.0), (1, 5, 7, "A", 1.0)], pred, beta).micro
    rows = [curve.row(i) for i in range(len(curve))]
    assert curve.rows() == rows
    assert ("fbeta" in rows[0]) == (beta != 1)
    assert curve.to_dict() == {"rows": rows, "best": rows[curve.best]}
    assert curve.to_dict(rows=False) == {"best": rows[curve.best]}


def test_rows_refuse_columns_of_different_lengths() -> None:
    """A hand-built curve with more thresholds than counts is an error, not a curve cut short."""
    curve = Curve(np.asarray([0.9, 0.5, 0.1]), np.asarray([1, 1]), np.asarray([0, 1]), gold=2)
    with pytest.raises(ValueError, match="zip"):
        curve.rows()


def test_unscored_predictions_are_named_pred_by_default() -> None:
    g = SpanArray.from_documents([[(0, 2, "A")]])
    with pytest.raises(InputError, match="the predictions have no scores") as err:
        threshold_sweep(g, g)
    assert err.value.source == "pred"
    assert len(threshold_sweep(g, SpanArray.empty(1).relabel(g.labels)).micro) == 0  # none: none needed


@pytest.mark.parametrize("order", [(0.0, -0.0), (-0.0, 0.0)])
def test_a_score_of_minus_zero_is_the_threshold_zero(order: tuple[float, float]) -> None:
    """-0.0 is a score in 0..1 equal to 0.0: one threshold, written 0.0 whatever the files' order."""
    pred = [(0, 0, 2, "A", order[0]), (0, 3, 4, "A", order[1])]
    sweep = sweep_of([(0, 0, 2, "A", 1.0)], pred)
    for curve in (sweep.micro, sweep.per_type["A"]):
        assert len(curve) == 1
        assert math.copysign(1.0, curve.rows()[0]["threshold"]) == 1.0
        assert json.dumps(curve.to_dict()["best"]["threshold"]) == "0.0"


@pytest.mark.parametrize(
    ("score", "says"), [(1.5, "has 1.5"), (-0.5, "has -0.5"), (1.0000000000000002, "has 1.0000000000000002")]
)
def test_cli_refuses_a_score_outside_0_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], score: float, says: str
) -> None:
    (tmp_path / "gold.jsonl").write_text(json.dumps({"text": TEXT, "spans": []}) + "\n", encoding="utf-8")
    spans = [
        {"start": 0, "end": 2, "label": "A", "score": 0.5},
        {"start": 3, "end": 4, "label": "A", "score": score},
    ]
    (tmp_path / "pred.jsonl").write_text(json.dumps({"text": TEXT, "spans": spans}) + "\n", encoding="utf-8")
    line = cli_error(capsys, "score", str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl"), "--sweep")
    assert f"pred.jsonl: document 0, entity 1 {says}: --sweep needs" in line
