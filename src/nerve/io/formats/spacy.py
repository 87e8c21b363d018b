"""The ``spacy`` format: ``.spacy`` DocBins, ``doc.ents`` or the span group ``spans_key`` (`io.tools.spacy`).

In: nothing. Out: `FORMAT`, its record: sniffed by the ``.spacy`` suffix; spaCy is imported only
when one is read.
"""

from __future__ import annotations

from ..format import Format, Rule
from ..tools.spacy import read_spacy, read_spacy_pair, spacy_texts

__all__ = ["FORMAT"]

FORMAT = Format(
    "spacy",
    "spans",
    ".spacy DocBins (spaCy installed): doc.ents or the span group spans_key",
    sniff=(Rule(40, lambda probe: probe.path.endswith(".spacy")),),
    read=read_spacy,
    read_pair=read_spacy_pair,
    texts=lambda path, _: spacy_texts(path),
    options={"spans_key": "read this span group, not doc.ents"},
)
