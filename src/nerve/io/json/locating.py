"""Entities listed without offsets, found in their text: the normalisation, and the locating rules.

In: a text, the entity texts listed for it, a rule (``in-order``, ``first``, ``all``) and the
normalisation steps (``case``, ``space``, ``punct``, ``nfkc``: `nerve.io.outputs`). Out: the
character offsets of each entity in the text (`locate_listed`): none where it cannot be found.

Both the text and each entity are normalised alike, character by character (`normalised`), and
an occurrence in the normalised text maps back to the characters it came from. Occurrences of an
entity are found left to right without overlapping one another (as ``str.count`` counts them), as
plain substrings: no word boundary is asked for.

- ``in-order``: the k-th listing of an entity (its normalised text) is its k-th occurrence; a
  listing past its last occurrence is not found.
- ``first``: every listing is its first occurrence.
- ``all``: every listing is every occurrence.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

__all__ = ["locate_listed", "normalised"]


def _step(c: str, steps: Sequence[str]) -> str:
    """One character, normalised: NFKC, case-folded (and NFKC again), punctuation left out, spaces one."""
    if "nfkc" in steps:
        c = unicodedata.normalize("NFKC", c)
    if "case" in steps:
        c = c.casefold()
        if "nfkc" in steps:
            c = unicodedata.normalize("NFKC", c)
    if "punct" in steps:
        c = "".join(ch for ch in c if not unicodedata.category(ch).startswith("P"))
    if "space" in steps:
        c = "".join(" " if ch.isspace() else ch for ch in c)
    return c


def normalised(text: str, steps: Sequence[str]) -> tuple[str, list[int]]:
    """``text`` normalised by ``steps``, and for each of its characters the index it came from.

    With ``space``, a run of white space becomes one space.
    """
    if not steps:
        return text, list(range(len(text)))
    chars: list[str] = []
    where: list[int] = []
    space = "space" in steps
    for i, c in enumerate(text):
        for ch in _step(c, steps):
            if space and ch == " " and chars and chars[-1] == " ":
                continue
            chars.append(ch)
            where.append(i)
    return "".join(chars), where


def _occurrences(hay: str, needle: str) -> list[int]:
    """Where ``needle`` occurs in ``hay``, left to right, the occurrences not overlapping."""
    found, at = [], hay.find(needle)
    while at >= 0:
        found.append(at)
        at = hay.find(needle, at + len(needle))
    return found


def needle(entity: str, steps: Sequence[str]) -> str:
    """An entity's text as it is looked for: normalised (and stripped of outer white space with ``space``)."""
    out = normalised(entity, steps)[0]
    return out.strip() if "space" in steps else out


def locate_listed(
    text: str, entities: Sequence[str], rule: str, steps: Sequence[str]
) -> list[list[tuple[int, int]]]:
    """The offsets of each listed entity in ``text`` by ``rule`` (see the module); ``[]``: not found."""
    hay, where = normalised(text, steps)
    seen: dict[str, list[int]] = {}
    taken: dict[str, int] = {}
    out: list[list[tuple[int, int]]] = []
    for entity in entities:
        n = needle(entity, steps)
        if not n:
            out.append([])
            continue
        if n not in seen:
            seen[n] = _occurrences(hay, n)
        starts = seen[n]
        if rule == "in-order":
            k = taken.get(n, 0)
            taken[n] = k + 1
            starts = starts[k : k + 1]
        elif rule == "first":
            starts = starts[:1]
        out.append([(where[s], where[s + len(n) - 1] + 1) for s in starts])
    return out
