"""The ``conllu`` format: CoNLL-U, tags in MISC under the key ``column`` (`nerve.io.tags.conllu`).

In: nothing. Out: `FORMAT`, its record: sniffed by the ``.conllu`` suffix.
"""

from __future__ import annotations

from ..format import Format, Rule
from ..tags.conllu import conllu_texts, read_conllu, read_conllu_pair

__all__ = ["FORMAT"]

FORMAT = Format(
    "conllu",
    "spans",
    "CoNLL-U with tags in MISC under the key column (NER)",
    sniff=(Rule(30, lambda probe: probe.path.endswith(".conllu")),),
    read=read_conllu,
    read_column=read_conllu,
    read_column_pair=read_conllu_pair,
    texts=lambda path, _: conllu_texts(path),
    options={"column": "the MISC key (default NER)"},
)
