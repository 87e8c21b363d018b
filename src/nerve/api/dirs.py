"""Directory input for ``score``: gold and prediction CoNLL files paired by their relative names.

In: two directories and a glob ``pattern`` (``*.conll`` by default), matched below each directory.
Out: the ``(gold file, prediction file)`` pairs, sorted by relative name, which `score` reads as one
corpus, each file starting a document. A file on one side only, or no match at all, is an
`InputError` naming it (or ``--pattern``).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError, OptionError
from ..options import flag

__all__ = ["DEFAULT_PATTERN", "conll_pairs"]

DEFAULT_PATTERN = "*.conll"


def conll_pairs(gold: str, pred: str | None, pattern: str | None) -> list[tuple[str, str]]:
    """The files under ``gold`` and ``pred`` that match ``pattern``, paired by relative name."""
    if pred is None or not Path(pred).is_dir():
        raise OptionError("pred", f"{gold} is a directory: give the directory of predictions beside it")
    glob = pattern or DEFAULT_PATTERN
    sides = [
        {p.relative_to(d).as_posix(): str(p) for p in Path(d).rglob(glob) if p.is_file()}
        for d in (gold, pred)
    ]
    if not sides[0] and not sides[1]:
        detail = f"no file under {gold} or {pred} matches {glob!r}"
        raise OptionError(flag("pattern"), detail + " (brat directories hold .ann files)")
    for (mine, theirs), other in (((sides[0], sides[1]), pred), ((sides[1], sides[0]), gold)):
        lone = sorted(set(mine) - set(theirs))
        if lone:
            raise InputError(mine[lone[0]], None, f"has no counterpart {lone[0]} under {other}")
    return [(sides[0][k], sides[1][k]) for k in sorted(sides[0])]
