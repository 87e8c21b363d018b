"""The ``eval4ner`` format: ``(type, surface)`` entities located in their sentence (`nerve.io.json.eval4ner`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

from ..format import Format, Rule, json_keys
from ..json.eval4ner import read_eval4ner

__all__ = ["FORMAT"]


FORMAT = Format(
    "eval4ner",
    "spans",
    "eval4ner's (type, surface) entities, located in their sentence",
    sniff=(Rule(90, json_keys(rb'"(gold|pred)"\s*:\s*\[\s*\[\s*"', (b"{", b"["))),),
    read=lambda path, _, problems: read_eval4ner(path, problems),
)
