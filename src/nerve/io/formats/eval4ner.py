"""The ``eval4ner`` format: ``(type, surface)`` entities located in their sentence (`nerve.io.json.eval4ner`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

from ..format import Format, Rule, json_keys, without_units

__all__ = ["FORMAT"]


FORMAT = Format(
    "eval4ner",
    "spans",
    "eval4ner's (type, surface) entities, located in their sentence",
    sniff=(Rule(90, json_keys(rb'"(gold|pred)"\s*:\s*\[\s*\[\s*"', (b"{", b"["))),),
    read=without_units("json.eval4ner:read_eval4ner"),
)
