"""The ``spacy-jsonl`` format: spaCy/Prodigy JSONL, ``{"text", "spans" | "ents": [...]}`` (`io.tools.spacy`).

In: nothing. Out: `FORMAT`, its record; `nerve convert --to spacy-jsonl` writes it.
"""

from __future__ import annotations

from ..format import TEXT_OFFSETS, Format, Lazy, Rule, json_keys, texts_by_path
from .lenient import LENIENT

__all__ = ["FORMAT"]


FORMAT = Format(
    "spacy-jsonl",
    "spans",
    'spaCy/Prodigy JSONL: {"text", "spans" | "ents": [...]}',
    sniff=(Rule(110, json_keys(rb'"(_input_hash|token_start)"\s*:|"ents"\s*:\s*\[')),),
    read=Lazy("tools.spacy:read_spacy_jsonl"),
    read_pair=Lazy("tools.spacy:read_spacy_jsonl_pair"),
    texts=texts_by_path("tools.spacy:spacy_jsonl_texts"),
    write=Lazy("write.spans:write_spacy_jsonl"),
    offsets=TEXT_OFFSETS,
    options={"lenient": LENIENT},
)
