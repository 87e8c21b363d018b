"""The ``nereval`` format: ``[{"text", "true": [...], "predicted": [...]}]`` (`nerve.io.json.nereval`).

In: nothing. Out: `FORMAT`, its record: both sides in one JSON list, sniffed by ``"predicted"``.
"""

from __future__ import annotations

from ..format import Format, Rule, without_units

__all__ = ["FORMAT"]

FORMAT = Format(
    "nereval",
    "spans",
    'nereval\'s JSON: [{"text", "true": [...], "predicted": [...]}]',
    sniff=(Rule(160, lambda probe: probe.head.startswith(b"[") and b'"predicted"' in probe.head),),
    read=without_units("json.nereval:read_nereval"),
)
