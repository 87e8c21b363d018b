"""The ``doccano`` format: doccano's JSONL exports, ``{"text", "label": [[s, e, t]]}`` (`io.tools.doccano`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

import re

from ..format import Format, Probe, Rule
from ..tools.doccano import doccano_texts, read_doccano, read_doccano_pair

__all__ = ["FORMAT"]

_KEYS = re.compile(rb'"labels?"\s*:\s*\[\s*[\[\]]|"start_offset"\s*:')


def _sniff(probe: Probe) -> bool:
    return probe.head.startswith(b"{") and _KEYS.search(probe.head) is not None


FORMAT = Format(
    "doccano",
    "spans",
    'doccano\'s JSONL exports: {"text", "label": [[start, end, "TYPE"]]}',
    sniff=(Rule(120, _sniff),),
    read=read_doccano,
    read_pair=read_doccano_pair,
    texts=lambda path, _: doccano_texts(path),
    offsets=("char", "utf16", "byte"),
)
