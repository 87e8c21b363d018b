"""JSON/JSONL documents whose offsets count UTF-8 bytes or UTF-16 code units, moved to characters.

In: the parsed documents of a ``json``, ``jsonl`` or spaCy/Prodigy JSONL file
(`nerve.io.json.jsonl.json_objects`), and the units their span offsets count (``--offsets byte`` or
``--offsets utf16``). Out: the same documents with every span's ``start`` and ``end`` as
characters of the document's ``"text"`` (Python's code points), so the reader checks them as it
checks character offsets.

A document is converted as a whole (`nerve.io.offsets.units_to_chars`, vectorised); one whose
text is ASCII (bytes) or has no character outside the Basic Multilingual Plane (UTF-16) needs no
conversion and is left as it is. The units count the text, so a document without a ``"text"``
string is an `InputError`, as is an offset that falls inside a character or beyond the text.
Spans that are not objects with integer offsets are left for the reader to report.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError, plural
from .offsets import has_astral, units_to_chars

__all__ = ["UNIT_NAMES", "in_characters"]

#: The name of each unit in messages.
UNIT_NAMES = {"byte": "UTF-8 byte", "utf16": "UTF-16", "char": "character"}
Objects = list[tuple[int | None, Any]]  # documents and their lines (`nerve.io.json.jsonl.json_objects`)
_SIDES = ("spans", "entities", "gold", "pred", "ents")  # "ents": spaCy's Doc.to_json
_TOO_FAR = 2**40  # offsets beyond are left for the reader to refuse (`nerve.io.json.jsonl.MAX_OFFSET`)


def _length(text: str, units: str) -> str:
    """The length of ``text`` in ``units``, for messages."""
    if units == "byte":
        return plural(len(text.encode("utf-8", "surrogatepass")), "byte")
    return plural(len(text.encode("utf-16-le", "surrogatepass")) // 2, "UTF-16 unit")


def in_characters(
    path: str,
    objects: list[tuple[int | None, Any]],
    units: str | None,
    problems: list[InputError] | None = None,
    first_doc: int = 0,
) -> tuple[list[tuple[int | None, Any]], str | None]:
    """``objects`` with their span offsets in ``units`` moved to characters, and the units they count.

    Offsets in other units than ``byte`` and ``utf16`` are left as they are. With ``problems``,
    a problem is collected there and its document's spans left out; otherwise the first is raised.
    Documents are numbered from ``first_doc`` (a chunk of a file starts later).

    Raises:
        InputError: a document without a ``"text"``, an offset inside a character or beyond it.
    """
    if units not in ("byte", "utf16"):
        return objects, units
    out: list[tuple[int | None, Any]] = []
    for doc, (line, obj) in enumerate(objects, start=first_doc):
        try:
            out.append((line, _document(path, line, doc, obj, units)))
        except InputError as err:
            if problems is None:
                raise
            problems.append(err)
            out.append((line, {k: [] if k in _SIDES else v for k, v in obj.items()}))
    return out, "char"


def _is_offset(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _document(path: str, line: int | None, doc: int, obj: Any, units: str) -> Any:
    """One document with its spans' offsets as characters (itself when nothing moves)."""
    if not isinstance(obj, dict):
        return obj  # the reader says what it expected
    where = f"document {doc}" if line is None else f"document {doc} (line {line})"
    text = obj.get("text")
    if not isinstance(text, str):
        detail = (
            f'{where}: has no "text" string, which --offsets {units} offsets count '
            "(add the text, or give --offsets char or token)"
        )
        raise InputError(path, line, detail, option="--offsets")
    if text.isascii() or (units == "utf16" and not has_astral(text)):
        return obj  # the same numbers as characters
    items = [(key, i, s) for key in _SIDES if isinstance(obj.get(key), list) for i, s in enumerate(obj[key])]
    items = [(k, i, s) for k, i, s in items if isinstance(s, dict) and _is_offset(s.get("start"))]
    items = [(k, i, s) for k, i, s in items if _is_offset(s.get("end")) and 0 <= s["start"] < s["end"]]
    items = [(k, i, s) for k, i, s in items if s["end"] <= _TOO_FAR]  # others: the reader says why
    if not items:
        return obj
    offsets = np.asarray([[s["start"], s["end"]] for _, _, s in items], dtype=np.int64)
    chars = units_to_chars(text, offsets.ravel(), units).reshape(-1, 2)
    bad = (chars < 0).any(axis=1)
    if bad.any():
        k = int(np.argmax(bad))
        key, i, span = items[k]
        detail = (
            f"{where}: {key} {i}: {UNIT_NAMES[units]} offsets {span['start']}, {span['end']} fall inside a "
            f"character or beyond the text ({_length(text, units)}); expected offsets at character "
            "boundaries (are they characters? then --offsets char)"
        )
        raise InputError(path, line, detail, option="--offsets")
    moved = dict(obj)
    for key in {k for k, _, _ in items}:
        moved[key] = list(obj[key])
    for (key, i, span), (a, b) in zip(items, chars.tolist(), strict=True):
        moved[key][i] = {**span, "start": a, "end": b}
    return moved
