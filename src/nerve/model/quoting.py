"""Input quoted in error messages, cut to a readable length.

Every reader message that shows a line, a field or a value of the input goes through `quote`, so
that a 50 MB line is shown as its first `QUOTE_LIMIT` characters, an ellipsis and its length.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

__all__ = ["QUOTE_LIMIT", "is_list", "quote"]

QUOTE_LIMIT = 80


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``; past ``limit`` characters, only its start, ``…`` and its length.

    A string is cut before it is quoted (``'abc'… (1,000 characters)``); another value's
    ``repr`` is cut as it is.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def is_list(value: object, *, iterable: bool = False) -> bool:
    """Whether ``value`` holds items as a list does: a sequence (an iterable with ``iterable``), no string.

    The check of an argument that takes a list of sentences, documents or spans, so that a number,
    ``None`` or a string is named as what it is rather than failing deeper down.
    """
    kind: type = Iterable if iterable else Sequence
    numpy = sys.modules.get("numpy")  # an array is made by numpy, imported by then: no import here
    if numpy is not None and isinstance(value, numpy.ndarray):
        return bool(value.ndim >= 1)
    return isinstance(value, kind) and not isinstance(value, str | bytes)
