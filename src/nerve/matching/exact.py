"""Matching predicted entities to gold entities.

Exact matching pairs a predicted and a gold entity when their offsets and type are equal. It is a
multiset intersection over integer keys, so duplicates are matched at most once each. For
discontinuous entities (`nerve.model.spans.Fragments`) every piece must be equal too
(`exact_matched`, which also says which entities matched: the bootstrap and the slices count
them by unit and by band).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int
    from ..model.spans import SpanArray

__all__ = [
    "exact_match_aligned",
    "exact_match_fragments",
    "exact_match_types",
    "exact_matched",
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


def exact_matched(gold: SpanArray, pred: SpanArray) -> tuple[Bool, Bool]:
    """Whether each gold and each predicted entity is in an exact match: document, type and every piece.

    Both sides' labels index one vocabulary. Entities with the same key match one to one, as many
    as the smaller side has (a multiset intersection); the first ones (in column order) of each side
    are those marked. Both sides' rows (for discontinuous entities `piece_rows`) are sorted together
    and cut into runs of equal rows.
    """
    if gold.fragments is None and pred.fragments is None:
        columns = [np.concatenate([g, p]) for g, p in zip(_columns(gold), _columns(pred), strict=True)]
    else:
        widths = [int(np.diff(s.fragments.offsets).max(initial=1)) for s in (gold, pred) if s.fragments]
        rows = np.concatenate([piece_rows(gold, max(widths)), piece_rows(pred, max(widths))])
        columns = [np.ascontiguousarray(c) for c in rows.T]
    n, n_gold = columns[0].shape[0], len(gold)
    matched = np.zeros(n, dtype=np.bool_)
    if n == 0:
        return matched, matched
    order = np.lexsort(columns[::-1])  # stable: in a run, the gold rows then the predicted ones, in order
    new = np.zeros(n, dtype=np.bool_)  # where a run of equal rows starts
    new[0] = True
    for column in columns:
        ordered = column[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    run = np.cumsum(new) - 1
    is_gold = order < n_gold
    in_gold = np.bincount(run, weights=is_gold, minlength=int(run[-1]) + 1).astype(np.int64)
    in_pred = np.bincount(run, weights=~is_gold, minlength=int(run[-1]) + 1).astype(np.int64)
    rank = np.arange(n) - np.flatnonzero(new)[run]  # within the run
    rank -= np.where(is_gold, 0, in_gold[run])  # within the run's rows of its side
    matched[order] = rank < np.minimum(in_gold, in_pred)[run]
    return matched[:n_gold], matched[n_gold:]


def exact_match_fragments(gold: SpanArray, pred: SpanArray, n_types: int) -> Int:
    """Count, per type id, the entities in both sides, a discontinuous one equal in every piece.

    Both sides' labels index one vocabulary of ``n_types`` names: `exact_matched`, by type.
    """
    return np.bincount(gold.label[exact_matched(gold, pred)[0]], minlength=n_types).astype(np.int64)
