"""brat attributes and normalisations: read as per-entity metadata, and written back.

In: the text of a ``.ann`` file and its entity ids. Out: ``(entity, name, value)`` triples, the
others counted in the notes; `columns` makes the `SpanArray.attributes` of a side, and `ann_lines`
the ``.ann`` lines of one document's spans (for ``nerve convert --to brat``).

- ``A1<TAB>Negated T3`` (binary) is ``Negated`` = ``"true"``; ``A2<TAB>Confidence T3 High``
  (multi-valued) is ``Confidence`` = ``"High"``; ``M`` lines are the old form of ``A`` lines.
- ``N1<TAB>Reference T3 Wikipedia:534366<TAB>Barack Obama`` is ``norm:Wikipedia`` = ``"534366"``:
  the reference's id in its resource. The text after it (brat's copy of the entry's name) is
  not kept, and is not written back.
- A name given twice for one entity (two references to one resource) keeps both values, joined
  by a space in file order (brat's values hold no white space).
- Attributes and normalisations of events (``E`` ids) and relations (``R`` ids) are counted as
  ignored, as the events and relations are; one that names an id the file does not define is an
  `InputError` at its line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...errors import InputError
from ...model.quoting import quote

if TYPE_CHECKING:
    from ...model.arrays import ObjectArray

__all__ = ["ATTRIBUTE_FORM", "KEPT", "NORM", "ann_lines", "columns", "malformed", "read_attributes"]

#: The prefix of a normalisation's name: ``norm:Wikipedia``.
NORM = "norm:"
#: The notes counting what is kept as metadata, and what is ignored with the events and relations.
KEPT = {"A": "attributes (kept as span metadata)", "N": "normalizations (kept as span metadata)"}
_IGNORED = {"A": "ignored attributes (of events)", "N": "ignored normalizations (of events and relations)"}
_A_LINES = re.compile(r"^[AM]\S*\t(\S+) (\S+)(?: (\S+))?[ \t]*$", re.M)
_N_LINES = re.compile(r"^N\S*\t\S+ (\S+) ([^:\s]+):(\S+)(?:\t[^\n]*)?$", re.M)
_TARGETS = re.compile(r"^([ER]\S*)\t", re.M)
ATTRIBUTE_FORM = {
    "A": "A1<TAB>NAME ID or A1<TAB>NAME ID VALUE",
    "M": "M1<TAB>NAME ID or M1<TAB>NAME ID VALUE",
    "N": "N1<TAB>Reference ID RESOURCE:ENTRY<TAB>TEXT",
}


def malformed(line: str) -> bool:
    """Whether an ``A``, ``M`` or ``N`` line is not in its form."""
    found = (_N_LINES if line[0] == "N" else _A_LINES).fullmatch(line)
    return found is None


def read_attributes(
    path: str, data: str, ids: Sequence[str], notes: Counter[str], expected: int
) -> list[tuple[int, str, str]] | None:
    """The ``(entity index, name, value)`` of every attribute and normalisation of an entity.

    ``expected`` is the number of ``A``, ``M`` and ``N`` lines: ``None`` when fewer are in their
    form (the caller finds the first that is not).

    Raises:
        InputError: at the line of one that names an id the file does not define.
    """
    if not expected:
        return []
    found = [("A", m) for m in _A_LINES.finditer(data)] + [("N", m) for m in _N_LINES.finditer(data)]
    if len(found) != expected:
        return None
    index = {name: i for i, name in enumerate(ids)}
    others = set(_TARGETS.findall(data))
    out: list[tuple[int, str, str]] = []
    for kind, m in found:
        if kind == "A":
            name, target, value = m.group(1), m.group(2), m.group(3) or "true"
        else:
            target, name, value = m.group(1), NORM + m.group(2), m.group(3)
        if target in index:
            out.append((index[target], name, value))
            notes[KEPT[kind]] += 1
        elif target in others and (kind == "N" or target[0] == "E"):
            notes[_IGNORED[kind]] += 1
        else:
            line = data.count("\n", 0, m.start()) + 1
            what = "entity or event" if kind == "A" else "entity, event or relation"
            detail = f"{quote(m.group(0))} names {target}, which is no {what} of this file"
            raise InputError(path, line, detail)
    return out


def columns(
    found: Sequence[Sequence[tuple[int, str, str]]], sizes: Sequence[int]
) -> dict[str, ObjectArray] | None:
    """The attribute columns of documents' spans (each document's triples, its number of spans)."""
    if not any(found):
        return None
    base = np.concatenate([[0], np.cumsum(np.asarray(sizes, dtype=np.int64))]).tolist()
    total = base[-1]
    out: dict[str, ObjectArray] = {}
    for d, triples in enumerate(found):
        for i, name, value in triples:
            column = out.setdefault(name, np.full(total, None, dtype=object))
            k = base[d] + i
            column[k] = value if column[k] is None else f"{column[k]} {value}"
    return dict(sorted(out.items()))


def ann_lines(ids: Sequence[str], attributes: Mapping[str, Sequence[str | None]]) -> list[str]:
    """The ``A`` and ``N`` lines of entities ``ids`` (``T`` ids) whose values ``attributes`` gives."""
    a_lines: list[str] = []
    n_lines: list[str] = []
    for name, values in attributes.items():
        for t, value in zip(ids, values, strict=True):
            for one in [] if value is None else value.split(" "):
                if name.startswith(NORM):
                    n_lines.append(f"N{len(n_lines) + 1}\tReference {t} {name[len(NORM) :]}:{one}\t")
                else:
                    a_lines.append(f"A{len(a_lines) + 1}\t{name} {t}" + ("" if one == "true" else f" {one}"))
    return a_lines + n_lines
