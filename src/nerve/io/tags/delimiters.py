"""What separates the columns of a CoNLL file, sniffed from its first lines, file by file.

In: the first MiB of a file (a path, a byte range of one, or a seekable stream). Out: the byte
value of the tab (9) when the file is tab-separated, else ``None`` (runs of spaces and tabs, as
conlleval.pl reads). A tab-separated file keeps its empty fields: ``token<TAB>`` has an empty
(outside) tag, ``<TAB>O`` an empty token, which runs of blanks would read as one field. So a gold
file and each prediction file may be separated differently and still be read together.
"""

from __future__ import annotations

import codecs
import os
from typing import TYPE_CHECKING

import numpy as np

from ..bytes import BOM, DOCSTART
from ..sources import FileRange, Readable, unify_line_ends

if TYPE_CHECKING:
    pass

__all__ = ["HEAD_BYTES", "file_delimiter", "sniff_delimiter"]

HEAD_BYTES = 1 << 20
TAB, SPACE, CR, LF = 9, 32, 13, 10


def sniff_delimiter(data: bytes) -> int | None:
    """Tab (9) when ``data``'s first lines are tab-separated, else ``None`` (runs of blanks).

    Tab-separated: every token line (not blank, not ``-DOCSTART-``, not starting with ``#``)
    holds the same number of tabs, at least one, and no space beside a tab or at either end of a
    line (``token <TAB>O`` is aligned by hand: runs of blanks read it as meant).
    """
    data = unify_line_ends(data.removeprefix(BOM))
    data = data[: data.rfind(b"\n") + 1]
    if b"\t" not in data:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    end = np.flatnonzero(buf == LF)
    start = np.zeros_like(end)
    start[1:] = end[:-1] + 1
    tabs = np.concatenate(([0], np.cumsum(buf == TAB)))
    other = np.concatenate(([0], np.cumsum((buf != TAB) & (buf != SPACE) & (buf != LF))))
    token = other[end] > other[start]
    first = buf[np.minimum(start, buf.shape[0] - 1)]
    token &= first != ord("#")
    for i in np.flatnonzero(token & (first == DOCSTART[0])).tolist():
        token[i] = not data.startswith(DOCSTART, int(start[i]))
    if not token.any():
        return None
    count = (tabs[end] - tabs[start])[token]
    if count[0] == 0 or (count != count[0]).any():
        return None
    rows = np.flatnonzero(token)
    if (buf[start[rows]] == SPACE).any() or (buf[np.maximum(end[rows] - 1, 0)] == SPACE).any():
        return None
    beside = ((buf[:-1] == SPACE) & (buf[1:] == TAB)) | ((buf[:-1] == TAB) & (buf[1:] == SPACE))
    return None if beside.any() else TAB


def _head(source: Readable, encoding: str) -> bytes:
    """The first `HEAD_BYTES` of ``source`` as UTF-8 (a stream is put back where it was)."""
    if isinstance(source, FileRange):
        source = source.path
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as f:
                raw = f.read(HEAD_BYTES)
        except OSError:
            return b""  # the reader says why
    else:
        seekable = getattr(source, "seekable", None)
        if seekable is None or not seekable():
            return b""
        at = source.tell()
        raw = source.read(HEAD_BYTES)
        source.seek(at)
    if codecs.lookup(encoding).name == "utf-8":
        return raw
    return raw.decode(encoding, "ignore").encode("utf-8")


def file_delimiter(source: Readable, encoding: str = "utf-8") -> int | None:
    """`sniff_delimiter` of the first MiB of a file (the whole file's, for a range of one)."""
    return sniff_delimiter(_head(source, encoding))
