"""CoNLL-U files with entity tags in the MISC column (``NER=B-PER``; the key is an option).

In: a CoNLL-U file (https://universaldependencies.org/format.html): ten tab-separated columns a
word, a blank line after each sentence, ``#`` comments. ``# newdoc`` (``# newdoc id = X``) starts a
document; without one the whole file is one document. Multiword token lines (ID ``1-2``) and
empty nodes (ID ``1.1``) carry no tag of their own: they are skipped and counted in the notes.
MISC holds ``Key=Value`` items separated by ``|`` (or by spaces, as NorNE writes ``SpaceAfter=No
name=B-PER``); the tag is the value of ``key`` (``NER`` by default, ``name`` for NorNE), decoded
with nerve's shared rule, any scheme (`nerve.io.tags.tag_columns`).

Out: one `SpanArray`, offsets in words from the start of each document; no entity crosses a
sentence. A prediction file must hold the gold file's words, sentences and documents
(`read_conllu_pair`).

Problems raise `InputError` naming the file and line: a word line without ten columns, an ID
that is not a number, a range or an empty node, a word without the key while others of the file
have it (the fix: ``--column`` with the key the file uses; a file where no word has it is refused
the same way), a value with a second ``=`` (``NER=I-PER=X``), a tag that is not ``B-X``, a
prediction file whose words part from the gold file's.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ...errors import InputError, plural
from ...model.quoting import quote
from ...model.spans import SpanArray
from ..json.jsonl import Problems, collect
from ..sources import read_bytes
from .column_pairs import TokenColumn, read_or_none, read_sides
from .column_scan import BLANK, CONLLU, MARKER, ROW, SKIPPED, scan_lines
from .tag_columns import ByteLines, Lines, cells, decode_tag_ids, strings, text_bytes

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Bool, Int

__all__ = ["DEFAULT_KEY", "conllu_texts", "read_conllu", "read_conllu_pair"]

#: The MISC key read when none is given.
DEFAULT_KEY = "NER"
_ID = re.compile(r"\d+[-.]\d+")  # the IDs of the lines skipped: ranges and empty nodes
_ID_BYTES = 32


Words = tuple[Lines, "Int", "Int", "Int", int, dict[str, int]]


def _words(path: str) -> Words:
    """The lines, the word rows among them, their documents and sentences, the number of documents, notes.

    The lines are found by the compiled engine where it is built and takes the file
    (`scan_lines`), else with numpy; the rest is the same code.
    """
    data = read_bytes(path)
    scanned = scan_lines(data, CONLLU)
    if scanned is not None:
        kind = scanned.kind
        at = np.flatnonzero((kind == ROW) | (kind == SKIPPED))
        _check_widths(path, scanned, at)
        return _layout(scanned, at, kind == MARKER, kind == BLANK, kind[at] == SKIPPED)
    lines = text_bytes(path, data)
    comment = lines.first_byte(ord("#"))
    blank = lines.blank() & ~comment
    newdoc = np.zeros(len(lines), dtype=bool)
    for m in re.finditer(rb"newdoc", lines.data):  # then the rule, on the few lines that have it
        i = int(np.searchsorted(lines.end, m.start()))
        newdoc[i] = bool(comment[i]) and lines.text(i)[1:].strip().startswith("newdoc")
    at = np.flatnonzero(~comment & ~blank)
    _check_widths(path, lines, at)
    return _layout(lines, at, newdoc, blank, _skipped(path, lines, at))


def _check_widths(path: str, lines: Lines, at: Int) -> None:
    """Raise at the first word line ``at`` without ten columns."""
    widths = lines.widths(at)
    if (widths != 10).any():
        k = int(np.argmax(widths != 10))
        has = plural(int(widths[k]), "column")
        detail = f"word line has {has}, expected the 10 of CoNLL-U (separated by tabs)"
        raise InputError(path, int(at[k]) + 1, detail)


def _layout(lines: Lines, at: Int, newdoc: Bool, blank: Bool, skipped: Bool) -> Words:
    """`Words` from the word lines ``at`` (``skipped`` among them), the ``newdoc`` and ``blank`` lines."""
    markers = np.cumsum(newdoc)
    leading = bool(at.shape[0]) and int(markers[at[0]]) == 0  # words before the first newdoc
    rows = at[~skipped]
    n_docs = int(markers[-1]) + int(leading) if (rows.shape[0] or (markers.shape[0] and markers[-1])) else 0
    doc = markers[rows].astype(np.int64) - 1 + int(leading)
    sent = np.cumsum(newdoc | blank)[rows].astype(np.int64)
    n_skipped = int(np.count_nonzero(skipped))
    notes = {"multiword tokens and empty nodes (skipped)": n_skipped} if n_skipped else {}
    return lines, rows.astype(np.int64), doc, sent, n_docs, notes


def _skipped(path: str, lines: ByteLines, at: Int) -> npt.NDArray[np.bool_]:
    """Whether the ID of each word line is a range or an empty node (skipped); raise at an ID that is none.

    An ID is a word's number (``1``), a range of them (``1-2``) or an empty node (``1.1``): digits,
    and at most one - or . between digits (``_ID``), at most `_ID_BYTES` bytes.
    """
    start, end = cells(lines, at, 0, 10)
    width = end - start
    longest = min(int(width.max(initial=0)), _ID_BYTES)
    dotted: npt.NDArray[np.bool_] = np.zeros(at.shape[0], dtype=bool)
    other = (width == 0) | (width > _ID_BYTES)
    for j in range(longest):  # IDs are short: a pass per byte
        byte = lines.buf[np.minimum(start + j, len(lines.data) - 1)]
        inside = j < width
        mark = (byte == 45) | (byte == 46)
        dotted |= inside & mark
        other |= inside & ~mark & ((byte < 48) | (byte > 57))
    found = np.zeros(at.shape[0], dtype=bool)
    for k in np.flatnonzero(dotted & ~other).tolist():  # an ID with - or . (ranges and empty nodes only)
        text = lines.data[start[k] : end[k]].decode("utf-8")
        found[k] = _ID.fullmatch(text) is not None
        other[k] = not found[k]
    if other.any():
        k = int(np.argmax(other))
        cell = lines.data[start[k] : end[k]].decode("utf-8", "replace")
        detail = (
            f"ID {quote(cell)} is not a word ID: expected a number (1), a range of words (1-2) "
            "or an empty node (1.1) in the first column"
        )
        raise InputError(path, int(at[k]) + 1, detail)
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
    two = np.asarray(["=" in t for t in tags], dtype=bool)[ids]
    if two.any():  # NER=I-PER=X: no tag holds "="
        k = int(np.argmax(two))
        cell, tag = names[int(ids[k])], tags[int(ids[k])]
        detail = f"MISC {quote(cell)}: the {key} value {quote(tag)} holds a second '='; expected {key}=TAG"
        raise InputError(path, int(rows[k]) + 1, detail)
    distinct = sorted(set(tags))
    index = {t: i for i, t in enumerate(distinct)}
    return distinct, np.asarray([index[t] for t in tags], dtype=np.int64)[ids]


def read_conllu(
    path: str, units: str | None = None, problems: Problems = None, column: str | None = None
) -> tuple[SpanArray, None]:
    """The entities of the CoNLL-U file ``path``, tags under the MISC key ``column``: one side."""
    del units
    return _spans(path, read_or_none(_words, path, problems), column, problems), None


def read_conllu_pair(
    gold: str,
    pred: str | None,
    units: str | None = None,
    problems: Problems = None,
    column: str | None = None,
) -> tuple[SpanArray, SpanArray | None]:
    """The entities of a gold and a prediction CoNLL-U file, which must hold the same words.

    Offsets count words, so the files are checked word by word first (`check_paired`): a word
    missing from the prediction file would shift every entity after it.
    """
    del units
    return read_sides(
        gold, pred, problems, _words, lambda path, w: _spans(path, w, column, problems), _token_column
    )


def _starts(sent: Int) -> npt.NDArray[np.bool_]:
    """Whether each word starts a sentence, from the sentence number of each."""
    start = np.ones(sent.shape[0], dtype=bool)
    start[1:] = sent[1:] != sent[:-1]
    return start


def _token_column(path: str, words: Words) -> TokenColumn:
    """The words (FORM) of a file read by `_words`, to pair a prediction file with the gold file."""
    lines, rows, docs, sent, _, _ = words
    start, end = cells(lines, rows, 1, 10)
    return TokenColumn(path, lines.buf, start, end, docs, _starts(sent), rows + 1)


def _spans(path: str, words: Words | None, column: str | None, problems: Problems) -> SpanArray:
    """The entities of the words, tags under the MISC key ``column``; none when a problem is collected."""
    if words is None:
        return replace(SpanArray.empty(0), source=path)
    lines, rows, docs, sent, n_docs, notes = words
    if not rows.shape[0]:
        return replace(SpanArray.empty(n_docs), source=path, notes=notes)
    try:
        names, ids = _tags(path, lines, rows, column or DEFAULT_KEY)
        spans = decode_tag_ids(names, ids, docs, _starts(sent), n_docs, (path, rows + 1))
    except InputError as err:
        collect(problems, err)
        return replace(SpanArray.empty(0), source=path)
    return replace(spans, source=path, notes=notes)


def conllu_texts(path: str) -> list[tuple[str, ...]]:
    """The words (FORM) of each document of the CoNLL-U file ``path``."""
    lines, rows, docs, _, n_docs, _ = _words(path)
    names, ids = strings(lines, *cells(lines, rows, 1, 10))
    words = [names[i] for i in ids.tolist()]
    bounds = np.searchsorted(docs, np.arange(n_docs + 1)).tolist()
    return [tuple(words[a:b]) for a, b in itertools.pairwise(bounds)]
