"""brat standoff directories: documents found, paired by name, and read into one `SpanArray` per side.

In: the path of a directory of ``.txt``/``.ann`` pairs (searched recursively, documents sorted by
their path within it) or of one ``.ann`` file beside its ``.txt``; for predictions, a second one.
Out: the gold `SpanArray` (and the predicted one), character offsets into each ``.txt``, the
pieces of discontinuous entities in ``fragments``, what was not scored counted in ``notes``.
`nerve.io.tools.brat` reads and checks each ``.ann``.

Gold and predicted documents are paired by name: a document on one side only is an `InputError`
naming it. A prediction directory needs no ``.txt`` files: the gold's text is used; where it has
one, it must be the gold's text.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import replace

import numpy as np

from ...errors import InputError
from ...model.spans import Fragments, SpanArray
from ..format import looks_like_columns
from ..json.jsonl import Problems, collect, span_array
from ..offsets import decode_utf8, first_difference
from ..pairing import excerpt
from ..sources import not_found, read_bytes, read_head
from .brat import Document, check_document, empty_document, read_ann
from .brat_attributes import columns
from .brat_batch import plain_documents

__all__ = ["DISCONTINUOUS", "brat_documents", "brat_texts", "read_brat", "read_brat_pair"]

#: The note counting discontinuous entities: exact match compares their pieces, and the MUC modes
#: and the error analysis count the positions their pieces share (`nerve.matching.overlap`).
DISCONTINUOUS = "discontinuous entities (matched by their pieces)"
Pair = tuple[str, str, str | None]  # a document's name, its .ann and its .txt (None if absent)
Item = tuple[str, str, str] | None  # a .ann, its text and the file the text is from; None: unread


def brat_documents(path: str) -> list[Pair]:
    """The documents of a directory (recursively, sorted by name) or of one ``.ann`` file.

    Raises:
        InputError: no such path, a file that is not a ``.ann``, a ``.txt`` without its
            ``.ann``, or a directory without any ``.ann``.
    """
    if os.path.isfile(path):
        stem, ext = os.path.splitext(path)
        if ext != ".ann":
            raise InputError(path, None, "expected a .ann file, or a directory of .txt/.ann pairs (brat)")
        return [(os.path.basename(stem), path, stem + ".txt" if os.path.isfile(stem + ".txt") else None)]
    if not os.path.isdir(path):
        raise not_found(path, "no such file or directory")
    found: dict[str, dict[str, str]] = {".ann": {}, ".txt": {}}
    for root, dirs, files in os.walk(path):
        dirs.sort()
        where = os.path.relpath(root, path).replace(os.sep, "/")
        prefix = "" if where == "." else where + "/"
        for name in files:
            stem, ext = os.path.splitext(name)
            if ext in found:
                found[ext][prefix + stem] = os.path.join(root, name)
    anns, txts = found[".ann"], found[".txt"]
    lone = sorted(set(txts) - set(anns))
    if lone:
        detail = "has no .ann beside it (brat documents are .txt/.ann pairs; an empty .ann has no entities)"
        if looks_like_columns(read_head(txts[lone[0]], 1 << 16)):
            detail += (
                "; it holds token and tag columns: for CoNLL files pass --format conll --pattern '*.txt'"
            )
        raise InputError(txts[lone[0]], None, detail)
    if not anns:
        raise InputError(path, None, "holds no .ann files (expected brat standoff: .txt/.ann pairs)")
    return [(key, anns[key], txts.get(key)) for key in sorted(anns)]


def _text(txt: str | None, ann: str) -> str:
    """The text of a document's ``.txt`` (a byte order mark is a character, as brat reads it)."""
    if txt is None:
        stem = os.path.basename(os.path.splitext(ann)[0])
        detail = f"has no {stem}.txt beside it (expected it there: brat entities need their text)"
        raise InputError(ann, None, detail)
    return decode_utf8(txt, read_bytes(txt), keep_bom=True)


def _own(pairs: list[Pair], problems: Problems) -> list[Item]:
    """Each document with the text of its own ``.txt`` (``None`` where that failed, validating)."""
    out: list[Item] = []
    for _, ann, txt in pairs:
        try:
            out.append((ann, _text(txt, ann), txt or ""))
        except InputError as err:
            collect(problems, err)
            out.append(None)
    return out


def _read_docs(items: list[Item], problems: Problems) -> list[Document]:
    """Each ``.ann`` checked against its text; with ``problems``, a document with one is empty.

    Documents of plain entities are read all at once (`nerve.io.tools.brat_batch`), the others one by one.
    """
    plain = plain_documents(items)
    out = []
    for k, item in enumerate(items):
        if k in plain:
            out.append(plain[k])
            continue
        try:
            out.append(empty_document() if item is None else check_document(read_ann(item[0]), *item[1:]))
        except InputError as err:
            collect(problems, err)
            out.append(empty_document())
    return out


def _side(docs: list[Document], source: str) -> SpanArray:
    """The `SpanArray` of documents' entities; fragments when one of them is discontinuous."""
    counts = np.concatenate([np.zeros(0, dtype=np.int64), *(d.counts for d in docs)])
    pieces = np.concatenate([np.zeros((0, 2), dtype=np.int64), *(d.pieces for d in docs)])
    sizes = np.asarray([len(d.labels) for d in docs], dtype=np.int64)
    doc = np.repeat(np.arange(len(docs), dtype=np.int64), sizes)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    start, end = pieces[offsets[:-1], 0], pieces[offsets[1:] - 1, 1]
    spans = span_array(doc, start, end, [name for d in docs for name in d.labels], len(docs))
    notes: Counter[str] = Counter()
    for d in docs:
        notes.update(d.notes)
    fragments = None
    if (counts > 1).any():
        fragments = Fragments(offsets, pieces[:, 0].copy(), pieces[:, 1].copy())
        notes[DISCONTINUOUS] = int((counts > 1).sum())
    attributes = columns([d.attributes for d in docs], sizes.tolist())
    notes_sorted = dict(sorted(notes.items()))
    return replace(spans, source=source, fragments=fragments, notes=notes_sorted, attributes=attributes)


def read_brat(path: str, units: str | None = None, problems: Problems = None) -> tuple[SpanArray, None]:
    """The entities of a brat directory or ``.ann`` file: one side (offsets are characters).

    With ``problems``, problems are collected there and a document with one is read as empty;
    otherwise the first is raised.
    """
    del units  # nerve.options refuses any: brat offsets are characters
    return _side(_read_docs(_own(brat_documents(path), problems), problems), path), None


def read_brat_pair(
    gold: str, pred: str | None, units: str | None = None, problems: Problems = None
) -> tuple[SpanArray, SpanArray | None]:
    """The gold entities and, with ``pred``, the predicted ones, documents paired by name.

    Raises:
        InputError: besides `read_brat`'s, a file and a directory, a document on one side only
            (naming it), a prediction ``.txt`` that differs from the gold's.
    """
    if pred is None:
        return read_brat(gold, units, problems)
    g_pairs = brat_documents(gold)
    p_pairs = _paired(gold, pred, g_pairs, brat_documents(pred), problems)
    g_items = _own(g_pairs, problems)
    p_items = [_pred_item(p, g, problems) for p, g in zip(p_pairs, g_items, strict=True)]
    return _side(_read_docs(g_items, problems), gold), _side(_read_docs(p_items, problems), pred)


def _paired(gold: str, pred: str, g: list[Pair], p: list[Pair], problems: Problems) -> list[Pair | None]:
    """The predicted document of each gold one (``None`` where it has none, validating)."""
    if os.path.isfile(gold) != os.path.isfile(pred):
        kinds = ("a file", "a directory") if os.path.isfile(pred) else ("a directory", "a file")
        detail = f"is {kinds[0]} but the gold {gold} is {kinds[1]}: give two .ann files or two directories"
        raise InputError(pred, None, detail)
    if os.path.isfile(gold):
        return list(p)
    by_name = {pair[0]: pair for pair in p}
    names = {name for name, _, _ in g}
    for name in sorted(set(by_name) - names):
        detail = f"has no gold counterpart in {gold} (documents are paired by name)"
        collect(problems, InputError(by_name[name][1], None, detail))
    out: list[Pair | None] = []
    for name, ann, _ in g:
        if name not in by_name:
            expected = os.path.join(pred, *name.split("/")) + ".ann"
            detail = f"has no predicted counterpart (expected {expected}; documents are paired by name)"
            collect(problems, InputError(ann, None, detail))
        out.append(by_name.get(name))
    return out


def _pred_item(pair: Pair | None, gold: Item, problems: Problems) -> Item:
    """A predicted document with its own text, which must be the gold's, or else the gold's."""
    if pair is None or gold is None:
        return None
    _, ann, txt = pair
    if txt is None:
        return (ann, gold[1], gold[2])
    try:
        text = _text(txt, ann)
        if text != gold[1]:
            k = first_difference(text, gold[1])
            line = text[:k].count("\n") + 1
            shown = f"{excerpt(text, k)} vs {excerpt(gold[1], k)}"
            fix = "give the prediction directory the gold's .txt files, or none"
            raise InputError(
                txt, line, f"differs from the gold text {gold[2]} at character {k} ({shown}): {fix}"
            )
    except InputError as err:
        collect(problems, err)
        return None
    return (ann, text, txt)


def brat_texts(path: str) -> list[str]:
    """The text of each document of a brat directory or ``.ann`` file, in document order."""
    return [_text(txt, ann) for _, ann, txt in brat_documents(path)]
