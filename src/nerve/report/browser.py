"""The instance browser's data: every error of a corpus, capped, as columns for the page's script.

In: the `Aligned` corpus and its `Categories`. Out: a JSON-ready mapping of numpy columns, one row
per error instance, and the counts of all of them (``totals``, by category and type), so that the
page can say "showing N of M".

An instance is one error: a matched pair that is not correct (``type``, ``boundary``,
``boundary_type``: the gold entity and its partner), a ``missed`` gold entity or a ``spurious``
prediction. Its type is the gold entity's, or the prediction's for ``spurious``, so the counts by
category and type are those of `nerve.analysis.summary.ErrorAnalysis.by_type`.

The page holds at most ``cap`` instances of each category: the first ones in corpus order, taken
in turns from the types (the first of each type, then the second of each...), so that a rare type
is shown too. For tagged input each instance carries a window of its sentence, ``window`` tokens
either side of its entities (at most ``MAX_WINDOW`` tokens in all), with every gold and predicted
entity that overlaps it; the words are ids into a vocabulary of the words shown. Span files have
no tokens: an instance carries its document and the offsets and types of its entities, and, where
the documents' texts are known, each entity's text in a window of its document (``CHARS``
characters, or ``WINDOW`` tokens for token offsets, either side), as ``nerve score --instances``
shows it; brat documents are named by their ``.ann`` file.
"""

from __future__ import annotations

import itertools
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from ..analysis.aligned import Aligned
from ..analysis.errors import BOUNDARY, CATEGORIES, CORRECT, MISSED, SPURIOUS, Categories
from ..errors import InputError
from ..io.tools.brat_files import brat_documents
from ..model.spans import SpanArray

if TYPE_CHECKING:
    from ..model.arrays import Int

__all__ = ["CHARS", "MAX_WINDOW", "WINDOW", "instance_data"]

WINDOW = 12
MAX_WINDOW = 400
CHARS = 60  # of a span file's document text either side of an instance


def instance_data(aligned: Aligned, cats: Categories, cap: int, window: int = WINDOW) -> dict[str, Any]:
    """The error instances of ``aligned`` (at most ``cap`` of each category) and their counts."""
    gold, pred = aligned.gold, aligned.pred
    g_rows = np.flatnonzero(cats.gold != CORRECT)
    p_rows = np.flatnonzero(cats.pred == SPURIOUS)
    none = np.full(p_rows.shape[0], -1, dtype=np.int64)
    cat = np.concatenate([cats.gold[g_rows], cats.pred[p_rows]])
    typ = np.concatenate([gold.label[g_rows], pred.label[p_rows]])
    g_row = np.concatenate([g_rows, none])
    p_row = np.concatenate([cats.gold_partner[g_rows], p_rows])
    doc = np.concatenate([gold.doc[g_rows], pred.doc[p_rows]])
    start = np.concatenate([gold.start[g_rows], pred.start[p_rows]])
    n_types = len(aligned.labels)
    totals = np.bincount(cat * n_types + typ, minlength=len(CATEGORIES) * n_types)
    keep = capped(cat, typ, doc, start, cap)
    g_row, p_row = g_row[keep], p_row[keep]
    overlapping = np.zeros(keep.shape[0], dtype=np.bool_)
    missed, spurious = cat[keep] == MISSED, cat[keep] == SPURIOUS
    overlapping[missed] = cats.gold_overlapping[g_row[missed]]
    overlapping[spurious] = cats.pred_overlapping[p_row[spurious]]
    has_gold = g_row >= 0
    boundary = np.full(keep.shape[0], -1, dtype=np.int64)
    boundary[has_gold] = cats.boundary[g_row[has_gold]]
    out: dict[str, Any] = {
        "kind": "spans",
        "source": aligned.sources[0],
        "types": list(aligned.labels),
        "categories": list(CATEGORIES),
        "boundary_names": list(BOUNDARY),
        "totals": totals.reshape(len(CATEGORIES), n_types),
        "cap": cap,
        "n": int(keep.shape[0]),
        "cat": cat[keep],
        "type": typ[keep],
        "boundary": boundary,
        "overlapping": overlapping,
        "doc": doc[keep],
        **_own(gold, g_row, "g"),
        **_own(pred, p_row, "p"),
    }
    tokens = aligned.tokens
    if tokens is not None and tokens.words is not None and len(tokens):
        out.update(_windows(aligned, cats, out, (g_row, p_row), window))
    if tokens is None:
        out["doc_names"] = document_names(aligned)
        if aligned.texts is not None:
            out.update(_span_texts(aligned.texts, out, window))
    return out


def document_names(aligned: Aligned) -> list[str] | None:
    """The name of each document of span input where its files name them: brat's ``.ann`` files."""
    source = aligned.sources[0]
    if not (os.path.isdir(source) or source.endswith(".ann")):
        return None
    try:
        documents = brat_documents(source)
    except InputError:
        return None
    names = [f"{name}.ann" for name, _, _ in documents]
    return names if len(names) == aligned.n_docs else None


Text = str | tuple[str, ...]


def _span_texts(texts: tuple[Text | None, ...], out: dict[str, Any], window: int) -> dict[str, Any]:
    """Each instance's entities in their document's text: ``[before, entity, after]`` for each side.

    The window runs ``CHARS`` characters (``window`` tokens, for a document of tokens) either side
    of the instance's entities, the same on both sides; ``cut_left`` and ``cut_right`` say whether
    the document goes on. A side without its entity, or a document without a text, has ``None``.
    """
    gs, ge, ps, pe, doc = (out[k].tolist() for k in ("gs", "ge", "ps", "pe", "doc"))
    pieces: dict[str, list[Any]] = {"g_text": [], "p_text": [], "cut_left": [], "cut_right": []}
    for i, d in enumerate(doc):
        text = texts[d] if d < len(texts) else None
        own = [(s, e) for s, e in ((gs[i], ge[i]), (ps[i], pe[i])) if s >= 0]
        if text is None or not own:
            for key, empty in (("g_text", None), ("p_text", None), ("cut_left", False), ("cut_right", False)):
                pieces[key].append(empty)
            continue
        first, last = min(s for s, _ in own), max(e for _, e in own)
        width = CHARS if isinstance(text, str) else window
        lo, hi = max(0, first - width), min(len(text), last + width)
        if isinstance(text, str):  # cut at a space, not in a word, where the window has one
            lo, hi = _word_bounds(text, lo, first, last, hi)
        for key, s, e in (("g_text", gs[i], ge[i]), ("p_text", ps[i], pe[i])):
            pieces[key].append(_pieces(text, lo, s, e, hi) if s >= 0 else None)
        pieces["cut_left"].append(lo > 0)
        pieces["cut_right"].append(hi < len(text))
    return pieces


def _word_bounds(text: str, lo: int, first: int, last: int, hi: int) -> tuple[int, int]:
    """The window ``[lo, hi)`` cut at spaces where it starts or ends inside a word.

    ``lo`` moves past the first space of ``text[lo:first]``, ``hi`` back to the last of
    ``text[last:hi]``; where there is none, the window keeps its bound.
    """
    if lo > 0 and not text[lo - 1].isspace():
        space = next((k for k in range(lo, first) if text[k].isspace()), None)
        lo = lo if space is None else space + 1
    if hi < len(text) and not text[hi].isspace():
        space = next((k for k in range(hi - 1, last - 1, -1) if text[k].isspace()), None)
        hi = hi if space is None else space
    return lo, hi


def _pieces(text: Text, lo: int, start: int, end: int, hi: int) -> list[str]:
    """``text[lo:start]``, ``text[start:end]`` and ``text[end:hi]``; tokens joined by spaces."""
    bounds = (lo, max(lo, min(start, hi)), max(lo, min(end, hi)), hi)
    parts = [text[a:b] for a, b in itertools.pairwise(bounds)]
    return [p if isinstance(p, str) else " ".join(p) for p in parts]


def capped(cat: Int, typ: Int, doc: Int, start: Int, cap: int) -> Int:
    """The rows to keep, in corpus order: per category, the first ``cap`` taking types in turns."""
    by_group = np.lexsort((start, doc, typ, cat))
    key = (cat * (int(typ.max(initial=0)) + 1) + typ)[by_group]
    first = np.flatnonzero(np.diff(key, prepend=-1) != 0)
    sizes = np.diff(np.append(first, key.shape[0]))
    rank = np.empty(key.shape[0], dtype=np.int64)
    rank[by_group] = np.arange(key.shape[0]) - np.repeat(first, sizes)
    in_turns = np.lexsort((start, doc, rank, cat))
    sorted_cat = cat[in_turns]
    starts = np.flatnonzero(np.diff(sorted_cat, prepend=-1) != 0)
    place = np.arange(in_turns.shape[0]) - np.repeat(starts, np.diff(np.append(starts, in_turns.shape[0])))
    chosen = in_turns[place < cap]
    return chosen[np.lexsort((start[chosen], doc[chosen]))]


def _own(side: SpanArray, rows: Int, prefix: str) -> dict[str, Int]:
    """The start, end and type of each instance's own entity on one side (-1 where it has none)."""
    has = rows >= 0
    out: dict[str, Int] = {}
    for name, column in (("s", side.start), ("e", side.end), ("t", side.label)):
        values = np.full(rows.shape[0], -1, dtype=np.int64)
        values[has] = column[rows[has]]
        out[f"{prefix}{name}"] = values
    return out


def _windows(
    aligned: Aligned, cats: Categories, out: dict[str, Any], own: tuple[Int, Int], window: int
) -> dict[str, Any]:
    """Each instance's window of its sentence: words, and the entities of both sides in it.

    ``own`` holds the rows of each instance's gold and predicted entity (-1 where it has none).
    """
    tokens = aligned.tokens
    assert tokens is not None
    assert tokens.words is not None
    gs, ge, ps, pe = out["gs"], out["ge"], out["ps"], out["pe"]
    first = np.where(gs >= 0, gs, ps)
    first = np.where((ps >= 0) & (ps < first), ps, first)
    last = np.maximum(ge, pe)
    sentence = tokens.sentence[first]
    bounds_lo, bounds_hi = tokens.sentence_bounds()
    lo = np.maximum(bounds_lo[sentence], first - window)
    hi = np.minimum(np.minimum(bounds_hi[sentence], last + window), lo + MAX_WINDOW)
    positions, offsets = _ranges(lo, hi)
    ids, words = np.unique(tokens.words[positions], return_inverse=True)
    vocabulary = tokens.vocabulary
    result: dict[str, Any] = {
        "kind": "tokens",
        "line": tokens.line[first],
        "sentence": sentence,
        "lo": lo,
        "cut_left": lo > bounds_lo[sentence],
        "cut_right": hi < bounds_hi[sentence],
        "w_off": offsets,
        "words": words.reshape(-1),
        "vocab": [vocabulary[i] for i in ids.tolist()],
    }
    sides = (("g", aligned.gold, cats.gold, own[0]), ("p", aligned.pred, cats.pred, own[1]))
    for prefix, side, codes, rows in sides:
        result.update(_entities(side, codes, (lo, hi), rows, prefix))
    return result


def _ranges(lo: Int, hi: Int) -> tuple[Int, Int]:
    """The positions of all ranges ``[lo, hi)`` one after the other, and where each one starts."""
    lengths = np.maximum(hi - lo, 0)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    positions = np.arange(offsets[-1], dtype=np.int64) - np.repeat(offsets[:-1] - lo, lengths)
    return positions, offsets


def _entities(side: SpanArray, codes: Int, windows: tuple[Int, Int], own: Int, prefix: str) -> dict[str, Int]:
    """The entities of one side that overlap each window: offsets from its start, type, category.

    ``own`` is each instance's own entity (a row of ``side``, or -1), which is marked.

    One side of tagged input has no overlapping entities, so in start order their ends are in
    order too, and the entities of a window are one run of that order.
    """
    lo, hi = windows
    order = np.argsort(side.start, kind="stable")
    starts, ends = side.start[order], side.end[order]
    begin = np.searchsorted(ends, lo, side="right")
    stop = np.maximum(np.searchsorted(starts, hi, side="left"), begin)
    rows, offsets = _ranges(begin, stop)
    rows = order[rows]
    base = np.repeat(lo, stop - begin)
    return {
        f"{prefix}_off": offsets,
        f"{prefix}_start": side.start[rows] - base,
        f"{prefix}_end": side.end[rows] - base,
        f"{prefix}_type": side.label[rows],
        f"{prefix}_cat": codes[rows],
        f"{prefix}_own": rows == np.repeat(own, stop - begin),
    }
