"""Writers of span formats: documents and their entities in, JSONL files and brat directories out.

In: a `SpanArray` (offsets relative to each document: characters into ``texts``, or tokens of
``tokens``) and each document's text or tokens. Out:

- `write_jsonl`: nerve's JSONL (`nerve.io.json.jsonl`), ``{"text" | "tokens", "spans": [{"start", "end",
  "label", "score"?}]}`` per line (a span's score where it has one, `SpanArray.score`); a
  discontinuous entity is written as its extent (the caller counts it).
- `write_spacy_jsonl`: spaCy/Prodigy JSONL, ``{"text", "spans": [...]}``, character offsets only.
- `write_brat`: a directory of ``NAME.txt``/``NAME.ann`` pairs, ``T`` lines with every piece of a
  discontinuous entity, nesting as it is, and the spans' attributes and normalisations
  (`SpanArray.attributes`) as ``A`` and ``N`` lines (`nerve.io.tools.brat_attributes`).

Entities are written in the order of the array.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...model.spans import SpanArray
from ..tools.brat_attributes import ann_lines

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["write_brat", "write_jsonl", "write_spacy_jsonl"]

Bound = str | Sequence[str]


def _per_document(spans: SpanArray, scores: bool = False) -> list[list[dict[str, object]]]:
    """Each document's entities as ``{"start", "end", "label"}`` objects (and ``"score"``: ``scores``)."""
    out: list[list[dict[str, object]]] = [[] for _ in range(spans.n_docs)]
    names = spans.labels
    columns = (spans.doc.tolist(), spans.start.tolist(), spans.end.tolist(), spans.label.tolist())
    score = spans.score.tolist() if scores and spans.score is not None else [math.nan] * len(spans)
    for d, s, e, k, v in zip(*columns, score, strict=True):
        item: dict[str, object] = {"start": s, "end": e, "label": names[k]}
        if not math.isnan(v):
            item["score"] = v
        out[d].append(item)
    return out


def _dump(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


def write_jsonl(path: str, spans: SpanArray, bounds: Sequence[Bound | None]) -> None:
    """Write nerve's JSONL: each document's ``"text"`` or ``"tokens"`` (if known) and its spans (scored)."""
    lines = []
    for bound, items in zip(bounds, _per_document(spans, scores=True), strict=True):
        obj: dict[str, object] = {}
        if isinstance(bound, str):
            obj["text"] = bound
        elif bound is not None:
            obj["tokens"] = list(bound)
        obj["spans"] = items
        lines.append(_dump(obj) + "\n")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(lines))


def write_spacy_jsonl(path: str, spans: SpanArray, texts: Sequence[str]) -> None:
    """spaCy/Prodigy JSONL: ``{"text", "spans": [{"start", "end", "label"}]}``, character offsets."""
    lines = [
        _dump({"text": text, "spans": items}) + "\n"
        for text, items in zip(texts, _per_document(spans), strict=True)
    ]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(lines))


def _pieces(spans: SpanArray) -> list[list[tuple[int, int]]]:
    """Each entity's pieces: its fragments where it has several, else its extent."""
    starts, ends = spans.start.tolist(), spans.end.tolist()
    out = [[(s, e)] for s, e in zip(starts, ends, strict=True)]
    f = spans.fragments
    if f is not None:
        lo, fs, fe = f.offsets.tolist(), f.start.tolist(), f.end.tolist()
        for i in range(len(spans)):
            if lo[i + 1] - lo[i] > 1:
                out[i] = list(zip(fs[lo[i] : lo[i + 1]], fe[lo[i] : lo[i + 1]], strict=True))
    return out


def write_brat(
    directory: str, names: Sequence[str], spans: SpanArray, texts: Sequence[str]
) -> npt.NDArray[np.bool_]:
    """``NAME.txt`` and ``NAME.ann`` per document in ``directory`` (made if missing).

    Each entity is a ``T`` line with its pieces and text (pieces joined by a space, as brat does);
    an entity whose text holds a line break is written without its text, which a ``.ann`` line
    cannot hold. Returns which entities (in array order) were written without their text.
    """
    per_doc: list[list[str]] = [[] for _ in names]
    labels = spans.labels
    untexted = np.zeros(len(spans), dtype=np.bool_)
    rows = zip(spans.doc.tolist(), spans.label.tolist(), _pieces(spans), strict=True)
    for i, (d, k, pieces) in enumerate(rows):
        offsets = ";".join(f"{s} {e}" for s, e in pieces)
        covered = " ".join(texts[d][s:e] for s, e in pieces)
        n = len(per_doc[d]) + 1
        if "\n" in covered or "\r" in covered:
            untexted[i] = True
            per_doc[d].append(f"T{n}\t{labels[k]} {offsets}\n")
        else:
            per_doc[d].append(f"T{n}\t{labels[k]} {offsets}\t{covered}\n")
    if spans.attributes is not None:
        _attribute_lines(spans, per_doc)
    for name, text, lines in zip(names, texts, per_doc, strict=True):
        stem = os.path.join(directory, name)
        os.makedirs(os.path.dirname(stem) or ".", exist_ok=True)
        with open(stem + ".txt", "w", encoding="utf-8", newline="") as f:
            f.write(text)
        with open(stem + ".ann", "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(lines))
    return untexted


def _attribute_lines(spans: SpanArray, per_doc: list[list[str]]) -> None:
    """Add each document's ``A`` and ``N`` lines after its ``T`` lines (``T1``... in array order)."""
    assert spans.attributes is not None
    order = np.argsort(spans.doc, kind="stable")
    bounds = np.searchsorted(spans.doc[order], np.arange(spans.n_docs + 1)).tolist()
    for d in range(spans.n_docs):
        rows = order[bounds[d] : bounds[d + 1]]
        if not len(rows):
            continue
        ids = [f"T{n}" for n in range(1, len(rows) + 1)]
        values = {name: column[rows].tolist() for name, column in spans.attributes.items()}
        per_doc[d].extend(line + "\n" for line in ann_lines(ids, values))
