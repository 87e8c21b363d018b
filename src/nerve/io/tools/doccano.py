"""doccano JSONL exports of sequence labelling: one document a line, spans as offset triples.

In: a JSONL file whose lines are ``{"text": ..., "label": [[START, END, "TYPE"], ...]}`` (doccano's
sequence labelling export; ``"labels"`` in older versions, and a fourth item, the span's text, is
checked when given) or ``{"text": ..., "entities": [{"start_offset", "end_offset", "label"}, ...]}``
(its relation extraction export; the ``"relations"`` are counted in the notes, not scored).
Out: one `SpanArray` per file: a file holds one side, so predictions come in a second file, its
documents paired with the gold's line by line, and each must have the gold document's text.

Offsets are half-open, in characters as Python counts them: doccano's server is written in Python
(doccano#108 made its exports count an emoji as one character). Exports of older versions count
UTF-16 code units, as JavaScript does: ``units="utf16"`` (``--offsets utf16``) converts them, and
``units="byte"`` UTF-8 bytes.

Problems raise `InputError` naming the file, line, document and span: malformed JSON, no text, no
span list, a span that is not three values, offsets outside the text or inside a character.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from ...options import flag
from ..json.jsonl import Checker, Problems, collect, is_offset, json_objects, read_span_file
from ..offsets import UTF16_MISFIT, units_to_chars
from ..pairing import DocKeys, check_pairs, doc_keys
from ..unit_offsets import UNIT_NAMES

__all__ = [
    "SPAN_KEYS",
    "doccano_ids",
    "doccano_texts",
    "read_doccano",
    "read_doccano_pair",
    "read_doccano_users",
]

#: The keys a doccano document may hold its spans under, in the order they are looked for.
SPAN_KEYS = ("label", "labels", "entities", "annotations")
_FORM = '[start, end, "TYPE"] or {"start_offset", "end_offset", "label"}'


def _text(check: Checker, obj: Any) -> str:
    if not isinstance(obj, dict):
        raise check.fail(f"expected a JSON object, got {type(obj).__name__}")
    text = obj.get("text")
    if not isinstance(text, str):
        raise check.fail(f'expected the document\'s text under "text", got {quote(text)}')
    return text


def _items(check: Checker, obj: dict[str, Any]) -> list[Any]:
    key = next((k for k in SPAN_KEYS if k in obj), None)
    if key is None:
        raise check.fail(f'expected its spans under "label" ({_FORM}), got keys {quote(sorted(obj))}')
    items = obj[key]
    if not isinstance(items, list):
        raise check.fail(f'expected a list of spans under "{key}", got {quote(items)}')
    return items


def _span(check: Checker, text: str, units: str, i: int, item: Any) -> tuple[int, int, str]:
    """Span ``i``, from a triple (and its text) or an object, in characters and checked."""
    given = None
    if isinstance(item, list) and len(item) in (3, 4):
        start, end, label = item[:3]
        given = item[3] if len(item) == 4 else None
    elif isinstance(item, dict) and {"start_offset", "end_offset", "label"} <= item.keys():
        start, end, label = item["start_offset"], item["end_offset"], item["label"]
    else:
        raise check.fail(f"span {i}: expected {_FORM}, got {quote(item)}")
    if units in UNIT_NAMES and units != "char" and is_offset(start) and is_offset(end) and 0 <= start < end:
        a, b = units_to_chars(text, np.asarray([start, end], dtype=np.int64), units).tolist()
        if a < 0 or b < 0:
            detail = (
                f"span {i}: {UNIT_NAMES[units]} offsets {start}, {end} {UTF16_MISFIT} (--offsets {units})"
            )
            raise check.fail(detail)
        start, end = a, b
    if given is not None and not isinstance(given, str):
        raise check.fail(f"span {i}: expected its text as a string, got {quote(given)}")
    return check.span(i, start, end, label, given)


def _document(
    path: str, line: int | None, doc: int, obj: Any, units: str, problems: Problems, notes: Counter[str]
) -> tuple[str, list[tuple[int, int, str]]]:
    """The text and spans of one document; a problem is raised, or collected and its span left out."""
    check = Checker(path, line, doc, {}, "char", problems)
    text = _text(check, obj)
    check.text = text
    spans = check.spans(_items(check, obj), lambda i, item: _span(check, text, units, i, item))
    relations = obj.get("relations")
    if isinstance(relations, list) and relations:
        notes["ignored relations"] += len(relations)
    return text, spans


def _read(path: str, units: str | None, problems: Problems) -> tuple[DocKeys, SpanArray]:
    """The documents' texts and ids, and the spans of a doccano file; a broken document is read as empty."""
    texts: list[str] = []
    lines: list[int | None] = []
    ids: list[Any] = []
    docs: list[list[tuple[int, int, str]]] = []
    notes: Counter[str] = Counter()
    objects = json_objects(path, read_span_file(path), "jsonl")
    for doc, (line, obj) in enumerate(objects):
        try:
            text, spans = _document(path, line, doc, obj, units or "char", problems, notes)
        except InputError as err:
            collect(problems, err)
            text, spans = "", []
        texts.append(text)
        lines.append(line)
        ids.append(obj.get("id") if isinstance(obj, dict) else None)
        docs.append(spans)
    users = list(dict.fromkeys(u for _, o in objects for u in _users(o)))
    if len(users) > 1:  # read as one side, several annotators' spans would be merged
        detail = (
            f"holds the spans of {len(users)} users ({', '.join(users)}): pick them with "
            f"{flag('gold_annotator')} and {flag('pred_annotator')}, or compare them all with nerve agree"
        )
        raise InputError(path, None, detail)
    spans_of = SpanArray.from_documents(docs)
    keys = doc_keys(path, texts, ids, lines, by_id=False)  # doccano numbers its examples itself
    return keys, replace(spans_of, source=path, notes=dict(sorted(notes.items())))


def read_doccano(path: str, units: str | None = None, problems: Problems = None) -> tuple[SpanArray, None]:
    """The spans of a doccano JSONL export: one side (``units``: ``char``, the default, or ``utf16``)."""
    return _read(path, units, problems)[1], None


def read_doccano_pair(
    gold: str, pred: str | None, units: str | None = None, problems: Problems = None
) -> tuple[SpanArray, SpanArray | None]:
    """The gold spans of one export, and the predicted ones of another, documents paired in order.

    Raises:
        InputError: besides `read_doccano`'s, a predicted document whose text is not the gold's
            (`nerve.io.pairing`).
    """
    g_keys, g = _read(gold, units, problems)
    if pred is None:
        return g, None
    p_keys, p = _read(pred, units, problems)
    check_pairs(g_keys, p_keys, problems)
    return g, p


def doccano_texts(path: str) -> list[str]:
    """The text of each document of a doccano export, in order."""
    objects = json_objects(path, read_span_file(path), "jsonl")
    return [o["text"] if isinstance(o, dict) and isinstance(o.get("text"), str) else "" for _, o in objects]


def doccano_ids(path: str) -> list[str | None]:
    """The ``"id"`` of each document of a doccano export (a number or a string), ``None`` where none."""
    objects = json_objects(path, read_span_file(path), "jsonl")
    ids = [o.get("id") if isinstance(o, dict) else None for _, o in objects]
    return [str(i) if isinstance(i, (int, str)) and not isinstance(i, bool) else None for i in ids]


def _users(obj: Any) -> list[str]:
    """The users named by a document's spans (doccano 1.x exports of several annotators)."""
    items = next((obj[k] for k in SPAN_KEYS if k in obj), None) if isinstance(obj, dict) else None
    return [u for u in map(_user, items) if u is not None] if isinstance(items, list) else []


def _user(item: Any) -> str | None:
    who = item.get("user") if isinstance(item, dict) else None
    return None if who is None or isinstance(who, (bool, list, dict)) else str(who)


def read_doccano_users(
    path: str, units: str | None = None, problems: Problems = None
) -> tuple[dict[str, SpanArray], dict[str, list[bool]]]:
    """Each user's spans of an export whose span objects carry a ``"user"`` (doccano 1.x), by user.

    Users are named by their ``user`` value, in the order they first appear; none where no span
    names one (a file of one annotator); a span without one among spans with one raises. doccano
    does not say which documents a user saw: a document where a user marked nothing reads as
    annotated with no entity (every document is marked present).

    Raises:
        InputError: a span without a user, besides `read_doccano`'s problems.
    """
    objects = list(json_objects(path, read_span_file(path), "jsonl"))
    users: dict[str, None] = {}
    nameless = None
    for doc, (line, obj) in enumerate(objects):
        check = Checker(path, line, doc, {}, "char", None)
        for i, item in enumerate(_items(check, obj) if isinstance(obj, dict) else []):
            name = _user(item)
            if name is None:
                nameless = nameless or check.fail(
                    f'span {i}: expected a "user" on every span of a multi-user export'
                )
            else:
                users.setdefault(name)
    if users and nameless is not None:
        raise nameless
    sides: dict[str, SpanArray] = {}
    for name in users:
        docs = []
        for doc, (line, obj) in enumerate(objects):
            check = Checker(path, line, doc, {}, "char", problems)
            text = _text(check, obj)
            check.text = text
            mine = [item for item in _items(check, obj) if _user(item) == name]
            docs.append(check.spans(mine, partial(_span, check, text, units or "char")))
        sides[name] = replace(SpanArray.from_documents(docs), source=path)
    return sides, {name: [True] * len(objects) for name in users}
