"""The compiled MUC matcher on its two roads (csrc/muc.c), against the numpy engine.

Two sides that are each flat and in order (spans non-empty, by document and start, none overlapping
another of its side) take the flat road: no rows, no sort, one sweep (`flat_sorted`, `flat_sweep`).
Any other pair of sides takes the general road. On both, `columns_result` must give what
`spans_result` (numpy) gives: the exact and the four MUC modes' counts and the optimal pairs.
`flat_sorted` below is the C condition again, so that each test knows which road it is on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import engine
from engines import compiled_or_skip
from nerve import compiled_spans
from nerve.api.agree_measure import _columns
from nerve.api.pipeline import spans_result
from nerve.compiled_spans import columns_result
from nerve.io.json.columns import span_array
from nerve.model.spans import SpanArray
from nerve.plan import Metrics, MucOptions, Plan

compiled_or_skip()

Row = tuple[int, int, int, str]  # document, start, end, type
TYPES = ["PER", "LOC", "ORG", "Z", "é"]
PLANS = {
    "muc": Plan(metrics=Metrics(1.0, MucOptions())),
    "exact": Plan(metrics=Metrics(1.0, None)),
}


@st.composite
def flat_rows(draw: Any, n_docs: int) -> list[Row]:
    """Flat spans in order: each starts a gap (0 allowed: spans that touch) after the last one ends."""
    rows: list[Row] = []
    for doc in range(n_docs):
        at = 0
        lengths = st.integers(1, 5) | st.integers(6, 15)  # long ones: groups whose overlaps outweigh an edge
        pieces = st.tuples(st.integers(0, 3), lengths, st.sampled_from(TYPES))
        for gap, length, name in draw(st.lists(pieces, max_size=10)):
            rows.append((doc, at + gap, at + gap + length, name))
            at += gap + length
    return rows


@st.composite
def broken_rows(draw: Any, n_docs: int) -> list[Row]:
    """Flat rows made not flat or not in order: a span duplicated, nested, overlapping, or rows moved."""
    rows = draw(flat_rows(n_docs))
    if len(rows) < 2:
        rows += [(0, 20, 22, "PER"), (0, 24, 26, "LOC")]
    k = draw(st.integers(0, len(rows) - 1))
    doc, start, end, name = rows[k]
    how = draw(st.sampled_from(["duplicate", "nested", "overlapping", "unsorted"]))
    if how == "duplicate":
        rows.insert(k, (doc, start, end, draw(st.sampled_from(TYPES))))
    elif how == "nested":  # one around row k, or inside it when it is long enough
        inner = (doc, start + 1, end, name) if end - start > 1 else (doc, start, end + 2, name)
        rows.insert(k + 1 if end - start > 1 else k, inner)
    elif how == "overlapping":  # across row k's end
        rows.insert(k + 1, (doc, end - 1, end + 2, draw(st.sampled_from(TYPES))))
    else:
        order = draw(st.permutations(range(len(rows))))
        rows = [rows[i] for i in order] if list(order) != sorted(order) else rows[::-1]
    return rows


def side(rows: list[Row], n_docs: int) -> SpanArray:
    column = [np.array([r[k] for r in rows], dtype=np.int64) for k in range(3)]
    return span_array(column[0], column[1], column[2], [r[3] for r in rows], n_docs)


def flat_sorted(s: SpanArray) -> bool:
    """csrc/muc.c's flat_sorted: the side takes the flat road (when the other side does too)."""
    doc, start, end = s.doc.tolist(), s.start.tolist(), s.end.tolist()
    if any(a >= b for a, b in zip(start, end, strict=True)):
        return False
    pairs = zip(doc, doc[1:], start[1:], end, strict=False)
    return all(d0 < d1 or (d0 == d1 and s1 >= e0) for d0, d1, s1, e0 in pairs)


def assert_alike(gold: SpanArray, pred: SpanArray, plan: Plan, pairs: bool = True) -> None:
    with engine(True):
        compiled = columns_result(_columns(gold), _columns(pred), plan, "jsonl", pairs=pairs)
    python = spans_result(gold, pred, plan, "jsonl")
    assert compiled is not None  # the compiled engine counted it
    assert compiled.per_type == python.per_type
    assert compiled.micro == python.micro
    if plan.metrics.overlap is None:
        assert compiled == python
        return
    assert compiled.muc is not None
    assert python.muc is not None
    assert compiled.muc.modes == python.muc.modes
    assert compiled.muc.pairs == (python.muc.pairs if pairs else [])
    if pairs:
        assert compiled == python


@st.composite
def flat_pair(draw: Any) -> tuple[SpanArray, SpanArray]:
    n_docs = draw(st.integers(1, 4))
    return side(draw(flat_rows(n_docs)), n_docs), side(draw(flat_rows(n_docs)), n_docs)


@st.composite
def general_pair(draw: Any) -> tuple[SpanArray, SpanArray]:
    """At least one side broken; the other flat or broken, either first."""
    n_docs = draw(st.integers(1, 4))
    broken = side(draw(broken_rows(n_docs)), n_docs)
    other = side(draw(st.one_of(flat_rows(n_docs), broken_rows(n_docs))), n_docs)
    return (broken, other) if draw(st.booleans()) else (other, broken)


@settings(max_examples=300, deadline=None)
@given(sides=flat_pair(), plan=st.sampled_from(sorted(PLANS)), pairs=st.booleans())
def test_flat_sides_in_order_count_as_numpy_does(
    sides: tuple[SpanArray, SpanArray], plan: str, pairs: bool
) -> None:
    gold, pred = sides
    assert flat_sorted(gold)  # the flat road
    assert flat_sorted(pred)
    assert_alike(gold, pred, PLANS[plan], pairs)


@settings(max_examples=300, deadline=None)
@given(sides=general_pair(), plan=st.sampled_from(sorted(PLANS)), pairs=st.booleans())
def test_other_sides_count_as_numpy_does(sides: tuple[SpanArray, SpanArray], plan: str, pairs: bool) -> None:
    gold, pred = sides
    assert not (flat_sorted(gold) and flat_sorted(pred))  # the general road
    assert_alike(gold, pred, PLANS[plan], pairs)


def chain(n: int, shift: int, name: str) -> list[Row]:
    """n spans of 2 in document 0, one every 2 positions from ``shift``: flat, in order."""
    return [(0, shift + 2 * i, shift + 2 * i + 2, name) for i in range(n)]


def test_flat_groups_reach_the_general_solver_in_gold_then_pred_order(monkeypatch: Any) -> None:
    # a chain of 10 gold spans against 10 predictions, each overlapping two of the other side: one
    # group beyond 5 x 7, for the general solver; then 2 against 2, solved in C; then a star.
    gold = [*chain(10, 0, "A"), (0, 40, 44, "A"), (0, 44, 48, "B"), (0, 60, 64, "A")]
    pred = [*chain(10, 1, "A"), (0, 42, 46, "A"), (0, 46, 50, "B"), (0, 60, 62, "B"), (0, 62, 64, "A")]
    g, p = side(gold, 1), side(pred, 1)
    assert flat_sorted(g)
    assert flat_sorted(p)
    calls: list[list[tuple[int, ...]]] = []
    solver = compiled_spans.solve_groups

    def counted(*columns: bytes) -> bytes:
        calls.append(list(zip(*(np.frombuffer(c, dtype=np.int64).tolist() for c in columns), strict=True)))
        return solver(*columns)

    monkeypatch.setattr(compiled_spans, "solve_groups", counted)
    assert_alike(g, p, PLANS["muc"])
    edges = [(i, i) for i in range(10)] + [(i + 1, i) for i in range(9)]
    assert len(calls) == 1
    assert [(e[0], e[1]) for e in calls[0]] == sorted(edges)
    assert {(e[2], e[3]) for e in calls[0]} == {(1, 2)}  # overlap 1, the same type


def _muc_pairs(g: Any, p: Any) -> object:
    """The MUC pairs the compiled matcher gives, once both engines are checked alike (`assert_alike`)."""
    assert_alike(g, p, PLANS["muc"])
    with engine(True):
        result = columns_result(_columns(g), _columns(p), PLANS["muc"], "jsonl")
    assert result is not None
    assert result.muc is not None
    return result.muc.pairs


def test_a_star_keeps_the_first_of_equal_edges() -> None:
    # gold [0,4) against [0,2) and [2,4), both the same type and overlapping 2: the first one
    g = side([(0, 0, 4, "A")], 1)
    p = side([(0, 0, 2, "A"), (0, 2, 4, "A")], 1)
    assert _muc_pairs(g, p) == [(0, 0, 0)]


def test_a_small_group_prefers_a_better_tier_to_more_overlap() -> None:
    # gold [0,10) A and [10,12) B against [1,11) B and [11,13) A: two edges of any overlap (9 and 1)
    # or the one of the same type (overlap 1); the tier comes first, solved in C (2 against 2)
    g = side([(0, 0, 10, "A"), (0, 10, 12, "B")], 1)
    p = side([(0, 1, 11, "B"), (0, 11, 13, "A")], 1)
    assert flat_sorted(g)
    assert flat_sorted(p)
    assert _muc_pairs(g, p) == [(0, 1, 0)]
