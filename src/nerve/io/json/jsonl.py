"""JSON and JSONL span documents, and the parts every span format shares.

A document is ``{"id"?, "text"? | "tokens"?, "spans" | "entities" | "gold"/"pred": [SPAN, ...]}``
where SPAN is ``{"start", "end", "label", "text"?}`` with half-open offsets: characters when the
document has a ``"text"``, tokens when it has ``"tokens"`` (``units`` overrides; bytes and UTF-16
units become characters: `nerve.io.unit_offsets`). ``jsonl`` holds one document a line, ``json`` a list.

Shared with the other span formats: reading and parsing a file (`read_span_file`, `parse_json`,
`json_objects`), the per-span `Checker` that says where a problem is, and the vectorised
`fast_columns` (of `io.json.columns`) that builds a `SpanArray` when every span passes the checks at once.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError, plural
from ...model.quoting import quote
from ...model.spans import SpanArray
from ..lenient import counted, mismatch_fix
from ..pairing import DocKeys, doc_keys, doc_text, record, recording_now
from ..sources import read_bytes
from ..unit_offsets import in_characters
from .columns import MAX_OFFSET, fast_columns, is_score, scored_side, span_array
from .compiled import as_span_array, read_columns

if TYPE_CHECKING:
    from ...model.arrays import Int

__all__ = [
    "DOC_KEYS",
    "MAX_OFFSET",
    "SPAN_KEYS",
    "Checker",
    "Documents",
    "Problems",
    "collect",
    "fast_columns",
    "is_offset",
    "json_objects",
    "no_gc",
    "parse_json",
    "read_documents",
    "read_span_file",
    "span_array",
]

Documents = list[list[tuple[int, int, str]]]
DOC_KEYS = {"id", "text", "tokens", "spans", "entities", "gold", "pred", "meta"}
SPAN_KEYS = {"start", "end", "label", "text", "id", "score"}
#: Before and between the tokens of a document, joined to say which document it is.
TOKENS_MARK = "\x1f"


def _loads() -> Callable[[bytes], Any]:
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a dependency
        return json.loads
    return orjson.loads


def parse_json(path: str, data: bytes, where: str) -> Any:
    """The value of JSON ``data``; `InputError` naming ``path`` and ``where`` when malformed.

    A file with nothing but white space (``where`` is ``"the file"``) is an empty list: no
    documents, which score zero.
    """
    if where == "the file" and not data.strip():
        return []
    try:
        return _loads()(data)
    except ValueError as err:
        fix = "one complete JSON value a line (JSONL)" if where.startswith("line") else "one JSON value"
        raise InputError(path, None, f"{where}: malformed JSON: {err}; expected {fix}") from None


@contextmanager
def no_gc() -> Iterator[None]:
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


def read_span_file(path: str) -> bytes:
    """The bytes of a span file, without a UTF-8 BOM."""
    data = read_bytes(path, "a span file")
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def json_objects(path: str, data: bytes, fmt: str, first_line: int = 1) -> list[tuple[int | None, Any]]:
    """The documents of a JSONL file (with their line numbers, from ``first_line``) or of a JSON list."""
    if fmt == "jsonl":
        lines = [(n, raw) for n, raw in enumerate(data.split(b"\n"), start=first_line) if raw.strip()]
        try:  # one parse of all lines as a JSON list; line by line only to locate an error
            parsed_lines = _loads()(b"[" + b",".join(raw for _, raw in lines) + b"]")
        except ValueError:
            parsed_lines = [parse_json(path, raw, f"line {n}") for n, raw in lines]
        if len(parsed_lines) != len(lines):  # a line held several values
            parsed_lines = [parse_json(path, raw, f"line {n}") for n, raw in lines]
        return [(n, obj) for (n, _), obj in zip(lines, parsed_lines, strict=True)]
    parsed = parse_json(path, data, "the file")
    if not isinstance(parsed, list):
        raise InputError(path, None, f"expected a JSON list of documents, got {type(parsed).__name__}")
    return [(None, o) for o in parsed]


Problems = list[InputError] | None
Chunk = tuple[bytes, int, int]  # whole lines, the first one's number, its document's index


def collect(problems: Problems, err: InputError) -> None:
    """Raise ``err``; when validating (``problems`` is a list) add it to them instead."""
    if problems is None:
        raise err
    problems.append(err)


class Checker:
    """Checks spans of one document and says where a problem is.

    With ``problems`` (a list), problems are collected there rather than raised: a span with
    one is left out, and the reading goes on (`nerve.io.spans.validate_spans`).
    """

    def __init__(
        self,
        path: str,
        line: int | None,
        doc: int,
        doc_obj: dict[str, Any],
        units: str | None,
        problems: Problems = None,
    ):
        self.path, self.line, self.doc, self.problems = path, line, doc, problems
        self.side = ""  # the key of the spans being checked, for the lenient count
        self.text = doc_obj.get("text")
        self.tokens = doc_obj.get("tokens")
        if units is None:
            units = "token" if self.tokens is not None and self.text is None else "char"
        self.units = units
        if units == "char" and self.text is not None and not isinstance(self.text, str):
            self.text = None
            collect(problems, self.fail('expected a string under "text"'))
        if units == "token" and self.tokens is not None and not _strings(self.tokens):
            self.tokens = None
            collect(problems, self.fail('expected a list of strings under "tokens"'))

    def fail(self, detail: str) -> InputError:
        """The error of ``detail`` in this document."""
        where = f"document {self.doc}" if self.line is None else f"document {self.doc} (line {self.line})"
        return InputError(self.path, self.line, f"{where}: {detail}")

    def spans(
        self, items: list[Any], one: Callable[[int, Any], tuple[int, int, str]]
    ) -> list[tuple[int, int, str]]:
        """``one(i, item)`` of each item; a problem is raised, or collected and the item left out."""
        out = []
        for i, item in enumerate(items):
            try:
                out.append(one(i, item))
            except InputError as err:
                collect(self.problems, err)
        return out

    def span(self, i: int, start: Any, end: Any, label: Any, text: Any) -> tuple[int, int, str]:
        """Span ``i`` as ``(start, end, label)``, checked against the document."""
        if not is_offset(start) or not is_offset(end):
            raise self.fail(f"span {i}: expected integer start and end, got {quote(start)} and {quote(end)}")
        if not isinstance(label, str):
            raise self.fail(f"span {i}: expected a string label, got {quote(label)}")
        if not 0 <= start < end:
            raise self.fail(f"span {i}: expected 0 <= start < end (half-open), got start={start}, end={end}")
        if end > MAX_OFFSET:
            raise self.fail(f"span {i}: expected offsets up to 2**40, got end={end}")
        if self.units == "char" and self.text is not None:
            if end > len(self.text):
                raise self.fail(
                    f"span {i}: end {end} is beyond the text ({plural(len(self.text), 'character')}); "
                    f"expected offsets within it"
                )
            if text is not None and self.text[start:end] != text and not counted(self.path, self.side):
                found = quote(self.text[start:end])
                detail = f"span {i}: text[{start}:{end}] is {found}, not {quote(text)}"
                raise self.fail(detail + mismatch_fix())
        if self.units == "token" and self.tokens is not None:
            if end > len(self.tokens):
                raise self.fail(f"span {i}: end {end} is beyond the {plural(len(self.tokens), 'token')}")
            covered = " ".join(self.tokens[start:end])
            if text is not None and covered != text and not counted(self.path, self.side):
                detail = f"span {i}: tokens {start}..{end} are {quote(covered)}, not {quote(text)}"
                raise self.fail(detail + mismatch_fix())
        return start, end, label


def _span(check: Checker, i: int, item: Any) -> tuple[int, int, str]:
    if not isinstance(item, dict):
        raise check.fail(f"span {i}: expected an object, got {quote(item)}")
    unknown = set(item) - SPAN_KEYS
    if unknown:
        key = quote(sorted(unknown)[0])
        raise check.fail(f"span {i}: unknown key {key} (expected start, end, label, text)")
    for needed in ("start", "end", "label"):
        if needed not in item:
            raise check.fail(f'span {i}: missing "{needed}"')
    if "score" in item and not is_score(item["score"]):
        raise check.fail(f'span {i}: expected a number under "score", got {quote(item["score"])}')
    return check.span(i, item["start"], item["end"], item["label"], item.get("text"))


def _spans(check: Checker, items: Any, key: str) -> list[tuple[int, int, str]]:
    if not isinstance(items, list):
        raise check.fail(f'expected a list under "{key}", got {type(items).__name__}')
    check.side = key
    return check.spans(items, partial(_span, check))


def _document(
    path: str, line: int | None, doc: int, obj: Any, units: str | None, problems: Problems
) -> tuple[list[tuple[int, int, str]] | None, list[tuple[int, int, str]] | None]:
    """The gold and predicted spans of one document object (``None`` for a side it lacks)."""
    check = Checker(path, line, doc, obj if isinstance(obj, dict) else {}, units, problems)
    if not isinstance(obj, dict):
        raise check.fail(f"expected a JSON object, got {type(obj).__name__}")
    unknown = set(obj) - DOC_KEYS
    if unknown:
        raise check.fail(f"unknown key {quote(sorted(unknown)[0])} (expected {', '.join(sorted(DOC_KEYS))})")
    if "gold" in obj or "pred" in obj:
        gold = _spans(check, obj["gold"], "gold") if "gold" in obj else None
        pred = _spans(check, obj["pred"], "pred") if "pred" in obj else None
        return gold, pred
    key = "spans" if "spans" in obj else "entities" if "entities" in obj else None
    if key is None:
        raise check.fail('expected "spans", "entities", or "gold" and "pred"')
    return _spans(check, obj[key], key), None


def _documents_fast(
    objects: list[tuple[int | None, Any]], units: str | None, bounds: list[Any] | None = None
) -> tuple[SpanArray, SpanArray | None] | None:
    """Columns of JSON/JSONL documents when all of them pass the checks at once.

    ``bounds``, a list, gets each document's text or tokens (`_doc_lengths`).
    """
    docs = [o for _, o in objects]
    if any(type(o) is not dict or o.keys() - DOC_KEYS for o in docs):
        return None
    two = "gold" in docs[0] or "pred" in docs[0] if docs else True
    keys = ("gold", "pred") if two else ("spans", "entities")
    if two and not all("gold" in o and "pred" in o for o in docs):
        return None
    if not two and not all(("spans" in o) != ("entities" in o) for o in docs):
        return None
    sides = []
    lengths = _doc_lengths(docs, units, bounds)
    if lengths is None:
        return None
    for key in keys[: 2 if two else 1]:
        lists = [o[key] if key in o or two else o[keys[1]] for o in docs]
        columns = fast_columns(lists, ("start", "end", "label"), SPAN_KEYS, lengths=lengths)
        if columns is None or not _texts_match(docs, lists, units):
            return None
        sides.append(columns)
    return sides[0], sides[1] if two else None


def _doc_lengths(
    docs: list[dict[str, Any]], units: str | None, bounds: list[Any] | None = None
) -> Int | None:
    """How far offsets may reach in each document (a huge number where nothing says).

    ``None`` when a document's text or tokens are not a string or a list: `Checker` says so.
    ``bounds``, a list, gets each document's text, or its tokens joined after `TOKENS_MARK`
    (``None`` where it has neither): what says which document it is (`nerve.io.pairing`).
    """
    out = np.full(len(docs), np.iinfo(np.int64).max, dtype=np.int64)
    for i, o in enumerate(docs):
        unit = units or ("token" if "tokens" in o and "text" not in o else "char")
        bound = o.get("text") if unit == "char" else o.get("tokens")
        if bounds is not None:
            if unit != "char" and type(bound) is list:  # joining checks the tokens are strings
                try:
                    bounds.append(TOKENS_MARK + TOKENS_MARK.join(bound))
                except TypeError:
                    return None
                out[i] = len(bound)
                continue
            bounds.append(bound)
        if bound is not None:
            if not (type(bound) is str if unit == "char" else _strings(bound)):
                return None
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


def is_offset(value: Any) -> bool:
    """Whether ``value`` is an integer offset: JSON's ``true`` is a Python int, but not one."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _strings(tokens: Any) -> bool:
    """Whether ``tokens`` is a list of strings (one pass in C)."""
    return type(tokens) is list and set(map(type, tokens)) <= {str}


def _keys(path: str, fmt: str, objects: list[tuple[int | None, Any]], bounds: list[Any] | None) -> DocKeys:
    """The `DocKeys` of a file's documents: their texts or tokens, ids and lines.

    ``bounds``: the texts or joined tokens the fast path found (`_doc_lengths`), else ``None``.
    """
    if bounds is not None:  # every document is an object
        ids = list(map(dict.get, map(itemgetter(1), objects), repeat("id")))
    else:
        bounds = [doc_text(o) for _, o in objects]
        ids = [o.get("id") if type(o) is dict else None for _, o in objects]

    def again() -> tuple[list[Any], list[int | None]]:
        objects = json_objects(path, read_span_file(path), fmt)
        return [doc_text(o) for _, o in objects], [n for n, _ in objects]

    return doc_keys(path, bounds, ids, None, again)


def read_documents(
    path: str, fmt: str, units: str | None, problems: Problems = None, chunk: Chunk | None = None
) -> tuple[SpanArray, SpanArray | None]:
    """The gold spans of a ``json`` or ``jsonl`` file, and its predictions if it holds both.

    With ``problems``, problems are collected there (a document with one of its own is read as
    empty); otherwise the first is raised. ``chunk``: a `Chunk` to read (`nerve.io.json.jsonl_chunks`).
    """
    data, first, first_doc = chunk if chunk is not None else (read_span_file(path), 1, 0)
    compiled = read_columns((data,), fmt, units) if not recording_now() else None
    if compiled is not None:  # the compiled reader read it all; else it hands over to this one
        return as_span_array(compiled[0]), None if compiled[1] is None else as_span_array(compiled[1])
    objects = json_objects(path, data, fmt, first)
    objects, units = in_characters(path, objects, units, problems, first_doc)  # bytes, UTF-16: as characters
    bounds: list[Any] | None = [] if chunk is None and recording_now() else None
    fast = _documents_fast(objects, units, bounds)
    if bounds is not None:  # a gold or a prediction file, read to be paired with the other
        record(path, partial(_keys, path, fmt, objects, bounds if len(bounds) == len(objects) else None))
    if fast is not None:
        return fast
    gold: Documents = []
    pred: Documents = []
    has_pred = None
    for doc, (line, obj) in enumerate(objects, start=first_doc):
        try:
            g, p = _document(path, line, doc, obj, units, problems)
            if has_pred is None:
                has_pred = p is not None
            if (p is not None) != has_pred or g is None:
                detail = f"document {doc}: every document must have the same sides (gold and pred)"
                raise InputError(path, line, detail)
        except InputError as err:
            collect(problems, err)
            g, p = [], []
        gold.append(g)
        if p is not None:
            pred.append(p)
    docs = [o for _, o in objects] if problems is None else []  # validating: no scores (spans left out)
    sides = [scored_side(SpanArray.from_documents(gold), docs, ("gold", "spans", "entities"))]
    return sides[0], scored_side(SpanArray.from_documents(pred), docs, ("pred",)) if has_pred else None
