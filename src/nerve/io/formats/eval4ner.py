"""The ``eval4ner`` format: ``(type, surface)`` entities located in their sentence (`nerve.io.json.eval4ner`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

import re

from ..format import Format, Probe, Rule
from ..json.eval4ner import read_eval4ner

__all__ = ["FORMAT"]

_SIDES = re.compile(rb'"(gold|pred)"\s*:\s*\[\s*\[\s*"')


def _sniff(probe: Probe) -> bool:
    return probe.head.startswith((b"{", b"[")) and _SIDES.search(probe.head) is not None


FORMAT = Format(
    "eval4ner",
    "spans",
    "eval4ner's (type, surface) entities, located in their sentence",
    sniff=(Rule(90, _sniff),),
    read=lambda path, _, problems: read_eval4ner(path, problems),
)
