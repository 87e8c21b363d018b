"""The one optimal assignment (`nerve.matching.assignment`) against brute force over permutations."""

from __future__ import annotations

import random
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hand_made import ints
from nerve.matching.assignment import best_edges, max_matching, split_edges

Edges = list[tuple[int, int, float]]


def brute_force(edges: Edges) -> float:
    """The largest total weight of a one-to-one set of edges, trying every map of the rows."""
    if not edges:
        return 0.0
    n = max(r for r, _, _ in edges) + 1
    m = max(c for _, c, _ in edges) + 1
    weight = np.zeros((n, m))
    for r, c, w in edges:
        weight[r, c] = w
    if n > m:
        weight, n, m = weight.T, m, n
    return max(sum(weight[i, j] for i, j in enumerate(perm)) for perm in permutations(range(m), n))


def arrays(edges: Edges) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    rows = np.asarray([r for r, _, _ in edges], dtype=np.int64)
    cols = np.asarray([c for _, c, _ in edges], dtype=np.int64)
    return rows, cols, np.asarray([w for _, _, w in edges], dtype=np.float64)


def chosen_pairs(edges: Edges) -> set[tuple[int, int]]:
    rows, cols, weight = arrays(edges)
    chosen = best_edges(rows, cols, weight)
    return {(r, c) for (r, c, _), k in zip(edges, chosen.tolist(), strict=True) if k}


@st.composite
def graphs(draw: st.DrawFn, weights: st.SearchStrategy[float]) -> Edges:
    """Up to 7 rows and 7 columns (square or not), each cell an edge or not."""
    n, m = draw(st.integers(0, 7)), draw(st.integers(0, 7))
    cells = [(r, c) for r in range(n) for c in range(m)]
    present = draw(st.lists(st.booleans(), min_size=len(cells), max_size=len(cells)))
    edges = [(r, c, draw(weights)) for (r, c), keep in zip(cells, present, strict=True) if keep]
    return draw(st.permutations(edges))


# Few distinct weights: many optimal assignments tie.
tied = st.sampled_from([1.0, 2.0, 3.0])
exact = st.integers(1, 1000).map(float)


def check_optimal(edges: Edges) -> set[tuple[int, int]]:
    pairs = chosen_pairs(edges)
    assert len({r for r, _ in pairs}) == len(pairs) == len({c for _, c in pairs})
    weight = {(r, c): w for r, c, w in edges}
    assert sum(weight[p] for p in pairs) == brute_force(edges)
    return pairs


@settings(max_examples=300, deadline=None)
@given(graphs(tied), st.randoms())
def test_ties_equal_brute_force_whatever_the_edge_order(edges: Edges, rnd: random.Random) -> None:
    pairs = check_optimal(edges)
    # Ties are broken by row and column numbers, not by the order the edges come in.
    assert chosen_pairs(rnd.sample(edges, len(edges))) == pairs


@settings(max_examples=300, deadline=None)
@given(graphs(exact))
def test_integer_weights_equal_brute_force(edges: Edges) -> None:
    check_optimal(edges)


@settings(max_examples=200, deadline=None)
@given(graphs(st.floats(0.01, 1.0)))
def test_fractional_weights_equal_brute_force(edges: Edges) -> None:
    pairs = chosen_pairs(edges)
    assert len({r for r, _ in pairs}) == len(pairs) == len({c for _, c in pairs})
    weight = {(r, c): w for r, c, w in edges}
    assert sum(weight[p] for p in pairs) == pytest.approx(brute_force(edges))


@settings(max_examples=200, deadline=None)
@given(graphs(st.just(1.0)))
def test_max_matching_is_maximum(edges: Edges) -> None:
    rows, cols, _ = arrays(edges)
    chosen = max_matching(rows, cols)
    assert int(chosen.sum()) == brute_force(edges)
    assert np.unique(rows[chosen]).shape[0] == np.unique(cols[chosen]).shape[0] == int(chosen.sum())


def test_empty_input() -> None:
    none = np.zeros(0, dtype=np.int64)
    assert best_edges(none, none, np.zeros(0)).shape == (0,)
    assert max_matching(none, none).shape == (0,)


def test_sparse_node_numbers_and_many_components() -> None:
    # Components far apart in numbering, of every kind: alone, star, small, and large (scipy).
    rnd = random.Random(3)
    edges: Edges = []
    base = 0
    for size in [1, 2, 3, 4, 6, 9, 12] * 4:
        n = m = size
        for r in range(n):
            for c in range(m):
                if rnd.random() < 0.6 or r == c:
                    edges.append((base + 10 * r, base + 7 * c, float(rnd.randint(1, 5))))
        base += 1000
    rows, cols, weight = arrays(edges)
    chosen = best_edges(rows, cols, weight)
    assert np.unique(rows[chosen]).shape[0] == np.unique(cols[chosen]).shape[0] == int(chosen.sum())
    alone, rest, component = split_edges(rows, cols)
    assert alone.shape == rows.shape
    assert rest.shape == component.shape
    # Each component alone gives the same choice as all of them together.
    for k in np.unique(component).tolist():
        part = rest[component == k]
        again = best_edges(rows[part], cols[part], weight[part])
        assert again.tolist() == chosen[part].tolist()


# Ties go to the first optimal map in the order of the rows


def first_best_map(rows: list[int], cols: list[int]) -> list[bool]:
    """The edges of the first maximum matching among the maps of rows to columns, in
    `itertools.permutations` order (one component, no more rows than columns, weights 1)."""
    edges = set(zip(rows, cols, strict=True))
    n_rows, n_cols = max(rows) + 1, max(cols) + 1
    best: tuple[int, ...] = ()
    best_size = -1
    for perm in permutations(range(n_cols), n_rows):
        size = sum((r, c) in edges for r, c in enumerate(perm))
        if size > best_size:
            best, best_size = perm, size
    return [best[r] == c for r, c in zip(rows, cols, strict=True)]


def test_a_square_component_breaks_ties_by_its_rows() -> None:
    # Rows and columns 0-2, every edge but the diagonal: two perfect matchings, 0-1 1-2 2-0 and
    # 0-2 1-0 2-1. The first in the order of the rows' maps wins (mapping columns would pick the other).
    rows, cols = [0, 0, 1, 1, 2, 2], [1, 2, 0, 2, 0, 1]
    taken = best_edges(ints(rows), ints(cols), np.ones(6)).tolist()
    assert taken == [True, False, False, True, True, False]
    assert taken == first_best_map(rows, cols)


@pytest.mark.parametrize(
    ("rows", "cols"),
    [
        # 5 rows and 5 columns: still solved map by map, as the largest small components are.
        ([0, 0, 0, 1, 2, 3, 3, 4, 4], [0, 2, 4, 3, 1, 3, 4, 1, 4]),
        # 3 rows and 7 columns, the most columns a small component has.
        ([0, 0, 0, 0, 0, 1, 1, 1, 2, 2], [1, 3, 4, 5, 6, 0, 2, 4, 0, 1]),
        # 4 rows and 7 columns.
        ([0, 0, 0, 1, 1, 1, 1, 1, 2, 3], [0, 1, 4, 0, 2, 3, 5, 6, 6, 6]),
    ],
)
def test_components_at_the_small_limit_take_the_first_optimal_map(rows: list[int], cols: list[int]) -> None:
    assert max_matching(ints(rows), ints(cols)).tolist() == first_best_map(rows, cols)
