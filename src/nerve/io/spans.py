"""Span inputs: which format a file is in, and the entry points that read one.

Every reader returns a `SpanArray` per side, checked: ``0 <= start < end``, inside the
document's text or tokens when those are given, and equal to the entity's ``text`` when one is
given. Problems raise `InputError` naming the file, the line (JSONL) or the document, and the
span.

Formats (``--format``), one module each:

- ``jsonl`` and ``json`` (`nerve.io.jsonl`): documents of ``{"start", "end", "label", "text"?}``
  spans with half-open offsets, one side per file or ``"gold"`` and ``"pred"`` in one.
- ``nereval`` (`nerve.io.nereval`): ``[{"text", "true": [...], "predicted": [...]}]``.
- ``nervaluate`` (`nerve.io.nervaluate`): lists of ``{"label", "start", "end"}`` with an
  inclusive ``end`` (converted), or ``{"true": [...], "pred": [...]}`` in one file.
- ``eval4ner`` (`nerve.io.eval4ner`): ``(type, surface)`` entities located in their sentence.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable

from ..errors import InputError, plural
from ..model.spans import SpanArray
from .eval4ner import read_eval4ner
from .jsonl import Documents, no_gc, read_documents
from .nereval import read_nereval
from .nervaluate import read_nervaluate
from .sources import read_head

__all__ = [
    "SPAN_FORMATS",
    "SPAN_READERS",
    "Documents",
    "read_span_columns",
    "read_spans",
    "sniff_format",
    "span_lists",
]

Reader = Callable[[str, str | None], tuple[SpanArray, SpanArray | None]]

#: Each span format's reader: path and offset units in, the gold side (and predictions) out.
SPAN_READERS: dict[str, Reader] = {
    "jsonl": lambda path, units: read_documents(path, "jsonl", units),
    "json": lambda path, units: read_documents(path, "json", units),
    "nereval": lambda path, _: read_nereval(path),
    "nervaluate": lambda path, _: read_nervaluate(path),
    "eval4ner": lambda path, _: read_eval4ner(path),
}
SPAN_FORMATS = tuple(SPAN_READERS)


def sniff_format(path: str) -> str:
    """Guess a file's format from its name and first bytes; ``conll`` unless it is JSON."""
    if not os.path.isfile(path):
        return "jsonl" if path.endswith(".jsonl") else "conll"  # the reader says what is wrong
    head = read_head(path, 4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"{", b"[")) and re.search(rb'"(gold|pred)"\s*:\s*\[\s*\[\s*"', head):
        return "eval4ner"
    if path.endswith(".jsonl"):
        return "jsonl"
    if head.startswith(b"{"):
        return "nervaluate" if head.startswith((b'{"true"', b'{"pred"')) else "jsonl"
    if not head.startswith(b"["):
        return "conll"
    if b'"predicted"' in head:
        return "nereval"
    stripped = head[1:].lstrip()
    return "nervaluate" if stripped.startswith(b"[") else "json"


def read_spans(
    gold: str, pred: str | None = None, *, fmt: str | None = None, units: str | None = None
) -> tuple[Documents, Documents]:
    """Read gold and predicted spans as lists of ``(start, end, label)`` per document.

    See `read_span_columns` for the arguments.
    """
    g, p = read_span_columns(gold, pred, fmt=fmt, units=units)
    return g.documents(), p.documents()


def read_span_columns(
    gold: str, pred: str | None = None, *, fmt: str | None = None, units: str | None = None
) -> tuple[SpanArray, SpanArray]:
    """Read gold and predicted spans from one file holding both, or from two files.

    Args:
        gold: the gold file, or a file with both sides.
        pred: the prediction file, if the sides are in two files.
        fmt: one of `SPAN_FORMATS`; sniffed from the gold file when ``None``.
        units: ``"char"`` or ``"token"`` offsets for json/jsonl (default: char when a document
            has a ``"text"``, token when it has ``"tokens"``).
    """
    fmt = fmt or sniff_format(gold)
    if fmt not in SPAN_FORMATS:
        raise InputError(gold, None, f"expected a span format among {', '.join(SPAN_FORMATS)}, got {fmt!r}")
    if units not in (None, "char", "token"):
        raise InputError(gold, None, f"expected offsets 'char' or 'token', got {units!r}")
    reader = SPAN_READERS[fmt]
    with no_gc():
        g, p = reader(gold, units)
    if pred is not None:
        if p is not None:
            raise InputError(gold, None, "holds predictions too; give one file with both sides, or two files")
        with no_gc():
            p, both = reader(pred, units)
        if both is not None:
            raise InputError(pred, None, "holds two sides; expected predictions only")
    if p is None:
        raise InputError(gold, None, "holds no predictions; give a prediction file too")
    if p.n_docs != g.n_docs:
        raise InputError(
            pred or gold, None, f"has {plural(p.n_docs, 'document')}, but the gold has {g.n_docs}"
        )
    return g, p


def span_lists(docs: Iterable[Iterable[tuple[int, int, str]]], side: str) -> SpanArray:
    """The `SpanArray` of one list of ``(start, end, label)`` per document, given in Python.

    Raises:
        InputError: a document that is not a list, or a span that is not three values with
            integer offsets and a label, named by ``side``, document and span.
    """
    lists: list[list[tuple[int, int, str]]] = []
    for i, doc in enumerate(docs):
        try:
            lists.append(list(doc))
        except TypeError:
            detail = f"expected a list of spans, got {doc!r}"
            raise InputError(f"{side}: document {i}", None, detail) from None
    try:
        return SpanArray.from_documents(lists)
    except (TypeError, ValueError):
        pass
    for i, spans in enumerate(lists):
        for j, span in enumerate(spans):
            try:
                _, _, label = span
                int(span[0]), int(span[1]), hash(label)
            except (TypeError, ValueError):
                where = f"{side}: document {i}, span {j}"
                raise InputError(where, None, f"expected (start, end, label), got {span!r}") from None
    raise InputError(side, None, "expected one list of (start, end, label) per document")
