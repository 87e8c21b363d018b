"""Columns of parsed JSON spans: the vectorised path that the JSON span readers take first.

In: lists (documents) of span objects, as a JSON parser gives them. Out: a `SpanArray`, when every
span passes the checks at once, or ``None``: the reader then reads the spans one by one, to say
exactly what is wrong. `span_array` builds the array from columns and label names. A span's
``"score"`` (a number; a confidence) becomes the array's ``score`` column (`score_column`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from ...model.spans import SpanArray

if TYPE_CHECKING:
    from ...model.arrays import Float, Int

__all__ = ["MAX_OFFSET", "fast_columns", "is_score", "score_column", "scored_side", "span_array"]

#: The largest offset a span may have (2**40, a thousand billion characters): keys built from
#: documents and offsets then fit 64 bits, so spans of different documents never meet.
MAX_OFFSET = 2**40


def span_array(doc: Int, start: Int, end: Int, names: Sequence[str], n_docs: int) -> SpanArray:
    """A `SpanArray` of columns and one label name per span (vocabulary in order of appearance)."""
    vocab = dict.fromkeys(names)
    index = {name: i for i, name in enumerate(vocab)}
    label = np.fromiter(map(index.__getitem__, names), dtype=np.int64, count=len(names))
    return SpanArray(doc, start, end, label, tuple(vocab), n_docs)


def is_score(value: Any) -> bool:
    """Whether ``value`` is a number a span's ``"score"`` may be: an int or a float, not a boolean."""
    return type(value) in (int, float)


def score_column(items: Iterable[Any]) -> Float | None:
    """The ``"score"`` of each span object of ``items`` as ``float64``, NaN where one has none.

    ``None`` when no object has one. The values are to be checked already (`is_score`).
    """
    values = [e.get("score", math.nan) if type(e) is dict else math.nan for e in items]
    column = np.asarray(values, dtype=np.float64)
    return None if np.isnan(column).all() else column


def scored_side(spans: SpanArray, docs: list[Any], keys: Sequence[str]) -> SpanArray:
    """``spans`` with the scores of the span objects they were read from.

    Those are the list under the first of ``keys`` each document has; ``spans`` stay as they are
    when no span has a score, or ``docs`` is empty.
    """
    items: list[Any] = []
    for o in docs:
        key = next((k for k in keys if k in o), None)
        items.extend(o[key] if key is not None else ())
    column = score_column(items)
    return spans if column is None or len(column) != len(spans) else replace(spans, score=column)


def fast_columns(
    docs: Any, required: Sequence[str], allowed: set[str], end_offset: int = 0, lengths: Int | None = None
) -> SpanArray | None:
    """Columns of lists of span objects, if every check passes on the whole at once.

    Otherwise ``None``: the caller reads them one by one, to say exactly what is wrong.

    Checks: lists of objects with the required keys and no others, integer offsets (not
    booleans), string labels, ``0 <= start < end <= MAX_OFFSET``, and ``end`` within ``lengths``
    of its document when given.
    """
    if type(docs) is not list or not set(map(type, docs)) <= {list}:
        return None
    flat = list(chain.from_iterable(docs))
    try:  # the keys of every object, in order; a TypeError: not every span is an object
        shapes = set(map(tuple, map(dict.keys, flat)))
    except TypeError:
        return None
    if not set(chain.from_iterable(shapes)) <= allowed:
        return None
    (shape,) = shapes if len(shapes) == 1 else {()}
    if set(required) <= set(shape):  # every object has its keys in one order: the values in one pass
        values = list(chain.from_iterable(map(dict.values, flat)))
        starts, ends, labels = (values[shape.index(k) :: len(shape)] for k in required)
    else:
        try:
            starts, ends, labels = (list(map(itemgetter(k), flat)) for k in required)
        except KeyError:
            return None
    if not (set(map(type, starts)) | set(map(type, ends))) <= {int} or not set(map(type, labels)) <= {str}:
        return None
    doc = np.repeat(np.arange(len(docs), dtype=np.int64), list(map(len, docs)))
    try:
        start = np.asarray(starts, dtype=np.int64)
        end = np.asarray(ends, dtype=np.int64) + end_offset
    except OverflowError:  # beyond 64 bits
        return None
    if not ((start >= 0) & (start < end) & (end <= MAX_OFFSET)).all():
        return None
    if lengths is not None and not (end <= lengths[doc]).all():
        return None
    spans = span_array(doc, start, end, labels, len(docs))
    if not any("score" in shape for shape in shapes):
        return spans
    if not all(map(is_score, (e["score"] for e in flat if "score" in e))):
        return None  # read one by one: the span whose score is not a number is named
    return replace(spans, score=score_column(flat))
