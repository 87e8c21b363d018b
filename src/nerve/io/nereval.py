"""nereval's JSON: ``[{"text", "true": [ENTITY, ...], "predicted": [...]}]``, one object per text.

An ENTITY is ``{"text", "type", "start"}`` with a character offset; its end is
``start + len(text)``, and its text must be the document's at that offset.
"""

from __future__ import annotations

from ..errors import InputError
from ..model.spans import SpanArray
from .jsonl import Checker, Documents, parse_json, read_span_file

__all__ = ["read_nereval"]


def read_nereval(path: str) -> tuple[SpanArray, SpanArray]:
    """The gold (``true``) and predicted spans of a nereval file."""
    parsed = parse_json(path, read_span_file(path), "the file")
    if not isinstance(parsed, list):
        raise InputError(path, None, "expected a JSON list of {text, true, predicted} objects")
    gold: Documents = []
    pred: Documents = []
    for doc, obj in enumerate(parsed):
        check = Checker(path, None, doc, obj if isinstance(obj, dict) else {}, "char")
        if not isinstance(obj, dict) or set(obj) - {"text", "true", "predicted"} or "true" not in obj:
            raise check.fail('expected an object with "text", "true" and "predicted"')
        sides = []
        for key in ("true", "predicted"):
            items = obj.get(key, [])
            if not isinstance(items, list):
                raise check.fail(f'expected a list under "{key}"')
            spans = []
            for i, e in enumerate(items):
                if not isinstance(e, dict) or set(e) != {"text", "type", "start"}:
                    raise check.fail(f'{key} entity {i}: expected {{"text", "type", "start"}}, got {e!r}')
                if not isinstance(e["text"], str) or not isinstance(e["start"], int):
                    raise check.fail(f"{key} entity {i}: expected a string text and an integer start")
                spans.append(check.span(i, e["start"], e["start"] + len(e["text"]), e["type"], e["text"]))
            sides.append(spans)
        gold.append(sides[0])
        pred.append(sides[1])
    return SpanArray.from_documents(gold), SpanArray.from_documents(pred)
