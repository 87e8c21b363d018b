"""How the lines of a gold and a prediction CoNLL file pair: line by line, or sentence by sentence.

In: the classified lines of a block of each file (`io.tags.conll_lines.Lines`). Out: the rows that pair.
Files pair line by line, unless the prediction file lacks the gold file's ``-DOCSTART-`` lines (a
tags-only file, or one written from ``grep -v -- -DOCSTART-``): then they pair sentence by
sentence (`sentence_rows`): token lines one to one, and each run of blank and ``-DOCSTART-``
lines between two sentences as one line. Once files were found to differ, `rest_pairs` tells
whether the rest of them still pairs line by line (then ``--ignore-tokens`` is worth suggesting).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ...errors import InputError
from ..sources import LineSource
from .conll_c import SENTENCES_NOTE  # the note's one wording, shared with the C engine
from .conll_lines import BLANK, COMMENT, DOC, TOKEN, classify_lines

if TYPE_CHECKING:
    from ...model.arrays import Codes as Kinds
    from ...model.arrays import Int

__all__ = ["SENTENCES_NOTE", "kinds_pair", "lacks_docstarts", "rest_pairs", "sentence_rows", "separators"]


def lacks_docstarts(g_kinds: Kinds, p_kinds: Kinds) -> bool | None:
    """Whether the prediction file lacks the gold file's ``-DOCSTART-`` lines; ``None``: not known yet.

    The kinds are those of the lines (comments left out) of each file's first block. The
    prediction file lacks them when it has no ``-DOCSTART-`` line where the gold file has its first.
    """
    docs = np.flatnonzero(g_kinds == DOC)
    if not docs.shape[0]:
        return None
    k = int(docs[0])
    return not (k < p_kinds.shape[0] and p_kinds[k] == DOC)


def sentence_rows(kinds: Kinds, rows: Int) -> Int:
    """The ``rows`` (of lines of ``kinds``) that pair sentence by sentence.

    Token lines, and the first line of each run of blank and ``-DOCSTART-`` lines after a token
    line. A block starts after such a run (or at the start of the file), so leading ones pair
    with nothing.
    """
    k = kinds[rows]
    token = k == TOKEN
    before = np.zeros(k.shape[0], dtype=bool)
    before[1:] = token[:-1]
    return rows[token | before]


def separators(kinds: Kinds) -> Kinds:
    """``kinds`` with ``-DOCSTART-`` lines read as blank lines, as sentences pair."""
    return np.where(kinds == DOC, BLANK, kinds).astype(np.int8)


def rest_pairs(
    sources: Iterable[tuple[LineSource, bytes, int | None]], comments: bool, sentences: bool
) -> bool:
    """Whether the rest of a gold and a prediction file pairs line by line (`kinds_pair`).

    ``sources``: each file's `LineSource`, the lines read from it but not yet taken, and its
    delimiter. The rest is read, and only the kind of each line is kept. ``False`` when the
    rest cannot be read.
    """
    pieces = []
    try:
        for source, data, delimiter in sources:
            kinds = []
            while data or not source.done:
                if data:
                    kinds.append(classify_lines(data, 1, comments, delimiter).kind)
                data = source.more() if not source.done else b""
            pieces.append(kinds)
    except InputError:
        return False
    return kinds_pair(pieces[0], pieces[1], sentences)


def kinds_pair(gold: Iterable[Kinds], pred: Iterable[Kinds], sentences: bool) -> bool:
    """Whether the lines of the kinds ``gold`` and ``pred`` (each file's rest, piece by piece) pair.

    Comments are left out; with ``sentences``, the lines pair sentence by sentence. Trailing
    blank lines may differ.
    """
    sides = []
    for pieces in (gold, pred):
        kinds = np.concatenate([np.zeros(0, dtype=np.int8), *pieces])
        rows = np.flatnonzero(kinds != COMMENT)
        if sentences:
            rows = sentence_rows(kinds, rows)
        k = separators(kinds[rows]) if sentences else kinds[rows]
        content = np.flatnonzero(k != BLANK)
        sides.append(k[: int(content[-1]) + 1] if content.shape[0] else k[:0])
    return sides[0].shape[0] == sides[1].shape[0] and bool((sides[0] == sides[1]).all())
