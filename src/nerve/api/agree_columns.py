"""A CoNLL file with one tag column per annotator: ``token TAG_1 TAG_2 ... TAG_m`` on each line.

In: the file (blank lines end sentences, ``-DOCSTART-`` lines start documents; every token line has
as many columns as the first), the scheme, tag format and outside tag. Out: one `Corpus` per tag
column, named by the column's number in the file (``2`` for the first tag column), its tags decoded
as `nerve.api.convert_input.decoded` decodes any tags (an invalid transition begins an entity).

The lines are split in numpy (`nerve.io.bytes.split_fields`); the distinct words and each column's
distinct tags are found by the compiled engine's intern where it is built (else by numpy's,
`nerve.io.bytes.intern`), and the tags enter the vocabulary sorted: no Python loop runs over the
tokens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import options
from .._engine import speedups
from ..errors import InputError
from ..io.bytes import DOCSTART, FieldTable, intern, split_fields, starts_with
from ..io.tags.bio_dirs import Files, load_files
from ..model.vocab import TagVocab
from .convert_input import Corpus, decoded, default_names

if TYPE_CHECKING:
    from ..model.arrays import Bool, Bytes, Ids, Int

__all__ = ["read_tag_columns"]


def _field_index(ft: FieldTable, rows: Int, width: int) -> Int:
    """``(width, rows)``: the gap holding field ``j`` of each row (fields are the non-empty gaps)."""
    offsets = np.arange(width, dtype=np.int64)[:, None]
    if np.array_equal(ft.last[rows] - ft.first[rows] + 1, ft.count[rows]):  # one separator each
        return np.asarray(ft.first[rows][None, :] + offsets, dtype=np.int64)
    nonempty = ft.end > ft.start
    where = np.flatnonzero(nonempty)
    before = np.concatenate([[0], np.cumsum(nonempty)]).astype(np.int64)
    first = before[ft.first_gap[rows]]
    return np.asarray(where[first[None, :] + offsets], dtype=np.int64)


def _distinct(data: bytes, buf: Bytes, ft: FieldTable, fields: Int) -> tuple[Int, list[bytes]]:
    """The id of each field's value, and the distinct values (bytes).

    The compiled engine's `intern` finds them where it is built (in the order met), else numpy's.
    """
    engine = speedups()
    if engine is not None and isinstance(data, bytes):
        start, end = (np.ascontiguousarray(c[fields], dtype=np.int64).tobytes() for c in (ft.start, ft.end))
        values, found = engine.intern(data, start, end, 0, 1)
        return np.frombuffer(found, dtype=np.int64), list(values)
    ids, values = intern(buf, ft.start[fields], ft.end[fields])
    return np.asarray(ids, dtype=np.int64), values


def _strings(data: bytes, buf: Bytes, ft: FieldTable, fields: Int) -> list[str]:
    """The text of each field, as a list (the distinct values decoded once)."""
    ids, values = _distinct(data, buf, ft, fields)
    table = np.asarray([v.decode("utf-8") for v in values] + [""], dtype=object)
    return list(table[ids].tolist())


def _tags(files: Files, buf: Bytes, ft: FieldTable, fields: Int, rows: Int, vocab: TagVocab) -> Ids:
    """The tag ids of a column; `InputError` at the first tag the vocabulary rejects.

    The distinct tags are added to the vocabulary sorted, whatever order they were found in.
    """
    ids, values = _distinct(files.data, buf, ft, fields)
    order = sorted(range(len(values)), key=values.__getitem__)
    tags = [values[i].decode("utf-8") for i in order]
    at = np.empty(len(order), dtype=np.int64)
    at[order] = np.arange(len(order))
    mapped = vocab.add(tags)[at] if order else np.zeros(0, dtype=np.int32)
    if (mapped < 0).any():
        bad = int(np.flatnonzero(mapped[ids] < 0)[0])
        name, line = files.where(int(rows[bad]))
        raise InputError(name, line, vocab.explain(values[int(ids[bad])].decode("utf-8")))
    return np.asarray(mapped[ids], dtype=np.int32)


def _layout(path: str, files: Files, ft: FieldTable) -> tuple[Int, int, Bool, Int, int]:
    """The token lines, their column count, sentence starts, documents and document count."""
    is_docstart = np.zeros(ft.count.shape[0], dtype=np.bool_)
    is_docstart[starts_with(files.data, DOCSTART, ft, whole_field=True)] = True
    rows = np.flatnonzero((ft.count > 0) & ~is_docstart).astype(np.int64)
    width = int(ft.count[rows[0]]) if rows.shape[0] else 0
    odd = np.flatnonzero(ft.count[rows] != width)
    if odd.shape[0]:
        name, line = files.where(int(rows[odd[0]]))
        got = int(ft.count[rows[odd[0]]])
        raise InputError(
            name, line, f"expected {width} columns (a token and one tag per annotator), got {got}"
        )
    if width < 3:
        detail = (
            f"has {max(width - 1, 0)} tag column: agreement needs a token and two or more tag columns "
            "(one per annotator), or one file per annotator"
        )
        raise InputError(path, None, detail)
    sentence_start = np.ones(rows.shape[0], dtype=np.bool_)
    sentence_start[1:] = rows[1:] != rows[:-1] + 1
    before = np.cumsum(is_docstart)
    leading = int(before[rows[0]]) == 0  # tokens before the first -DOCSTART- are a document too
    doc = (before[rows] - (0 if leading else 1)).astype(np.int64)
    return rows, width, sentence_start, doc, int(doc[-1]) + 1


def read_tag_columns(path: str, scheme: str, tag_format: str | None, outside: str) -> dict[str, Corpus]:
    """Each tag column of ``path`` as a `Corpus`, keyed by its column number (``"2"``, ``"3"``...)."""
    files = load_files([path])
    buf = np.frombuffer(files.data, dtype=np.uint8)
    ft = split_fields(buf)
    rows, width, sentence_start, token_doc, n_docs = _layout(path, files, ft)
    fixed = options.scheme(scheme, "scheme")
    fields = _field_index(ft, rows, width)
    words = _strings(files.data, buf, ft, fields[0])
    names = default_names(n_docs)
    out = {}
    for column in range(1, width):
        vocab = TagVocab(options.tag_format(tag_format, outside), None, outside)
        ids = _tags(files, buf, ft, fields[column], rows, vocab)
        lines = (ids, sentence_start, token_doc, n_docs)
        out[str(column + 1)] = decoded(lines, vocab, words, fixed, (names, "conll", {}))
    return out
