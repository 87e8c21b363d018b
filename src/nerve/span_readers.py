"""Span inputs: JSON and JSONL span files, nereval's JSON and nervaluate's span lists.

Every reader returns documents of ``(start, end, label)`` with half-open offsets, checked:
``0 <= start < end``, inside the document's text or tokens when those are given, and equal to
the entity's ``text`` when one is given. Problems raise `InputError` naming the file, the line
(JSONL) or the document, and the span.

Formats (``--format``):

- ``jsonl``: one document per line; ``json``: a list of the same documents. A document is
  ``{"id"?, "text"? | "tokens"?, "spans" | "entities" | "gold"/"pred": [SPAN, ...]}`` where SPAN
  is ``{"start", "end", "label", "text"?}``. Offsets count characters when the document has a
  ``"text"`` and tokens when it has ``"tokens"`` (``--offsets`` overrides); ``end`` is exclusive.
  One file may hold both sides (``"gold"`` and ``"pred"``), or two files hold one each.
- ``nereval``: ``[{"text", "true": [{"text", "type", "start"}], "predicted": [...]}]``, character
  offsets, the end being ``start + len(text)``.
- ``nervaluate``: a list of documents, each a list of ``{"label", "start", "end"}`` with an
  inclusive ``end`` (converted), or ``{"true": [...], "pred": [...]}`` in one file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from .errors import InputError

__all__ = ["SPAN_FORMATS", "Documents", "read_spans", "sniff_format"]

Documents = list[list[tuple[int, int, str]]]
SPAN_FORMATS = ("jsonl", "json", "nereval", "nervaluate")
_DOC_KEYS = {"id", "text", "tokens", "spans", "entities", "gold", "pred", "meta"}
_SPAN_KEYS = {"start", "end", "label", "text", "id", "score"}


def _loads() -> Callable[[bytes], Any]:
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a dependency
        return json.loads
    return orjson.loads


def _parse(path: str, data: bytes, where: str) -> Any:
    try:
        return _loads()(data)
    except ValueError as err:
        raise InputError(path, None, f"{where}: malformed JSON: {err}") from None


def _read(path: str) -> bytes:
    if os.path.isdir(path):
        raise InputError(path, None, "is a directory, expected a span file")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise InputError(path, None, "no such file") from None
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def sniff_format(path: str) -> str:
    """Guess a file's format from its name and first bytes; ``conll`` unless it is JSON."""
    if path.endswith(".jsonl"):
        return "jsonl"
    if not os.path.isfile(path):
        return "conll"  # the CoNLL reader says what is wrong with it
    with open(path, "rb") as f:
        head = f.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"{"):
        return "nervaluate" if head.startswith((b'{"true"', b'{"pred"')) else "jsonl"
    if not head.startswith(b"["):
        return "conll"
    if b'"predicted"' in head:
        return "nereval"
    stripped = head[1:].lstrip()
    return "nervaluate" if stripped.startswith(b"[") else "json"


class _Checker:
    """Checks spans of one document and says where a problem is."""

    def __init__(self, path: str, line: int | None, doc: int, doc_obj: dict[str, Any], units: str | None):
        self.path, self.line, self.doc = path, line, doc
        self.text = doc_obj.get("text")
        self.tokens = doc_obj.get("tokens")
        if units is None:
            units = "token" if self.tokens is not None and self.text is None else "char"
        self.units = units

    def fail(self, detail: str) -> InputError:
        where = f"document {self.doc}" if self.line is None else f"document {self.doc} (line {self.line})"
        return InputError(self.path, self.line, f"{where}: {detail}")

    def span(self, i: int, start: Any, end: Any, label: Any, text: Any) -> tuple[int, int, str]:
        if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool):
            raise self.fail(f"span {i}: expected integer start and end, got {start!r} and {end!r}")
        if not isinstance(label, str):
            raise self.fail(f"span {i}: expected a string label, got {label!r}")
        if not 0 <= start < end:
            raise self.fail(f"span {i}: expected 0 <= start < end (half-open), got start={start}, end={end}")
        if self.units == "char" and self.text is not None:
            if end > len(self.text):
                raise self.fail(f"span {i}: end {end} is beyond the text ({len(self.text)} characters)")
            if text is not None and self.text[start:end] != text:
                raise self.fail(f"span {i}: text[{start}:{end}] is {self.text[start:end]!r}, not {text!r}")
        if self.units == "token" and self.tokens is not None:
            if end > len(self.tokens):
                raise self.fail(f"span {i}: end {end} is beyond the {len(self.tokens)} tokens")
            if text is not None and " ".join(self.tokens[start:end]) != text:
                raise self.fail(
                    f"span {i}: tokens {start}..{end} are {' '.join(self.tokens[start:end])!r}, not {text!r}"
                )
        return start, end, label


def _spans(check: _Checker, items: Any, key: str) -> list[tuple[int, int, str]]:
    if not isinstance(items, list):
        raise check.fail(f'expected a list under "{key}", got {type(items).__name__}')
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise check.fail(f"span {i}: expected an object, got {item!r}")
        unknown = set(item) - _SPAN_KEYS
        if unknown:
            raise check.fail(
                f"span {i}: unknown key {sorted(unknown)[0]!r} (expected start, end, label, text)"
            )
        for needed in ("start", "end", "label"):
            if needed not in item:
                raise check.fail(f'span {i}: missing "{needed}"')
        out.append(check.span(i, item["start"], item["end"], item["label"], item.get("text")))
    return out


def _document(
    path: str, line: int | None, doc: int, obj: Any, units: str | None
) -> tuple[list[tuple[int, int, str]] | None, list[tuple[int, int, str]] | None]:
    """The gold and predicted spans of one document object (``None`` for a side it lacks)."""
    check = _Checker(path, line, doc, obj if isinstance(obj, dict) else {}, units)
    if not isinstance(obj, dict):
        raise check.fail(f"expected a JSON object, got {type(obj).__name__}")
    unknown = set(obj) - _DOC_KEYS
    if unknown:
        raise check.fail(f"unknown key {sorted(unknown)[0]!r} (expected {', '.join(sorted(_DOC_KEYS))})")
    if "gold" in obj or "pred" in obj:
        gold = _spans(check, obj["gold"], "gold") if "gold" in obj else None
        pred = _spans(check, obj["pred"], "pred") if "pred" in obj else None
        return gold, pred
    key = "spans" if "spans" in obj else "entities" if "entities" in obj else None
    if key is None:
        raise check.fail('expected "spans", "entities", or "gold" and "pred"')
    return _spans(check, obj[key], key), None


def _documents(path: str, fmt: str, units: str | None) -> tuple[Documents, Documents | None]:
    data = _read(path)
    objects: list[tuple[int | None, Any]]
    if fmt == "jsonl":
        objects = []
        for n, raw in enumerate(data.split(b"\n"), start=1):
            if raw.strip():
                objects.append((n, _parse(path, raw, f"line {n}")))
    else:
        parsed = _parse(path, data, "the file")
        if not isinstance(parsed, list):
            raise InputError(path, None, f"expected a JSON list of documents, got {type(parsed).__name__}")
        objects = [(None, o) for o in parsed]
    gold: Documents = []
    pred: Documents = []
    has_pred = None
    for doc, (line, obj) in enumerate(objects):
        g, p = _document(path, line, doc, obj, units)
        if has_pred is None:
            has_pred = p is not None
        if (p is not None) != has_pred or g is None:
            raise InputError(
                path, line, f"document {doc}: every document must have the same sides (gold and pred)"
            )
        gold.append(g)
        if p is not None:
            pred.append(p)
    return gold, pred if has_pred else None


def _nereval(path: str) -> tuple[Documents, Documents]:
    parsed = _parse(path, _read(path), "the file")
    if not isinstance(parsed, list):
        raise InputError(path, None, "expected a JSON list of {text, true, predicted} objects")
    gold: Documents = []
    pred: Documents = []
    for doc, obj in enumerate(parsed):
        check = _Checker(path, None, doc, obj if isinstance(obj, dict) else {}, "char")
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
    return gold, pred


def _nervaluate_docs(path: str, docs: Any, side: str) -> Documents:
    if not isinstance(docs, list):
        raise InputError(path, None, f"{side}: expected a list of documents, got {type(docs).__name__}")
    out: Documents = []
    for doc, items in enumerate(docs):
        check = _Checker(path, None, doc, {}, None)
        if not isinstance(items, list):
            raise check.fail(f"{side}: expected a list of entities")
        spans = []
        for i, e in enumerate(items):
            if not isinstance(e, dict) or set(e) != {"label", "start", "end"}:
                raise check.fail(f'{side} entity {i}: expected {{"label", "start", "end"}}, got {e!r}')
            end = e["end"] + 1 if isinstance(e["end"], int) and not isinstance(e["end"], bool) else e["end"]
            spans.append(check.span(i, e["start"], end, e["label"], None))  # nervaluate's end is inclusive
        out.append(spans)
    return out


def _nervaluate(path: str) -> tuple[Documents, Documents | None]:
    parsed = _parse(path, _read(path), "the file")
    if isinstance(parsed, dict):
        if set(parsed) != {"true", "pred"}:
            raise InputError(path, None, 'expected {"true": [...], "pred": [...]}')
        return _nervaluate_docs(path, parsed["true"], "true"), _nervaluate_docs(path, parsed["pred"], "pred")
    return _nervaluate_docs(path, parsed, "documents"), None


def read_spans(
    gold: str, pred: str | None = None, *, fmt: str | None = None, units: str | None = None
) -> tuple[Documents, Documents]:
    """Read gold and predicted spans from one file holding both, or from two files.

    Args:
        gold: the gold file, or a file with both sides.
        pred: the prediction file, if the sides are in two files.
        fmt: one of `SPAN_FORMATS`; sniffed from the gold file when ``None``.
        units: ``"char"`` or ``"token"`` offsets for json/jsonl (default: char when a document
            has a ``"text"``, token when it has ``"tokens"``).
    """
    fmt = fmt or sniff_format(gold)
    if fmt not in SPAN_FORMATS:
        raise InputError(gold, None, f"expected a span format among {', '.join(SPAN_FORMATS)}, got {fmt!r}")
    if units not in (None, "char", "token"):
        raise InputError(gold, None, f"expected offsets 'char' or 'token', got {units!r}")

    def one(path: str) -> tuple[Documents, Documents | None]:
        if fmt == "nereval":
            return _nereval(path)
        if fmt == "nervaluate":
            return _nervaluate(path)
        return _documents(path, fmt, units)

    g, p = one(gold)
    if pred is not None:
        if p is not None:
            raise InputError(gold, None, "holds predictions too; give one file with both sides, or two files")
        p2, p3 = one(pred)
        if p3 is not None:
            raise InputError(pred, None, "holds two sides; expected predictions only")
        p = p2
    if p is None:
        raise InputError(gold, None, "holds no predictions; give a prediction file too")
    if len(p) != len(g):
        raise InputError(pred or gold, None, f"has {len(p)} documents, but the gold has {len(g)}")
    return g, p
