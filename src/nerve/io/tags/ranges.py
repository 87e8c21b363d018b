"""Ranges of whole sentences: big CoNLL files cut so that threads can read them side by side.

In: a merged file, or a gold and a prediction file aligned line by line. Out: `FileRange`s (byte
ranges that start after a blank line, with the number of lines before them), the same lines in
both files; ``None`` when the files cannot be cut safely, and are then read in one go.
"""

from __future__ import annotations

import os
import re
from typing import BinaryIO

import numpy as np

from ..bytes import DOCSTART, count_lines
from ..sources import FileRange, has_lone_cr

__all__ = ["split_files"]

PIECE = 8 << 20  # bytes read at once while counting the lines before a cut


def split_files(gold: str, pred: str | None, parts: int) -> list[tuple[FileRange, FileRange | None]] | None:
    """Cut a merged file, or aligned gold and prediction files, into ranges of whole sentences.

    The ranges can be read independently. Cuts follow a blank line of the gold file, at the same
    line of the prediction file. ``None`` when no blank line is near a cut, when a lone CR ends
    lines before a cut, or when the files have different numbers of ``-DOCSTART-`` lines before
    a cut (a prediction file without them pairs sentences, not lines).
    """
    size = os.path.getsize(gold)
    cuts_gold, lines, docs = [0], [0], [0]
    with open(gold, "rb") as f:
        for k in range(1, parts):
            f.seek(max(size * k // parts, cuts_gold[-1]))
            window = f.read(1 << 20)
            after = _after_blank_line(window)
            if after is None:
                return None
            cuts_gold.append(f.tell() - len(window) + after)
        cuts_gold.append(size)
        f.seek(0)
        done = 0
        for cut in cuts_gold[1:-1]:
            counted = _count_lines(f, cut - done)
            if counted is None:
                return None  # lines ended by a lone CR: the line numbers below would be off
            lines.append(lines[-1] + counted[0])
            docs.append(docs[-1] + counted[1])
            done = cut
    golds = [FileRange(gold, a, b, n) for a, b, n in zip(cuts_gold[:-1], cuts_gold[1:], lines, strict=True)]
    if pred is None:
        return [(g, None) for g in golds]
    cuts_pred = _cuts_at_lines(pred, lines[1:], docs[1:])
    if cuts_pred is None:
        return None
    preds = [FileRange(pred, a, b, n) for a, b, n in zip(cuts_pred[:-1], cuts_pred[1:], lines, strict=True)]
    return list(zip(golds, preds, strict=True))


def _cuts_at_lines(path: str, lines: list[int], docs: list[int]) -> list[int] | None:
    """Byte offsets of ``path`` after each count of ``lines``, with 0 and the size around them.

    ``None`` when the file ends first, has a lone CR, or has another number of ``-DOCSTART-``
    lines than ``docs`` says before a cut.
    """
    cuts = [0]
    with open(path, "rb") as f:
        seen = seen_docs = 0
        for target, target_docs in zip(lines, docs, strict=True):
            at_line_start = True
            while True:
                piece = f.read(1 << 20)
                if not piece or has_lone_cr(piece):
                    return None
                n = count_lines(piece)
                if seen + n >= target:
                    at = int(np.flatnonzero(np.frombuffer(piece, dtype=np.uint8) == 10)[target - seen - 1])
                    seen_docs += _docstarts(piece[: at + 1], at_line_start)
                    if seen_docs != target_docs:
                        return None
                    cuts.append(f.tell() - len(piece) + at + 1)
                    f.seek(cuts[-1])
                    seen = target
                    break
                seen += n
                seen_docs += _docstarts(piece, at_line_start)
                at_line_start = piece.endswith(b"\n")
        cuts.append(os.path.getsize(path))
    return cuts


def _count_lines(f: BinaryIO, size: int) -> tuple[int, int] | None:
    """Lines and ``-DOCSTART-`` lines of the next ``size`` bytes of ``f`` (which start a line).

    Read in pieces of whole lines of about `PIECE` bytes, never all at once; ``None`` if a
    lone CR ends a line.
    """
    lines = docs = 0
    rest = b""
    while size > 0:
        piece = rest + f.read(min(PIECE, size))
        size -= len(piece) - len(rest)
        cut = piece.rfind(b"\n") + 1 if size > 0 else len(piece)
        if cut == 0:  # no line end yet: read on
            rest = piece
            continue
        whole, rest = piece[:cut], piece[cut:]
        if has_lone_cr(whole):  # pieces end at an LF, so no CRLF is split between two
            return None
        lines += count_lines(whole)
        docs += _docstarts(whole, True)
    return lines, docs


def _docstarts(data: bytes, at_line_start: bool) -> int:
    """How many lines of ``data`` start with ``-DOCSTART-`` (its first only if it starts a line)."""
    return data.count(b"\n" + DOCSTART) + int(at_line_start and data.startswith(DOCSTART))


def _after_blank_line(window: bytes) -> int | None:
    """The offset just after the first suitable blank line of ``window``.

    The line before it must lie wholly in the window and not be a ``-DOCSTART-`` line, so that
    a document's start stays with its sentences.
    """
    for match in re.finditer(rb"\n\r?\n", window):
        previous = window.rfind(b"\n", 0, match.start())
        if previous >= 0 and not window.startswith(DOCSTART, previous + 1):
            return match.end()
    return None
