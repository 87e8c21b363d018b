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
- ``eval4ner``: eval4ner's ``(type, surface)`` entities with their sentence, one sentence per
  line (JSONL) or a JSON list: ``{"id"?, "text", "gold": [[TYPE, SURFACE], ...], "pred": [...]}``.
  Each surface is located in the text by `nerve.compat.eval4ner.locate` (the k-th entity with a
  repeated surface takes its k-th occurrence). A gold surface that is not in the text is an
  error; a predicted one can match nothing and counts as spurious.
"""

from __future__ import annotations

import gc
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError
from ..model.quoting import quote
from .sources import read_head

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]

__all__ = ["SPAN_FORMATS", "Documents", "SpanColumns", "read_span_columns", "read_spans", "sniff_format"]

Documents = list[list[tuple[int, int, str]]]
SPAN_FORMATS = ("jsonl", "json", "nereval", "nervaluate", "eval4ner")
_DOC_KEYS = {"id", "text", "tokens", "spans", "entities", "gold", "pred", "meta"}
_SPAN_KEYS = {"start", "end", "label", "text", "id", "score"}


@dataclass(frozen=True)
class SpanColumns:
    """The spans of many documents as parallel arrays (labels as strings), in document order."""

    doc: Int
    start: Int
    end: Int
    label: list[str]
    n_docs: int

    @classmethod
    def from_documents(cls, docs: Documents) -> SpanColumns:
        """Columns of checked documents of ``(start, end, label)``."""
        lengths = [len(d) for d in docs]
        flat = [span for d in docs for span in d]
        return cls(
            np.repeat(np.arange(len(docs), dtype=np.int64), lengths),
            np.asarray([s for s, _, _ in flat], dtype=np.int64),
            np.asarray([e for _, e, _ in flat], dtype=np.int64),
            [t for _, _, t in flat],
            len(docs),
        )

    def documents(self) -> Documents:
        """Back to one list of ``(start, end, label)`` per document."""
        out: Documents = [[] for _ in range(self.n_docs)]
        for d, s, e, t in zip(
            self.doc.tolist(), self.start.tolist(), self.end.tolist(), self.label, strict=True
        ):
            out[d].append((s, e, t))
        return out


def _fast_columns(
    docs: Any, required: Sequence[str], allowed: set[str], end_offset: int = 0, lengths: Int | None = None
) -> SpanColumns | None:
    """Columns of lists of span objects, if every check passes on the whole at once.

    Otherwise ``None``: the caller reads them one by one, to say exactly what is wrong.

    Checks: lists of objects with the required keys and no others, integer offsets, string
    labels, ``0 <= start < end``, and ``end`` within ``lengths`` of its document when given.
    """
    if type(docs) is not list or not set(map(type, docs)) <= {list}:
        return None
    flat = list(chain.from_iterable(docs))
    if not set(map(type, flat)) <= {dict} or not set(chain.from_iterable(flat)) <= allowed:
        return None
    try:
        starts, ends, labels = (list(map(itemgetter(k), flat)) for k in required)
    except KeyError:
        return None
    if not (set(map(type, starts)) | set(map(type, ends))) <= {int} or not set(map(type, labels)) <= {str}:
        return None
    doc = np.repeat(np.arange(len(docs), dtype=np.int64), list(map(len, docs)))
    start = np.asarray(starts, dtype=np.int64)
    end = np.asarray(ends, dtype=np.int64) + end_offset
    if not ((start >= 0) & (start < end)).all():
        return None
    if lengths is not None and not (end <= lengths[doc]).all():
        return None
    return SpanColumns(doc, start, end, labels, len(docs))


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


@contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while parsing.

    Parsing creates millions of small objects and no cycles; collections triggered by those
    allocations would cost more than the parse itself.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
    if not os.path.isfile(path):
        return "jsonl" if path.endswith(".jsonl") else "conll"  # the reader says what is wrong
    head = read_head(path, 4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"{", b"[")) and re.search(rb'"(gold|pred)"\s*:\s*\[\s*\[\s*"', head):
        return "eval4ner"
    if path.endswith(".jsonl"):
        return "jsonl"
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
            raise self.fail(f"span {i}: expected integer start and end, got {quote(start)} and {quote(end)}")
        if not isinstance(label, str):
            raise self.fail(f"span {i}: expected a string label, got {quote(label)}")
        if not 0 <= start < end:
            raise self.fail(f"span {i}: expected 0 <= start < end (half-open), got start={start}, end={end}")
        if self.units == "char" and self.text is not None:
            if end > len(self.text):
                raise self.fail(f"span {i}: end {end} is beyond the text ({len(self.text)} characters)")
            if text is not None and self.text[start:end] != text:
                found = quote(self.text[start:end])
                raise self.fail(f"span {i}: text[{start}:{end}] is {found}, not {quote(text)}")
        if self.units == "token" and self.tokens is not None:
            if end > len(self.tokens):
                raise self.fail(f"span {i}: end {end} is beyond the {len(self.tokens)} tokens")
            if text is not None and " ".join(self.tokens[start:end]) != text:
                found = quote(" ".join(self.tokens[start:end]))
                raise self.fail(f"span {i}: tokens {start}..{end} are {found}, not {quote(text)}")
        return start, end, label


def _spans(check: _Checker, items: Any, key: str) -> list[tuple[int, int, str]]:
    if not isinstance(items, list):
        raise check.fail(f'expected a list under "{key}", got {type(items).__name__}')
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise check.fail(f"span {i}: expected an object, got {quote(item)}")
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


def _documents_fast(
    objects: list[tuple[int | None, Any]], units: str | None
) -> tuple[SpanColumns, SpanColumns | None] | None:
    """Columns of JSON/JSONL documents when all of them pass the checks at once."""
    docs = [o for _, o in objects]
    if any(type(o) is not dict or o.keys() - _DOC_KEYS for o in docs):
        return None
    two = "gold" in docs[0] or "pred" in docs[0] if docs else True
    keys = ("gold", "pred") if two else ("spans", "entities")
    if two and not all("gold" in o and "pred" in o for o in docs):
        return None
    if not two and not all(("spans" in o) != ("entities" in o) for o in docs):
        return None
    sides = []
    lengths = _doc_lengths(docs, units)
    for key in keys[: 2 if two else 1]:
        lists = [o[key] if key in o or two else o[keys[1]] for o in docs]
        columns = _fast_columns(lists, ("start", "end", "label"), _SPAN_KEYS, lengths=lengths)
        if columns is None or not _texts_match(docs, lists, units):
            return None
        sides.append(columns)
    return sides[0], sides[1] if two else None


def _doc_lengths(docs: list[dict[str, Any]], units: str | None) -> Int | None:
    """How far offsets may reach in each document (a huge number where nothing says)."""
    out = np.full(len(docs), np.iinfo(np.int64).max, dtype=np.int64)
    for i, o in enumerate(docs):
        unit = units or ("token" if "tokens" in o and "text" not in o else "char")
        bound = o.get("text") if unit == "char" else o.get("tokens")
        if bound is not None:
            out[i] = len(bound)
    return out


def _texts_match(docs: list[dict[str, Any]], lists: list[Any], units: str | None) -> bool:
    """Whether every span that gives its ``text`` covers exactly that text."""
    for o, spans in zip(docs, lists, strict=True):
        unit = units or ("token" if "tokens" in o and "text" not in o else "char")
        for e in spans:
            if "text" not in e:
                continue
            if unit == "char":
                if o.get("text") is not None and o["text"][e["start"] : e["end"]] != e["text"]:
                    return False
            elif o.get("tokens") is not None and " ".join(o["tokens"][e["start"] : e["end"]]) != e["text"]:
                return False
    return True


def _documents(path: str, fmt: str, units: str | None) -> tuple[SpanColumns, SpanColumns | None]:
    objects = _json_objects(path, _read(path), fmt)
    fast = _documents_fast(objects, units)
    if fast is not None:
        return fast
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
    return SpanColumns.from_documents(gold), SpanColumns.from_documents(pred) if has_pred else None


def _nereval(path: str) -> tuple[SpanColumns, SpanColumns]:
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
                    expected = '{"text", "type", "start"}'
                    raise check.fail(f"{key} entity {i}: expected {expected}, got {quote(e)}")
                if not isinstance(e["text"], str) or not isinstance(e["start"], int):
                    raise check.fail(f"{key} entity {i}: expected a string text and an integer start")
                spans.append(check.span(i, e["start"], e["start"] + len(e["text"]), e["type"], e["text"]))
            sides.append(spans)
        gold.append(sides[0])
        pred.append(sides[1])
    return SpanColumns.from_documents(gold), SpanColumns.from_documents(pred)


def _nervaluate_columns(path: str, docs: Any, side: str) -> SpanColumns:
    fast = _fast_columns(docs, ("start", "end", "label"), {"start", "end", "label"}, end_offset=1)
    if fast is not None:
        return fast
    return SpanColumns.from_documents(_nervaluate_docs(path, docs, side))


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
                raise check.fail(f'{side} entity {i}: expected {{"label", "start", "end"}}, got {quote(e)}')
            end = e["end"] + 1 if isinstance(e["end"], int) and not isinstance(e["end"], bool) else e["end"]
            spans.append(check.span(i, e["start"], end, e["label"], None))  # nervaluate's end is inclusive
        out.append(spans)
    return out


def _nervaluate(path: str) -> tuple[SpanColumns, SpanColumns | None]:
    parsed = _parse(path, _read(path), "the file")
    if isinstance(parsed, dict):
        if set(parsed) != {"true", "pred"}:
            raise InputError(path, None, 'expected {"true": [...], "pred": [...]}')
        return _nervaluate_columns(path, parsed["true"], "true"), _nervaluate_columns(
            path, parsed["pred"], "pred"
        )
    return _nervaluate_columns(path, parsed, "documents"), None


def _json_objects(path: str, data: bytes, fmt: str) -> list[tuple[int | None, Any]]:
    """The documents of a JSONL file (with their line numbers) or of a JSON list."""
    if fmt == "jsonl":
        lines = [(n, raw) for n, raw in enumerate(data.split(b"\n"), start=1) if raw.strip()]
        try:  # one parse of all lines as a JSON list; line by line only to locate an error
            parsed_lines = _loads()(b"[" + b",".join(raw for _, raw in lines) + b"]")
        except ValueError:
            parsed_lines = [_parse(path, raw, f"line {n}") for n, raw in lines]
        if len(parsed_lines) != len(lines):  # a line held several values
            parsed_lines = [_parse(path, raw, f"line {n}") for n, raw in lines]
        return [(n, obj) for (n, _), obj in zip(lines, parsed_lines, strict=True)]
    parsed = _parse(path, data, "the file")
    if not isinstance(parsed, list):
        raise InputError(path, None, f"expected a JSON list of documents, got {type(parsed).__name__}")
    return [(None, o) for o in parsed]


def _eval4ner_shapes_ok(docs: list[Any]) -> bool:
    """Whether every document is ``{"id"?, "text": str, "gold": [[str, str]...], "pred": ...}``."""
    if not set(map(type, docs)) <= {dict}:
        return False
    if any(d.keys() - {"id", "text", "gold", "pred"} for d in docs):
        return False
    try:
        texts = [d["text"] for d in docs]
        sides = [d["gold"] for d in docs] + [d["pred"] for d in docs]
    except KeyError:
        return False
    if not set(map(type, texts)) <= {str} or not set(map(type, sides)) <= {list}:
        return False
    flat = list(chain.from_iterable(sides))
    return (
        set(map(type, flat)) <= {list}
        and set(map(len, flat)) <= {2}
        and set(map(type, chain.from_iterable(flat))) <= {str}
    )


def _eval4ner(path: str) -> tuple[SpanColumns, SpanColumns]:
    from ..compat.eval4ner import _spans as locate_spans
    from ..compat.eval4ner import locate_many

    data = _read(path)
    jsonl = path.endswith(".jsonl") or data.lstrip().startswith(b"{")
    objects = _json_objects(path, data, "jsonl" if jsonl else "json")
    gold: Documents = []
    pred: Documents = []
    docs = [o for _, o in objects]
    if _eval4ner_shapes_ok(docs):
        texts = [o["text"] for o in docs]
        g_doc, g_start, g_end, g_tag = locate_many([o["gold"] for o in docs], texts)
        missing = next((d for d, s in zip(g_doc, g_start, strict=True) if s < 0), None)
        if missing is not None:  # let the one-sentence locator say which entity
            try:
                locate_spans(docs[missing]["gold"], [], texts[missing], "")
            except ValueError as err:
                raise _Checker(path, objects[missing][0], missing, {}, "char").fail(str(err)) from None
        p_doc, p_start, p_end, p_tag = locate_many([o["pred"] for o in docs], texts)
        # A predicted surface that is not in the text goes just past its end: it matches nothing.
        lengths = [len(texts[d]) for d in p_doc]
        p_start = [s if s >= 0 else n for s, n in zip(p_start, lengths, strict=True)]
        p_end = [e if e >= 0 else n + 1 for e, n in zip(p_end, lengths, strict=True)]

        def columns(doc: list[int], start: list[int], end: list[int], tag: list[str]) -> SpanColumns:
            d, s, e = (np.asarray(a, dtype=np.int64) for a in (doc, start, end))
            return SpanColumns(d, s, e, tag, len(docs))

        return columns(g_doc, g_start, g_end, g_tag), columns(p_doc, p_start, p_end, p_tag)
    for doc, (line, obj) in enumerate(objects):  # slowly, to say what is wrong
        check = _Checker(path, line, doc, {}, "char")
        if not isinstance(obj, dict) or set(obj) - {"id", "text", "gold", "pred"}:
            raise check.fail('expected an object with "text", "gold" and "pred" (and an optional "id")')
        text = obj.get("text")
        if not isinstance(text, str):
            raise check.fail('expected a string under "text"')
        sides = []
        for key in ("gold", "pred"):
            items = obj.get(key)
            if not isinstance(items, list):
                raise check.fail(f'expected a list of [type, surface] under "{key}"')
            for i, e in enumerate(items):
                if not isinstance(e, list) or len(e) != 2 or not all(isinstance(x, str) for x in e):
                    raise check.fail(f"{key} entity {i}: expected [type, surface], got {quote(e)}")
            sides.append([(t, surface) for t, surface in items])
        try:
            g, p = locate_spans(sides[0], sides[1], text, "")
        except ValueError as err:
            raise check.fail(str(err)) from None
        gold.append(g)
        pred.append(p)
    return SpanColumns.from_documents(gold), SpanColumns.from_documents(pred)


def read_spans(
    gold: str, pred: str | None = None, *, fmt: str | None = None, units: str | None = None
) -> tuple[Documents, Documents]:
    """Read gold and predicted spans as lists of ``(start, end, label)`` per document.

    See `read_span_columns` for the arguments.
    """
    g, p = read_span_columns(gold, pred, fmt=fmt, units=units)
    return g.documents(), p.documents()


def read_span_columns(
    gold: str, pred: str | None = None, *, fmt: str | None = None, units: str | None = None
) -> tuple[SpanColumns, SpanColumns]:
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

    def one(path: str) -> tuple[SpanColumns, SpanColumns | None]:
        with _no_gc():
            return read_one(path)

    def read_one(path: str) -> tuple[SpanColumns, SpanColumns | None]:
        if fmt == "nereval":
            return _nereval(path)
        if fmt == "nervaluate":
            return _nervaluate(path)
        if fmt == "eval4ner":
            return _eval4ner(path)
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
    if p.n_docs != g.n_docs:
        raise InputError(pred or gold, None, f"has {p.n_docs} documents, but the gold has {g.n_docs}")
    return g, p
