"""brat standoff ``.ann`` files: their entities read, and checked against the document's text.

In: the path of a ``.ann`` file, and the text of its ``.txt``. Out: each entity's type and pieces
(`Document`), and the other annotations counted. `nerve.io.tools.brat_files` finds the documents of a
directory and builds the `SpanArray` of each side.

Each ``.ann`` line is one annotation (https://brat.nlplab.org/standoff.html). Entities are the
text-bound ``T`` lines, ``T1<TAB>TYPE START END[;START END]...<TAB>TEXT``: a discontinuous
entity's start and end are its first piece's start and its last piece's end, and its text is the
pieces' texts joined by a space. Event triggers are ``T`` lines too, and are read as entities.
Attributes (``A``, ``M``) and normalisations (``N``) of entities are kept as the spans' metadata
(`nerve.io.tools.brat_attributes`). Relations (``R``), events (``E``), equivalences (``*``) and
annotator notes (``#``) are not scored: they are counted in the notes.

Offsets count the characters of the ``.txt`` read as UTF-8, as Python counts them: a CR LF line
end is two characters, and a byte order mark one. brat's own server reads texts with universal
newlines and counts CR LF as one (nlplab/brat#853): a document whose entity texts match only that
way is read that way, its offsets moved to the file's characters, and counted in the notes.

Problems raise `InputError` naming the ``.ann`` file and line: a line that is no annotation, a
``T`` line without offsets, a repeated id, pieces that are empty, out of order or overlapping,
offsets beyond the text, an entity text that differs from the ``.txt``'s.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from ...errors import InputError, plural
from ...model.quoting import quote
from ..json.jsonl import MAX_OFFSET
from ..lenient import TEXT_MISMATCH, is_lenient, mismatch_fix
from ..offsets import decode_utf8
from ..sources import read_bytes
from .brat_attributes import ATTRIBUTE_FORM, malformed, read_attributes

if TYPE_CHECKING:
    from ...model.arrays import Int

__all__ = ["KINDS", "Annotations", "Document", "check_document", "empty_document", "read_ann"]

#: What each non-entity annotation is counted as, by the first character of its id.
KINDS = {
    "R": "ignored relations",
    "E": "ignored events",
    "*": "ignored equivalences",
    "#": "ignored annotator notes",
}
_T_LINES = re.compile(r"^(T\S*)\t(\S+) +([0-9]+ +[0-9]+(?:;[0-9]+ +[0-9]+)*)(?:\t([^\n]*))?$", re.M)
_HEADS = re.compile(r"^(.)", re.M)
_T_FORM = "T1<TAB>TYPE START END<TAB>TEXT, with START END;START END... for a discontinuous entity"
_NO_TEXT = "entities without text (not checked)"
_CRLF = "documents with offsets counting CR LF as one character"
_BOM = "documents with offsets not counting the byte order mark"


@dataclass
class Annotations:
    """The entities of one ``.ann`` file as written: offsets not yet checked against the text."""

    path: str
    data: str  # the file's text, CR LF made LF
    ids: list[str]
    labels: list[str]
    texts: list[str | None]
    pieces: Int  # (start, end) rows of every entity's pieces, in order
    counts: Int  # how many pieces each entity has
    notes: Counter[str] = field(default_factory=Counter)
    attributes: list[tuple[int, str, str]] = field(default_factory=list)  # (entity, name, value)

    def line(self, i: int) -> int:
        """The 1-based line of entity ``i`` (the ``i``-th ``T`` line): for messages only."""
        t_lines = (n for n, line in enumerate(self.data.split("\n"), start=1) if line.startswith("T"))
        return next(n for k, n in enumerate(t_lines) if k == i)


def read_ann(path: str) -> Annotations:
    """The entities of the ``.ann`` file ``path``, and the other annotations counted.

    Raises:
        InputError: a line that is not an annotation, a malformed ``T`` line, a repeated id.
    """
    data = decode_utf8(path, read_bytes(path)).replace("\r\n", "\n")
    found = _T_LINES.findall(data)
    heads = Counter(_HEADS.findall(data))  # the first character of every line that has one
    if heads["T"] != len(found) or not set(heads) <= {"T", "A", "M", "N", *KINDS}:
        _locate(path, data.split("\n"))
    ids = [f[0] for f in found]
    joined = " ".join([f[2] for f in found])
    numbers = joined.replace(";", " ").split()
    try:
        pieces = np.asarray(list(map(int, numbers)), dtype=np.int64).reshape(-1, 2)
    except OverflowError:  # beyond 64 bits: beyond any text too
        pieces = np.full((len(numbers) // 2, 2), MAX_OFFSET + 1, dtype=np.int64)
    counts = np.ones(len(found), dtype=np.int64)
    if ";" in joined:
        counts += np.fromiter((f[2].count(";") for f in found), dtype=np.int64, count=len(found))
    notes: Counter[str] = Counter()
    for head, n in heads.items():
        if head in KINDS:
            notes[KINDS[head]] += n
    texts = [f[3] or None for f in found]  # no text, or an empty one: brat fills it in
    out = Annotations(path, data, ids, [f[1] for f in found], texts, pieces, counts, notes)
    if len(set(ids)) != len(ids):
        _repeated(out)
    found_attributes = read_attributes(path, data, ids, notes, heads["A"] + heads["M"] + heads["N"])
    if found_attributes is None:
        _locate(path, data.split("\n"))
    out.attributes = found_attributes or []
    return out


def _repeated(ann: Annotations) -> None:
    """Raise at the line of the first id used a second time."""
    seen: set[str] = set()
    for k, i in enumerate(ann.ids):
        if i in seen:
            raise InputError(ann.path, ann.line(k), f"id {i} is used twice (expected one entity per id)")
        seen.add(i)


def _locate(path: str, lines: list[str]) -> None:
    """Raise the `InputError` of the first line that is not an annotation brat reads, if one is not.

    Lines of white space only are no annotation, and no problem either.
    """
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if line[0] == "T" and _T_LINES.fullmatch(line) is None:
            fields = line.split("\t")
            words = fields[1].split(" ") if len(fields) > 1 else []
            found = f"no offsets in {quote(line)}" if len(words) < 3 else quote(line)
            raise InputError(path, n, f"malformed entity: {found}; expected {_T_FORM}")
        if line[0] in ATTRIBUTE_FORM and malformed(line):
            detail = f"malformed {quote(line)}; expected {ATTRIBUTE_FORM[line[0]]}"
            raise InputError(path, n, detail)
        if line[0] != "T" and line[0] not in KINDS and line[0] not in ATTRIBUTE_FORM:
            name = quote(line.split("\t")[0])
            detail = f"unknown annotation {name}: expected an id starting with T, R, E, A, M, N, * or #"
            raise InputError(path, n, detail)


@dataclass
class Document:
    """One document's entities, checked: label names, their pieces and how many each has."""

    labels: list[str]
    pieces: Int
    counts: Int
    notes: Counter[str]
    attributes: list[tuple[int, str, str]] = field(default_factory=list)


def check_document(ann: Annotations, text: str, txt: str) -> Document:
    """``ann``'s entities checked against ``text`` (read from ``txt``), offsets as its characters.

    Raises:
        InputError: at the ``.ann`` line of the first entity with empty, unordered or
            overlapping pieces, a piece beyond the text, or a text that differs from the
            ``.txt``'s.
    """
    _check_pieces(ann, len(text), txt)
    notes = Counter(ann.notes)
    missing = ann.texts.count(None)
    if missing:
        notes[_NO_TEXT] += missing
    wrong = _mismatches(ann, text)
    if wrong:
        moved = _as_universal(ann, text, notes)
        if moved is None and is_lenient():  # lenient: counted, scored as the offsets say
            notes[TEXT_MISMATCH] += len(wrong)
        elif moved is None:
            _raise_mismatch(ann, text, wrong[0], txt)
        else:
            return Document(ann.labels, moved, ann.counts, notes, ann.attributes)
    return Document(ann.labels, ann.pieces, ann.counts, notes, ann.attributes)


def _check_pieces(ann: Annotations, length: int, txt: str) -> None:
    """Raise at the first entity whose pieces are empty, unordered, overlapping or too far."""
    start, end = ann.pieces[:, 0], ann.pieces[:, 1]
    owner = np.repeat(np.arange(len(ann.counts)), ann.counts)
    empty = start >= end
    follows = np.zeros(len(start), dtype=bool)  # a piece that starts before the one before it ends
    follows[1:] = (owner[1:] == owner[:-1]) & (start[1:] < end[:-1])
    beyond = end > length
    bad = empty | follows | beyond
    if not bad.any():
        return
    k = int(np.argmax(bad))
    i = int(owner[k])
    where, s, e = ann.line(i), int(start[k]), int(end[k])
    if empty[k]:
        detail = f"entity {ann.ids[i]}: piece {s} {e} is empty or reversed (expected START < END)"
    elif follows[k]:
        detail = (
            f"entity {ann.ids[i]}: piece {s} {e} starts before the piece before it ends "
            "(expected pieces in order, without overlap)"
        )
    else:
        detail = (
            f"entity {ann.ids[i]}: offset {e} is beyond the text ({plural(length, 'character')} in {txt}); "
            "expected offsets within it"
        )
    raise InputError(ann.path, where, detail)


def _covered(pieces: Int, counts: Int, text: str, sep: str = " ") -> list[str]:
    """The text each entity's pieces cover, joined by ``sep``."""
    parts = [text[s:e] for s, e in pieces.tolist()]
    if len(parts) == len(counts):
        return parts
    bounds = np.concatenate([[0], np.cumsum(counts)]).tolist()
    return [sep.join(parts[a:b]) for a, b in pairwise(bounds)]


def _agrees(given: str | None, covered: str) -> bool:
    """Whether an entity's ``given`` text is what its offsets cover.

    As brat reads it, more may follow after white space (``T1<TAB>PER 0 4<TAB>John<TAB>...``).
    """
    if given is None or given == covered:
        return True
    return given.startswith(covered) and len(given) > len(covered) and given[len(covered)].isspace()


def _mismatches(ann: Annotations, text: str) -> list[int]:
    """The entities whose given text differs from what their offsets cover in ``text``."""
    covered = _covered(ann.pieces, ann.counts, text)
    if covered == ann.texts:  # every text given, and equal: one comparison in C
        return []
    wrong = [i for i, (g, c) in enumerate(zip(ann.texts, covered, strict=True)) if not _agrees(g, c)]
    if wrong and (ann.counts > 1).any():  # brat before 1.3 joined the pieces without a space
        old = _covered(ann.pieces, ann.counts, text, "")
        wrong = [i for i in wrong if not _agrees(ann.texts[i], old[i])]
    return wrong


def _raise_mismatch(ann: Annotations, text: str, i: int, txt: str) -> None:
    lo, hi = int(np.sum(ann.counts[:i])), int(np.sum(ann.counts[: i + 1]))
    spans = ";".join(f"{s} {e}" for s, e in ann.pieces[lo:hi].tolist())
    covered = _covered(ann.pieces[lo:hi], ann.counts[i : i + 1], text)[0]
    detail = f"entity {ann.ids[i]}: {txt} has {quote(covered)} at {spans}, not {quote(ann.texts[i])}"
    raise InputError(ann.path, ann.line(i), detail + mismatch_fix())


def _as_universal(ann: Annotations, text: str, notes: Counter[str]) -> Int | None:
    """The pieces moved to ``text``'s characters, if the entity texts agree only as brat's server reads.

    That is: CR LF one character and the byte order mark none. Else ``None``.
    """
    crlf, bom = "\r\n" in text, text.startswith("\ufeff")
    if not (crlf or bom):
        return None
    short = (text[1:] if bom else text).replace("\r\n", "\n")
    if (ann.pieces[:, 1] > len(short)).any() or _mismatches(ann, short):
        return None
    keep = np.ones(len(text), dtype=bool)  # the characters of text that short keeps
    keep[0] = not bom
    if crlf:
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        keep[:-1] &= ~((codes[:-1] == 13) & (codes[1:] == 10))
    kept = np.flatnonzero(keep)
    for kind, used in ((_CRLF, crlf), (_BOM, bom)):
        if used:
            notes[kind] += 1
    return np.stack([kept[ann.pieces[:, 0]], kept[ann.pieces[:, 1] - 1] + 1], axis=1).astype(np.int64)


def empty_document() -> Document:
    """A document without entities: where one could not be read while validating."""
    return Document([], np.zeros((0, 2), dtype=np.int64), np.zeros(0, dtype=np.int64), Counter())
