"""Which format a file or directory is in, from its name and its first bytes.

In: a path. Out: the name of a format nerve reads (`sniff_format`): ``conll`` unless the file is
JSON of a known shape, a HIPE or CoNLL-U file, or brat standoff. A directory is brat standoff,
unless its files are not ``.ann``/``.txt`` files, or its ``.txt`` files (and no ``.ann``) hold
token and tag columns: then it is a directory of CoNLL files.

`unlike` turns a reader's error on a file that looks like another format than the one it was
read as into one that says so, and what fixes it: ``--format``, or, when the gold and the
predictions are in two formats, ``--gold-format`` and ``--pred-format``.
"""

from __future__ import annotations

import os

from ..errors import InputError
from .format import HEAD, looks_like_columns
from .formats import sniff
from .sources import read_head

__all__ = ["looks_like_columns", "sniff_format", "unlike"]


def sniff_format(path: str) -> str:
    """Guess a file's format from its name and first bytes; ``conll`` unless it is JSON or brat.

    A ``.ann`` file is brat standoff, and so is a directory, unless it holds CoNLL files (see the
    module; ``--pattern`` or ``--format conll`` say so in any case). Each format's record says how
    it is told (`nerve.io.formats.sniff`).
    """
    return sniff(path)


def _looks(path: str) -> str | None:
    """The format ``path`` looks like, where it looks like one: ``conll`` only for columns."""
    try:
        if not os.path.isfile(path):
            return None
        found = sniff_format(path)
        if found == "conll" and not looks_like_columns(read_head(path, HEAD)):
            return None
    except InputError:
        return None
    return found


def unlike(err: InputError, fmt: str, gold: str, pred: str | None) -> InputError:
    """``err`` (a reader's, on ``gold`` or ``pred`` read as ``fmt``), saying what its file looks like.

    Where the file looks like another format: the ``--format`` that reads it, or, when the gold
    and the predictions look like two formats, the ``--gold-format`` and ``--pred-format`` that do.
    """
    looks = _looks(err.source) if err.source in (gold, pred) else None
    if looks is None or looks == fmt:
        return err
    detail = f"{err.detail}; the file looks like {looks}, not {fmt}"
    other = pred if err.source == gold else gold
    theirs = _looks(other) if other is not None and other != err.source else None
    if theirs is not None and theirs != looks:
        g, p = (looks, theirs) if err.source == gold else (theirs, looks)
        detail += (
            f", and {other} like {theirs}: --format names the format of both; name each file's with "
            f"--gold-format {g} --pred-format {p}"
        )
    elif pred is not None and err.source == pred and not os.path.isfile(gold):  # a gold directory
        detail += f": pass --pred-format {looks}"
    else:
        detail += f": pass --format {looks}"
    return InputError(err.source, err.line, detail)
