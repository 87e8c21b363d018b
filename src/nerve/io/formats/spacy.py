"""The ``spacy`` format: ``.spacy`` DocBins, ``doc.ents`` or the span group ``spans_key`` (`io.tools.spacy`).

In: nothing. Out: `FORMAT`, its record: sniffed by the ``.spacy`` suffix; spaCy is imported only
when one is read.
"""

from __future__ import annotations

from ..format import Format, Lazy, Rule, texts_by_path

__all__ = ["FORMAT"]

FORMAT = Format(
    "spacy",
    "spans",
    ".spacy DocBins (spaCy installed): doc.ents or the span group spans_key",
    sniff=(Rule(40, lambda probe: probe.path.endswith(".spacy")),),
    read=Lazy("tools.spacy:read_spacy"),
    read_pair=Lazy("tools.spacy:read_spacy_pair"),
    texts=texts_by_path("tools.spacy:spacy_texts"),
    options={"spans_key": "read this span group, not doc.ents"},
)
