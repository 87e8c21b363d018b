"""Hugging Face ``pipeline("ner")`` output: the entities of each text, with character offsets.

In: a file of documents (`nerve.io.json.output_docs`: JSONL of ``{"id"?, "text"?, "entities":
[...]}`` or of bare lists, or a JSON list of either), each entity as the pipeline returns it:

- ``aggregation_strategy="none"``: ``{"entity": "B-PER", "score", "index", "word", "start",
  "end"}`` per sub-token, merged here into entities by the pipeline's own rule for
  ``"simple"`` (``TokenClassificationPipeline.group_entities``): a sub-token continues the
  entity before it when its type is the same and its tag is not ``B-`` (a tag without a prefix
  continues), and, since this output leaves the ``O`` tokens out, when its ``index`` follows the
  previous one's. The entity's score is the mean of its sub-tokens' (as the pipeline's).
- any other strategy: ``{"entity_group": "PER", "score", "word", "start", "end"}``.

Out: `read_pipeline_documents`, each document's `PipelineEntity` s with their scores; and
`read_hf_pipeline`, the predictions as a `SpanArray`, their scores in its ``score`` column (which
``sweep`` reads).

Checks: offsets are integers with ``0 <= start < end`` (``null`` offsets: a slow tokenizer),
within the text where it is given, where ``word`` must be what they cover, but for the
sub-token markers (``##``, ``▁``, ``Ġ``), white space, case and accents (uncased models); scores
in [0, 1]. With ``min_score`` (`nerve.io.outputs`), entities scored below it are dropped and
counted in the notes.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import replace
from typing import Any

import numpy as np

from ..._frozen import frozen
from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from ..lenient import counted, mismatch_fix
from ..outputs import current
from ..pairing import record, recording_now
from .jsonl import Problems, collect, is_offset
from .output_docs import OutputDoc, output_documents, output_keys

__all__ = ["BELOW_MIN_SCORE", "PipelineEntity", "read_hf_pipeline", "read_pipeline_documents"]

#: The note counting the predictions dropped by ``min_score``.
BELOW_MIN_SCORE = "predictions below min_score (dropped)"
_MARKERS = ("##", "\u2581", "\u0120")
_UNKNOWN = ("[UNK]", "<unk>")


@frozen
class PipelineEntity:
    """One entity of the pipeline's output, merged from its sub-tokens where it was given by them."""

    start: int
    end: int
    label: str
    score: float | None
    word: str | None


def _core(word: str) -> str:
    """``word`` without sub-token markers, white space, case and accents: what is compared."""
    for marker in _MARKERS:
        word = word.replace(marker, "")
    decomposed = unicodedata.normalize("NFKD", word)
    kept = (c for c in decomposed if not unicodedata.combining(c) and not c.isspace())
    return "".join(kept).casefold()


def _tag(name: str) -> tuple[str, str]:
    """``(B or I, type)`` of a sub-token's tag, as the pipeline's ``get_tag`` reads it."""
    if name.startswith(("B-", "I-")):
        return name[0], name[2:]
    return "I", name


def _entity(path: str, doc: OutputDoc, i: int, item: Any, key: str) -> dict[str, Any]:
    """Entity ``i``, checked (its text against the document's, where given)."""
    if not isinstance(item, dict):
        raise doc.fail(path, f"entity {i}: expected an object, got {quote(item)}")
    label, start, end, score = item.get(key), item.get("start"), item.get("end"), item.get("score")
    if not isinstance(label, str):
        raise doc.fail(path, f'entity {i}: expected a string under "{key}", got {quote(label)}')
    if start is None or end is None:
        fix = "offsets come from a fast tokenizer: run the pipeline with one (use_fast=True)"
        raise doc.fail(path, f'entity {i}: no "start" and "end" offsets; {fix}')
    if not is_offset(start) or not is_offset(end) or not 0 <= start < end:
        raise doc.fail(path, f"entity {i}: expected integer offsets 0 <= start < end, got {start} and {end}")
    if score is not None and (
        isinstance(score, bool) or not (isinstance(score, int | float) and 0 <= score <= 1)
    ):
        raise doc.fail(path, f"entity {i}: expected a score in [0, 1], got {quote(score)}")
    if "index" in item and not is_offset(item["index"]):
        raise doc.fail(path, f'entity {i}: expected an integer "index", got {quote(item["index"])}')
    word = item.get("word")
    if word is not None and not isinstance(word, str):
        raise doc.fail(path, f'entity {i}: expected a string "word", got {quote(word)}')
    if doc.text is not None:
        if end > len(doc.text):
            raise doc.fail(path, f"entity {i}: end {end} is beyond the text ({len(doc.text)} characters)")
        found = doc.text[start:end]
        unknown = word is None or any(u in word for u in _UNKNOWN)
        if not unknown and _core(found) != _core(word or "") and not counted(path, ""):
            detail = f"entity {i}: text[{start}:{end}] is {quote(found)}, not the word {quote(word)}"
            raise doc.fail(path, detail + mismatch_fix())
    return item


def _grouped(items: list[dict[str, Any]]) -> list[PipelineEntity]:
    """The ``entity_group`` entities as they are."""
    return [
        PipelineEntity(e["start"], e["end"], e["entity_group"], e.get("score"), e.get("word")) for e in items
    ]


def _merged(items: list[dict[str, Any]]) -> list[PipelineEntity]:
    """Sub-tokens merged into entities by the pipeline's ``group_entities`` (see the module)."""
    groups: list[list[dict[str, Any]]] = []
    for item in items:
        bi, tag = _tag(item["entity"])
        if tag == "O" and bi == "I":
            groups.append([])  # an outside token (ignore_labels=[]) ends the entity before it
            continue
        last = groups[-1][-1] if groups and groups[-1] else None
        follows = last is not None and ("index" not in item or item["index"] == last.get("index", -2) + 1)
        if last is not None and follows and _tag(last["entity"])[1] == tag and bi != "B":
            groups[-1].append(item)
        else:
            groups.append([item])
    out = []
    for group in filter(None, groups):
        scores = [e["score"] for e in group if e.get("score") is not None]
        score = sum(scores) / len(scores) if len(scores) == len(group) else None
        words = [e["word"] for e in group if e.get("word") is not None]
        word = " ".join(words) if len(words) == len(group) else None
        label = _tag(group[0]["entity"])[1]
        out.append(PipelineEntity(group[0]["start"], group[-1]["end"], label, score, word))
    return out


def _entities(path: str, doc: OutputDoc) -> list[PipelineEntity]:
    """One document's entities, checked and merged."""
    items = doc.entities
    if not isinstance(items, list):
        raise doc.fail(path, f"expected a list of entities, got {quote(items)}")
    keys = {"entity_group" if isinstance(e, dict) and "entity_group" in e else "entity" for e in items}
    if len(keys) > 1:
        raise doc.fail(
            path, 'expected every entity with "entity" (per sub-token) or every one with "entity_group"'
        )
    key = keys.pop() if keys else "entity_group"
    checked = [_entity(path, doc, i, item, key) for i, item in enumerate(items)]
    return _grouped(checked) if key == "entity_group" else _merged(checked)


def read_pipeline_documents(path: str, problems: Problems = None) -> list[list[PipelineEntity]]:
    """Each document's entities, with their scores (see the module); ``problems`` as in `read_hf_pipeline`."""
    docs = output_documents(path, problems)
    if recording_now():
        record(path, lambda: output_keys(path, docs))
    out: list[list[PipelineEntity]] = []
    for doc in docs:
        try:
            out.append(_entities(path, doc))
        except InputError as err:
            collect(problems, err)
            out.append([])
    return out


def read_hf_pipeline(path: str, problems: Problems = None) -> tuple[SpanArray, None]:
    """The predictions of a pipeline output file, as spans; ``min_score`` applied and counted.

    With ``problems`` (a list), problems are collected there (the document read as empty);
    otherwise the first is raised.
    """
    minimum = current().min_score
    docs = read_pipeline_documents(path, problems)
    dropped = 0
    kept: list[list[tuple[int, int, str]]] = []
    scores: list[float] = []
    for index, entities in enumerate(docs):
        if minimum is not None:
            if any(e.score is None for e in entities):
                unscored = "an entity has no score to compare with min_score"
                collect(problems, OutputDoc(None, index, None, None, None).fail(path, unscored))
            above = [e for e in entities if e.score is None or e.score >= minimum]
            dropped += len(entities) - len(above)
            entities = above
        kept.append([(e.start, e.end, e.label) for e in entities])
        scores += [math.nan if e.score is None else e.score for e in entities]
    spans = SpanArray.from_documents(kept)
    if any(not math.isnan(s) for s in scores):  # the confidences, for the threshold sweep
        spans = replace(spans, score=np.asarray(scores, dtype=np.float64))
    if minimum is not None:
        spans = replace(spans, notes={BELOW_MIN_SCORE: dropped})
    return spans, None
