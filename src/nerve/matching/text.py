"""Text matching: gold and predicted entities paired by category, with the edit costs of each pair.

In: the entities of both sides as `EntityTexts` (document, category, text). Out: `TextPairs`, both sides
with shared category ids (entities pair only within one document and category), and the helpers
that give the character and word error rate of pairs capped at 1 (the costs the text metrics
assign by); `nerve.matching.text_cells` applies them cell block by cell block. Levenshtein distances come from
rapidfuzz, in one batch of all pairs; words are turned into one symbol each (`as_symbols`), so
that word distances are character distances too.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..model.texts import EntityTexts

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Float, Int

__all__ = ["TextPairs", "as_symbols", "costs", "distances", "pair_texts", "same_key_pairs"]


def same_key_pairs(g_key: Int, p_key: Int) -> tuple[Int, Int]:
    """Every (gold, pred) index pair with equal keys."""
    g_order = np.argsort(g_key, kind="stable")
    p_order = np.argsort(p_key, kind="stable")
    ps = p_key[p_order]
    lo = np.searchsorted(ps, g_key[g_order], side="left")
    hi = np.searchsorted(ps, g_key[g_order], side="right")
    n = hi - lo
    g = np.repeat(g_order, n)
    offsets = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    p = p_order[np.repeat(lo, n) + offsets]
    return g, p


def distances(a: Sequence[Any] | npt.NDArray[Any], b: Sequence[Any] | npt.NDArray[Any]) -> Int:
    """Levenshtein distances of ``a[i]`` and ``b[i]``, in one batch."""
    if not len(a):
        return np.zeros(0, dtype=np.int64)
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cpdist

    return np.asarray(cpdist(a, b, scorer=Levenshtein.distance, workers=-1), dtype=np.int64)


_SYMBOLS = 0x10FFFF - 0x100 - 0x800  # characters usable as word symbols


def as_symbols(texts_a: list[str], texts_b: list[str]) -> tuple[list[Any], list[Any]]:
    """Each text's words as one character per distinct word.

    A character edit distance of the results is then the word edit distance of the texts, which
    rapidfuzz computes fastest on strings. With more distinct words than there are characters the
    word lists themselves are returned. All texts are split, numbered and rejoined as one string
    with newlines between them, so that every loop runs in C.
    """
    texts = list(chain(texts_a, texts_b))
    joined = " \n ".join(texts)
    if joined.count("\n") != max(len(texts) - 1, 0):  # a text with its own newline
        words = {w: None for t in texts for w in t.split(" ")}
        flat = None
    else:
        flat = joined.split(" ")
        words = dict.fromkeys(flat)
        words.pop("\n", None)
    if len(words) > _SYMBOLS:
        return [t.split(" ") for t in texts_a], [t.split(" ") for t in texts_b]
    # Symbols from U+0100 on, skipping the surrogates, which cannot be in a str handed to C.
    codes = np.arange(len(words), dtype=np.uint32) + 0x100
    codes[codes >= 0xD800] += 0x800
    symbol = dict(zip(words, codes.astype("<u4").tobytes().decode("utf-32-le"), strict=True))
    if flat is None:
        get = symbol.__getitem__
        out = ["".join(map(get, t.split(" "))) for t in texts]
    else:
        symbol["\n"] = "\n"
        out = "".join(map(symbol.__getitem__, flat)).split("\n") if texts else []
    return out[: len(texts_a)], out[len(texts_a) :]


def costs(gold: list[Any], pred: list[Any], pair_g: Int, pair_p: Int) -> Float:
    """Edit distance over the gold length, capped at 1, of each pair, in one batch.

    The pairs' strings are gathered as object arrays, without a Python loop per pair.
    """
    if not pair_g.shape[0]:
        return np.zeros(0, dtype=np.float64)
    g = np.asarray(gold, dtype=object)
    p = np.asarray(pred, dtype=object)
    length = np.fromiter(map(len, gold), dtype=np.int64, count=len(gold))
    d = distances(g[pair_g], p[pair_p])
    return np.minimum(d / np.maximum(length[pair_g], 1), 1.0)


@frozen
class TextPairs:
    """Both sides with shared category ids: entities pair only within one (document, category) cell.

    The pairs themselves and their costs are worked out cell block by cell block
    (`nerve.matching.text_cells`), never all at once.
    """

    gold: EntityTexts
    pred: EntityTexts
    names: list[str]  # the categories of both sides, sorted; ids index them
    g_cat: Int
    p_cat: Int
    n_docs: int

    @property
    def n_cat(self) -> int:
        """How many categories there are."""
        return len(self.names)

    @property
    def n_cells(self) -> int:
        """How many (document, category) cells there are: ``n_docs * max(n_cat, 1)``."""
        return self.n_docs * max(self.n_cat, 1)

    def cells(self) -> tuple[Int, Int]:
        """The cell ``doc * n_cat + category`` of each gold and each predicted entity."""
        n_cat = max(self.n_cat, 1)
        return self.gold.doc * n_cat + self.g_cat, self.pred.doc * n_cat + self.p_cat

    def bag_items(self, words: bool) -> tuple[tuple[Int, Int, Int], tuple[Int, Int, Int]]:
        """The items of each side's bag: numbered words (or whole texts), documents, categories.

        Equal words (texts) get the same number on both sides.
        """
        sides = []
        vocabulary: dict[str, int] = {}
        for entities, cats in ((self.gold, self.g_cat), (self.pred, self.p_cat)):
            texts = entities.text
            if words:
                split = [t.split(" ") for t in texts]
                items = [vocabulary.setdefault(w, len(vocabulary)) for w in chain.from_iterable(split)]
                owner = np.repeat(np.arange(len(texts)), [len(w) for w in split])
            else:
                items = [vocabulary.setdefault(t, len(vocabulary)) for t in texts]
                owner = np.arange(len(texts))
            sides.append((np.asarray(items, dtype=np.int64), entities.doc[owner], cats[owner]))
        return sides[0], sides[1]


def pair_texts(gold: EntityTexts, pred: EntityTexts) -> TextPairs:
    """Number the categories of both sides (entities pair within each document and category)."""
    if gold.n_docs != pred.n_docs:
        raise ValueError(
            f"Expected as many predicted documents as gold ones, got {pred.n_docs} and {gold.n_docs}"
        )
    names = sorted(set(gold.category) | set(pred.category))
    index = {name: i for i, name in enumerate(names)}
    g_cat = np.fromiter(map(index.__getitem__, gold.category), dtype=np.int64, count=len(gold))
    p_cat = np.fromiter(map(index.__getitem__, pred.category), dtype=np.int64, count=len(pred))
    return TextPairs(gold, pred, names, g_cat, p_cat, gold.n_docs)
