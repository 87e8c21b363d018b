"""The one optimal one-to-one assignment of nerve, used by every metric that pairs entities.

In: the edges ``rows[k] - cols[k]`` of a bipartite graph (gold entities against predicted ones)
and a positive weight per edge. Out: which edges a maximum-weight set of edges sharing no node
takes (`best_edges`); `max_matching` is the same with every weight 1.

The graph is split into connected components (`split_edges`). An edge alone in its component is
taken outright, and so is the heaviest edge of a component with one row or one column. Small
components (at most 5 nodes on one side and 7 on the other) are solved by evaluating every
one-to-one map at once, per shape, in numpy; larger ones by scipy's ``linear_sum_assignment``.

Ties are broken by the numbers of the rows and columns, never by the order of the edges: of
equally heavy edges of a one-row or one-column component the one with the lowest row (then
column) is taken, and a small component takes the first optimal map in the order of its rows and
columns. Callers that number rows and columns in a sorted order (the MUC matching sorts spans by
document, start, end and type name) thus get pairs that do not depend on the order of their
input lists. There is at most one edge per (row, column).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..model.arrays import Bool, Float, Int

__all__ = ["SMALL", "best_edges", "components", "max_matching", "split_edges"]

#: The largest components solved by evaluating every map: (smaller side, larger side).
SMALL = (5, 7)
_CHUNK = 1 << 22  # floats per batch of small components evaluated at once


def components(a: Int, b: Int, size: int) -> Int:
    """The connected component (its smallest node) of each edge ``a[i] - b[i]`` of a graph."""
    label = np.arange(size)
    while True:
        low = np.minimum(label[a], label[b])
        new = label.copy()
        np.minimum.at(new, a, low)
        np.minimum.at(new, b, low)
        new = new[new]  # jump to the representative's representative
        if np.array_equal(new, label):
            return label[a]
        label = new


def split_edges(rows: Int, cols: Int) -> tuple[Bool, Int, Int]:
    """Split the edges ``rows[k] - cols[k]`` of a bipartite graph for matching.

    Returns whether each edge is alone (shares no node with another edge), the indices of the
    other edges, and the connected component of each of those.
    """
    alone = (np.bincount(rows)[rows] == 1) & (np.bincount(cols)[cols] == 1)
    rest = np.flatnonzero(~alone)
    row_nodes, r = np.unique(rows[rest], return_inverse=True)
    col_nodes, c = np.unique(cols[rest], return_inverse=True)
    n = row_nodes.shape[0]
    return alone, rest, components(r.reshape(-1), n + c.reshape(-1), n + col_nodes.shape[0])


def best_edges(rows: Int, cols: Int, weight: Float | Callable[[Int, Int], Float]) -> Bool:
    """Which of the edges ``rows[k] - cols[k]`` (weights > 0) a maximum-weight assignment takes.

    Every row and column may stay unassigned, so this is the assignment maximising the total
    weight over one-to-one sets of edges; see the module for how ties are broken. ``weight`` is
    one weight per edge, or a function of the indices of the edges that share a node with
    another and their connected components (as `split_edges` gives them), returning those
    edges' weights: so weights can be scaled per component, the only place they compete.
    """
    chosen = np.zeros(rows.shape[0], dtype=np.bool_)
    if not rows.shape[0]:
        return chosen
    alone, rest, component = split_edges(rows, cols)
    chosen[alone] = True
    if rest.shape[0]:
        w = weight(rest, component) if callable(weight) else weight[rest]
        chosen[rest] = _solve(rows[rest], cols[rest], w, component)
    return chosen


def max_matching(rows: Int, cols: Int) -> Bool:
    """Which edges a maximum one-to-one matching takes: an assignment where every edge weighs 1."""
    return best_edges(rows, cols, np.ones(rows.shape[0]))


def _local(which: Int, nodes: Int, n_comp: int) -> Int:
    """Number the nodes of each component from 0, in order (``which``: component of each edge)."""
    size = int(nodes.max()) + 1
    keys, at = np.unique(which * size + nodes, return_inverse=True)
    first = np.searchsorted(keys // size, np.arange(n_comp))
    return at.reshape(-1) - first[which]


def _solve(rows: Int, cols: Int, weight: Float, component: Int) -> Bool:
    """`best_edges` of edges that all share a node with another, ``component`` numbering them."""
    order = np.lexsort((cols, rows, -weight, component))  # by component, heaviest first
    comp, w = component[order], weight[order]
    new = np.r_[True, comp[1:] != comp[:-1]]
    starts = np.flatnonzero(new)
    which = np.cumsum(new) - 1
    n_comp = starts.shape[0]
    r_at = _local(which, rows[order], n_comp)
    c_at = _local(which, cols[order], n_comp)
    n_rows = np.maximum.reduceat(r_at, starts) + 1
    n_cols = np.maximum.reduceat(c_at, starts) + 1
    taken = np.zeros(order.shape[0], dtype=np.bool_)
    # A component with one row or one column: its heaviest edge (sorted first).
    star = (n_rows == 1) | (n_cols == 1)
    taken[starts[star]] = True
    small = ~star & (np.minimum(n_rows, n_cols) <= SMALL[0]) & (np.maximum(n_rows, n_cols) <= SMALL[1])
    for shape in sorted({(int(a), int(b)) for a, b in zip(n_rows[small], n_cols[small], strict=True)}):
        comps = np.flatnonzero(small & (n_rows == shape[0]) & (n_cols == shape[1]))
        _every_map(taken, comps, which, r_at, c_at, w, shape)
    bounds = np.r_[starts, order.shape[0]]
    for k in np.flatnonzero(~star & ~small).tolist():
        lo, hi = int(bounds[k]), int(bounds[k + 1])
        taken[lo:hi] = _dense(r_at[lo:hi], c_at[lo:hi], w[lo:hi], (int(n_rows[k]), int(n_cols[k])))
    chosen = np.empty_like(taken)
    chosen[order] = taken
    return chosen


def _every_map(
    taken: Bool, comps: Int, which: Int, r_at: Int, c_at: Int, w: Float, shape: tuple[int, int]
) -> None:
    """Solve the components ``comps``, all of ``shape``, by trying every map of the smaller side.

    The first map (in `itertools.permutations` order) of the largest total weight wins.
    """
    k, m = shape
    flip = k > m  # map the smaller side
    if flip:
        k, m = m, k
    perms = np.asarray(list(permutations(range(m), k)), dtype=np.int64)
    step = max(1, _CHUNK // (perms.shape[0] * k))
    local = np.full(int(which.max()) + 1, -1, dtype=np.int64)
    for lo in range(0, comps.shape[0], step):
        batch = comps[lo : lo + step]
        local[:] = -1
        local[batch] = np.arange(batch.shape[0])
        edges = np.flatnonzero(local[which] >= 0)
        q = local[which[edges]]
        a, b = (c_at[edges], r_at[edges]) if flip else (r_at[edges], c_at[edges])
        blocks = np.zeros((batch.shape[0], k, m))
        blocks[q, a, b] = w[edges]
        best = blocks[:, np.arange(k)[None, :], perms].sum(axis=2).argmax(axis=1)
        taken[edges] = perms[best[q], a] == b


def _dense(r_at: Int, c_at: Int, w: Float, shape: tuple[int, int]) -> Bool:
    """Which edges of one large component scipy's ``linear_sum_assignment`` takes."""
    from scipy.optimize import linear_sum_assignment

    matrix = np.zeros(shape)
    matrix[r_at, c_at] = w
    picked_r, picked_c = linear_sum_assignment(matrix, maximize=True)
    taken = np.zeros(shape, dtype=np.bool_)
    taken[picked_r, picked_c] = True
    return taken[r_at, c_at]
