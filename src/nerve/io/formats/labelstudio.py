"""The ``labelstudio`` format: Label Studio's JSON exports (`nerve.io.tools.labelstudio`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

from ..format import Format, Lazy, Rule, json_keys, texts_by_path
from .lenient import LENIENT

__all__ = ["FORMAT"]

_KEYS = rb'"(annotations|completions|predictions)"\s*:\s*\[|"data"\s*:\s*\{'


FORMAT = Format(
    "labelstudio",
    "spans",
    "Label Studio's JSON exports: annotations and predictions",
    sniff=(Rule(100, json_keys(_KEYS, (b"{", b"["))),),
    read=Lazy("tools.labelstudio:read_labelstudio"),
    read_pair=Lazy("tools.labelstudio:read_labelstudio_pair"),
    texts=texts_by_path("tools.labelstudio:labelstudio_texts"),
    offsets=("char", "utf16"),  # char: code points; utf16: JavaScript's; byte: UTF-8
    options={"lenient": LENIENT},
)
