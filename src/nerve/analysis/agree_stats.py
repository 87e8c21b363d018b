"""Agreement per document, and its bootstrap: the intervals of the mean pairwise F1 and of alpha.

In: two annotators' entities (`pair_counts`: their exact-match tp, fp and fn in each document both
annotated, ``b`` against ``a``); the per-document parts of alpha (`nerve.analysis.agreement`).
Out: `agree_intervals`: percentile intervals from resampling documents with replacement, drawn as
`nerve.analysis.bootstrap` draws them (the same generator, seed and chunks: one matrix product
gives every resample's totals), with the flags of too few documents.

Exact matching here is the multiset intersection of ``(start, end, type)`` per document, as
`nerve.score` counts it (a duplicate matches once); the pieces of discontinuous entities are
not compared (their extents are).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from ..errors import plural
from .agreement import alphas
from .bootstrap import percentiles, resample_totals, scores
from .units import MIN_UNITS, Flag, check_memory, varies

if TYPE_CHECKING:
    from ..model.arrays import Bool, Float, Int
    from ..model.spans import SpanArray

__all__ = ["agree_intervals", "document_flags", "pair_counts"]

FIX = "give the annotations in more documents (-DOCSTART- lines in CoNLL, one file per document in brat)"


def pair_counts(a: SpanArray, b: SpanArray, both: Bool) -> Int:
    """``(documents, 3)``: exact tp, fp and fn of ``b`` against ``a`` in each document both annotated."""
    n_docs = a.n_docs
    names = sorted(set(a.labels) | set(b.labels))
    sides = [s.relabel(names) for s in (a, b)]
    sides = [s.select(both[s.doc]) if len(s) else s for s in sides]
    rows = np.concatenate([np.stack([s.doc, s.start, s.end, s.label], axis=1) for s in sides]).astype(
        np.int64
    )
    out = np.zeros((n_docs, 3), dtype=np.int64)
    if not len(rows):
        return out
    key = _keys(rows)
    k = int(key.max()) + 1
    n_a = len(sides[0])
    hits = np.minimum(np.bincount(key[:n_a], minlength=k), np.bincount(key[n_a:], minlength=k))
    doc_of_key = np.zeros(k, dtype=np.int64)
    doc_of_key[key] = rows[:, 0]
    tp = np.bincount(doc_of_key, weights=hits, minlength=n_docs).astype(np.int64)
    gold = np.bincount(sides[0].doc, minlength=n_docs)
    found = np.bincount(sides[1].doc, minlength=n_docs)
    out[:, 0], out[:, 1], out[:, 2] = tp, found - tp, gold - tp
    return out


def _keys(rows: Int) -> Int:
    """An id for each distinct row ``(doc, start, end, label)``: one int64 each where they fit."""
    top = rows.max(axis=0) + 1
    if float(np.prod(top.astype(np.float64))) < 2.0**62:
        flat = ((rows[:, 0] * top[1] + rows[:, 1]) * top[2] + rows[:, 2]) * top[3] + rows[:, 3]
        return np.asarray(np.unique(flat, return_inverse=True)[1].reshape(-1), dtype=np.int64)
    return np.asarray(np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1), dtype=np.int64)


def document_flags(units: int) -> tuple[Flag, ...]:
    """The flags of fewer than `MIN_UNITS` documents, each with what to do."""
    if units == 0:
        return (Flag("no_units", None, f"no documents: nothing to resample, so intervals are n/a; {FIX}"),)
    if units == 1:
        detail = "one document only: every resample is the corpus itself, so intervals are n/a"
        return (Flag("one_unit", None, f"{detail}; {FIX}"),)
    if units < MIN_UNITS:
        detail = f"only {plural(units, 'document')}: intervals from fewer than {MIN_UNITS} are unreliable"
        return (Flag("few_units", None, f"{detail}; {FIX}"),)
    return ()


def _bounds(values: Float, confidence: float) -> tuple[float, float] | None:
    """The percentile interval of resampled ``values``; ``None`` if undefined somewhere or never varying."""
    if not values.shape[0] or np.isnan(values).any() or not bool(varies(values[:, None])[0]):
        return None
    low, high = percentiles(values, confidence).tolist()
    return (float(low), float(high))


def agree_intervals(
    pairs: list[Int], parts: Float, n: int, seed: int, confidence: float
) -> tuple[tuple[float, float] | None, tuple[float, float] | None, tuple[Flag, ...]]:
    """The intervals of the mean pairwise exact F1 and of alpha, from ``n`` resamples of documents.

    ``pairs``: each pair's `pair_counts`; ``parts``: alpha's per-document parts. An interval is
    ``None`` where a resample leaves a statistic undefined or none moves it.
    """
    units = parts.shape[0]
    flags = document_flags(units)
    columns = 3 * len(pairs) + parts.shape[1]
    check_memory(n, columns, plural(columns, "column"))
    if units < 2:
        return None, None, flags
    matrix = np.concatenate([*(p.astype(np.float64) for p in pairs), parts], axis=1)
    # alpha's parts are fractions: resample_totals sums in float64 whatever it is given
    totals = resample_totals(cast("Int", matrix), n, np.random.default_rng(seed))
    f1 = np.zeros(n)
    for i in range(len(pairs)):
        tp, fp, fn = totals[:, 3 * i], totals[:, 3 * i + 1], totals[:, 3 * i + 2]
        f1 += scores(tp, fp, fn)[2]
    f1 /= max(len(pairs), 1)
    alpha = alphas(totals[:, 3 * len(pairs) :])
    found = []
    for name, values in (("mean pairwise F1", f1), ("alpha", alpha)):
        if values.shape[0] and not np.isnan(values).any() and not bool(varies(values[:, None])[0]):
            message = f"{name}: every resample gives the same value, so there is no spread to measure: n/a"
            found.append(Flag("degenerate", None, message))
    return _bounds(f1, confidence), _bounds(alpha, confidence), flags + tuple(found)
