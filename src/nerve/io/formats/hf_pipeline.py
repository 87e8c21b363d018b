"""The ``hf-pipeline`` format: what ``pipeline("ner")`` returns per text (`nerve.io.json.hf_pipeline`).

In: nothing. Out: `FORMAT`, its record. Its own option: ``min_score`` (`nerve.io.outputs`).
"""

from __future__ import annotations

import re

from ..format import Format, Probe, Rule, texts_by_path, without_units
from .lenient import LENIENT

__all__ = ["FORMAT"]

# Patterns `re` compiles (and caches) on the first JSON head searched: none for a CoNLL file.
_ENTITY = rb'"entity(_group)?"\s*:\s*"'
_START = rb'"start"\s*:'


def _sniff(probe: Probe) -> bool:
    """JSON or JSONL whose first entities have a string ``entity`` (or ``entity_group``) and a ``start``."""
    head = probe.head
    return head.startswith((b"{", b"[")) and bool(re.search(_ENTITY, head)) and bool(re.search(_START, head))


FORMAT = Format(
    "hf-pipeline",
    "spans",
    'Hugging Face pipeline("ner") output: {"text"?, "entities": [{"entity" | "entity_group", "start", "end", '
    '"score", "word"}]} a line, or bare lists',
    sniff=(Rule(114, _sniff),),
    read=without_units("json.hf_pipeline:read_hf_pipeline"),
    texts=texts_by_path("json.output_docs:output_texts"),
    options={
        "min_score": "drop the predictions scored below S, counting them in the notes (default: keep all)",
        "lenient": LENIENT,
    },
)
