"""The ``nested`` format: DyGIE++ nested-NER JSON and ``{"tokens", "entities"}`` records (`io.json.nested`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

from ..format import Format, Rule, json_keys
from ..json.nested import nested_texts, read_nested

__all__ = ["FORMAT"]


FORMAT = Format(
    "nested",
    "spans",
    'DyGIE++ nested-NER JSON (inclusive ends) and {"tokens", "entities"} records',
    sniff=(Rule(80, json_keys(rb'"sentences"\s*:\s*\[\s*\[', (b"{", b"["))),),
    read=read_nested,
    texts=lambda path, _: nested_texts(path),
)
