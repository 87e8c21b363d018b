"""Offsets in UTF-16 code units and UTF-8 bytes, converted to characters, against Python's own encoders."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nerve.io.offsets import byte_to_chars, units_to_chars, utf16_to_chars

ENCODING = {"utf16": ("utf-16-le", 2), "byte": ("utf-8", 1)}
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


def naive(text: str, offsets: list[int], units: str) -> list[int]:
    """Each offset's character index, found by encoding every prefix of the text."""
    if units == "char":
        return [o if 0 <= o <= len(text) else -1 for o in offsets]
    encoding, size = ENCODING[units]
    at = {len(text[:i].encode(encoding)) // size: i for i in range(len(text) + 1)}
    return [at.get(o, -1) for o in offsets]


@settings(max_examples=300, deadline=None)
@given(texts, st.lists(st.integers(-2, 130), max_size=12), st.sampled_from(["char", "utf16", "byte"]))
def test_units_to_chars_against_the_encoders(text: str, offsets: list[int], units: str) -> None:
    got = units_to_chars(text, np.asarray(offsets, dtype=np.int64), units).tolist()
    assert got == naive(text, offsets, units)


def test_an_emoji_before_a_span() -> None:
    text = "😀 Paris é"  # the emoji: 1 character, 2 UTF-16 units, 4 UTF-8 bytes
    assert utf16_to_chars(text, np.asarray([3, 8])).tolist() == [2, 7]
    assert byte_to_chars(text, np.asarray([5, 10, 13])).tolist() == [2, 7, 9]
    assert byte_to_chars(text, np.asarray([1, 12])).tolist() == [-1, -1]  # inside the emoji, inside é
