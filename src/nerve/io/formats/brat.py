"""The ``brat`` format: directories of ``.txt``/``.ann`` pairs, or one ``.ann`` (`nerve.io.tools.brat_files`).

In: nothing. Out: `FORMAT`, its record: a ``.ann`` file, and a directory unless it holds CoNLL
files (`nerve.io.formats.conll`); `nerve convert --to brat` writes it.
"""

from __future__ import annotations

from ..format import Format, Lazy, Rule, texts_by_path
from .lenient import LENIENT

__all__ = ["FORMAT"]

FORMAT = Format(
    "brat",
    "spans",
    "brat standoff: .txt/.ann pairs paired by name, discontinuous entities with their fragments",
    sniff=(Rule(11, lambda probe: probe.is_dir), Rule(20, lambda probe: probe.path.endswith(".ann"))),
    read=Lazy("tools.brat_files:read_brat"),
    read_pair=Lazy("tools.brat_files:read_brat_pair"),
    texts=texts_by_path("tools.brat_files:brat_texts"),
    write=Lazy("write.spans:write_brat"),
    options={"lenient": LENIENT},
)
