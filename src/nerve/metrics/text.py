"""Text-level entity metrics for noisy transcriptions (the metrics of TEKLIA's ie-eval, corrected).

When the tokens come from OCR or handwriting recognition, gold and predicted entities do not share
offsets, so they are compared by their text, within each document and regardless of reading order:

- **OI-ECER / OI-EWER**: gold and predicted entities are paired by an optimal assignment over a
  square cost matrix padded with dummies. A pair with a dummy or of two categories costs 1; a pair
  of one category costs the character (ECER) or word (EWER) error rate of the predicted text against
  the gold text, capped at 1. The score is 100 · Σ cost / Σ gold entities, capped at 100.
- **OI-Nerval**: a gold and a predicted entity match when their categories are equal and the
  character error rate is at most the threshold (a fraction); the most matches one-to-one are
  true positives, the other predictions false positives and the other gold entities false
  negatives.
- **Bags** of words (BoW: the words of the entities), tagged words (BoTW: (category, word)) and
  entities (BoE: (category, text)): per document, TP = |L ∩ P|, FP = |P - L|, FN = |L - P| as
  multisets; the bag word error rate counts ``(Σ|count_P - count_L| - ||L| - |P||) / 2``
  substitutions plus ``||L| - |P||`` insertions or deletions per document, over Σ|L|, capped at 100.

Every metric has a total row and one row per category; a category's row scores that category's
entities alone, and categories found only in predictions have rows too. Scores are percentages,
as ie-eval prints them; a rate over no gold entity is 0 when there is no error and 100 otherwise,
and precision, recall and F1 with a zero denominator are 0. Rows hold counts, so results of
document shards add up (`TextScores.merge`).

Levenshtein distances come from rapidfuzz, in one batch of all same-category pairs. The
assignment is split into connected components: single pairs and stars are taken directly, small
components are solved exactly by numpy for all of one shape at once, larger ones by scipy's
``linear_sum_assignment``. Nerval's largest matching is the same assignment with unit savings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cached_property
from itertools import chain, permutations
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from .._version import __version__
from ..model.counts import Totals, fbeta, safe_div, score_dict
from ..model.texts import EntityTexts

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]
    Float = npt.NDArray[np.float64]

__all__ = [
    "BagRow",
    "EntityTexts",
    "ErrorRow",
    "NervalRow",
    "TextScores",
    "TextTable",
    "score_texts",
]

METRICS = ("ecer-ewer", "nerval", "bow", "botw", "boe")


def _rate(errors: float, gold: int) -> float:
    """100 · errors / gold, capped at 100; over no gold entity, 0 without errors and 100 with."""
    if gold == 0:
        return 0.0 if errors == 0 else 100.0
    return min(100.0 * errors / gold, 100.0)


@dataclass(frozen=True)
class ErrorRow:
    """OI-ECER and OI-EWER counts of the total or of one category."""

    char_errors: float = 0.0
    word_errors: float = 0.0
    gold: int = 0
    predicted: int = 0
    documents: int = 0

    @property
    def ecer(self) -> float:
        """Entity character error rate, in percent."""
        return _rate(self.char_errors, self.gold)

    @property
    def ewer(self) -> float:
        """Entity word error rate, in percent."""
        return _rate(self.word_errors, self.gold)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: rates in percent, counts."""
        return {
            "ecer": self.ecer,
            "ewer": self.ewer,
            "char_errors": self.char_errors,
            "word_errors": self.word_errors,
            "gold": self.gold,
            "predicted": self.predicted,
            "documents": self.documents,
        }


@dataclass(frozen=True)
class NervalRow(Totals):
    """OI-Nerval counts of the total or of one category (``gold`` and ``predicted`` derived)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    documents: int = 0

    @property
    def precision(self) -> float:
        """TP / (TP + FP), in percent."""
        return 100.0 * safe_div(self.tp, self.predicted)

    @property
    def recall(self) -> float:
        """TP / (TP + FN), in percent."""
        return 100.0 * safe_div(self.tp, self.gold)

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall, in percent."""
        return fbeta(self.precision, self.recall)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: scores in percent, counts."""
        return {**score_dict(self), "documents": self.documents}


@dataclass(frozen=True)
class BagRow(NervalRow):
    """Bag counts (of words, tagged words or entities) of the total or of one category."""

    errors: float = 0.0

    @property
    def bwer(self) -> float:
        """Bag word error rate, in percent."""
        return _rate(self.errors, self.gold)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: scores in percent, counts."""
        return {"bwer": self.bwer, **super().to_dict(), "errors": self.errors}


Row = TypeVar("Row", ErrorRow, NervalRow, BagRow)


def _add(a: Row, b: Row) -> Row:
    return replace(a, **{f.name: getattr(a, f.name) + getattr(b, f.name) for f in fields(a)})


@dataclass(frozen=True)
class TextTable(Generic[Row]):
    """One metric: its total row and a row per category (sorted by name)."""

    total: Row
    per_category: Mapping[str, Row]

    def merge(self, other: TextTable[Row]) -> TextTable[Row]:
        """The table of both sets of documents."""
        rows = dict(self.per_category)
        for name, row in other.per_category.items():
            rows[name] = _add(rows[name], row) if name in rows else row
        return TextTable(_add(self.total, other.total), dict(sorted(rows.items())))

    def to_dict(self) -> dict[str, Any]:
        """``{"total": {...}, "per_category": {CATEGORY: {...}}}``."""
        return {
            "total": self.total.to_dict(),
            "per_category": {k: v.to_dict() for k, v in self.per_category.items()},
        }


@dataclass(frozen=True)
class TextScores:
    """The text-level metrics of a corpus; a metric not asked for is ``None``."""

    documents: int
    threshold: float | None = None
    ecer_ewer: TextTable[ErrorRow] | None = None
    nerval: TextTable[NervalRow] | None = None
    bow: TextTable[BagRow] | None = None
    botw: TextTable[BagRow] | None = None
    boe: TextTable[BagRow] | None = None
    scheme: str | None = None  # how tags were read, when they were
    repair: str | None = None
    repairs: int = 0  # invalid transitions repaired, both sides
    notes: tuple[str, ...] = ()  # what reading noticed that may change the scores (never printed here)

    @property
    def signature(self) -> str:
        """The line to print with the scores, naming what changes them."""
        parts = [f"nerve {__version__}", "text"]
        if self.scheme is not None:
            parts.append(f"scheme {self.scheme}")
        if self.repair is not None:
            parts.append(f"repair {self.repair} ({self.repairs} repair{'s' if self.repairs != 1 else ''})")
        if self.threshold is not None:
            parts.append(f"nerval threshold {self.threshold:g}")
        parts.append(f"{self.documents} document{'s' if self.documents != 1 else ''}")
        return " | ".join(parts)

    def merge(self, other: TextScores) -> TextScores:
        """The scores of both sets of documents (scored with the same settings)."""
        same = (self.threshold, self.scheme, self.repair) == (other.threshold, other.scheme, other.repair)
        if not same:
            raise ValueError(
                f"cannot merge scores of different settings: {self.signature!r} vs {other.signature!r}"
            )
        merged: dict[str, Any] = {}
        for name in ("ecer_ewer", "nerval", "bow", "botw", "boe"):
            a, b = getattr(self, name), getattr(other, name)
            if (a is None) != (b is None):
                raise ValueError(f"cannot merge scores with and without {name}")
            merged[name] = a.merge(b) if a is not None and b is not None else None
        return TextScores(
            self.documents + other.documents,
            self.threshold,
            **merged,
            scheme=self.scheme,
            repair=self.repair,
            repairs=self.repairs + other.repairs,
            notes=tuple(dict.fromkeys(self.notes + other.notes)),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: each metric computed, as ``{"total", "per_category"}``."""
        out: dict[str, Any] = {"signature": self.signature, "documents": self.documents}
        if self.threshold is not None:
            out["threshold"] = self.threshold
        for name in ("ecer_ewer", "nerval", "bow", "botw", "boe"):
            table = getattr(self, name)
            if table is not None:
                out[name.replace("_", "-")] = table.to_dict()
        return out


def _pairs(g_key: Int, p_key: Int) -> tuple[Int, Int]:
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


def _distances(a: Sequence[Any] | npt.NDArray[Any], b: Sequence[Any] | npt.NDArray[Any]) -> Int:
    """Levenshtein distances of ``a[i]`` and ``b[i]``, in one batch."""
    if not len(a):
        return np.zeros(0, dtype=np.int64)
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cpdist

    return np.asarray(cpdist(a, b, scorer=Levenshtein.distance, workers=-1), dtype=np.int64)


_SYMBOLS = 0x10FFFF - 0x100 - 0x800  # characters usable as word symbols


def _as_symbols(texts_a: list[str], texts_b: list[str]) -> tuple[list[Any], list[Any]]:
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


def _min_cost_rows(rows: Int, cols: Int, cost: Float, n_rows: int, n_cols: int) -> Bool:
    """Which of the edges ``rows[k] - cols[k]`` (costs in [0, 1)) an optimal assignment takes.

    Any row or column may stay unassigned at cost 1, so the assignment maximises the total
    saving ``1 - cost`` over one-to-one sets of edges. An edge that shares no node with another
    is taken outright, and so is the best edge of a component with one row or one column. Small
    components (at most 5 nodes on one side and 7 on the other) are solved by evaluating every
    one-to-one map at once, per shape, in numpy; larger ones by scipy's ``linear_sum_assignment``.
    """
    chosen = np.zeros(rows.shape[0], dtype=np.bool_)
    if not rows.shape[0]:
        return chosen
    from .muc import split_edges

    alone, rest, component = split_edges(rows, cols)
    chosen[alone] = True
    if not rest.shape[0]:
        return chosen
    order = np.lexsort((-(1.0 - cost[rest]), component))  # by component, best saving first
    edges, comp = rest[order], component[order]
    saving = 1.0 - cost[edges]
    starts = np.flatnonzero(np.r_[True, comp[1:] != comp[:-1]])
    bounds = np.r_[starts, comp.shape[0]]
    # Number the rows and columns of each component from 0.
    r_key, r_at = np.unique(comp * n_rows + rows[edges], return_inverse=True)
    c_key, c_at = np.unique(comp * n_cols + cols[edges], return_inverse=True)
    r_first = np.searchsorted(r_key // n_rows, comp[starts])
    c_first = np.searchsorted(c_key // n_cols, comp[starts])
    which = np.repeat(np.arange(starts.shape[0]), np.diff(bounds))
    r_at = r_at - r_first[which]
    c_at = c_at - c_first[which]
    n_rows_c = np.maximum.reduceat(r_at, starts) + 1
    n_cols_c = np.maximum.reduceat(c_at, starts) + 1
    # A component with one row or one column: its best edge (sorted first).
    star = (n_rows_c == 1) | (n_cols_c == 1)
    chosen[edges[starts[star]]] = True
    # Small components: every one-to-one map of the smaller side, at once per shape.
    small = ~star & (np.minimum(n_rows_c, n_cols_c) <= 5) & (np.maximum(n_rows_c, n_cols_c) <= 7)
    edge_comp = which
    for shape in {(int(a), int(b)) for a, b in zip(n_rows_c[small], n_cols_c[small], strict=True)}:
        comps = np.flatnonzero(small & (n_rows_c == shape[0]) & (n_cols_c == shape[1]))
        local = np.full(starts.shape[0], -1, dtype=np.int64)
        local[comps] = np.arange(comps.shape[0])
        in_shape = np.flatnonzero(local[edge_comp] >= 0)
        q = local[edge_comp[in_shape]]
        a, b = r_at[in_shape], c_at[in_shape]
        k, m = shape
        if k > m:  # map the smaller side
            a, b, k, m = b, a, m, k
        blocks = np.zeros((comps.shape[0], k, m))
        blocks[q, a, b] = saving[in_shape]
        perms = np.asarray(list(permutations(range(m), k)), dtype=np.int64)
        best = blocks[:, np.arange(k)[None, :], perms].sum(axis=2).argmax(axis=1)
        chosen[edges[in_shape]] = perms[best[q], a] == b
    for k in np.flatnonzero(~star & ~small).tolist():
        from scipy.optimize import linear_sum_assignment

        lo, hi = int(bounds[k]), int(bounds[k + 1])
        matrix = np.zeros((int(n_rows_c[k]), int(n_cols_c[k])))
        matrix[r_at[lo:hi], c_at[lo:hi]] = saving[lo:hi]
        picked_r, picked_c = linear_sum_assignment(matrix, maximize=True)
        taken = np.zeros(matrix.shape, dtype=np.bool_)
        taken[picked_r, picked_c] = True
        chosen[edges[lo:hi]] = taken[r_at[lo:hi], c_at[lo:hi]]
    return chosen


def _max_matching(rows: Int, cols: Int, n_rows: int, n_cols: int) -> Bool:
    """Which edges a maximum one-to-one matching takes: an assignment where every edge saves 1."""
    return _min_cost_rows(rows, cols, np.zeros(rows.shape[0]), n_rows, n_cols)


if TYPE_CHECKING:
    Bool = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class _Prepared:
    """Both sides with shared category ids, and the same-category pairs of each document."""

    gold: EntityTexts
    pred: EntityTexts
    names: list[str]
    g_cat: Int
    p_cat: Int
    n_docs: int
    pair_g: Int
    pair_p: Int

    @property
    def n_cat(self) -> int:
        return len(self.names)

    @cached_property
    def char_cost(self) -> Float:
        """min(CER, 1) of each same-category pair: characters, spaces included."""
        return self._costs(self.gold.text, self.pred.text, self.pair_g, self.pair_p)

    @cached_property
    def word_cost(self) -> Float:
        """min(WER, 1) of each same-category pair, words being the space-separated parts.

        Pairs of equal texts cost 0; only the texts of the other pairs are split into words.
        """
        cost = np.zeros(self.pair_g.shape[0], dtype=np.float64)
        differ = np.flatnonzero(self.char_cost > 0)
        if not differ.shape[0]:
            return cost
        g_used, g_at = np.unique(self.pair_g[differ], return_inverse=True)
        p_used, p_at = np.unique(self.pair_p[differ], return_inverse=True)
        gold, pred = self.gold.text, self.pred.text
        g_words, p_words = _as_symbols([gold[i] for i in g_used.tolist()], [pred[i] for i in p_used.tolist()])
        cost[differ] = self._costs(g_words, p_words, g_at.reshape(-1), p_at.reshape(-1))
        return cost

    @staticmethod
    def _costs(gold: list[Any], pred: list[Any], pair_g: Int, pair_p: Int) -> Float:
        """Edit distance over the gold length, capped at 1, of each pair, in one batch.

        The pairs' strings are gathered as object arrays, without a Python loop per pair.
        """
        if not pair_g.shape[0]:
            return np.zeros(0, dtype=np.float64)
        g = np.asarray(gold, dtype=object)
        p = np.asarray(pred, dtype=object)
        length = np.fromiter(map(len, gold), dtype=np.int64, count=len(gold))
        d = _distances(g[pair_g], p[pair_p])
        return np.minimum(d / np.maximum(length[pair_g], 1), 1.0)

    def doc_counts(self) -> tuple[Int, Int]:
        """Gold and predicted entities per (document, category) cell, flattened."""
        size = self.n_docs * self.n_cat
        g = np.bincount(self.gold.doc * self.n_cat + self.g_cat, minlength=size)
        p = np.bincount(self.pred.doc * self.n_cat + self.p_cat, minlength=size)
        return g.astype(np.int64), p.astype(np.int64)

    def documents_per_category(self) -> Int:
        """In how many documents each category has an entity on either side."""
        g, p = self.doc_counts()
        present = ((g + p) > 0).reshape(self.n_docs, self.n_cat)
        return present.sum(axis=0).astype(np.int64)


def _prepare(gold: EntityTexts, pred: EntityTexts) -> _Prepared:
    if gold.n_docs != pred.n_docs:
        raise ValueError(
            f"Expected as many predicted documents as gold ones, got {pred.n_docs} and {gold.n_docs}"
        )
    names = sorted(set(gold.category) | set(pred.category))
    index = {name: i for i, name in enumerate(names)}
    g_cat = np.fromiter(map(index.__getitem__, gold.category), dtype=np.int64, count=len(gold))
    p_cat = np.fromiter(map(index.__getitem__, pred.category), dtype=np.int64, count=len(pred))
    n_cat = max(len(names), 1)
    g, p = _pairs(gold.doc * n_cat + g_cat, pred.doc * n_cat + p_cat)
    return _Prepared(gold, pred, names, g_cat, p_cat, gold.n_docs, g, p)


def _table(prep: _Prepared, total: Row, per_category: Callable[[int, int], Row | None]) -> TextTable[Row]:
    docs = prep.documents_per_category() if prep.names else np.zeros(0, dtype=np.int64)
    rows = {}
    for c, name in enumerate(prep.names):
        row = per_category(c, int(docs[c]))
        if row is not None:
            rows[name] = row
    return TextTable(total, rows)


def _ecer_ewer(prep: _Prepared) -> TextTable[ErrorRow]:
    char_cost, word_cost = prep.char_cost, prep.word_cost
    g_counts, p_counts = prep.doc_counts()
    size = prep.n_docs * prep.n_cat
    cell = prep.gold.doc[prep.pair_g] * prep.n_cat + prep.g_cat[prep.pair_g]
    totals = {}
    for name, cost in (("char", char_cost), ("word", word_cost)):
        useful = cost < 1.0  # a pair costing 1 saves nothing over two dummies
        r, c, k = prep.pair_g[useful], prep.pair_p[useful], cost[useful]
        chosen = _min_cost_rows(r, c, k, len(prep.gold), len(prep.pred))
        saving = np.bincount(cell[useful][chosen], weights=1.0 - k[chosen], minlength=size)
        # Per (document, category): max(gold, pred) - saving. Per document over all categories
        # the same with the document's totals, as categories never pair with each other.
        per_cell = np.maximum(g_counts, p_counts) - saving
        g_doc = g_counts.reshape(prep.n_docs, prep.n_cat).sum(axis=1)
        p_doc = p_counts.reshape(prep.n_docs, prep.n_cat).sum(axis=1)
        per_doc = np.maximum(g_doc, p_doc) - saving.reshape(prep.n_docs, prep.n_cat).sum(axis=1)
        totals[name] = (float(per_doc.sum()), per_cell.reshape(prep.n_docs, prep.n_cat).sum(axis=0))
    total = ErrorRow(totals["char"][0], totals["word"][0], len(prep.gold), len(prep.pred), prep.n_docs)
    g_per = np.bincount(prep.g_cat, minlength=prep.n_cat)
    p_per = np.bincount(prep.p_cat, minlength=prep.n_cat)
    return _table(
        prep,
        total,
        lambda c, docs: ErrorRow(
            float(totals["char"][1][c]), float(totals["word"][1][c]), int(g_per[c]), int(p_per[c]), docs
        ),
    )


def _nerval(prep: _Prepared, threshold: float) -> TextTable[NervalRow]:
    ok = prep.char_cost <= threshold
    r, c = prep.pair_g[ok], prep.pair_p[ok]
    chosen = _max_matching(r, c, len(prep.gold), len(prep.pred))
    tp = np.bincount(prep.g_cat[r[chosen]], minlength=prep.n_cat)
    g_per = np.bincount(prep.g_cat, minlength=prep.n_cat)
    p_per = np.bincount(prep.p_cat, minlength=prep.n_cat)
    n_tp = int(chosen.sum())
    total = NervalRow(n_tp, len(prep.pred) - n_tp, len(prep.gold) - n_tp, prep.n_docs)
    return _table(
        prep,
        total,
        lambda k, docs: NervalRow(int(tp[k]), int(p_per[k] - tp[k]), int(g_per[k] - tp[k]), docs),
    )


def _bag_counts(
    g_group: Int, g_item: Int, p_group: Int, p_item: Int, n_groups: int
) -> tuple[Int, Int, Int, Float]:
    """TP, FP, FN and bag errors per group, of the multisets of items in each group."""
    n_items = int(max(g_item.max(initial=-1), p_item.max(initial=-1))) + 1
    keys_g = g_group * n_items + g_item
    keys_p = p_group * n_items + p_item
    keys, inverse = np.unique(np.concatenate([keys_g, keys_p]), return_inverse=True)
    n_g = keys_g.shape[0]
    count_g = np.bincount(inverse[:n_g], minlength=keys.shape[0])
    count_p = np.bincount(inverse[n_g:], minlength=keys.shape[0])
    group = keys // max(n_items, 1)
    both = np.minimum(count_g, count_p)
    tp = np.bincount(group, weights=both, minlength=n_groups).astype(np.int64)
    size_g = np.bincount(g_group, minlength=n_groups).astype(np.int64)
    size_p = np.bincount(p_group, minlength=n_groups).astype(np.int64)
    l1 = np.bincount(group, weights=np.abs(count_g - count_p), minlength=n_groups)
    insdel = np.abs(size_g - size_p)
    errors = (l1 - insdel) / 2 + insdel
    return tp, size_p - tp, size_g - tp, errors


def _bag(prep: _Prepared, kind: str) -> TextTable[BagRow]:
    """A bag metric: ``bow``, ``botw`` or ``boe``."""
    sides = []
    vocabulary: dict[str, int] = {}
    for texts, docs, cats in (
        (prep.gold.text, prep.gold.doc, prep.g_cat),
        (prep.pred.text, prep.pred.doc, prep.p_cat),
    ):
        if kind == "boe":
            items = [vocabulary.setdefault(t, len(vocabulary)) for t in texts]
            owner = np.arange(len(texts))
        else:
            words = [t.split(" ") for t in texts]
            items = [vocabulary.setdefault(w, len(vocabulary)) for w in chain.from_iterable(words)]
            owner = np.repeat(np.arange(len(texts)), [len(w) for w in words])
        item = np.asarray(items, dtype=np.int64)
        sides.append((item, docs[owner], cats[owner]))
    (gi, gd, gc), (pi, pd, pc) = sides
    n_cat = max(prep.n_cat, 1)
    if kind == "bow":  # the total bag has no categories
        g_total, p_total = gi, pi
    else:
        g_total, p_total = gi * n_cat + gc, pi * n_cat + pc
    tp, fp, fn, errors = _bag_counts(gd, g_total, pd, p_total, prep.n_docs)
    total = BagRow(int(tp.sum()), int(fp.sum()), int(fn.sum()), prep.n_docs, float(errors.sum()))
    tp_c, fp_c, fn_c, err_c = _bag_counts(gd * n_cat + gc, gi, pd * n_cat + pc, pi, prep.n_docs * n_cat)

    def by_category(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return values.reshape(prep.n_docs, n_cat).sum(axis=0)

    tp_k, fp_k, fn_k, err_k = (by_category(v) for v in (tp_c, fp_c, fn_c, err_c))
    return _table(
        prep,
        total,
        lambda c, docs: BagRow(int(tp_k[c]), int(fp_k[c]), int(fn_k[c]), docs, float(err_k[c])),
    )


def score_texts(
    gold: EntityTexts | Sequence[Iterable[tuple[str, str]]],
    pred: EntityTexts | Sequence[Iterable[tuple[str, str]]],
    *,
    metrics: Sequence[str] = METRICS,
    threshold: float = 0.3,
) -> TextScores:
    """Score predicted entities against gold ones by their text, per document.

    Args:
        gold: the gold entities: `EntityTexts`, or one list of ``(category, text)`` per document.
        pred: the predicted entities, the same way, with as many documents.
        metrics: which of ``ecer-ewer``, ``nerval``, ``bow``, ``botw`` and ``boe`` to compute.
        threshold: OI-Nerval's largest character error rate of a match, a fraction in [0, 1].
    """
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise ValueError(f"Expected metrics among {', '.join(METRICS)}, but got {', '.join(unknown)}")
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"Expected a Nerval threshold in [0, 1] (a fraction), but got {threshold}")
    g = gold if isinstance(gold, EntityTexts) else EntityTexts.from_documents(gold)
    p = pred if isinstance(pred, EntityTexts) else EntityTexts.from_documents(pred)
    prep = _prepare(g, p)
    return TextScores(
        documents=prep.n_docs,
        threshold=threshold if "nerval" in metrics else None,
        ecer_ewer=_ecer_ewer(prep) if "ecer-ewer" in metrics else None,
        nerval=_nerval(prep, threshold) if "nerval" in metrics else None,
        bow=_bag(prep, "bow") if "bow" in metrics else None,
        botw=_bag(prep, "botw") if "botw" in metrics else None,
        boe=_bag(prep, "boe") if "boe" in metrics else None,
    )
