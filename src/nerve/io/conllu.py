"""CoNLL-U files with entity tags in the MISC column (``NER=B-PER``; the key is an option).

In: a CoNLL-U file (https://universaldependencies.org/format.html): ten tab-separated columns a
word, a blank line after each sentence, ``#`` comments. ``# newdoc`` (``# newdoc id = X``) starts a
document; without one the whole file is one document. Multiword token lines (ID ``1-2``) and
empty nodes (ID ``1.1``) carry no tag of their own: they are skipped and counted in the notes.
MISC holds ``Key=Value`` items separated by ``|`` (or by spaces, as NorNE writes ``SpaceAfter=No
name=B-PER``); the tag is the value of ``key`` (``NER`` by default, ``name`` for NorNE), decoded
with nerve's shared rule, any scheme (`nerve.io.tag_columns`).

Out: one `SpanArray`, offsets in words from the start of each document; no entity crosses a
sentence.

Problems raise `InputError` naming the file and line: a word line without ten columns, a word
without the key while others of the file have it (the fix: ``--column`` with the key the file
uses; a file where no word has it is refused the same way), a tag that is not ``B-X``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from ..model.quoting import quote
from ..model.spans import SpanArray
from .jsonl import Problems, collect
from .tag_columns import Lines, cells, decode_tag_ids, strings, text_bytes

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]

__all__ = ["DEFAULT_KEY", "conllu_texts", "read_conllu"]

#: The MISC key read when none is given.
DEFAULT_KEY = "NER"
_SKIPPED = re.compile(r"^\d+[-.]")


Words = tuple[Lines, "Int", "Int", "Int", int, dict[str, int]]


def _words(path: str) -> Words:
    """The lines, the word rows among them, their documents and sentences, the number of documents, notes."""
    lines = text_bytes(path)
    comment = lines.first_byte(ord("#"))
    blank = lines.blank() & ~comment
    newdoc = np.zeros(len(lines), dtype=bool)
    for m in re.finditer(rb"newdoc", lines.data):  # then the rule, on the few lines that have it
        i = int(np.searchsorted(lines.end, m.start()))
        newdoc[i] = bool(comment[i]) and lines.text(i)[1:].strip().startswith("newdoc")
    word = ~comment & ~blank
    at = np.flatnonzero(word)
    widths = lines.widths(at)
    if (widths != 10).any():
        k = int(np.argmax(widths != 10))
        detail = f"word line has {int(widths[k])} columns, expected the 10 of CoNLL-U (separated by tabs)"
        raise InputError(path, int(at[k]) + 1, detail)
    markers = np.cumsum(newdoc)
    leading = bool(at.shape[0]) and int(markers[at[0]]) == 0  # words before the first newdoc
    skipped = _skipped(lines, at)
    rows = at[~skipped]
    n_docs = int(markers[-1]) + int(leading) if (rows.shape[0] or (markers.shape[0] and markers[-1])) else 0
    doc = markers[rows].astype(np.int64) - 1 + int(leading)
    sent = np.cumsum(newdoc | blank)[rows].astype(np.int64)
    n_skipped = int(np.count_nonzero(skipped))
    notes = {"multiword tokens and empty nodes (skipped)": n_skipped} if n_skipped else {}
    return lines, rows.astype(np.int64), doc, sent, n_docs, notes


def _skipped(lines: Lines, at: Int) -> npt.NDArray[np.bool_]:
    """Whether the ID of each word line is a range or an empty node (``_SKIPPED``: digits, then - or .)."""
    start, end = cells(lines, at, 0, 10)
    width = end - start
    longest = int(width.max(initial=0))
    dotted: npt.NDArray[np.bool_] = np.zeros(at.shape[0], dtype=bool)
    if longest > 32:  # not IDs: the first - or . of the file after each cell's start
        marks = np.flatnonzero((lines.buf == 45) | (lines.buf == 46))
        dotted = np.append(marks, len(lines.data))[np.searchsorted(marks, start)] < end
    for j in range(longest if longest <= 32 else 0):  # IDs are short: a pass per byte
        byte = lines.buf[np.minimum(start + j, len(lines.data) - 1)]
        dotted |= (j < width) & ((byte == 45) | (byte == 46))
    found = np.zeros(at.shape[0], dtype=bool)
    for k in np.flatnonzero(dotted).tolist():  # an ID with - or . (ranges and empty nodes only)
        found[k] = _SKIPPED.match(lines.data[start[k] : end[k]].decode("utf-8")) is not None
    return found


def _tags(path: str, lines: Lines, rows: Int, key: str) -> tuple[list[str], Int]:
    """The value of ``key`` in each MISC cell; raise at a cell without it."""
    found = re.compile(rf"(?:^|[|\s]){re.escape(key)}=([^|\s]+)")
    start, end = cells(lines, rows, 9, 10)
    names, ids = strings(lines, start, end)
    matches = [found.search(m) for m in names]
    tags = [m.group(1) if m is not None else "" for m in matches]
    missing = np.asarray([t == "" for t in tags], dtype=bool)[ids]
    if missing.any():
        k = int(np.argmax(missing))
        has = int(np.count_nonzero(~missing))
        detail = (
            f"MISC {quote(names[int(ids[k])])} has no {key}=TAG, but {has} other words of the file have one"
            if has
            else f"no word has {key}=TAG in MISC; give the key the file uses with --column"
        )
        raise InputError(path, int(rows[k]) + 1, detail, option="--column")
    distinct = sorted(set(tags))
    index = {t: i for i, t in enumerate(distinct)}
    return distinct, np.asarray([index[t] for t in tags], dtype=np.int64)[ids]


def read_conllu(
    path: str, units: str | None = None, problems: Problems = None, column: str | None = None
) -> tuple[SpanArray, None]:
    """The entities of the CoNLL-U file ``path``, tags under the MISC key ``column``: one side."""
    del units
    key = column or DEFAULT_KEY
    try:
        lines, rows, docs, sent, n_docs, notes = _words(path)
        if not rows.shape[0]:
            return replace(SpanArray.empty(n_docs), source=path, notes=notes), None
        names, ids = _tags(path, lines, rows, key)
        start = np.ones(rows.shape[0], dtype=bool)
        start[1:] = sent[1:] != sent[:-1]
        spans = decode_tag_ids(names, ids, docs, start, n_docs, (path, rows + 1))
    except InputError as err:
        collect(problems, err)
        return replace(SpanArray.empty(0), source=path), None
    return replace(spans, source=path, notes=notes), None


def conllu_texts(path: str) -> list[tuple[str, ...]]:
    """The words (FORM) of each document of the CoNLL-U file ``path``."""
    lines, rows, docs, _, n_docs, _ = _words(path)
    names, ids = strings(lines, *cells(lines, rows, 1, 10))
    words = [names[i] for i in ids.tolist()]
    bounds = np.searchsorted(docs, np.arange(n_docs + 1)).tolist()
    return [tuple(words[a:b]) for a, b in itertools.pairwise(bounds)]
