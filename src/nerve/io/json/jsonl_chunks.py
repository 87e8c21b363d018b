"""A JSONL span file in bounded pieces: whole lines of at most about `CHUNK_BYTES` at a time.

In: the path of a JSONL file. Out: `line_chunks` yields ``(bytes, number of the first line)``
pieces of whole lines, in file order, so that a reader holds one piece's parsed documents at a
time; `read_chunks` reads each piece's gold and predicted spans (`nerve.io.json.jsonl`). Documents are
one per line, so every count that adds up per document can be made piece by piece.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from ...errors import InputError
from ..progress import note

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (3 ms)
if TYPE_CHECKING:
    from ...model.spans import SpanArray

__all__ = ["CHUNK_BYTES", "line_chunks", "read_chunks"]

#: Bytes of whole lines per piece (a line longer than this is one piece of its own).
CHUNK_BYTES = 2 << 20


def line_chunks(path: str, size: int = CHUNK_BYTES) -> Iterator[tuple[bytes, int]]:
    """Pieces of whole lines of ``path``, about ``size`` bytes each, with their first line numbers."""
    if os.path.isdir(path):
        raise InputError(path, None, "is a directory, expected a span file")
    try:
        f = open(path, "rb")  # noqa: SIM115 (closed below, across the yields)
    except FileNotFoundError:
        raise InputError(path, None, "no such file") from None
    with f:
        line, rest = 1, f.read(3)
        if rest == b"\xef\xbb\xbf":
            rest = b""
        while block := f.read(size):
            note(len(block))
            data = rest + block
            cut = data.rfind(b"\n") + 1
            if not cut:
                rest = data
                continue
            piece, rest = data[:cut], data[cut:]
            yield piece, line
            line += piece.count(b"\n")
        if rest:
            yield rest, line


def read_chunks(
    path: str, units: str | None, size: int = CHUNK_BYTES
) -> Iterator[tuple[SpanArray, SpanArray]]:
    """Gold and predicted spans of each piece (``size`` bytes) of a JSONL file that holds both sides."""
    from .jsonl import no_gc, read_documents  # here: `line_chunks` needs neither, nor numpy

    docs = 0
    for data, first in line_chunks(path, size):
        with no_gc():  # as for the whole file: parsing makes many objects and frees none
            gold, pred = read_documents(path, "jsonl", units, chunk=(data, first, docs))
        docs += gold.n_docs
        if pred is None and gold.n_docs:
            raise InputError(path, first, "holds no predictions; give a prediction file too")
        yield gold, pred if pred is not None else gold
