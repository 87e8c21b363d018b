"""Spans given in Python, as one list of ``(start, end, label)`` per document, made columns and checked.

In: the lists a caller of `nerve.score_spans` passes, or a `SpanArray` built by hand. Out: a checked
`SpanArray`; a malformed span raises `InputError` naming the side, the document and the span.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from ...errors import InputError
from ...model.quoting import is_list, quote
from ...model.spans import SpanArray
from .jsonl import MAX_OFFSET, is_offset, span_array

__all__ = ["check_columns", "span_lists", "span_triple"]


def span_lists(docs: Iterable[Iterable[tuple[int, int, str]]], side: str) -> SpanArray:
    """The `SpanArray` of one list of ``(start, end, label)`` per document, given in Python.

    Raises:
        InputError: a document that is not a list, or a span that is not three values with
            integer offsets (not booleans), ``0 <= start < end <= 2**40``, and a string label,
            named by ``side``, document and span.
    """
    if not is_list(docs, iterable=True):
        raise InputError(
            side, None, f"expected one list of (start, end, label) per document, got {quote(docs)}"
        )
    lists: list[list[tuple[int, int, str]]] = []
    for i, doc in enumerate(docs):
        try:
            lists.append(list(doc))
        except TypeError:
            detail = f"expected a list of spans, got {quote(doc)}"
            raise InputError(f"{side}: document {i}", None, detail) from None
    flat = list(chain.from_iterable(lists))
    try:  # columns at once when every span is three values of the right types
        if set(map(len, flat)) <= {3}:
            starts, ends, labels = (list(map(itemgetter(k), flat)) for k in range(3))
            named = all(issubclass(t, str) for t in set(map(type, labels)))
            if named and _integers(starts) and _integers(ends):
                doc = np.repeat(np.arange(len(lists), dtype=np.int64), list(map(len, lists)))
                start, end = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
                return check_columns(span_array(doc, start, end, labels, len(lists)), side)
    except (TypeError, KeyError, IndexError, OverflowError):  # not sequences, or beyond 64 bits
        pass
    for i, spans in enumerate(lists):
        for j, span in enumerate(spans):
            _check_span(span, f"{side}: document {i}, span {j}")
    raise InputError(side, None, "expected one list of (start, end, label) per document")


def _integers(values: list[Any]) -> bool:
    """Whether every value is an integer (numpy's too), and none a boolean."""
    return all(t is not bool and issubclass(t, int | np.integer) for t in set(map(type, values)))


def span_triple(span: Any, where: str, expected: str = "(start, end, label)") -> tuple[int, int, str]:
    """``span`` as ``(start, end, label)``, checked to be integer offsets and a string label.

    Raises:
        InputError: at ``where``, for anything else, saying what was ``expected`` of something
            that is not a triple (the offsets' range is the caller's to check).
    """
    try:
        start, end, label = span
    except (TypeError, ValueError):
        raise InputError(where, None, f"expected {expected}, got {quote(span)}") from None
    if not (is_offset(start) and is_offset(end) and isinstance(label, str)):
        detail = f"expected (start, end, label) with integer offsets and a string label, got {quote(span)}"
        raise InputError(where, None, detail)
    return start, end, label


def _check_span(span: Any, where: str) -> None:
    """Raise `InputError` at ``where`` unless ``span`` is a well-formed ``(start, end, label)``."""
    start, end, _ = span_triple(span, where)
    if not 0 <= start < end <= MAX_OFFSET:
        raise InputError(where, None, f"expected 0 <= start < end <= 2**40, got start={start}, end={end}")


def check_columns(spans: SpanArray, side: str) -> SpanArray:
    """``spans`` if every one has ``0 <= start < end <= 2**40``, a document and a label in range.

    Raises:
        InputError: the first span that has not, named by ``side``, document and span.
    """
    ok = (spans.start >= 0) & (spans.start < spans.end) & (spans.end <= MAX_OFFSET)
    ok &= (spans.doc >= 0) & (spans.doc < spans.n_docs)
    ok &= (spans.label >= 0) & (spans.label < len(spans.labels))
    if ok.all():
        return spans
    k = int(np.argmin(ok))
    d, start, end = int(spans.doc[k]), int(spans.start[k]), int(spans.end[k])
    where = f"{side}: document {d}, span {int(np.count_nonzero(spans.doc[:k] == d))}"
    if not 0 <= d < spans.n_docs:
        raise InputError(where, None, f"expected a document in 0..{spans.n_docs - 1}")
    if not 0 <= int(spans.label[k]) < len(spans.labels):
        raise InputError(where, None, f"expected a label id in 0..{len(spans.labels) - 1}")
    raise InputError(where, None, f"expected 0 <= start < end <= 2**40, got start={start}, end={end}")
