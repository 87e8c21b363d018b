"""nervaluate 1.2.1's loaders: tag lists, CoNLL strings and entity dicts, read into sorted spans.

In: what nervaluate's ``"list"``, ``"conll"`` and ``"dict"`` loaders take; out: entities
``(label, start, inclusive end)`` per document (`LOADERS`), then `Loaded` columns for matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._frozen import frozen
from ...api import decode
from ...errors import InputError
from ...matching.overlap import in_order
from ...model.spans import SpanArray

if TYPE_CHECKING:
    from ...model.arrays import Int

__all__ = ["LOADERS", "Loaded", "from_conll", "from_dicts", "from_list", "infer_loader", "load"]

Entities = list[list[tuple[str, int, int]]]


@frozen
class Loaded:
    """The entities of one side, sorted for matching, and three list positions of each."""

    spans: SpanArray  # sorted by document, start, end and tag
    index: Int  # position in the caller's document list
    kept: Int  # position among the document's entities of the evaluated tags
    in_tag: Int  # position among the document's entities of the same tag


def infer_loader(true: Any) -> str:
    """The loader nervaluate's ``"default"`` picks for ``true``: conll, dict or list."""
    if isinstance(true, str):
        return "conll"
    if isinstance(true, list) and true and isinstance(true[0], list):
        first = next((doc[0] for doc in true if isinstance(doc, list) and doc), None)
        return "dict" if isinstance(first, dict) else "list"
    raise InputError("nervaluate input", None, "Could not infer loader from input type")


def _check_tags(docs: Sequence[Sequence[str]]) -> None:
    for doc in docs:
        if not isinstance(doc, list):
            raise InputError("nervaluate input", None, "Each document must be a list of tags")
    for tag in {t for doc in docs for t in doc}:
        if not isinstance(tag, str):
            raise InputError("nervaluate input", None, f"Invalid tag type: {type(tag)}")
        if tag != "O" and not tag.startswith(("B-", "I-")):
            raise InputError("nervaluate input", None, f"Invalid tag format: {tag}")


def _from_tags(docs: Sequence[Sequence[str]]) -> Entities:
    """Entities ``(label, start, inclusive end)`` of B-/I- tags, as nervaluate's loaders read them.

    An I- tag after O or after another type opens an entity: nerve's ``begin`` repair of IOB2.
    """
    _check_tags(docs)
    out: Entities = [[] for _ in docs]
    nonempty = [i for i, doc in enumerate(docs) if doc]
    if nonempty:
        for span in decode([docs[i] for i in nonempty], scheme="IOB2", repair="begin", tag_format="B-X"):
            out[nonempty[span.seq]].append((span.label, span.start, span.end - 1))
    return out


def from_conll(data: Any) -> Entities:
    """The ``"conll"`` loader: tab-separated ``token, tag`` lines, documents separated by blank lines."""
    if not isinstance(data, str):
        raise InputError("nervaluate input", None, "ConllLoader expects string input")
    if not data:
        return []
    docs: list[list[str]] = []
    rows: list[list[int]] = []  # the line offset of each tag, blank lines skipped as nervaluate does
    for doc in data.rstrip().split("\n\n"):
        tags, offsets = [], []
        for offset, line in enumerate(doc.split("\n")):
            if not line.strip():
                continue
            parts = line.split("\t")
            if len(parts) < 2:
                raise InputError(
                    "nervaluate input",
                    None,
                    f"Invalid CoNLL format: line '{line}' does not contain a tab separator",
                )
            tags.append(parts[1])
            offsets.append(offset)
        docs.append(tags)
        rows.append(offsets)
    return [
        [(label, offsets[s], offsets[e]) for label, s, e in doc]
        for doc, offsets in zip(_from_tags(docs), rows, strict=True)
    ]


def from_dicts(data: Any) -> Entities:
    """The ``"dict"`` loader: lists of ``{"label", "start", "end"}``, ends inclusive."""
    if not isinstance(data, list):
        raise InputError("nervaluate input", None, "DictLoader expects list input")
    out = []
    for doc in data:
        if not isinstance(doc, list):
            raise InputError("nervaluate input", None, "Each document must be a list of entity dictionaries")
        entities = []
        for entity in doc:
            if not isinstance(entity, dict):
                raise InputError("nervaluate input", None, f"Invalid entity type: {type(entity)}")
            if not all(key in entity for key in ("label", "start", "end")):
                raise InputError(
                    "nervaluate input", None, "Entity missing required keys: {'label', 'start', 'end'}"
                )
            label, start, end = entity["label"], entity["start"], entity["end"]
            if not isinstance(label, str):
                raise InputError("nervaluate input", None, "Entity label must be a string")
            if not isinstance(start, int) or not isinstance(end, int):
                raise InputError("nervaluate input", None, "Entity start and end must be integers")
            if not 0 <= start <= end:
                raise InputError(
                    "nervaluate input", None, f"Expected 0 <= start <= end (end inclusive), but got {entity}"
                )
            entities.append((label, start, end))
        out.append(entities)
    return out


def load(docs: Entities, tags: dict[str, int]) -> Loaded:
    """The entities of the tags in ``tags`` (their ids), sorted, with their three list positions."""
    rows = []
    for d, doc in enumerate(docs):
        kept = 0
        per_tag: dict[str, int] = {}
        for i, (label, start, end) in enumerate(doc):
            if label in tags:
                n = per_tag.get(label, 0)
                per_tag[label] = n + 1
                rows.append((d, start, end + 1, tags[label], i, kept, n))
                kept += 1
    a = np.asarray(rows, dtype=np.int64).reshape(-1, 7)
    spans, order = in_order(SpanArray(a[:, 0], a[:, 1], a[:, 2], a[:, 3], tuple(tags), len(docs)))
    return Loaded(spans, a[order, 4], a[order, 5], a[order, 6])


def from_list(data: Any) -> Entities:
    """The ``"list"`` loader: one list of B-/I-/O tags per document."""
    if not isinstance(data, list):
        raise InputError("nervaluate input", None, "ListLoader expects list input")
    return _from_tags(data)


#: The readers of nervaluate's loaders, by name.
LOADERS = {"list": from_list, "conll": from_conll, "dict": from_dicts}
