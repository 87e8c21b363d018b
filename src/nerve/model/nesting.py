"""Nesting of spans within one side: each span's role, and flattening by a named policy.

In: a `SpanArray` whose spans may overlap and nest. Out: each span's nesting role (`roles`) and
a non-overlapping subset chosen by a policy (`flatten_mask`, `flatten`), for writing nested data
to tags (a BIO file cannot hold nested entities) or scoring it against a flat system.

Roles, by a span's extent (first start to last end for discontinuous spans), within its document:

- ``flat``: shares no position with any other span of the same side;
- ``outermost``: shares a position with another span but lies inside none (a span that only
  crosses another, or has the same extent as one of another type, is outermost too);
- ``inner``: lies inside another span with a different extent.

Flattening policies keep spans greedily, in a policy's order, skipping any span that shares a
position with one already kept; spans that overlap nothing are always kept:

- ``outermost``: fewest enclosing spans first, then leftmost, then longest;
- ``innermost``: fewest enclosed spans first, then leftmost, then shortest;
- ``longest``: longest first, then leftmost;
- ``first``: leftmost first, then longest (a left-to-right reading).

Remaining ties go to the type name, then to the input order. What a policy drops is counted by
the caller; nothing is dropped without a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .spans import SpanArray

if TYPE_CHECKING:
    from .arrays import Bool, Int

__all__ = ["POLICIES", "ROLES", "flatten", "flatten_mask", "roles"]

ROLES = ("flat", "outermost", "inner")
POLICIES = ("outermost", "innermost", "longest", "first")


def _keys(spans: SpanArray) -> tuple[Int, Int, Int]:
    """Document-offset start and end (so documents never touch) and each span's type rank."""
    width = int(spans.end.max(initial=0)) + 1
    base = spans.doc * width
    rank = np.argsort(np.argsort(np.asarray(spans.labels, dtype=object), kind="stable"), kind="stable")
    type_rank = rank[spans.label] if len(spans.labels) else spans.label
    return base + spans.start, base + spans.end, type_rank.astype(np.int64)


def _clusters(start: Int, end: Int) -> tuple[Int, Int]:
    """The order by start, and for each span in that order its cluster of transitively overlapping spans."""
    order = np.lexsort((-end, start))
    s, e = start[order], end[order]
    reach = np.maximum.accumulate(e)
    new = np.ones(s.shape[0], dtype=bool)
    new[1:] = s[1:] >= reach[:-1]
    return order, np.cumsum(new) - 1


def roles(spans: SpanArray) -> Int:
    """Each span's nesting role as an index into `ROLES` (0 flat, 1 outermost, 2 inner)."""
    n = len(spans)
    out = np.zeros(n, dtype=np.int64)
    if n == 0:
        return out
    start, end, _ = _keys(spans)
    order, cluster = _clusters(start, end)
    size = np.bincount(cluster)
    out[order] = np.where(size[cluster] > 1, 1, 0)
    # Distinct extents sorted by start, longest first: an extent is inside another when an earlier
    # one reaches at least as far (it starts no later, and differs, so it is strictly larger).
    extents, back = np.unique(np.stack([start, -end], axis=1), axis=0, return_inverse=True)
    e = -extents[:, 1]
    reach = np.concatenate([[np.iinfo(np.int64).min], np.maximum.accumulate(e)[:-1]])
    inside = reach >= e
    out[inside[back.reshape(-1)]] = 2
    return out


def _priority(policy: str, start: Int, end: Int, type_rank: Int, rows: Int) -> Int:
    """The rows of one overlapping cluster in the order ``policy`` considers them."""
    s, e = start[rows], end[rows]
    length = e - s
    if policy in ("outermost", "innermost"):
        inside = (s[None, :] <= s[:, None]) & (e[:, None] <= e[None, :])
        inside &= (s[None, :] != s[:, None]) | (e[None, :] != e[:, None])  # [i, j]: i lies inside j
        if policy == "outermost":
            keys: tuple[Int, ...] = (rows, type_rank[rows], -length, s, inside.sum(axis=1))
        else:
            keys = (rows, type_rank[rows], length, s, inside.sum(axis=0))
    elif policy == "longest":
        keys = (rows, type_rank[rows], s, -length)
    else:
        keys = (rows, type_rank[rows], -length, s)
    return rows[np.lexsort(keys)]


def flatten_mask(spans: SpanArray, policy: str) -> Bool:
    """Which spans ``policy`` keeps so that no two kept spans share a position (see the module)."""
    if policy not in POLICIES:
        msg = f"unknown flattening policy {policy!r}: expected one of {', '.join(POLICIES)}"
        raise ValueError(msg)
    n = len(spans)
    keep = np.ones(n, dtype=bool)
    if n < 2:
        return keep
    start, end, type_rank = _keys(spans)
    order, cluster = _clusters(start, end)
    size = np.bincount(cluster)
    crowded = size[cluster] > 1
    if not crowded.any():
        return keep
    rows_in_order = order[crowded]
    bounds = np.flatnonzero(np.diff(cluster[crowded])) + 1
    keep[rows_in_order] = False
    # One pass per overlapping cluster: only spans that share a position with another get here.
    for rows in np.split(rows_in_order, bounds):
        taken: list[tuple[int, int]] = []
        for row in _priority(policy, start, end, type_rank, rows).tolist():
            s, e = int(start[row]), int(end[row])
            if all(e <= ts or te <= s for ts, te in taken):
                taken.append((s, e))
                keep[row] = True
    return keep


def flatten(spans: SpanArray, policy: str) -> tuple[SpanArray, int]:
    """The spans ``policy`` keeps (in input order), and how many it dropped."""
    keep = flatten_mask(spans, policy)
    return spans.select(keep), int(len(spans) - keep.sum())
