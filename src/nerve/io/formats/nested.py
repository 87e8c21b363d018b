"""The ``nested`` format: DyGIE++ nested-NER JSON and ``{"tokens", "entities"}`` records (`io.json.nested`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

import re

from ..format import Format, Probe, Rule
from ..json.nested import nested_texts, read_nested

__all__ = ["FORMAT"]

_SENTENCES = re.compile(rb'"sentences"\s*:\s*\[\s*\[')


def _sniff(probe: Probe) -> bool:
    return probe.head.startswith((b"{", b"[")) and _SENTENCES.search(probe.head) is not None


FORMAT = Format(
    "nested",
    "spans",
    'DyGIE++ nested-NER JSON (inclusive ends) and {"tokens", "entities"} records',
    sniff=(Rule(80, _sniff),),
    read=read_nested,
    texts=lambda path, _: nested_texts(path),
)
