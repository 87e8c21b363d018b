"""The ``entity-list`` format: entities listed without offsets, with their text (`io.json.entity_list`).

In: nothing. Out: `FORMAT`, its record. Its own options: ``locate`` and ``normalize``
(`nerve.io.outputs`).
"""

from __future__ import annotations

import re

from ..format import Format, Probe, Rule, texts_by_path, without_units

__all__ = ["FORMAT"]

# Patterns `re` compiles (and caches) on the first JSON head searched: none for a CoNLL file.
_ENTITIES = rb'"entities"\s*:\s*(\[\s*[\[{]|\{)'
_OFFSETS = rb'"(start|end|tokens|start_offset)"\s*:'


def _sniff(probe: Probe) -> bool:
    """JSON or JSONL documents with listed ``entities`` and no offsets or tokens in the first bytes."""
    head = probe.head
    if not head.startswith((b"{", b"[")):
        return False
    return re.search(_ENTITIES, head) is not None and re.search(_OFFSETS, head) is None


FORMAT = Format(
    "entity-list",
    "spans",
    'entities without offsets: {"text", "entities": [{"text", "type"}]} a line, located in the text',
    sniff=(Rule(116, _sniff),),
    read=without_units("json.entity_list:read_entity_list"),
    texts=texts_by_path("json.output_docs:output_texts"),
    options={
        "locate": "how a listed entity is found in its text: in-order (default: the k-th listing of a "
        "text is its k-th occurrence), first (its first occurrence) or all (every occurrence)",
        "normalize": "what matching an entity's text against the text ignores, comma-separated: case, "
        "space, punct, nfkc (default: none, exact)",
    },
)
