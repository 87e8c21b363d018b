"""The ``doccano`` format: doccano's JSONL exports, ``{"text", "label": [[s, e, t]]}`` (`io.tools.doccano`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

from ..format import TEXT_OFFSETS, Format, Lazy, Rule, json_keys, texts_by_path

__all__ = ["FORMAT"]


FORMAT = Format(
    "doccano",
    "spans",
    'doccano\'s JSONL exports: {"text", "label": [[start, end, "TYPE"]]}',
    sniff=(Rule(120, json_keys(rb'"labels?"\s*:\s*\[\s*[\[\]]|"start_offset"\s*:')),),
    read=Lazy("tools.doccano:read_doccano"),
    read_pair=Lazy("tools.doccano:read_doccano_pair"),
    texts=texts_by_path("tools.doccano:doccano_texts"),
    offsets=TEXT_OFFSETS,
)
