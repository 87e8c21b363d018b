"""Directory input for ``score``: gold and prediction CoNLL files paired by their relative names.

In: two directories and a glob ``pattern`` (``*.conll`` by default), matched below each directory.
Out: the ``(gold file, prediction file)`` pairs, sorted by relative name, which `score` reads as one
corpus, each file starting a document. A file on one side only, or no match at all, is an
`InputError` naming it (or ``--pattern``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..errors import InputError, OptionError
from ..options import flag

__all__ = ["DEFAULT_PATTERN", "conll_pairs"]

DEFAULT_PATTERN = "*.conll"


def _suffixes(*directories: str) -> list[str]:
    """The name endings (``.txt``) of the files under ``directories``, the most frequent first."""
    found = Counter(
        p.suffix
        for d in directories
        for p in Path(d).rglob("*")
        if p.is_file() and not p.name.startswith(".") and p.suffix
    )
    return sorted(found, key=lambda suffix: (-found[suffix], suffix))


def _pattern(gold: str, pred: str, pattern: str | None) -> str:
    """``pattern``; by default ``*.conll``, or the one name ending of all the files where none is."""
    if pattern is not None:
        return pattern
    if any(p.is_file() for d in (gold, pred) for p in Path(d).rglob(DEFAULT_PATTERN)):
        return DEFAULT_PATTERN
    endings = _suffixes(gold, pred)
    return f"*{endings[0]}" if len(endings) == 1 else DEFAULT_PATTERN


def conll_pairs(gold: str, pred: str | None, pattern: str | None) -> list[tuple[str, str]]:
    """The files under ``gold`` and ``pred`` that match ``pattern``, paired by relative name.

    Without ``pattern``: ``*.conll``, or, where no file ends so, the one ending all the files share.
    """
    if pred is None or not Path(pred).is_dir():
        raise OptionError("pred", f"{gold} is a directory: give the directory of predictions beside it")
    glob = _pattern(gold, pred, pattern)
    sides = [
        {p.relative_to(d).as_posix(): str(p) for p in Path(d).rglob(glob) if p.is_file()}
        for d in (gold, pred)
    ]
    if not sides[0] and not sides[1]:
        endings = _suffixes(gold, pred)
        seen = f"; their files end in {', '.join(endings)}" if endings else ""
        suggest = f" (--pattern '*{endings[0]}' reads the {endings[0]} files)" if endings else ""
        detail = f"no file under {gold} or {pred} matches {glob!r}{seen}{suggest}"
        raise OptionError(flag("pattern"), detail + "; brat directories hold .ann files")
    for (mine, theirs), other in (((sides[0], sides[1]), pred), ((sides[1], sides[0]), gold)):
        lone = sorted(set(mine) - set(theirs))
        if lone:
            raise InputError(mine[lone[0]], None, f"has no counterpart {lone[0]} under {other}")
    return [(sides[0][k], sides[1][k]) for k in sorted(sides[0])]
