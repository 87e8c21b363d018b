"""The ``hipe`` format: HIPE 2020/2022 TSV, the tag column(s) picked by ``column`` (`nerve.io.tags.hipe`).

In: nothing. Out: `FORMAT`, its record: sniffed by its header, whose first column is ``TOKEN``.
"""

from __future__ import annotations

from ..format import Format, Lazy, Rule, texts_by_path

__all__ = ["FORMAT"]

FORMAT = Format(
    "hipe",
    "spans",
    "HIPE 2020/2022 TSV, the tag column(s) picked by column",
    sniff=(Rule(70, lambda probe: probe.head.startswith(b"TOKEN\t")),),
    read=Lazy("tags.hipe:read_hipe"),
    read_column=Lazy("tags.hipe:read_hipe"),
    read_column_pair=Lazy("tags.hipe:read_hipe_pair"),
    texts=texts_by_path("tags.hipe:hipe_texts"),
    options={"column": "the tag column(s), comma-separated (default NE-COARSE-LIT)"},
)
