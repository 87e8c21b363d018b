"""The ``conllu`` format: CoNLL-U, tags in MISC under the key ``column`` (`nerve.io.tags.conllu`).

In: nothing. Out: `FORMAT`, its record: sniffed by the ``.conllu`` suffix.
"""

from __future__ import annotations

from ..format import Format, Lazy, Rule, texts_by_path

__all__ = ["FORMAT"]

FORMAT = Format(
    "conllu",
    "spans",
    "CoNLL-U with tags in MISC under the key column (NER)",
    sniff=(Rule(30, lambda probe: probe.path.endswith(".conllu")),),
    read=Lazy("tags.conllu:read_conllu"),
    read_column=Lazy("tags.conllu:read_conllu"),
    read_column_pair=Lazy("tags.conllu:read_conllu_pair"),
    texts=texts_by_path("tags.conllu:conllu_texts"),
    options={"column": "the MISC key (default NER)"},
)
