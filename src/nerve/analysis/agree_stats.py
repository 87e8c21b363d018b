"""Agreement per document, and its bootstrap: the intervals of the mean pairwise F1 and of alpha.

In: two annotators' entities (`pair_counts`: their exact-match tp, fp and fn in each document both
annotated, ``b`` against ``a``; for many pairs, `entity_keys` gives every entity of every annotator
one id once, and `pair_counts_of_keys` counts a pair from them with bincounts); the per-document
parts of alpha (`nerve.analysis.agreement`).
Out: `agree_intervals`: percentile intervals from resampling documents with replacement, drawn as
`nerve.analysis.bootstrap` draws them (the same generator, seed and chunks: one matrix product
gives every resample's totals), with the flags of too few documents.

Exact matching here is the multiset intersection of ``(start, end, type)`` per document, as
`nerve.score` counts it (a duplicate matches once); the pieces of discontinuous entities are
not compared (their extents are).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from ..errors import plural
from .agree_formulas import degenerate_flag, document_flags
from .agreement import alphas
from .bootstrap import percentiles, resample_totals, scores
from .units import Flag, check_memory, varies

if TYPE_CHECKING:
    from ..model.arrays import Bool, Float, Int
    from ..model.spans import SpanArray

__all__ = [
    "EntityKeys",
    "agree_intervals",
    "document_flags",
    "entity_keys",
    "pair_counts",
    "pair_counts_of_keys",
]


def pair_counts(a: SpanArray, b: SpanArray, both: Bool) -> Int:
    """``(documents, 3)``: exact tp, fp and fn of ``b`` against ``a`` in each document both annotated."""
    keys = entity_keys([a, b])
    return pair_counts_of_keys(keys, 0, 1, (a, b), both)


@frozen(eq=False)
class EntityKeys:
    """One id per distinct entity ``(doc, start, end, type name)`` of several annotators.

    ``of[a]``: the id of each of annotator ``a``'s entities; ``doc``: the document of each id.
    """

    of: tuple[Int, ...]
    doc: Int


def entity_keys(spans: list[SpanArray]) -> EntityKeys:
    """The `EntityKeys` of each annotator's ``spans`` (the same entity has the same id in each)."""
    names = sorted({name for s in spans for name in s.labels})
    moved = [s.relabel(names) for s in spans]
    rows = np.concatenate(
        [np.stack([s.doc, s.start, s.end, s.label], axis=1) for s in moved]
        or [np.zeros((0, 4), dtype=np.int64)]
    ).astype(np.int64)
    key = _keys(rows) if len(rows) else np.zeros(0, dtype=np.int64)
    doc = np.zeros(int(key.max()) + 1 if len(key) else 0, dtype=np.int64)
    doc[key] = rows[:, 0]
    bounds = np.cumsum([0, *(len(s) for s in spans)])
    return EntityKeys(tuple(key[lo:hi] for lo, hi in itertools.pairwise(bounds.tolist())), doc)


def pair_counts_of_keys(
    keys: EntityKeys, i: int, j: int, sides: tuple[SpanArray, SpanArray], both: Bool
) -> Int:
    """`pair_counts` of annotators ``i`` and ``j`` (``sides``) from their `entity_keys`."""
    a, b = sides
    n_docs, k = a.n_docs, keys.doc.shape[0]
    ka, kb = keys.of[i][both[a.doc]], keys.of[j][both[b.doc]]
    hits = np.minimum(np.bincount(ka, minlength=k), np.bincount(kb, minlength=k))
    tp = np.bincount(keys.doc, weights=hits, minlength=n_docs).astype(np.int64)
    gold = np.bincount(keys.doc[ka], minlength=n_docs)
    found = np.bincount(keys.doc[kb], minlength=n_docs)
    out = np.zeros((n_docs, 3), dtype=np.int64)
    out[:, 0], out[:, 1], out[:, 2] = tp, found - tp, gold - tp
    return out


def _keys(rows: Int) -> Int:
    """An id for each distinct row ``(doc, start, end, label)``: one int64 each where they fit."""
    top = rows.max(axis=0) + 1
    if float(np.prod(top.astype(np.float64))) < 2.0**62:
        flat = ((rows[:, 0] * top[1] + rows[:, 1]) * top[2] + rows[:, 2]) * top[3] + rows[:, 3]
        return np.asarray(np.unique(flat, return_inverse=True)[1].reshape(-1), dtype=np.int64)
    return np.asarray(np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1), dtype=np.int64)


def _bounds(values: Float, confidence: float) -> tuple[float, float] | None:
    """The percentile interval of resampled ``values``; ``None`` if undefined somewhere or never varying."""
    if not values.shape[0] or np.isnan(values).any() or not bool(varies(values[:, None])[0]):
        return None
    low, high = percentiles(values, confidence).tolist()
    return (float(low), float(high))


def agree_intervals(
    pairs: list[Int], parts: Int, m: int, drawn: tuple[int, int, float]
) -> tuple[tuple[float, float] | None, tuple[float, float] | None, tuple[Flag, ...]]:
    """The intervals of the mean pairwise exact F1 and of alpha, from ``n`` resamples of documents.

    ``pairs``: each pair's `pair_counts`; ``parts``: alpha's per-document parts (``m`` annotators);
    ``drawn``: the resamples, the seed and the confidence. An interval is ``None`` where a resample
    leaves a statistic undefined or none moves it.
    """
    n, seed, confidence = drawn
    units = parts.shape[0]
    flags = document_flags(units)
    columns = 3 * len(pairs) + parts.shape[1]
    check_memory(n, columns, plural(columns, "column"))
    if units < 2:
        return None, None, flags
    matrix = np.concatenate([*pairs, parts], axis=1).astype(np.int64)  # whole numbers: exact sums
    totals = resample_totals(matrix, n, np.random.default_rng(seed))
    f1 = np.zeros(n)
    for i in range(len(pairs)):
        tp, fp, fn = totals[:, 3 * i], totals[:, 3 * i + 1], totals[:, 3 * i + 2]
        f1 += scores(tp, fp, fn)[2]
    f1 /= max(len(pairs), 1)
    alpha = alphas(totals[:, 3 * len(pairs) :], m)
    found = []
    for name, values in (("mean pairwise F1", f1), ("alpha", alpha)):
        if values.shape[0] and not np.isnan(values).any() and not bool(varies(values[:, None])[0]):
            found.append(degenerate_flag(name))
    return _bounds(f1, confidence), _bounds(alpha, confidence), flags + tuple(found)
