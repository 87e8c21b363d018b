"""`nerve.analysis.agree_draws`: the compiled path's bootstrap draws numpy's resamples, without numpy.

`seed_words` against numpy's SeedSequence, `resampled` (the compiled engine's PCG64 and Lemire
draws) against `resample_totals` with `default_rng`, and `quantiles` against `percentiles`, all
compared exactly on random inputs; and `flat_votes` against `votes_of` and `categories_of`.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import engine
from engines import compiled_or_skip
from nerve._engine import speedups
from nerve.analysis.agree_draws import flat_votes, quantiles, resampled, resampled_flat, seed_words
from nerve.analysis.agree_votes import categories_of, votes_of
from nerve.analysis.bootstrap import percentiles, resample_totals
from nerve.model.spans import SpanArray

compiled_or_skip()


def _core() -> Any:
    found = speedups()
    assert found is not None
    return found


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(0, 2**40), st.integers(0, 2**200)))
def test_seed_words_are_numpys_seed_sequence(seed: int) -> None:
    want = tuple(int(w) for w in np.random.SeedSequence(seed).generate_state(4, np.uint64))
    assert seed_words(seed) == want


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 60),
    st.integers(1, 6),
    st.integers(0, 40),
    st.integers(0, 2**70),
    st.randoms(use_true_random=False),
)
def test_resampled_is_numpys_resample_totals(units: int, k: int, n: int, seed: int, rnd: object) -> None:
    core = _core()
    rows = [[rnd.randint(-3, 10**6) for _ in range(k)] for _ in range(units)]  # type: ignore[attr-defined]
    want = resample_totals(np.asarray(rows, dtype=np.int64), n, np.random.default_rng(seed))
    assert np.array_equal(np.asarray(resampled(core, rows, n, seed), dtype=np.float64).reshape(n, k), want)


@pytest.mark.parametrize("spread", [0, 1, 2**40])
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 5), st.integers(1, 12), st.integers(0, 2**64), st.data())
def test_resampled_sums_near_and_past_int32_are_numpys(
    spread: int, units: int, k: int, n: int, seed: int, data: st.DataObject
) -> None:
    """Columns whose sums of ``units`` draws just fit in int32 are summed narrow, the others wide:
    both are numpy's totals, whatever the sign."""
    core = _core()
    edge = 2**31 // units  # units draws of edge - 1 fit in int32; of edge + 1, not
    value = st.sampled_from([edge - 1, edge, edge + 1, -(edge - 1), -(edge + 1), 0, 3]) | st.integers(
        -spread, spread
    )
    rows = [[data.draw(value) for _ in range(k)] for _ in range(units)]
    want = resample_totals(np.asarray(rows, dtype=np.int64), n, np.random.default_rng(seed))
    assert np.array_equal(np.asarray(resampled(core, rows, n, seed), dtype=np.int64).reshape(n, k), want)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(1, 4), st.integers(0, 20), st.data())
def test_resamples_in_parts_are_the_resamples(units: int, k: int, n: int, data: st.DataObject) -> None:
    """The resamples first to last (the draws before first drawn and dropped) are those of one run."""
    core = _core()
    first = data.draw(st.integers(0, n))
    last = data.draw(st.integers(first, n))
    rows = [[data.draw(st.integers(-5, 2**40)) for _ in range(k)] for _ in range(units)]
    flat = array("q", [v for row in rows for v in row]).tobytes()
    whole = resampled_flat(core, flat, (units, k), n, 9)
    assert resampled_flat(core, flat, (units, k), n, 9, (first, last)) == whole[first:last]


def test_a_thousand_resamples_of_two_thousand_documents() -> None:
    core = _core()
    rng = np.random.default_rng(4)
    rows = rng.integers(0, 500, size=(2000, 40)).tolist()
    want = resample_totals(np.asarray(rows, dtype=np.int64), 1000, np.random.default_rng(1))
    assert np.array_equal(np.asarray(resampled(core, rows, 1000, 1), dtype=np.float64), want)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.floats(-1e6, 1e6, allow_nan=False) | st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=80
    ),
    st.one_of(st.sampled_from([0.9, 0.95, 0.99, 0.5]), st.floats(0.001, 0.999)),
)
def test_quantiles_are_numpys(values: list[float], confidence: float) -> None:
    want = tuple(percentiles(np.asarray(values), confidence).tolist())
    assert quantiles(values, confidence) == want


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(1, 4), st.data())
def test_flat_votes_are_votes_of(m: int, n_docs: int, data: st.DataObject) -> None:
    core = _core()
    columns, spans = [], []
    for _ in range(m):
        rows = []
        for d in range(n_docs):
            at = 0
            for _ in range(data.draw(st.integers(0, 4))):
                start = at + data.draw(st.integers(0, 2))
                end = start + data.draw(st.integers(1, 3))
                rows.append((d, start, end, data.draw(st.integers(0, 2))))
                at = end
        arrays = [np.asarray([r[f] for r in rows], dtype=np.int64) for f in range(4)]
        columns.append(tuple(a.tobytes() for a in arrays))
        spans.append(SpanArray(*arrays, ("A", "B", "C"), n_docs))
    votes = votes_of(spans, np.ones((m, n_docs), dtype=np.bool_))
    apart, kinds = categories_of(votes)
    found = flat_votes(core, columns)
    bits = (votes.voters.astype(np.int64) @ (1 << np.arange(m, dtype=np.int64))).tolist()
    assert tuple(list(v) for v in (found.doc, found.start, found.end, found.label)) == (
        votes.doc.tolist(),
        votes.start.tolist(),
        votes.end.tolist(),
        votes.label.tolist(),
    )
    assert (list(found.voters), list(found.cluster)) == (bits, votes.cluster.tolist())
    assert (found.apart, found.kinds) == (apart.tolist(), kinds.tolist())


def test_any_differs_and_the_degenerate_flag() -> None:
    from nerve.analysis.agree_draws import any_differs
    from nerve.analysis.agree_formulas import degenerate_flag, f1_of

    assert not any_differs([0.5, 0.5, 0.5])
    assert any_differs([0.5, 0.5, 0.25])
    flag = degenerate_flag("alpha")
    assert (flag.kind, flag.type) == ("degenerate", None)
    assert flag.message == "alpha: every resample gives the same value, so there is no spread to measure: n/a"
    assert f1_of(0, 0, 0) == 0.0
    assert f1_of(3, 1, 0) == 2 * 0.75 / 1.75
    assert f1_of(0, 2, 2) == 0.0


@pytest.fixture(autouse=True, scope="module")
def _compiled_engine() -> Iterator[None]:
    """The compiled engine on, also in the ``NERVE_NO_SPEEDUPS=1`` pass (it is built: compiled_or_skip)."""
    with engine(True):
        yield
