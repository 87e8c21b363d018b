"""The ``nervaluate`` format: lists of ``{"label", "start", "end"}`` (`nerve.io.json.nervaluate`).

In: nothing. Out: `FORMAT`, its record: a list of lists (a side a file), or ``{"true", "pred"}``.
"""

from __future__ import annotations

from ..format import Format, Rule, without_units

__all__ = ["FORMAT"]

FORMAT = Format(
    "nervaluate",
    "spans",
    'nervaluate\'s lists of {"label", "start", "end"}, inclusive ends, or {"true": [...], "pred": [...]}',
    sniff=(
        Rule(140, lambda probe: probe.head.startswith((b'{"true"', b'{"pred"'))),
        Rule(170, lambda probe: probe.head.startswith(b"[") and probe.head[1:].lstrip().startswith(b"[")),
    ),
    read=without_units("json.nervaluate:read_nervaluate"),
)
