"""nervaluate 1.2.1's greedy matching, reproduced edge for edge (``--matching greedy``).

In: the sorted spans of both sides (`SpanArray`), each span's position in the caller's list, and
the overlapping (gold row, pred row) edges. Out: which edges nervaluate pairs, in each of the four
modes. Predictions are taken in list order; each takes one gold that no earlier prediction took:
in strict, exact and partial the first in list order with the same span (and type, in strict),
else the first it overlaps; in type the same-typed one with the closest boundaries, else the first
of another type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .assignment import split_edges
from .overlap import same_spans

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int
    from ..model.spans import SpanArray

__all__ = ["MODES", "greedy_edges"]

#: The four SemEval-2013 modes, in the order nerve reports them.
MODES = ("strict", "exact", "partial", "type")


def greedy_edges(
    gold: SpanArray, pred: SpanArray, positions: tuple[Int, Int], g: Int, p: Int
) -> dict[str, Bool]:
    """Which of the edges ``g[k] - p[k]`` nervaluate 1.2.1 pairs in each mode.

    ``positions`` gives each gold and each predicted row's position in the caller's lists. An
    edge alone in its component is taken in every mode; the rest are walked component by
    component, predictions in list order and each one's golds in list order.
    """
    chosen: dict[str, Bool] = {mode: np.zeros(g.shape[0], dtype=np.bool_) for mode in MODES}
    if not g.shape[0]:
        return chosen
    alone, rest, component = split_edges(g, p)
    for mode in MODES:
        chosen[mode][alone] = True
    if not rest.shape[0]:
        return chosen
    gr, pr = g[rest], p[rest]
    g_pos, p_pos = positions
    order = np.lexsort((g_pos[gr], gold.doc[gr], p_pos[pr], pred.doc[pr], component))
    edges = rest[order]
    ge, pe = g[edges], p[edges]
    same_span = same_spans(gold, pred, ge, pe).tolist()
    same_type = (gold.label[ge] == pred.label[pe]).tolist()
    distance = (np.abs(gold.start[ge] - pred.start[pe]) + np.abs(gold.end[ge] - pred.end[pe])).tolist()
    walk = _Walk(ge.tolist(), pe.tolist(), same_type, distance)
    hits = {
        "strict": [s and t for s, t in zip(same_span, same_type, strict=True)],
        "exact": same_span,
        "partial": same_span,
    }
    cuts = [*(np.flatnonzero(np.diff(component[order])) + 1).tolist(), len(walk.g_of)]
    for mode in MODES:
        chosen[mode][edges[walk.picks(cuts, hits.get(mode))]] = True
    return chosen


class _Walk:
    """nervaluate's loop over the edges of a component, in plain Python: components are small."""

    def __init__(self, g_of: list[int], p_of: list[int], same_type: list[bool], distance: list[int]):
        self.g_of = g_of  # the gold row of each edge
        self.p_of = p_of  # the predicted row of each edge
        self.same_type = same_type
        self.distance = distance  # how far apart the boundaries are

    def picks(self, cuts: list[int], hit: list[bool] | None) -> list[int]:
        """The edges taken, components ending at ``cuts``; ``hit`` marks preferred edges.

        Without ``hit`` (type mode) the same-typed gold with the closest boundaries is preferred.
        """
        picked: list[int] = []
        start = 0
        for stop in cuts:
            taken: set[int] = set()
            k = start
            while k < stop:
                j = k
                while j < stop and self.p_of[j] == self.p_of[k]:
                    j += 1
                choice = self.closest(k, j, taken) if hit is None else self.first(k, j, taken, hit)
                if choice >= 0:
                    taken.add(self.g_of[choice])
                    picked.append(choice)
                k = j
            start = stop
        return picked

    def first(self, k: int, j: int, taken: set[int], hit: list[bool]) -> int:
        """Of edges ``k:j`` (one prediction's) to free golds: the first hit, else the first; or -1."""
        first = -1
        for e in range(k, j):
            if self.g_of[e] in taken:
                continue
            if hit[e]:
                return e
            if first < 0:
                first = e
        return first

    def closest(self, k: int, j: int, taken: set[int]) -> int:
        """Of edges ``k:j`` to free golds: the closest of the same type, else the first; or -1."""
        best, other = -1, -1
        for e in range(k, j):
            if self.g_of[e] in taken:
                continue
            if self.same_type[e]:
                if best < 0 or self.distance[e] < self.distance[best]:
                    best = e
            elif other < 0:
                other = e
        return best if best >= 0 else other
