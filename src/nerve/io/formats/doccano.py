"""The ``doccano`` format: doccano's JSONL exports, ``{"text", "label": [[s, e, t]]}`` (`io.tools.doccano`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

from ..format import TEXT_OFFSETS, Format, Rule, json_keys
from ..tools.doccano import doccano_texts, read_doccano, read_doccano_pair

__all__ = ["FORMAT"]


FORMAT = Format(
    "doccano",
    "spans",
    'doccano\'s JSONL exports: {"text", "label": [[start, end, "TYPE"]]}',
    sniff=(Rule(120, json_keys(rb'"labels?"\s*:\s*\[\s*[\[\]]|"start_offset"\s*:')),),
    read=read_doccano,
    read_pair=read_doccano_pair,
    texts=lambda path, _: doccano_texts(path),
    offsets=TEXT_OFFSETS,
)
