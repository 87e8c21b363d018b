"""Entity spans from a column of tags: the decoding shared by the HIPE and CoNLL-U readers.

In: one tag per token (any scheme: IOB1, IOB2, IOE, IOBES, BILOU... spelled ``B-X``), the
document of each token and where sentences start. Out: `SpanArray` columns in token offsets
within each document.

The rule is nerve's shared decoding rule (``repair="begin"``), `nerve.model.chunks.decode_ids`, the
one `nerve.tagging.decode` builds on: an entity tag continues the open entity when the table says
so, else it begins one; no entity crosses a sentence start or a document. Tags are looked up once
per distinct tag.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..._frozen import frozen
from ...errors import InputError
from ...model.chunks import decode_ids, neighbours
from ...model.pairs import code_tables, pair_codes
from ...model.spans import SpanArray
from ...model.vocab import TagVocab
from ..bytes import BOM, intern
from ..offsets import decode_utf8
from ..sources import read_bytes, unify_line_ends

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Bool, Bytes, Int

__all__ = [
    "ByteLines",
    "ColumnLines",
    "cells",
    "decode_tag_ids",
    "merge_layers",
    "sorted_strings",
    "strings",
    "text_bytes",
    "text_lines",
]


def decode_tag_ids(
    names: Sequence[str],
    inverse: Int,
    doc: Int,
    sentence_start: Bool,
    n_docs: int,
    where: tuple[str, Int],
    outside: str = "O",
) -> SpanArray:
    """The entities of the tags ``names[inverse[i]]``, offsets counted in tokens from each document start.

    Args:
        names: the distinct tags, sorted.
        inverse: the tag of each token, as an index into ``names``; all documents end to end.
        doc: the document of each token (non-decreasing).
        sentence_start: whether each token starts a sentence (a document start is one too).
        n_docs: the number of documents, with those without tokens.
        where: the file and the line of each token, for the error of a tag nerve cannot read.
        outside: the outside tag.

    Raises:
        InputError: a tag that has not the form of the others (``B-X``), at its line.
    """
    n = int(inverse.shape[0])
    if n == 0:
        return SpanArray.from_documents([[] for _ in range(n_docs)])
    vocab = TagVocab(outside=outside)
    known = vocab.add(list(names))
    if (known < 0).any():
        bad = int(np.argmin(known))
        k = int(np.argmax(inverse == bad))
        path, lines = where
        raise InputError(path, int(lines[k]), f"{vocab.explain(names[bad])}")
    ids = known[inverse]
    kinds, types = vocab.kinds, vocab.types
    starts_doc = sentence_start.copy()
    starts_doc[0] = True
    starts_doc[1:] |= doc[1:] != doc[:-1]  # no entity crosses a document either
    prev = neighbours(ids, starts_doc)[0]
    chunks = decode_ids(ids, pair_codes(prev, ids, kinds, types), code_tables(None)[0], kinds, types)
    start, end = chunks.start, chunks.end
    first_token = np.searchsorted(doc, np.arange(n_docs, dtype=np.int64))  # of each document
    span_doc = doc[start]
    base = first_token[span_doc]
    return SpanArray(
        doc=span_doc.astype(np.int64),
        start=(start - base).astype(np.int64),
        end=(end - base).astype(np.int64),
        label=chunks.type.astype(np.int64),
        labels=tuple(vocab.type_names),
        n_docs=n_docs,
    )


def text_lines(path: str) -> list[str]:
    """The lines of the UTF-8 file ``path``: a byte order mark dropped, CR LF and lone CR read as LF.

    Raises:
        InputError: no such file, or bytes that are not UTF-8.
    """
    text = decode_utf8(path, read_bytes(path))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


#: The ASCII characters that ``str.strip`` removes (``str.isspace``), as byte values.
_SPACES = np.zeros(256, dtype=bool)
_SPACES[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True
_ASCII_SPACES = bytes(np.flatnonzero(_SPACES).tolist())


@frozen
class ByteLines:
    """The lines of a UTF-8 file as `text_lines` splits them, located in its bytes (no newline).

    Line ``i`` is ``data[start[i]:end[i]]``; ``buf`` is ``data`` as a ``uint8`` array.
    """

    data: bytes
    buf: Bytes
    start: Int
    end: Int
    tab: Int  # where the tabs are

    def __len__(self) -> int:
        return int(self.start.shape[0])

    def text(self, i: int) -> str:
        """Line ``i`` decoded."""
        return self.data[int(self.start[i]) : int(self.end[i])].decode("utf-8")

    def first_byte(self, value: int) -> Bool:
        """Whether each line starts with the byte ``value``."""
        return (self.start < self.end) & (self.buf[np.minimum(self.start, len(self.data) - 1)] == value)

    def blank(self) -> Bool:
        """Whether each line is blank as ``not line.strip()`` says (non-ASCII spaces too).

        Only lines that start with a space or a non-ASCII byte are looked at one by one.
        """
        empty = self.start == self.end
        first = self.buf[np.minimum(self.start, len(self.data) - 1)]
        blank = empty.copy()
        for i in np.flatnonzero(~empty & (_SPACES[first] | (first >= 0x80))).tolist():
            rest = self.data[int(self.start[i]) : int(self.end[i])].lstrip(_ASCII_SPACES)
            blank[i] = not rest or (rest[0] >= 0x80 and not self.text(i).strip())
        return blank

    def tabs(self, rows: Int) -> tuple[Int, Int]:
        """The tab positions of the file, and the index among them of the first tab of each row."""
        return self.tab, np.searchsorted(self.tab, self.start[rows])

    def widths(self, rows: Int) -> Int:
        """The number of tab-separated cells of each line in ``rows``."""
        return np.searchsorted(self.tab, self.end[rows]) - np.searchsorted(self.tab, self.start[rows]) + 1

    def cells(self, rows: Int, k: int, width: int) -> tuple[Int, Int]:
        """Where cell ``k`` of each line in ``rows`` is; every such line has ``width`` tab-separated cells."""
        tabs, first = self.tabs(rows)
        start = self.start[rows] if k == 0 else tabs[first + k - 1] + 1
        end = self.end[rows] if k == width - 1 else tabs[first + k]
        return start, end

    def strings(self, start: Int, end: Int, rename: dict[str, str] | None) -> tuple[list[str], Int]:
        """The distinct strings ``data[start[i]:end[i]]`` sorted (renamed first), and the index of each."""
        ids, values = intern(self.buf, start, end)
        return sorted_strings(ids, values, rename)


class ColumnLines(Protocol):
    """The lines of a file located in its bytes: `ByteLines` (numpy), or the compiled engine's scan.

    Line ``i`` is ``data[start[i]:end[i]]``, without its end; ``buf`` is ``data`` as ``uint8``.
    """

    @property
    def data(self) -> bytes:
        """The bytes of the file."""

    @property
    def buf(self) -> Bytes:
        """``data`` as a ``uint8`` array."""

    @property
    def start(self) -> Int:
        """Where each line starts."""

    @property
    def end(self) -> Int:
        """Where each line ends (its line end excluded)."""

    def __len__(self) -> int:
        """The number of lines."""

    def text(self, i: int) -> str:
        """Line ``i`` decoded."""

    def widths(self, rows: Int) -> Int:
        """The number of tab-separated cells of each line in ``rows``."""

    def cells(self, rows: Int, k: int, width: int) -> tuple[Int, Int]:
        """Where cell ``k`` of each line in ``rows`` is; every such line has ``width`` cells."""

    def strings(self, start: Int, end: Int, rename: dict[str, str] | None) -> tuple[list[str], Int]:
        """The distinct strings ``data[start[i]:end[i]]`` sorted (renamed first), and the index of each."""


def text_bytes(path: str, data: bytes | None = None) -> ByteLines:
    """The lines of `text_lines`, in bytes: checked as UTF-8, byte order mark dropped, CR LF and CR as LF.

    ``data`` is the file's bytes, where they are read already.

    Raises:
        InputError: no such file, or bytes that are not UTF-8.
    """
    if data is None:
        data = read_bytes(path)
    decode_utf8(path, data)
    if data.startswith(BOM):
        data = data[len(BOM) :]
    data = unify_line_ends(data)  # old Mac files end lines with a lone CR
    if data and not data.endswith(b"\n"):
        data += b"\n"
    buf = np.frombuffer(data, dtype=np.uint8)
    end = np.flatnonzero(buf == 10)
    start = np.zeros_like(end)
    start[1:] = end[:-1] + 1
    return ByteLines(data, buf, start, end, np.flatnonzero(buf == 9))


def cells(lines: ColumnLines, rows: Int, k: int, width: int) -> tuple[Int, Int]:
    """Where cell ``k`` of each line in ``rows`` is; every such line has ``width`` tab-separated cells."""
    return lines.cells(rows, k, width)


def strings(
    lines: ColumnLines, start: Int, end: Int, rename: dict[str, str] | None = None
) -> tuple[list[str], Int]:
    """The distinct strings ``data[start[i]:end[i]]`` sorted (renamed first), and the index of each."""
    return lines.strings(start, end, rename)


def sorted_strings(
    ids: npt.NDArray[np.intp] | Int, values: Sequence[bytes], rename: dict[str, str] | None
) -> tuple[list[str], Int]:
    """``values`` decoded (renamed) and sorted, without repeats, and the index there of ``values[ids[i]]``."""
    texts = [v.decode("utf-8") for v in values]
    if rename:
        texts = [rename.get(t, t) for t in texts]
    names = sorted(set(texts))
    at = {t: i for i, t in enumerate(names)}
    remap = np.asarray([at[t] for t in texts], dtype=np.int64)
    return names, remap[ids] if ids.shape[0] else np.zeros(0, dtype=np.int64)


def merge_layers(layers: Sequence[SpanArray]) -> SpanArray:
    """The spans of every layer in one `SpanArray` (overlapping spans kept), labels in order met."""
    first = layers[0]
    if len(layers) == 1:
        return first
    names: list[str] = []
    moved = []
    for layer in layers:
        layer = layer.relabel(names)
        names = list(layer.labels)
        moved.append(layer)
    moved = [m.relabel(names) for m in moved]
    cols = {k: np.concatenate([getattr(m, k) for m in moved]) for k in ("doc", "start", "end", "label")}
    order = np.lexsort((cols["label"], cols["end"], cols["start"], cols["doc"]))
    return SpanArray(
        doc=cols["doc"][order],
        start=cols["start"][order],
        end=cols["end"][order],
        label=cols["label"][order],
        labels=tuple(names),
        n_docs=first.n_docs,
    )
