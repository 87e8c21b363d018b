"""The ``jsonl`` and ``json`` formats: nerve's own span documents (`nerve.io.json.jsonl`).

In: nothing. Out: `JSONL` and `JSON`, their records: ``{"start", "end", "label", "text"?}`` spans
with half-open offsets, one side per file or ``"gold"`` and ``"pred"`` in one; a document a line,
or a list of them. `nerve convert --to jsonl` writes the first.
"""

from __future__ import annotations

from ...options import OFFSET_UNITS
from ..format import DocumentText, Format, Lazy, Probe, Rule
from .lenient import LENIENT

__all__ = ["JSON", "JSONL", "json_texts"]


def json_texts(path: str, units: str | None, fmt: str) -> list[DocumentText]:
    """Each document's ``"text"`` (character offsets) or ``"tokens"`` (token offsets), else ``None``."""
    from ..json.jsonl import json_objects, read_span_file  # only when the texts are asked for

    out: list[DocumentText] = []
    for _, o in json_objects(path, read_span_file(path), fmt):
        unit = (
            units if units in ("char", "token") else "token" if "tokens" in o and "text" not in o else "char"
        )
        bound = o.get("text") if unit == "char" else o.get("tokens")
        if isinstance(bound, str):
            out.append(bound)
        elif isinstance(bound, list) and all(isinstance(t, str) for t in bound):
            out.append(tuple(bound))
        else:
            out.append(None)
    return out


_read_documents = Lazy("json.jsonl:read_documents")


def _jsonl(probe: Probe) -> bool:
    """A ``.jsonl`` name (of a file, or of a path that is none: the reader says what is wrong)."""
    return probe.path.endswith(".jsonl")


JSONL = Format(
    "jsonl",
    "spans",
    'documents of {"start", "end", "label", "text"?} spans, one a line',
    sniff=(
        Rule(50, lambda probe: not probe.is_file and _jsonl(probe)),
        Rule(130, _jsonl),
        Rule(141, lambda probe: probe.head.startswith(b"{")),  # after nervaluate's {"true"...
    ),
    read=lambda path, units, problems: _read_documents(path, "jsonl", units, problems),
    texts=lambda path, units: json_texts(path, units, "jsonl"),
    write=Lazy("write.spans:write_jsonl"),
    offsets=OFFSET_UNITS,
    options={"lenient": LENIENT},
)
JSON = Format(
    "json",
    "spans",
    "a JSON list of the documents of jsonl",
    sniff=(
        Rule(60, lambda probe: probe.is_file and not probe.head and probe.path.endswith(".json")),
        Rule(180, lambda probe: probe.head.startswith(b"[")),
    ),
    read=lambda path, units, problems: _read_documents(path, "json", units, problems),
    texts=lambda path, units: json_texts(path, units, "json"),
    offsets=OFFSET_UNITS,
    options={"lenient": LENIENT},
)
