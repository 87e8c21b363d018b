"""The ``labelstudio`` format: Label Studio's JSON exports (`nerve.io.tools.labelstudio`).

In: nothing. Out: `FORMAT`, its record.
"""

from __future__ import annotations

from ..format import Format, Rule, json_keys
from ..tools.labelstudio import labelstudio_texts, read_labelstudio, read_labelstudio_pair
from .lenient import LENIENT

__all__ = ["FORMAT"]

_KEYS = rb'"(annotations|completions|predictions)"\s*:\s*\[|"data"\s*:\s*\{'


FORMAT = Format(
    "labelstudio",
    "spans",
    "Label Studio's JSON exports: annotations and predictions",
    sniff=(Rule(100, json_keys(_KEYS, (b"{", b"["))),),
    read=read_labelstudio,
    read_pair=read_labelstudio_pair,
    texts=lambda path, _: labelstudio_texts(path),
    offsets=("char", "utf16"),  # char: code points; utf16: JavaScript's; byte: UTF-8
    options={"lenient": LENIENT},
)
