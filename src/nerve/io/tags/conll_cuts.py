"""Where a merged CoNLL file can be cut in two, so that two counters give what one pass gives.

In: a window of the file's bytes from about its middle (the start of the window may be mid-line).
Out: the offset in the window of a line a second counter can start at, and the documents to take
off the sum, or ``None``. A counter starts outside any sentence, with a document begun at its first
token (`csrc/conll.c`, ``nc_start``), so a cut must fall where one pass has that state or one that
differs by a known count:

- before a ``-DOCSTART-`` line: one pass begins a document there too (nothing to take off);
- after a blank line between two token lines: one pass is in a document already, and the second
  counter counts one too many (one to take off).

Lines are judged cautiously (anything that might be a comment, a ``-DOCSTART-`` line or blank is no
token line), and a cut is only sought for delimiters of blanks or tabs, where a ``-DOCSTART-`` line
is one whatever follows it.

`threads` is how many threads a file is read in, on either engine (`nerve.api.shards` cuts at
blank lines for the numpy one).
"""

from __future__ import annotations

import os

__all__ = ["SPLIT_BYTES", "cut_in", "threads"]

#: A file this large is read in two threads on a machine of two cores or more, on either engine.
SPLIT_BYTES = 8 << 20

_ENDS = (b" ", b"\t", b"\r", b"\n")


def threads(size: int, workers: int | None) -> int:
    """The threads a file of ``size`` bytes is read in: ``workers`` if given, else 2 or 1 (`SPLIT_BYTES`)."""
    if workers is not None:
        return workers
    return 2 if (os.cpu_count() or 1) >= 2 and size >= SPLIT_BYTES else 1


def cut_in(window: bytes) -> tuple[int, int] | None:
    """The first cut in ``window``: ``(offset, documents to take off)``, or ``None``."""
    at = window.find(b"\n-DOCSTART-")
    while at >= 0 and window[at + 11 : at + 12] not in _ENDS:
        at = window.find(b"\n-DOCSTART-", at + 1)
    if at >= 0 and at + 12 <= len(window):
        return at + 1, 0
    return _after_blank(window)


def _after_blank(window: bytes) -> tuple[int, int] | None:
    """The first line after an empty line (LF or CRLF) with token lines on both sides."""
    start = 0
    while True:
        lf, crlf = window.find(b"\n\n", start), window.find(b"\n\r\n", start)
        found = [(p, n) for p, n in ((lf, 2), (crlf, 3)) if p >= 0]
        if not found:
            return None
        end, width = min(found)
        cut = end + width
        before = window.rfind(b"\n", 0, end)
        after = window.find(b"\n", cut)
        if before >= 0 and after >= 0 and _token(window[before + 1 : end]) and _token(window[cut:after]):
            return cut, 1
        start = end + 1


def _token(line: bytes) -> bool:
    """Whether ``line`` is surely a token line: not blank, no comment, no ``-DOCSTART-``."""
    line = line.rstrip(b"\r")
    return bool(line.strip()) and not line.startswith((b"#", b"-DOCSTART-", b"\xef\xbb\xbf"))
