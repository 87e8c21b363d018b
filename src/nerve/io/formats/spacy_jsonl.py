"""The ``spacy-jsonl`` format: spaCy/Prodigy JSONL, ``{"text", "spans" | "ents": [...]}`` (`io.tools.spacy`).

In: nothing. Out: `FORMAT`, its record; `nerve convert --to spacy-jsonl` writes it.
"""

from __future__ import annotations

from ..format import TEXT_OFFSETS, Format, Rule, json_keys
from ..tools.spacy import read_spacy_jsonl, read_spacy_jsonl_pair, spacy_jsonl_texts
from ..write.spans import write_spacy_jsonl
from .lenient import LENIENT

__all__ = ["FORMAT"]


FORMAT = Format(
    "spacy-jsonl",
    "spans",
    'spaCy/Prodigy JSONL: {"text", "spans" | "ents": [...]}',
    sniff=(Rule(110, json_keys(rb'"(_input_hash|token_start)"\s*:|"ents"\s*:\s*\[')),),
    read=read_spacy_jsonl,
    read_pair=read_spacy_jsonl_pair,
    texts=lambda path, _: spacy_jsonl_texts(path),
    write=write_spacy_jsonl,
    offsets=TEXT_OFFSETS,
    options={"lenient": LENIENT},
)
