"""nervaluate's span lists: documents of ``{"label", "start", "end"}`` with an inclusive ``end``.

A file holds one side (a list of documents, each a list of entities) or both
(``{"true": [...], "pred": [...]}``). Ends are converted to half-open offsets.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from .compiled import as_span_array, read_columns
from .jsonl import Checker, Documents, Problems, collect, fast_columns, parse_json, read_span_file

__all__ = ["read_nervaluate"]


def _columns(path: str, docs: Any, side: str, problems: Problems) -> SpanArray:
    fast = fast_columns(docs, ("start", "end", "label"), {"start", "end", "label"}, end_offset=1)
    if fast is not None:
        return fast
    return SpanArray.from_documents(_documents(path, docs, side, problems))


def _entity(check: Checker, side: str, i: int, e: Any) -> tuple[int, int, str]:
    if not isinstance(e, dict) or set(e) != {"label", "start", "end"}:
        raise check.fail(f'{side} entity {i}: expected {{"label", "start", "end"}}, got {quote(e)}')
    end = e["end"] + 1 if isinstance(e["end"], int) and not isinstance(e["end"], bool) else e["end"]
    return check.span(i, e["start"], end, e["label"], None)  # nervaluate's end is inclusive


def _documents(path: str, docs: Any, side: str, problems: Problems) -> Documents:
    if not isinstance(docs, list):
        raise InputError(path, None, f"{side}: expected a list of documents, got {type(docs).__name__}")
    out: Documents = []
    for doc, items in enumerate(docs):
        check = Checker(path, None, doc, {}, None, problems)
        if isinstance(items, list):
            out.append(check.spans(items, partial(_entity, check, side)))
        else:
            collect(problems, check.fail(f"{side}: expected a list of entities"))
            out.append([])
    return out


def read_nervaluate(path: str, problems: Problems = None) -> tuple[SpanArray, SpanArray | None]:
    """The spans of a nervaluate file: gold and predicted, or one side and ``None``.

    ``problems``: see `Checker`.
    """
    data = read_span_file(path)
    compiled = read_columns((data,), "nervaluate")
    if compiled is not None:  # the compiled reader read it all; else it hands over to this one
        gold, pred = compiled
        return as_span_array(gold), None if pred is None else as_span_array(pred)
    parsed = parse_json(path, data, "the file")
    if isinstance(parsed, dict):
        if set(parsed) != {"true", "pred"}:
            raise InputError(path, None, 'expected {"true": [...], "pred": [...]}')
        return _columns(path, parsed["true"], "true", problems), _columns(
            path, parsed["pred"], "pred", problems
        )
    return _columns(path, parsed, "documents", problems), None
