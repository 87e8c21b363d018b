"""Nested-NER JSON as ACE and GENIA papers share it: DyGIE++'s documents, and per-sentence records.

In: a JSON Lines file (or one JSON document), one document a line, in either form:

- DyGIE++ (https://github.com/dwadden/dygiepp/blob/master/doc/data.md): ``{"sentences":
  [[token, ...], ...], "ner": [[[START, END, "TYPE"], ...], ...]}``, one list of entities per
  sentence. **START and END are token indices counted over the whole document, and END is
  inclusive**: ``[3, 4, "PER"]`` covers the document's tokens 3 and 4. They are converted to
  half-open offsets, ``[3, 5)``. Relations, events and coreference clusters are counted in the
  notes, not scored.
- per sentence: ``{"tokens": [...], "entities": [{"start", "end", "type"}, ...]}``, ``end``
  **exclusive** (half-open, as the nested-NER repositories that write this form use it), each
  line one document.

Out: one `SpanArray`, offsets in tokens from the start of each document. Nested, overlapping and
repeated entities are all kept: exact scoring counts multisets.

Problems raise `InputError` naming the file, line, document and entity: malformed JSON, a
missing key, an entity that is not three values, an entity outside its sentence (DyGIE++) or
its tokens, ``START > END``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import partial
from itertools import chain
from typing import Any

from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from ..pairing import DocKeys, doc_keys, record
from .jsonl import Problems, collect, is_offset, json_objects, read_span_file

__all__ = ["nested_texts", "read_nested"]

_IGNORED = ("relations", "events", "clusters")


def _fail(path: str, line: int | None, doc: int, detail: str) -> InputError:
    return InputError(path, line, f"document {doc}: {detail}")


def _dygie(path: str, line: int | None, d: int, obj: dict[str, Any]) -> list[tuple[int, int, str]]:
    """The entities of a DyGIE++ document, half-open."""
    sentences, ner = obj["sentences"], obj.get("ner")
    if not isinstance(sentences, list) or not all(isinstance(s, list) for s in sentences):
        raise _fail(path, line, d, 'expected "sentences" as a list of token lists')
    if not isinstance(ner, list) or len(ner) != len(sentences):
        detail = f'expected "ner" as one list of [start, end, type] per sentence ({len(sentences)})'
        raise _fail(path, line, d, detail)
    out: list[tuple[int, int, str]] = []
    offset = 0
    for s, (tokens, entities) in enumerate(zip(sentences, ner, strict=True)):
        for k, e in enumerate(entities if isinstance(entities, list) else [entities]):
            ok = isinstance(e, list) and len(e) >= 3 and is_offset(e[0]) and is_offset(e[1])
            if not ok or not isinstance(e[2], str):
                raise _fail(
                    path, line, d, f"sentence {s}, entity {k}: expected [start, end, type], got {quote(e)}"
                )
            if not offset <= e[0] <= e[1] < offset + len(tokens):
                detail = (
                    f"sentence {s}, entity {k}: {quote(e)} is outside the sentence's tokens "
                    f"{offset}..{offset + len(tokens) - 1} (ends are inclusive, counted over the document)"
                )
                raise _fail(path, line, d, detail)
            out.append((e[0], e[1] + 1, e[2]))
        offset += len(tokens)
    return out


def _records(path: str, line: int | None, d: int, obj: dict[str, Any]) -> list[tuple[int, int, str]]:
    """The entities of a per-sentence record, half-open."""
    tokens, entities = obj["tokens"], obj.get("entities", [])
    if not isinstance(entities, list):
        raise _fail(path, line, d, f'expected a list under "entities", got {quote(entities)}')
    out: list[tuple[int, int, str]] = []
    for k, e in enumerate(entities):
        ok = isinstance(e, dict) and is_offset(e.get("start")) and is_offset(e.get("end"))
        if not ok or not isinstance(e.get("type"), str):
            raise _fail(path, line, d, f'entity {k}: expected {{"start", "end", "type"}}, got {quote(e)}')
        if not 0 <= e["start"] < e["end"] <= len(tokens):
            span = f"[{e['start']}, {e['end']})"
            detail = f"entity {k}: {span} is outside the {len(tokens)} tokens (ends are exclusive)"
            raise _fail(path, line, d, detail)
        out.append((e["start"], e["end"], e["type"]))
    return out


def _document(
    path: str, line: int | None, d: int, obj: Any, notes: Counter[str]
) -> list[tuple[int, int, str]]:
    if isinstance(obj, dict) and "sentences" in obj:
        for key in _IGNORED:
            value = obj.get(key)
            if isinstance(value, list):
                n = (
                    sum(len(v) if isinstance(v, list) else 1 for v in value)
                    if key != "clusters"
                    else len(value)
                )
                if n:
                    notes[f"ignored {key}"] += n
        return _dygie(path, line, d, obj)
    if isinstance(obj, dict) and "tokens" in obj:
        return _records(path, line, d, obj)
    raise _fail(path, line, d, 'expected {"sentences", "ner"} (DyGIE++) or {"tokens", "entities"}')


def read_nested(path: str, units: str | None = None, problems: Problems = None) -> tuple[SpanArray, None]:
    """The entities of a nested-NER JSON(L) file: one side (``units`` unused: offsets count tokens)."""
    del units
    docs: list[list[tuple[int, int, str]]] = []
    notes: Counter[str] = Counter()
    fmt = "json" if path.endswith(".json") and _single(path) else "jsonl"
    objects = json_objects(path, read_span_file(path), fmt)
    record(path, partial(_keys, path, objects))
    for d, (line, obj) in enumerate(objects):
        try:
            docs.append(_document(path, line, d, obj, notes))
        except InputError as err:
            collect(problems, err)
            docs.append([])
    return replace(SpanArray.from_documents(docs), source=path, notes=dict(sorted(notes.items()))), None


def _tokens(obj: Any) -> list[str] | None:
    """A document's tokens, its sentences end to end (DyGIE++), or ``None``."""
    if type(obj) is not dict:
        return None
    sentences, tokens = obj.get("sentences"), obj.get("tokens")
    if type(sentences) is list and all(type(s) is list for s in sentences):
        return list(chain.from_iterable(sentences))
    return tokens if type(tokens) is list else None


def _keys(path: str, objects: list[tuple[int | None, Any]]) -> DocKeys:
    """The `DocKeys` of the documents: their tokens, and DyGIE++'s ``doc_key``."""
    ids = [o.get("doc_key") if type(o) is dict else None for _, o in objects]
    lines = [n for n, _ in objects]
    return doc_keys(path, [_tokens(o) for _, o in objects], ids, lines, lambda: (nested_texts(path), lines))


def _single(path: str) -> bool:
    """Whether the ``.json`` file holds a list of documents (else it is read line by line)."""
    return read_span_file(path).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"[")


def nested_texts(path: str) -> list[tuple[str, ...]]:
    """The tokens of each document, sentences end to end."""
    fmt = "json" if path.endswith(".json") and _single(path) else "jsonl"
    out: list[tuple[str, ...]] = []
    for _, o in json_objects(path, read_span_file(path), fmt):
        if isinstance(o, dict) and isinstance(o.get("sentences"), list):
            out.append(tuple(str(t) for s in o["sentences"] for t in s))
        elif isinstance(o, dict) and isinstance(o.get("tokens"), list):
            out.append(tuple(str(t) for t in o["tokens"]))
        else:
            out.append(())
    return out
