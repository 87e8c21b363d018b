"""Span scoring's parts: exact matches per type, flattening both sides by a policy, the settings.

In: both sides of a corpus as `SpanArray` columns in one type vocabulary. Out: the exact matches
per type id (`exact_hits`), or both sides flattened (`flatten_sides`) with how many entities each
side dropped counted in its notes, which every rendering of the result shows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import InputError
from ..matching.exact import exact_match_fragments, exact_match_types
from ..model.nesting import flatten

if TYPE_CHECKING:
    from ..model.arrays import Int
    from ..model.spans import SpanArray

__all__ = ["dropped_note", "exact_hits", "flatten_sides"]


def dropped_note(policy: str) -> str:
    """The note that counts the entities of a side that flattening by ``policy`` dropped."""
    return f"entities dropped by flattening ({policy})"


def flatten_sides(gold: SpanArray, pred: SpanArray, policy: str | None) -> tuple[SpanArray, SpanArray]:
    """Both sides flattened by ``policy`` (`nerve.model.nesting.flatten`), or as they are for ``None``.

    Each side's notes count what it dropped, zero included, so the result says flattening ran.
    """
    if policy is None:
        return gold, pred
    out = []
    for side in (gold, pred):
        kept, dropped = flatten(side, policy)
        out.append(replace(kept, notes={**side.notes, dropped_note(policy): dropped}))
    return out[0], out[1]


def exact_hits(g: SpanArray, p: SpanArray, width: int, n: int, source: str) -> Int:
    """Exact matches per type, keying a position by document * width + offset.

    Discontinuous entities match when every piece is equal (`exact_match_fragments`).
    """
    if g.fragments is not None or p.fragments is not None:
        return exact_match_fragments(g, p, n)
    too_far = f"{g.n_docs} documents with offsets up to {width - 1}: too many to match in 64-bit keys"
    if g.n_docs * width >= 2**62:
        raise InputError(source, None, too_far)
    try:
        return exact_match_types(
            (g.doc * width + g.start, g.doc * width + g.end, g.label),
            (p.doc * width + p.start, p.doc * width + p.end, p.label),
            n,
        )
    except OverflowError:  # the key of (position, length, type)
        raise InputError(source, None, f"{too_far} with spans this long") from None
