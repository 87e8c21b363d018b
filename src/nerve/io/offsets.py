"""Text and offsets as the span readers of annotation tools need them.

In: the bytes of a text file, or a document's text and offsets counted in UTF-16 code units (the
length of a JavaScript string). Out: the text decoded as UTF-8 (an error names the line of the
first bad byte), and offsets converted to characters as Python counts them (code points).

A character outside the Basic Multilingual Plane (most emoji) is one code point but two UTF-16
units, so every UTF-16 offset after one is too large by one: `utf16_to_chars` converts them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError

if TYPE_CHECKING:
    from ..model.arrays import Int

__all__ = [
    "UTF16_MISFIT",
    "byte_to_chars",
    "decode_utf8",
    "first_difference",
    "has_astral",
    "units_to_chars",
    "utf16_span",
    "utf16_to_chars",
]


def decode_utf8(path: str, data: bytes, keep_bom: bool = False) -> str:
    """``data`` decoded as UTF-8, without a leading byte order mark unless ``keep_bom``.

    Raises:
        InputError: bytes that are not UTF-8, naming the line of the first one.
    """
    try:
        return data.decode("utf-8" if keep_bom else "utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        detail = f"byte {data[err.start]:#04x} is not UTF-8 (expected a text encoded as UTF-8)"
        raise InputError(path, line, detail) from None


def has_astral(text: str) -> bool:
    """Whether ``text`` has a character that is two UTF-16 code units (outside the BMP)."""
    return not text.isascii() and len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)


def utf16_to_chars(text: str, offsets: Int) -> Int:
    """The character offsets of UTF-16 ``offsets`` into ``text``.

    An offset that falls between the two units of one character, is negative or lies beyond
    the text gives -1.
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    if not has_astral(text):
        return np.where((offsets >= 0) & (offsets <= len(text)), offsets, -1)
    wide = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32) > 0xFFFF
    units = np.zeros(len(text) + 1, dtype=np.int64)  # the UTF-16 offset of each character
    np.cumsum(1 + wide, out=units[1:])
    chars = np.searchsorted(units, offsets)
    inside = chars <= len(text)
    ok = inside & (offsets >= 0)
    ok[inside] &= units[chars[inside]] == offsets[inside]
    return np.where(ok, chars, -1)


def byte_to_chars(text: str, offsets: Int) -> Int:
    """The character offsets of UTF-8 byte ``offsets`` into ``text``.

    An offset that falls inside the bytes of one character, is negative or lies beyond the text
    gives -1.
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    if text.isascii():
        return np.where((offsets >= 0) & (offsets <= len(text)), offsets, -1)
    code = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    width = 1 + (code > 0x7F) + (code > 0x7FF) + (code > 0xFFFF)
    starts = np.zeros(len(text) + 1, dtype=np.int64)  # the byte offset of each character
    np.cumsum(width, out=starts[1:])
    chars = np.searchsorted(starts, offsets)
    inside = chars <= len(text)
    ok = inside & (offsets >= 0)
    ok[inside] &= starts[chars[inside]] == offsets[inside]
    return np.where(ok, chars, -1)


def units_to_chars(text: str, offsets: Int, units: str) -> Int:
    """``offsets`` counted in ``units`` (``char``, ``utf16`` or ``byte``) as characters; -1 where none."""
    if units == "utf16":
        return utf16_to_chars(text, offsets)
    if units == "byte":
        return byte_to_chars(text, offsets)
    offsets = np.asarray(offsets, dtype=np.int64)
    return np.where((offsets >= 0) & (offsets <= len(text)), offsets, -1)


UTF16_MISFIT = "fall inside a character or beyond the text"


def utf16_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """One span's UTF-16 offsets as characters of ``text``.

    ``None`` when one falls inside a character or beyond the text: the caller says `UTF16_MISFIT`.
    """
    a, b = utf16_to_chars(text, np.asarray([start, end], dtype=np.int64)).tolist()
    return None if a < 0 or b < 0 else (a, b)


def first_difference(a: str, b: str) -> int:
    """The first character index where ``a`` and ``b`` differ (the shorter length if one starts the other)."""
    n = min(len(a), len(b))
    lo, hi = 0, n  # a[:lo] == b[:lo]; the difference is before hi, or at n
    while lo < hi:  # halving: a few slices compared in C, not a loop over characters
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo
