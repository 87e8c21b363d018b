"""Overlap matching: which gold and predicted spans overlap, and which pairs the optimum takes.

In: the spans of both sides as `SpanArray` columns, sorted by document, start, end and type name
(`in_order`). Out: the candidate pairs (edges) of spans sharing a position and passing the
``min_iou`` / ``min_gold_share`` thresholds, their overlaps, and the one-to-one pairs of the
optimal matching (`optimal_edges`). The optimum prefers, lexicographically: pairs with the same
span and type, then the same span, then overlap with the same type, then any overlap (the
`tiers`); ties go to the larger total overlap, then to the first pair in sorted order.

Discontinuous spans (`nerve.model.spans.Fragments`) overlap by the positions their pieces share,
not by their extents: two spans whose extents cross but whose pieces share no position do not
overlap, and a span's length (for IoU and the gold share) is the sum of its pieces' lengths. The
pieces are matched as rows of their own (`pieces`) and their overlaps summed per pair of spans.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..model.spans import SpanArray
from .assignment import best_edges
from .exact import piece_rows

if TYPE_CHECKING:
    from ..model.arrays import Bool, Float, Int

__all__ = [
    "best_tiered",
    "candidates",
    "in_order",
    "lengths",
    "one_document",
    "optimal_edges",
    "overlap_edges",
    "pieces",
    "same_spans",
    "shared",
    "tiers",
]


def in_order(spans: SpanArray) -> tuple[SpanArray, Int]:
    """The spans sorted by document, start, end and type name, and the sorting permutation.

    The permutation gives each sorted span's position in ``spans``; spans equal in all four keep
    their order.
    """
    order = spans.order()
    return spans.select(order), order


def one_document(start: Int, end: Int, label: Int, labels: Sequence[str]) -> SpanArray:
    """Spans of one document that are already in order, such as entities decoded from tags."""
    return SpanArray(np.zeros(start.shape[0], dtype=np.int64), start, end, label, tuple(labels), 1)


def _contiguous_candidates(gold: SpanArray, pred: SpanArray) -> tuple[Int, Int]:
    """The pairs of one document whose extents share a position (``pred`` sorted by document, start)."""
    if not len(gold) or not len(pred):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    width = int(max(gold.end.max(), pred.end.max())) + 1
    p_start = pred.doc * width + pred.start
    # Predictions start in order; a running maximum of their ends bounds which can reach a gold.
    p_reach = np.maximum.accumulate(pred.doc * width + pred.end)
    hi = np.searchsorted(p_start, gold.doc * width + gold.end, side="left")
    lo = np.searchsorted(p_reach, gold.doc * width + gold.start, side="right")
    lo = np.minimum(lo, hi)
    n = hi - lo
    g = np.repeat(np.arange(len(gold)), n)
    p = np.repeat(lo, n) + (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n))
    keep = (pred.doc[p] == gold.doc[g]) & (pred.start[p] < gold.end[g]) & (pred.end[p] > gold.start[g])
    return g[keep], p[keep]


def pieces(spans: SpanArray) -> tuple[SpanArray, Int]:
    """Each piece of every span as a row of its own (a contiguous span is one piece), and its span."""
    f = spans.fragments
    if f is None:
        return spans, np.arange(len(spans), dtype=np.int64)
    owner = np.repeat(np.arange(len(spans), dtype=np.int64), np.diff(f.offsets))
    rows = SpanArray(spans.doc[owner], f.start, f.end, spans.label[owner], spans.labels, spans.n_docs)
    return rows, owner


def lengths(spans: SpanArray) -> Int:
    """How many positions each span covers: the sum of its pieces' lengths."""
    rows, owner = pieces(spans)
    if spans.fragments is None:
        return spans.end - spans.start
    return np.bincount(owner, weights=rows.end - rows.start, minlength=len(spans)).astype(np.int64)


def shared(gold: SpanArray, pred: SpanArray) -> tuple[Int, Int, Int]:
    """Every (gold row, pred row) pair of one document sharing a position, and how many they share.

    ``pred`` is sorted by document and start (`in_order`); the pairs come gold row by gold row,
    predicted rows ascending. Discontinuous spans share the positions their pieces share.
    """
    if gold.fragments is None and pred.fragments is None:
        g, p = _contiguous_candidates(gold, pred)
        overlap = np.minimum(gold.end[g], pred.end[p]) - np.maximum(gold.start[g], pred.start[p])
        return g, p, overlap
    gp, g_owner = pieces(gold)
    pp, p_owner = pieces(pred)
    order = np.lexsort((pp.end, pp.start, pp.doc))
    pp, p_owner = pp.select(order), p_owner[order]
    cg, cp = _contiguous_candidates(gp, pp)
    size = np.minimum(gp.end[cg], pp.end[cp]) - np.maximum(gp.start[cg], pp.start[cp])
    n_pred = max(len(pred), 1)
    key, where = np.unique(g_owner[cg] * n_pred + p_owner[cp], return_inverse=True)
    overlap = np.bincount(where.reshape(-1), weights=size, minlength=key.shape[0]).astype(np.int64)
    return key // n_pred, key % n_pred, overlap


def candidates(gold: SpanArray, pred: SpanArray) -> tuple[Int, Int]:
    """Every (gold row, pred row) pair of one document whose spans share a position (`shared`)."""
    g, p, _ = shared(gold, pred)
    return g, p


def overlap_edges(
    gold: SpanArray,
    pred: SpanArray,
    min_iou: float | None = None,
    min_gold_share: float | None = None,
    percent_test: bool = False,
) -> tuple[Int, Int, Int]:
    """The overlapping (gold row, pred row) pairs that pass the thresholds, and their overlaps.

    A threshold is reached when the share (IoU, or the overlap over the gold length) is at least
    the threshold. The share is divided out, not the threshold multiplied in: a correctly rounded
    quotient equals the threshold's float whenever the share equals the decimal threshold (7/25
    and 0.28), where ``0.28 * 25`` exceeds 7. With ``percent_test`` the gold share is tested as
    nervaluate 1.2.1 does, in percent and in floating point, so that borderline cases agree.
    Lengths and overlaps of discontinuous spans count the positions of their pieces (`shared`).
    """
    g, p, overlap = shared(gold, pred)
    keep = np.ones(g.shape[0], dtype=np.bool_)
    gold_length = lengths(gold)[g] if min_iou is not None or min_gold_share is not None else overlap
    if min_iou is not None:
        union = gold_length + lengths(pred)[p] - overlap
        keep &= overlap / union >= min_iou
    if min_gold_share is not None:
        length = gold_length
        if percent_test:
            keep &= (overlap / length) * 100.0 >= round(min_gold_share * 100.0, 9)
        else:
            keep &= overlap / length >= min_gold_share
    return g[keep], p[keep], overlap[keep]


def same_spans(gold: SpanArray, pred: SpanArray, g: Int, p: Int) -> Bool:
    """Whether the pairs ``g[k] - p[k]`` have the same span: the same pieces, for discontinuous ones."""
    same = (gold.start[g] == pred.start[p]) & (gold.end[g] == pred.end[p])
    if (gold.fragments is None and pred.fragments is None) or not same.any():
        return same
    widths = [
        int(np.diff(s.fragments.offsets).max(initial=1)) for s in (gold, pred) if s.fragments is not None
    ]
    width = max(widths, default=1)
    rows_g, rows_p = piece_rows(gold, width)[:, 2:], piece_rows(pred, width)[:, 2:]
    return same & (rows_g[g] == rows_p[p]).all(axis=1)


def tiers(gold: SpanArray, pred: SpanArray, g: Int, p: Int) -> Int:
    """The preference of each pair: 4 same span and type, 3 same span, 2 same type, 1 overlap.

    Discontinuous spans are the same span when every piece is (`same_spans`).
    """
    same_span = same_spans(gold, pred, g, p)
    same_type = gold.label[g] == pred.label[p]
    return np.where(same_span, np.where(same_type, 4, 3), np.where(same_type, 2, 1))


def optimal_edges(gold: SpanArray, pred: SpanArray, g: Int, p: Int, overlap: Int) -> Bool:
    """Which edges the optimal one-to-one matching chooses (see the module for the preference).

    The preference becomes one integer weight per edge, computed per connected component of the
    edges (the only place where edges compete): ``base ** (tier - 1) * (S + 1) + overlap``, with
    ``base`` one more than the pairs the component can hold (the smaller of its numbers of gold
    and predicted spans, k) and ``S`` its total overlap. One pair of a tier then outweighs any
    number of pairs of lower tiers, and all overlaps together weigh less than one pair, however
    large the corpus. The weights are integers, so their sums are exact while
    ``k * (k + 1) ** 3 * (S + 1)`` stays below 2**53 (k = 100 allows S up to about 9e7), and a tie
    in tiers and total overlap is a true tie, broken by order as `nerve.matching.assignment` says.
    """
    return best_tiered(g, p, tiers(gold, pred, g, p), overlap)


def best_tiered(g: Int, p: Int, tier: Int, overlap: Int) -> Bool:
    """Which edges ``g[k] - p[k]`` of ``tier`` and ``overlap`` the optimal matching takes (`optimal_edges`).

    The compiled engine resolves single pairs and stars itself and hands the other groups here.
    """

    def weight(rest: Int, component: Int) -> Float:
        size = int(component.max()) + 1

        def per_component(nodes: Int) -> Int:  # distinct nodes of each component
            owner = np.full(int(nodes.max()) + 1, -1, dtype=np.int64)
            owner[nodes] = component  # a node is in one component
            return np.bincount(owner[owner >= 0], minlength=size)

        pairs = np.minimum(per_component(g[rest]), per_component(p[rest]))[component]
        total = np.bincount(component, weights=overlap[rest], minlength=size)[component]
        return (pairs + 1.0) ** (tier[rest] - 1) * (total + 1.0) + overlap[rest]

    return best_edges(g, p, weight)
