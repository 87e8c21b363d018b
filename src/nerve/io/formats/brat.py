"""The ``brat`` format: directories of ``.txt``/``.ann`` pairs, or one ``.ann`` (`nerve.io.tools.brat_files`).

In: nothing. Out: `FORMAT`, its record: a ``.ann`` file, and a directory unless it holds CoNLL
files (`nerve.io.formats.conll`); `nerve convert --to brat` writes it.
"""

from __future__ import annotations

from ..format import Format, Rule
from ..tools.brat_files import brat_texts, read_brat, read_brat_pair
from ..write.spans import write_brat
from .lenient import LENIENT

__all__ = ["FORMAT"]

FORMAT = Format(
    "brat",
    "spans",
    "brat standoff: .txt/.ann pairs paired by name, discontinuous entities with their fragments",
    sniff=(Rule(11, lambda probe: probe.is_dir), Rule(20, lambda probe: probe.path.endswith(".ann"))),
    read=read_brat,
    read_pair=read_brat_pair,
    texts=lambda path, _: brat_texts(path),
    write=write_brat,
    options={"lenient": LENIENT},
)
