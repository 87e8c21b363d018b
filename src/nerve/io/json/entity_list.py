"""Entity lists without offsets, as generative models write them, located in their source text.

In: a file of documents (`nerve.io.json.output_docs`: JSONL of ``{"id"?, "text", "entities"}``, or
a JSON list of them), the entities of each as

- a list of objects with the entity's text under ``"text"`` (or ``"span"``, ``"mention"``,
  ``"name"``, ``"entity"``: the first present) and its type under ``"type"`` (or ``"label"``,
  ``"entity_type"``, ``"category"``, ``"tag"``), other keys ignored;
- a list of ``[text, type]`` pairs;
- an object of types, each with the list of its entities' texts: ``{"LOC": ["Paris"]}``.

Each entity is located in the text by the rule and normalisation of `nerve.io.outputs`
(`nerve.io.json.locating`). An entity that cannot be located is **hallucinated**: it stays in the
predictions, a false positive of its type, placed just past the end of its document's text where
no gold entity can be, with its listed text in the ``"hallucinated"`` attribute
(`SpanArray.attributes`); the notes count them. Where an entity is located at the place of an
earlier one of its type (``first``, ``all``), it is kept once and the others are counted.

Out: `read_entity_list`, the predictions as a `SpanArray`; `HALLUCINATED`, the attribute's name.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from ..outputs import HALLUCINATED, current
from ..pairing import record, recording_now
from .jsonl import Problems, collect
from .locating import locate_listed
from .output_docs import OutputDoc, output_documents, output_keys

__all__ = ["HALLUCINATED_NOTE", "REPEATED_NOTE", "TEXT_KEYS", "TYPE_KEYS", "located"]
__all__ += ["read_entity_list"]

TEXT_KEYS = ("text", "span", "mention", "name", "entity")
TYPE_KEYS = ("type", "label", "entity_type", "category", "tag")
HALLUCINATED_NOTE = "hallucinated entities (not in the text; false positives)"
REPEATED_NOTE = "entities located where one of their type already was (kept once)"


def _pair(path: str, doc: OutputDoc, i: int, item: Any) -> tuple[str, str]:
    """Entity ``i`` as ``(text, type)``."""
    if isinstance(item, list) and len(item) == 2 and all(isinstance(v, str) for v in item):
        return item[0], item[1]
    if not isinstance(item, dict):
        raise doc.fail(
            path, f'entity {i}: expected {{"text", "type"}} or ["text", "type"], got {quote(item)}'
        )
    if "start" in item or "end" in item:
        fix = "entities with offsets are read as jsonl, or as hf-pipeline"
        raise doc.fail(path, f"entity {i}: has offsets, but entity-list entities have none ({fix})")
    text_key = next((k for k in TEXT_KEYS if k in item), None)
    type_key = next((k for k in TYPE_KEYS if k in item and k != text_key), None)
    if text_key is None or type_key is None:
        keys = ", ".join(map(quote, item)) or "none"
        wanted = f"a text ({', '.join(TEXT_KEYS)}) and a type ({', '.join(TYPE_KEYS)})"
        raise doc.fail(path, f"entity {i}: expected {wanted}, got the keys {keys}")
    text, label = item[text_key], item[type_key]
    if not isinstance(text, str) or not isinstance(label, str):
        got = f"{quote(text)} and {quote(label)}"
        raise doc.fail(path, f'entity {i}: expected strings under "{text_key}" and "{type_key}", got {got}')
    return text, label


def _pairs(path: str, doc: OutputDoc) -> list[tuple[str, str]]:
    """A document's entities as ``(text, type)`` pairs, in the order listed."""
    items = doc.entities
    if isinstance(items, dict) and any(isinstance(items.get(k), str) for k in TEXT_KEYS):  # one entity
        got = f"one entity, {quote(items)}"
        raise doc.fail(path, f'expected a list of entities under "entities", got {got}: put it in a list')
    if isinstance(items, dict):
        out = []
        for label, texts in items.items():
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise doc.fail(
                    path, f"type {quote(label)}: expected a list of entity texts, got {quote(texts)}"
                )
            out += [(t, label) for t in texts]
        return out
    if not isinstance(items, list):
        raise doc.fail(path, f'expected a list of entities under "entities", got {quote(items)}')
    return [_pair(path, doc, i, item) for i, item in enumerate(items)]


Located = tuple[list[tuple[int, int, str]], list[tuple[str, str]], int]


def _document(path: str, doc: OutputDoc) -> Located:
    """One document's located spans, its hallucinated ``(text, type)`` pairs, and the repeats kept once."""
    options = current()
    pairs = _pairs(path, doc)
    assert doc.text is not None
    found = locate_listed(doc.text, [t for t, _ in pairs], options.rule, options.steps)
    spans: dict[tuple[int, int, str], None] = {}
    missing, repeated = [], 0
    for (text, label), places in zip(pairs, found, strict=True):
        if not places:
            missing.append((text, label))
        for start, end in places:
            repeated += (start, end, label) in spans
            spans[start, end, label] = None
    return list(spans), missing, repeated


def read_entity_list(path: str, problems: Problems = None) -> tuple[SpanArray, None]:
    """The predictions of an entity-list file, located (see the module).

    With ``problems`` (a list), problems are collected there (the document read as empty);
    otherwise the first is raised.
    """
    docs = output_documents(path, problems, needs_text=True)
    if recording_now():
        record(path, lambda: output_keys(path, docs))
    rows: list[list[tuple[int, int, str]]] = []
    texts: list[str | None] = []
    hallucinated = repeated = 0
    for doc in docs:
        try:
            spans, missing, again = _document(path, doc) if doc.text is not None else ([], [], 0)
        except InputError as err:
            collect(problems, err)
            spans, missing, again = [], [], 0
        end = len(doc.text or "")
        texts += [None] * len(spans) + [text for text, _ in missing]
        spans += [(end + j, end + j + 1, label) for j, (_, label) in enumerate(missing)]
        rows.append(spans)
        hallucinated, repeated = hallucinated + len(missing), repeated + again
    out = SpanArray.from_documents(rows)
    notes = {HALLUCINATED_NOTE: hallucinated} if hallucinated else {}
    if repeated:
        notes[REPEATED_NOTE] = repeated
    column = np.asarray(texts, dtype=object) if hallucinated else None
    return replace(out, notes=notes, attributes=None if column is None else {HALLUCINATED: column}), None


def located(spans: SpanArray) -> tuple[SpanArray, int]:
    """``spans`` without the hallucinated entities (which have no place in their text), and how many."""
    column = (spans.attributes or {}).get(HALLUCINATED)
    if column is None:
        return spans, 0
    keep = np.asarray([text is None for text in column.tolist()], dtype=np.bool_)
    kept = spans.select(keep)
    others = {k: v for k, v in (kept.attributes or {}).items() if k != HALLUCINATED}
    notes = {k: v for k, v in kept.notes.items() if k != HALLUCINATED_NOTE}
    return replace(kept, attributes=others or None, notes=notes), int((~keep).sum())
