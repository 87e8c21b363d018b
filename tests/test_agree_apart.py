"""`agree_apart` with `columns_result(same=...)`: a pair's shared entities counted apart change nothing.

Two flat sides less the entities both hold, those counted back by type, give `columns_result` of
the whole sides: micro and per-type counts, and every MUC mode; and the pair's exact matches by
document are the shared entities (random flat sides, some sharing half the other's entities).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import engine
from engines import compiled_or_skip
from nerve._engine import speedups
from nerve.compiled_spans import columns_result
from nerve.plan import Metrics, MucOptions, Plan

compiled_or_skip()


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_shared_entities_counted_apart_give_the_whole_result(data: st.DataObject) -> None:
    """Flat sides less the entities both hold, those counted by ``same``: `columns_result` of the whole."""
    engine = speedups()
    assert engine is not None
    names = ["LOC", "PER", "ORG"]

    def side() -> list[tuple[int, int, int, int]]:
        rows, at = [], 0
        for _ in range(data.draw(st.integers(0, 8))):
            at += data.draw(st.integers(0, 2))
            end = at + data.draw(st.integers(1, 3))
            rows.append((0, at, end, data.draw(st.integers(0, 2))))
            at = end
        return rows

    def cols(rows: list[tuple[int, int, int, int]]) -> tuple[bytes, bytes, bytes, bytes]:
        return tuple(b"".join(r[f].to_bytes(8, "little", signed=True) for r in rows) for f in range(4))  # type: ignore[return-value]

    a, b = side(), side()
    if data.draw(st.booleans()):  # b takes half of a's entities, and stays flat
        merged, kept = sorted(set(b) | set(a[: len(a) // 2]), key=lambda r: (r[1], r[2], r[3])), []
        for r in merged:
            if not kept or r[1] >= kept[-1][2]:
                kept.append(r)
        b = kept
    plan = Plan(metrics=Metrics(1.0, MucOptions()))
    ca, cb = cols(a), cols(b)
    whole = columns_result(
        (*(bytearray(c) for c in ca), names, 1), (*(bytearray(c) for c in cb), names, 1), plan, "x"
    )
    rest_a, rest_b, same, exact = engine.agree_apart(ca, cb, ca[3], cb[3], len(names), 1)
    apart = columns_result((*rest_a, names, 1), (*rest_b, names, 1), plan, "x", pairs=False, same=same)
    assert whole is not None
    assert apart is not None
    assert whole.micro == apart.micro
    assert whole.per_type == apart.per_type
    assert whole.muc is not None
    assert apart.muc is not None
    for mode in whole.muc.modes:
        assert whole.muc.modes[mode] == apart.muc.modes[mode]
    shared = len(set(a) & set(b))
    assert memoryview(exact).cast("q").tolist() == [shared, len(b) - shared, len(a) - shared]


@pytest.fixture(autouse=True, scope="module")
def _compiled_engine() -> Iterator[None]:
    """The compiled engine on, also in the ``NERVE_NO_SPEEDUPS=1`` pass (it is built: compiled_or_skip)."""
    with engine(True):
        yield
