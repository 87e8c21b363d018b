"""The ``hipe`` format: HIPE 2020/2022 TSV, the tag column(s) picked by ``column`` (`nerve.io.tags.hipe`).

In: nothing. Out: `FORMAT`, its record: sniffed by its header, whose first column is ``TOKEN``.
"""

from __future__ import annotations

from ..format import Format, Rule
from ..tags.hipe import hipe_texts, read_hipe, read_hipe_pair

__all__ = ["FORMAT"]

FORMAT = Format(
    "hipe",
    "spans",
    "HIPE 2020/2022 TSV, the tag column(s) picked by column",
    sniff=(Rule(70, lambda probe: probe.head.startswith(b"TOKEN\t")),),
    read=read_hipe,
    read_column=read_hipe,
    read_column_pair=read_hipe_pair,
    texts=lambda path, _: hipe_texts(path),
    options={"column": "the tag column(s), comma-separated (default NE-COARSE-LIT)"},
)
