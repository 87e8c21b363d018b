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

from .. import options
from ..errors import InputError
from .format import HEAD, looks_like_columns
from .formats import sniff
from .sources import read_head

__all__ = ["Named", "looks_like_columns", "sniff_format", "unlike"]

#: The option that named the gold's and the predictions' format (`unlike`), ``None``: sniffed.
Named = tuple[str | None, str | None]


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


def unlike(
    err: InputError, fmt: str, gold: str, pred: str | None, named: Named = ("input_format", "input_format")
) -> InputError:
    """``err`` (a reader's, on ``gold`` or ``pred`` read as ``fmt``), saying what its file looks like.

    ``named``: the option that named each side's format (``input_format``, ``gold_format``,
    ``pred_format``), ``None`` where it was sniffed or taken from the gold's. Where the file looks
    like another format: the setting of that option that reads it, or, when ``input_format``
    named both and the two files look like two formats, the ``gold_format`` and ``pred_format``
    that do.
    """
    looks = _looks(err.source) if err.source in (gold, pred) else None
    if looks is None or looks == fmt:
        return err
    detail = f"{err.detail}; the file looks like {looks}, not {fmt}"
    mine = 1 if err.source == pred else 0  # as the caller took its format
    option = named[mine]
    other = pred if mine == 0 else gold
    theirs = _looks(other) if other is not None and other != err.source else None
    if option == "input_format" and named[1 - mine] == option and theirs not in (None, looks):
        g, p = (looks, theirs) if mine == 0 else (theirs, looks)
        both = f"{options.setting('gold_format', g)} {options.setting('pred_format', p)}"
        detail += (
            f", and {other} like {theirs}: {options.flag('input_format')} names the format of both; "
            f"name each file's with {both}"
        )
    elif option is None or (option == "input_format" and named[1 - mine] != option):
        detail += f": pass {options.setting(('gold_format', 'pred_format')[mine], looks)}"
    else:
        detail += f": pass {options.setting(option, looks)}"
    return InputError(err.source, err.line, detail)
