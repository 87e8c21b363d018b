"""Who marked what: the votes of annotators on each entity, their consensus, and their disagreements.

In: each annotator's entities over the same documents (one `SpanArray` each, same offsets) and
which documents each annotated. Out: `Votes`: every distinct entity (document, start, end, type)
with the annotators who marked it, and the cluster of overlapping entities it belongs to;
`consensus` (the entities a majority, or all, of the annotators of their document marked; ties
counted and named, never broken); and the disagreeing clusters (`clusters_apart`).

An entity is voted on by the annotators who annotated its document. ``majority``: more than half
of them marked it; exactly half is a tie, reported and left out. ``unanimous``: all of them. A
cluster is a run of entities of one document that overlap one another; it is agreed when every
entity in it was marked by every annotator of its document, else it is a disagreement of one
category: ``missed`` (an annotator marked nothing there), ``type`` (the same extents, other
types), ``boundary`` (one type, other extents) or ``boundary_type``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from ..model.spans import SpanArray
from .agree_result import AGREE_CATEGORIES, RULES

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int

__all__ = ["AGREE_CATEGORIES", "RULES", "Votes", "categories_of", "clusters_apart", "consensus", "votes_of"]


@frozen(eq=False)
class Votes:
    """Every distinct entity marked by someone, sorted by document, start and longest first.

    Attributes:
        doc, start, end, label: the entity (``label`` indexes ``labels``).
        voters: ``(entities, annotators)``: who marked it.
        eligible: how many annotators annotated its document.
        cluster: the cluster of overlapping entities it is in (numbered from 0 in order).
        present: ``(annotators, documents)`` as given.
    """

    doc: Int
    start: Int
    end: Int
    label: Int
    labels: tuple[str, ...]
    voters: Bool
    eligible: Int
    cluster: Int
    present: Bool

    @property
    def count(self) -> Int:
        """How many annotators marked each entity."""
        return np.asarray(self.voters.sum(axis=1), dtype=np.int64)


def votes_of(spans: list[SpanArray], present: Bool) -> Votes:
    """The `Votes` of each annotator's ``spans`` (an entity marked twice by one counts once)."""
    labels = tuple(sorted({name for s in spans for name in s.labels}))
    moved = [s.relabel(labels) for s in spans]
    rows = np.concatenate(
        [np.stack([s.doc, s.start, s.end, s.label], axis=1) for s in moved]
        or [np.zeros((0, 4), dtype=np.int64)]
    ).astype(np.int64)
    who = np.repeat(np.arange(len(spans), dtype=np.int64), [len(s) for s in spans])
    order = _order(rows)
    rows, who = rows[order], who[order]
    fresh = np.ones(len(rows), dtype=np.bool_)
    fresh[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    key = np.cumsum(fresh) - 1
    unique = rows[fresh]
    voters = np.zeros((len(unique), len(spans)), dtype=np.bool_)
    voters[key, who] = True
    doc, start, end = unique[:, 0], unique[:, 1], unique[:, 2]
    eligible = present[:, doc].sum(axis=0).astype(np.int64) if len(doc) else np.zeros(0, np.int64)
    return Votes(doc, start, end, unique[:, 3], labels, voters, eligible, _clusters(doc, start, end), present)


def _order(rows: Int) -> Int:
    """The stable order of ``rows`` by document, start, longest first, label (one int64 key if it fits)."""
    if not len(rows):
        return np.zeros(0, dtype=np.int64)
    top = rows.max(axis=0) + 1
    if float(np.prod(top.astype(np.float64))) < 2.0**62 and bool((rows >= 0).all()):
        key = ((rows[:, 0] * top[1] + rows[:, 1]) * top[2] + (top[2] - 1 - rows[:, 2])) * top[3] + rows[:, 3]
        return np.asarray(np.argsort(key, kind="stable"), dtype=np.int64)
    return np.asarray(np.lexsort((rows[:, 3], -rows[:, 2], rows[:, 1], rows[:, 0])), dtype=np.int64)


def _clusters(doc: Int, start: Int, end: Int) -> Int:
    """The cluster of each entity (sorted by document and start): runs that overlap one another."""
    if not len(doc):
        return np.zeros(0, dtype=np.int64)
    width = int(end.max()) + 1
    reach = np.maximum.accumulate(doc * width + end)  # the farthest end so far, in this document
    new = np.ones(len(doc), dtype=np.bool_)
    new[1:] = doc[1:] * width + start[1:] >= reach[:-1]
    return np.cumsum(new).astype(np.int64) - 1


def consensus(votes: Votes, rule: str) -> tuple[SpanArray, Bool]:
    """The entities ``rule`` keeps (over the documents of ``votes``), and which entities tie.

    A tie (``majority`` only): exactly half of the annotators of the document marked it.
    """
    count, eligible = votes.count, votes.eligible
    if rule == "unanimous":
        keep, tie = count == eligible, np.zeros(len(count), dtype=np.bool_)
    else:
        keep, tie = 2 * count > eligible, 2 * count == eligible
    keep &= eligible > 0
    n_docs = int(votes.present.shape[1])
    spans = SpanArray(
        votes.doc[keep], votes.start[keep], votes.end[keep], votes.label[keep], votes.labels, n_docs
    )
    return spans, tie


def categories_of(votes: Votes) -> tuple[Int, Int]:
    """The disagreeing clusters (their numbers) and the category of each (indexes `AGREE_CATEGORIES`)."""
    n = int(votes.cluster[-1]) + 1 if len(votes.cluster) else 0
    c = votes.cluster
    short = np.bincount(c, weights=(votes.count < votes.eligible), minlength=n) > 0
    marked = np.zeros((n, votes.voters.shape[1]), dtype=np.bool_)
    np.logical_or.at(marked, c, votes.voters)
    first = np.searchsorted(c, np.arange(n))
    doc = votes.doc[first]
    silent = (votes.present[:, doc].T & ~marked).any(axis=1)
    same_extent = _same(c, votes.start, n) & _same(c, votes.end, n)
    same_type = _same(c, votes.label, n)
    kind = np.where(silent, 0, np.where(same_extent, 1, np.where(same_type, 2, 3)))
    apart = np.flatnonzero(short | silent)
    return apart, kind[apart].astype(np.int64)


def _same(cluster: Int, values: Int, n: int) -> Bool:
    """Whether ``values`` are one value throughout each cluster."""
    low = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    high = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(low, cluster, values)
    np.maximum.at(high, cluster, values)
    return np.asarray(low == high, dtype=np.bool_)


def clusters_apart(votes: Votes) -> list[tuple[int, str, list[int]]]:
    """Each disagreeing cluster: its number, its category and the rows of ``votes`` in it."""
    apart, kinds = categories_of(votes)
    bounds = np.searchsorted(votes.cluster, np.concatenate([apart, apart + 1]).reshape(2, -1))
    return [
        (int(a), AGREE_CATEGORIES[int(k)], list(range(int(lo), int(hi))))
        for a, k, lo, hi in zip(apart, kinds, bounds[0], bounds[1], strict=True)
    ]
