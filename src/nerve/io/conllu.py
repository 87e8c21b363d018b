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

import re
from dataclasses import replace

import numpy as np

from ..errors import InputError
from ..model.quoting import quote
from ..model.spans import SpanArray
from .jsonl import Problems, collect
from .tag_columns import decode_tag_column, text_lines

__all__ = ["DEFAULT_KEY", "conllu_texts", "read_conllu"]

#: The MISC key read when none is given.
DEFAULT_KEY = "NER"
_SKIPPED = re.compile(r"^\d+[-.]")


def _words(path: str) -> tuple[list[list[str]], list[int], list[int], list[int], int, dict[str, int]]:
    """Word rows, their lines, documents and sentence ids, the number of documents, the notes."""
    rows: list[list[str]] = []
    lines: list[int] = []
    docs: list[int] = []
    sents: list[int] = []
    doc, sent, seen_doc = -1, 0, False
    skipped = 0
    for n, line in enumerate(text_lines(path), start=1):
        if line.startswith("#"):
            if line[1:].strip().startswith("newdoc"):
                doc, seen_doc = doc + 1, True
                sent += 1
            continue
        if not line.strip():
            sent += 1
            continue
        if doc < 0:
            doc = 0
        cells = line.split("\t")
        if len(cells) != 10:
            detail = f"word line has {len(cells)} columns, expected the 10 of CoNLL-U (separated by tabs)"
            raise InputError(path, n, detail)
        if _SKIPPED.match(cells[0]):
            skipped += 1
            continue
        rows.append(cells)
        lines.append(n)
        docs.append(doc)
        sents.append(sent)
    n_docs = doc + 1 if (rows or seen_doc) else 0
    notes = {"multiword tokens and empty nodes (skipped)": skipped} if skipped else {}
    return rows, lines, docs, sents, n_docs, notes


def _tags(path: str, misc: list[str], lines: list[int], key: str) -> list[str]:
    """The value of ``key`` in each MISC cell; raise at a cell without it."""
    found = re.compile(rf"(?:^|[|\s]){re.escape(key)}=([^|\s]+)")
    matches = [found.search(m) for m in misc]
    tags = [m.group(1) if m is not None else "" for m in matches]
    if "" in tags:
        k = tags.index("")
        has = len(tags) - tags.count("")
        detail = (
            f"MISC {quote(misc[k])} has no {key}=TAG, but {has} other words of the file have one"
            if has
            else f"no word has {key}=TAG in MISC; give the key the file uses with --column"
        )
        raise InputError(path, lines[k], detail, option="--column")
    return tags


def read_conllu(
    path: str, units: str | None = None, problems: Problems = None, column: str | None = None
) -> tuple[SpanArray, None]:
    """The entities of the CoNLL-U file ``path``, tags under the MISC key ``column``: one side."""
    del units
    key = column or DEFAULT_KEY
    try:
        rows, lines, docs, sents, n_docs, notes = _words(path)
        if not rows:
            return replace(SpanArray.empty(n_docs), source=path, notes=notes), None
        tags = _tags(path, [r[9] for r in rows], lines, key)
        sent = np.asarray(sents, dtype=np.int64)
        start = np.ones(len(rows), dtype=bool)
        start[1:] = sent[1:] != sent[:-1]
        where = (path, np.asarray(lines, dtype=np.int64))
        spans = decode_tag_column(tags, np.asarray(docs, dtype=np.int64), start, n_docs, where)
    except InputError as err:
        collect(problems, err)
        return replace(SpanArray.empty(0), source=path), None
    return replace(spans, source=path, notes=notes), None


def conllu_texts(path: str) -> list[tuple[str, ...]]:
    """The words (FORM) of each document of the CoNLL-U file ``path``."""
    rows, _, docs, _, n_docs, _ = _words(path)
    out: list[list[str]] = [[] for _ in range(n_docs)]
    for d, r in zip(docs, rows, strict=True):
        out[d].append(r[1])
    return [tuple(words) for words in out]
