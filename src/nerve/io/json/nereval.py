"""nereval's JSON: ``[{"text", "true": [ENTITY, ...], "predicted": [...]}]``, one object per text.

An ENTITY is ``{"text", "type", "start"}`` with a character offset; its end is
``start + len(text)``, and its text must be the document's at that offset.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from .jsonl import Checker, Problems, parse_json, read_span_file
from .sides import Entities, both_sides

__all__ = ["read_nereval"]


def _entity(check: Checker, key: str, i: int, e: Any) -> tuple[int, int, str]:
    if not isinstance(e, dict) or set(e) != {"text", "type", "start"}:
        expected = '{"text", "type", "start"}'
        raise check.fail(f"{key} entity {i}: expected {expected}, got {quote(e)}")
    if not isinstance(e["text"], str) or not isinstance(e["start"], int):
        raise check.fail(f"{key} entity {i}: expected a string text and an integer start")
    return check.span(i, e["start"], e["start"] + len(e["text"]), e["type"], e["text"])


def _sides(check: Checker, obj: Any) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    if not isinstance(obj, dict) or set(obj) - {"text", "true", "predicted"} or "true" not in obj:
        raise check.fail('expected an object with "text", "true" and "predicted"')
    sides = []
    for key in ("true", "predicted"):
        items = obj.get(key, [])
        if not isinstance(items, list):
            raise check.fail(f'expected a list under "{key}"')
        sides.append(check.spans(items, partial(_entity, check, key)))
    return sides[0], sides[1]


def read_nereval(path: str, problems: Problems = None) -> tuple[SpanArray, SpanArray]:
    """The gold (``true``) and predicted spans of a nereval file (``problems``: see `Checker`)."""
    parsed = parse_json(path, read_span_file(path), "the file")
    if not isinstance(parsed, list):
        raise InputError(path, None, "expected a JSON list of {text, true, predicted} objects")
    return both_sides(parsed, partial(_document, path, problems), problems)


def _document(path: str, problems: Problems, doc: int, obj: Any) -> tuple[Entities, Entities]:
    """Both sides of document ``doc``, checked."""
    return _sides(Checker(path, None, doc, obj if isinstance(obj, dict) else {}, "char", problems), obj)
