"""Text-level entity metrics for noisy transcriptions (the metrics of TEKLIA's ie-eval, corrected).

When the tokens come from OCR or handwriting recognition, gold and predicted entities do not share
offsets, so they are compared by their text, within each document and regardless of reading order:

- **OI-ECER / OI-EWER**: gold and predicted entities are paired by an optimal assignment over a
  square cost matrix padded with dummies. A pair with a dummy or of two categories costs 1; a pair
  of one category costs the character (ECER) or word (EWER) error rate of the predicted text against
  the gold text, capped at 1. The score is Σ cost / Σ gold entities, capped at 1.
- **OI-Nerval**: a gold and a predicted entity match when their categories are equal and the
  character error rate is at most the threshold (a fraction); the most matches one-to-one are
  true positives, the other predictions false positives and the other gold entities false
  negatives.
- **Bags** of words (BoW: the words of the entities), tagged words (BoTW: (category, word)) and
  entities (BoE: (category, text)): per document, TP = |L ∩ P|, FP = |P - L|, FN = |L - P| as
  multisets; the bag word error rate counts ``(Σ|count_P - count_L| - ||L| - |P||) / 2``
  substitutions plus ``||L| - |P||`` insertions or deletions per document, over Σ|L|, capped at 1.

Every metric has a total row and one row per category; a category's row scores that category's
entities alone, and categories found only in predictions have rows too. Scores are fractions in
0..1 (the renderers print them as percentages, as ie-eval does); a rate over no gold entity is 0
when there is no error and 1 otherwise, and precision, recall and F1 with a zero denominator are
0. Rows hold counts, so results of document shards add up (`TextScores.merge`).

The pairs, their costs and the assignments come from `nerve.matching.text_cells`, one
(document, category) cell at a time; Nerval's largest matching is a maximum matching of the pairs
within the threshold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from .. import options
from .._frozen import frozen
from ..errors import InputError, NerveError, plural
from ..matching.text import TextPairs, pair_texts
from ..matching.text_cells import CellResults, cell_results
from ..model.counts import Totals, fbeta, safe_div, score_dict
from ..model.signature import repair_field, signature
from ..model.texts import EntityTexts
from ..options import TEXT_METRICS

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Float, Int

__all__ = [
    "BagRow",
    "EntityTexts",
    "ErrorRow",
    "NervalRow",
    "TextScores",
    "TextTable",
    "rate",
    "score_texts",
]


def rate(errors: float, gold: int, scale: float = 1.0) -> float:
    """The share ``errors / gold``, capped at 1; over no gold entity, 0 without errors and 1 with.

    With ``scale=100`` the same rate in percent, computed as ie-eval prints it (scaling first).
    """
    if gold == 0:
        return 0.0 if errors == 0 else scale
    return min(scale * errors / gold, scale)


@frozen
class ErrorRow:
    """OI-ECER and OI-EWER counts of the total or of one category."""

    char_errors: float = 0.0
    word_errors: float = 0.0
    gold: int = 0
    predicted: int = 0
    documents: int = 0

    @property
    def ecer(self) -> float:
        """Entity character error rate, a fraction."""
        return rate(self.char_errors, self.gold)

    @property
    def ewer(self) -> float:
        """Entity word error rate, a fraction."""
        return rate(self.word_errors, self.gold)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: rates as fractions, counts."""
        return {
            "ecer": self.ecer,
            "ewer": self.ewer,
            "char_errors": self.char_errors,
            "word_errors": self.word_errors,
            "gold": self.gold,
            "predicted": self.predicted,
            "documents": self.documents,
        }


@frozen
class NervalRow(Totals):
    """OI-Nerval counts of the total or of one category (``gold`` and ``predicted`` derived)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    documents: int = 0

    @property
    def precision(self) -> float:
        """TP / (TP + FP)."""
        return safe_div(self.tp, self.predicted)

    @property
    def recall(self) -> float:
        """TP / (TP + FN)."""
        return safe_div(self.tp, self.gold)

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall."""
        return fbeta(self.precision, self.recall)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: scores as fractions, counts."""
        return {**score_dict(self), "documents": self.documents}


@frozen
class BagRow(NervalRow):
    """Bag counts (of words, tagged words or entities) of the total or of one category."""

    errors: float = 0.0

    @property
    def bwer(self) -> float:
        """Bag word error rate, a fraction."""
        return rate(self.errors, self.gold)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: scores as fractions, counts."""
        return {"bwer": self.bwer, **super().to_dict(), "errors": self.errors}


Row = TypeVar("Row", ErrorRow, NervalRow, BagRow)


def _add(a: Row, b: Row) -> Row:
    return replace(a, **{f.name: getattr(a, f.name) + getattr(b, f.name) for f in fields(a)})


@frozen
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


@frozen
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
        return signature(
            "text",
            f"scheme {self.scheme}" if self.scheme is not None else None,
            repair_field(self.repair, self.repairs) if self.repair is not None else None,
            f"nerval threshold {self.threshold:g}" if self.threshold is not None else None,
            plural(self.documents, "document"),
        )

    def merge(self, other: TextScores) -> TextScores:
        """The scores of both sets of documents (scored with the same settings)."""
        if not isinstance(other, TextScores):
            raise InputError("other", None, f"expected TextScores to merge, got {type(other).__name__}")
        same = (self.threshold, self.scheme, self.repair) == (other.threshold, other.scheme, other.repair)
        if not same:
            raise NerveError(
                f"cannot merge scores of different settings: {self.signature!r} vs {other.signature!r}"
            )
        merged: dict[str, Any] = {}
        for name in ("ecer_ewer", "nerval", "bow", "botw", "boe"):
            a, b = getattr(self, name), getattr(other, name)
            if (a is None) != (b is None):
                raise NerveError(f"cannot merge scores with and without {name}")
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


def _doc_counts(prep: TextPairs) -> tuple[Int, Int]:
    """Gold and predicted entities per (document, category) cell, flattened."""
    g_cell, p_cell = prep.cells()
    g = np.bincount(g_cell, minlength=prep.n_cells)
    p = np.bincount(p_cell, minlength=prep.n_cells)
    return g.astype(np.int64), p.astype(np.int64)


def _table(prep: TextPairs, total: Row, per_category: Callable[[int, int], Row | None]) -> TextTable[Row]:
    docs = np.zeros(0, dtype=np.int64)
    if prep.names:  # in how many documents each category has an entity on either side
        g, p = _doc_counts(prep)
        docs = ((g + p) > 0).reshape(prep.n_docs, prep.n_cat).sum(axis=0).astype(np.int64)
    rows = {}
    for c, name in enumerate(prep.names):
        row = per_category(c, int(docs[c]))
        if row is not None:
            rows[name] = row
    return TextTable(total, rows)


def _ecer_ewer(prep: TextPairs, cells: CellResults) -> TextTable[ErrorRow]:
    g_counts, p_counts = _doc_counts(prep)
    n_cat = max(prep.n_cat, 1)
    totals = {}
    for name, saving in (("char", cells.char_saving), ("word", cells.word_saving)):
        # Per (document, category): max(gold, pred) - saving. Per document over all categories
        # the same with the document's totals, as categories never pair with each other.
        per_cell = np.maximum(g_counts, p_counts) - saving
        g_doc = g_counts.reshape(prep.n_docs, n_cat).sum(axis=1)
        p_doc = p_counts.reshape(prep.n_docs, n_cat).sum(axis=1)
        per_doc = np.maximum(g_doc, p_doc) - saving.reshape(prep.n_docs, n_cat).sum(axis=1)
        totals[name] = (float(per_doc.sum()), per_cell.reshape(prep.n_docs, n_cat).sum(axis=0))
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


def _nerval(prep: TextPairs, cells: CellResults) -> TextTable[NervalRow]:
    tp = cells.nerval_tp.reshape(prep.n_docs, max(prep.n_cat, 1)).sum(axis=0)
    g_per = np.bincount(prep.g_cat, minlength=prep.n_cat)
    p_per = np.bincount(prep.p_cat, minlength=prep.n_cat)
    n_tp = int(tp.sum())
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


def _bag(prep: TextPairs, kind: str) -> TextTable[BagRow]:
    """A bag metric: ``bow``, ``botw`` or ``boe``."""
    (gi, gd, gc), (pi, pd, pc) = prep.bag_items(words=kind != "boe")
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
    metrics: Sequence[str] = TEXT_METRICS,
    threshold: float = 0.3,
    progress: Callable[[int, int], None] | None = None,
) -> TextScores:
    """Score predicted entities against gold ones by their text, per document.

    Args:
        gold: the gold entities: `EntityTexts`, or one list of ``(category, text)`` per document.
        pred: the predicted entities, the same way, with as many documents.
        metrics: which of ``ecer-ewer``, ``nerval``, ``bow``, ``botw`` and ``boe`` to compute.
        threshold: OI-Nerval's largest character error rate of a match, a fraction in [0, 1].
        progress: called with the (gold, pred) pairs compared so far and their total, as the
            assignments advance (the CLI draws a progress bar with it).
    """
    metrics = options.text_metrics(metrics)
    options.fraction(threshold, "threshold")
    g = gold if isinstance(gold, EntityTexts) else EntityTexts.from_documents(gold)
    p = pred if isinstance(pred, EntityTexts) else EntityTexts.from_documents(pred)
    prep = pair_texts(g, p)
    cells = cell_results(
        prep,
        errors="ecer-ewer" in metrics,
        threshold=threshold if "nerval" in metrics else None,
        progress=progress,
    )
    return TextScores(
        documents=prep.n_docs,
        threshold=threshold if "nerval" in metrics else None,
        ecer_ewer=_ecer_ewer(prep, cells) if "ecer-ewer" in metrics else None,
        nerval=_nerval(prep, cells) if "nerval" in metrics else None,
        bow=_bag(prep, "bow") if "bow" in metrics else None,
        botw=_bag(prep, "botw") if "botw" in metrics else None,
        boe=_bag(prep, "boe") if "boe" in metrics else None,
    )
