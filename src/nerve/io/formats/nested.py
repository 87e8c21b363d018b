"""The ``nested`` format: DyGIE++ nested-NER JSON and ``{"tokens", "entities"}`` records (`io.json.nested`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

from ..format import Format, Lazy, Rule, json_keys, texts_by_path

__all__ = ["FORMAT"]


FORMAT = Format(
    "nested",
    "spans",
    'DyGIE++ nested-NER JSON (inclusive ends) and {"tokens", "entities"} records',
    sniff=(Rule(80, json_keys(rb'"sentences"\s*:\s*\[\s*\[', (b"{", b"["))),),
    read=Lazy("json.nested:read_nested"),
    texts=texts_by_path("json.nested:nested_texts"),
)
