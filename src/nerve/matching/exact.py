"""Matching predicted entities to gold entities.

Exact matching pairs a predicted and a gold entity when their offsets and type are equal. It is a
multiset intersection over integer keys, so duplicates are matched at most once each. For
discontinuous entities (`nerve.model.spans.Fragments`) every piece must be equal too
(`exact_match_rows`, which also says which gold entities matched: the bootstrap counts them by
resampling unit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.spans import SpanArray

    Int = npt.NDArray[np.int64]

__all__ = [
    "exact_match_aligned",
    "exact_match_fragments",
    "exact_match_rows",
    "exact_match_types",
    "piece_rows",
]


def _keys(start: Int, end: Int, typ: Int, width: int, n_types: int) -> Int:
    return (start * width + (end - start)) * n_types + typ


def exact_match_types(gold: tuple[Int, Int, Int], pred: tuple[Int, Int, Int], n_types: int) -> Int:
    """Count, per type id, the entities that are in both ``gold`` and ``pred``.

    Each side is ``(start, end, type)`` arrays of half-open spans with positions that are unique
    across the whole input (for example token indices within one block).
    """
    if gold[0].shape[0] == 0 or pred[0].shape[0] == 0:
        return np.zeros(n_types, dtype=np.int64)
    width = int(max((gold[1] - gold[0]).max(), (pred[1] - pred[0]).max())) + 1
    top = int(max(gold[0].max(), pred[0].max())) + 1
    if top * width * max(n_types, 1) >= 2**62:
        raise OverflowError("span keys do not fit 64 bits")  # pragma: no cover - blocks are small
    g = _keys(*gold, width, max(n_types, 1))
    p = _keys(*pred, width, max(n_types, 1))
    g_vals, g_counts = np.unique(g, return_counts=True)
    p_vals, p_counts = np.unique(p, return_counts=True)
    common, gi, pi = np.intersect1d(g_vals, p_vals, assume_unique=True, return_indices=True)
    matched = np.minimum(g_counts[gi], p_counts[pi])
    return np.bincount(common % max(n_types, 1), weights=matched, minlength=n_types).astype(np.int64)


def exact_match_aligned(
    gold: tuple[Int, Int, Int], pred: tuple[Int, Int, Int], n_tokens: int, n_types: int
) -> Int:
    """`exact_match_types` for spans decoded from one sequence of ``n_tokens``, one per start.

    Where no two spans of a side share a start, a gold span is matched when the predicted span
    that starts at its start has its end and type: one lookup per span, no sorting.
    """
    n = max(n_types, 1)
    key_at = np.zeros(n_tokens, dtype=np.int64)  # 0: no predicted span starts here (ends are >= 1)
    key_at[pred[0]] = pred[1] * n + pred[2]
    hit = key_at[gold[0]] == gold[1] * n + gold[2]
    return np.bincount(gold[2][hit], minlength=n_types).astype(np.int64, copy=False)


def piece_rows(spans: SpanArray, width: int) -> Int:
    """One row per span: document, type, then the start and end of each piece, padded with -1.

    A contiguous span is its one piece ``(start, end)``; ``width`` pieces fit each row.
    """
    n = len(spans)
    rows = np.full((n, 2 + 2 * width), -1, dtype=np.int64)
    rows[:, 0], rows[:, 1] = spans.doc, spans.label
    f = spans.fragments
    if f is None:
        rows[:, 2], rows[:, 3] = spans.start, spans.end
        return rows
    counts = np.diff(f.offsets)
    owner = np.repeat(np.arange(n), counts)
    slot = np.arange(len(f.start)) - np.repeat(f.offsets[:-1], counts)
    rows[owner, 2 + 2 * slot] = f.start
    rows[owner, 3 + 2 * slot] = f.end
    return rows


def _columns(spans: SpanArray) -> tuple[Int, Int, Int, Int]:
    return spans.doc, spans.start, spans.end, spans.label


def exact_match_rows(gold: SpanArray, pred: SpanArray) -> Int:
    """The rows of ``gold`` that an entity of ``pred`` equals: document, type and every piece.

    Both sides' labels index one vocabulary. Duplicates are matched at most once each (a multiset
    intersection): of ``k`` equal gold entities and ``m`` equal predictions, the first ``min(k, m)``
    gold rows are returned. Both sides' rows (`piece_rows`: document, type, pieces) are sorted together
    and cut into runs of equal rows; the matched rows come in that order.
    """
    if gold.fragments is None and pred.fragments is None:
        columns = [np.concatenate([g, p]) for g, p in zip(_columns(gold), _columns(pred), strict=True)]
    else:
        widths = [int(np.diff(s.fragments.offsets).max(initial=1)) for s in (gold, pred) if s.fragments]
        rows = np.concatenate([piece_rows(gold, max(widths)), piece_rows(pred, max(widths))])
        columns = [np.ascontiguousarray(c) for c in rows.T]
    if columns[0].shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort(columns[::-1])  # stable: in a run of equal rows the gold ones come first
    new = np.zeros(order.shape[0], dtype=np.bool_)  # where a run of equal rows starts
    new[0] = True
    for column in columns:
        ordered = column[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    run = np.cumsum(new) - 1
    is_gold = order < len(gold)
    in_gold = np.bincount(run, weights=is_gold, minlength=int(run[-1]) + 1)
    in_pred = np.bincount(run, weights=~is_gold, minlength=int(run[-1]) + 1)
    matched = np.minimum(in_gold, in_pred).astype(np.int64)
    within = np.arange(int(matched.sum()), dtype=np.int64) - np.repeat(np.cumsum(matched) - matched, matched)
    return order[np.repeat(np.flatnonzero(new), matched) + within].astype(np.int64, copy=False)


def exact_match_fragments(gold: SpanArray, pred: SpanArray, n_types: int) -> Int:
    """Count, per type id, the entities in both sides, a discontinuous one equal in every piece.

    Both sides' labels index one vocabulary of ``n_types`` names: `exact_match_rows`, by type.
    """
    return np.bincount(gold.label[exact_match_rows(gold, pred)], minlength=n_types).astype(np.int64)
