"""A CoNLL file with one tag column per annotator: ``token TAG_1 TAG_2 ... TAG_m`` on each line.

In: the file (blank lines end sentences, ``-DOCSTART-`` lines start documents; every token line has
as many columns as the first), the scheme, tag format and outside tag. Out: one `Corpus` per tag
column, named by the column's number in the file (``2`` for the first tag column), its tags decoded
as `nerve.api.convert_input.decoded` decodes any tags (an invalid transition begins an entity).
"""

from __future__ import annotations

import numpy as np

from .. import options
from ..errors import InputError
from ..io.bytes import DOCSTART
from ..io.sources import read_bytes, unify_line_ends
from ..model.vocab import TagVocab
from .convert_input import Corpus, decoded, default_names

__all__ = ["read_tag_columns"]


def _lines(path: str) -> list[str]:
    data = unify_line_ends(read_bytes(path))
    try:
        return data.decode("utf-8-sig").split("\n")
    except UnicodeDecodeError as err:
        raise InputError(path, None, f"is not UTF-8 text ({err.reason} at byte {err.start})") from None


def _rows(path: str) -> tuple[list[list[str]], list[bool], list[int]]:
    """The token lines' fields, whether each starts a sentence, and each one's document."""
    rows: list[list[str]] = []
    starts: list[bool] = []
    docs: list[int] = []
    doc, fresh, width = 0, True, 0
    docstarts = 0
    for number, line in enumerate(_lines(path), 1):
        fields = line.split()
        if not fields:
            fresh = True
            continue
        if fields[0] == DOCSTART.decode():
            docstarts += 1
            doc, fresh = (doc + 1 if rows else doc), True
            continue
        width = width or len(fields)
        if len(fields) != width:
            detail = f"expected {width} columns (a token and one tag per annotator), got {len(fields)}"
            raise InputError(path, number, detail)
        rows.append(fields)
        starts.append(fresh)
        docs.append(doc)
        fresh = False
    if width < 3:
        detail = (
            f"has {max(width - 1, 0)} tag column: agreement needs a token and two or more tag columns "
            "(one per annotator), or one file per annotator"
        )
        raise InputError(path, None, detail)
    return rows, starts, docs


def read_tag_columns(path: str, scheme: str, tag_format: str | None, outside: str) -> dict[str, Corpus]:
    """Each tag column of ``path`` as a `Corpus`, keyed by its column number (``"2"``, ``"3"``...)."""
    rows, starts, docs = _rows(path)
    fixed = options.scheme(scheme, "scheme")
    words = [r[0] for r in rows]
    sentence_start = np.asarray(starts, dtype=np.bool_)
    token_doc = np.asarray(docs, dtype=np.int64)
    n_docs = int(token_doc[-1]) + 1 if rows else 0
    names = default_names(n_docs)
    out = {}
    for column in range(1, len(rows[0]) if rows else 0):
        vocab = TagVocab(options.tag_format(tag_format, outside), None, outside)
        ids = vocab.add([r[column] for r in rows])
        lines = (ids, sentence_start, token_doc, n_docs)
        out[str(column + 1)] = decoded(lines, vocab, words, fixed, (names, "conll", {}))
    return out
