"""The error taxonomy: one category for every gold and every predicted entity.

In: both sides of a corpus (`SpanArray`, one type vocabulary). The one optimal one-to-one matching
of `nerve.matching.overlap` pairs them: same span and type first, then same span, then overlap
with the same type, then any overlap. Out: `Categories`, one category per entity:

============== ============================================ =============================
category       a matched pair or an entity left alone         MUC strict / exact / partial / type
============== ============================================ =============================
correct        same span, same type                           COR / COR / COR / COR
type           same span, other type                          INC / COR / COR / INC
boundary       overlapping other span, same type              INC / INC / PAR / COR
boundary_type  overlapping other span, other type             INC / INC / PAR / INC
missed         gold left unmatched                            MIS
spurious       prediction left unmatched                      SPU
============== ============================================ =============================

Discontinuous spans (brat fragments) are the same span only when every piece is, and overlap
by the positions their pieces share (spans whose extents cross but whose pieces share no
position do not overlap); the thresholds use the pieces' lengths. A pair of different spans gets
one boundary subtype, by the extents: ``left`` or ``right`` when only that
boundary differs, ``too_long`` when the prediction contains the gold and both differ,
``too_short`` when it lies inside the gold and both differ, and ``shifted`` when both differ in
the same direction; ``pieces`` when discontinuous spans share their extent but not their
pieces. A missed (or spurious) entity is flagged ``overlapping`` when it overlaps a
predicted (gold) entity that the matching paired with another one, or that the thresholds kept
out. The exact counts follow: exact FN = type + boundary + boundary_type + missed, and exact FP =
type + boundary + boundary_type + spurious.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..matching.overlap import candidates, in_order, optimal_edges, overlap_edges, same_spans
from ..model.spans import SpanArray
from .query import CATEGORIES

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int

__all__ = [
    "BOUNDARY",
    "CATEGORIES",
    "Categories",
    "ErrorCounts",
    "categorise",
    "error_counts",
]

CORRECT, TYPE, BOUNDARY_ERROR, BOUNDARY_TYPE, MISSED, SPURIOUS = range(6)
BOUNDARY = ("left", "right", "too_long", "too_short", "shifted", "pieces")


@frozen(eq=False)
class Categories:
    """The category of every entity, and the matching it comes from.

    Attributes:
        gold: the category code (an index into `CATEGORIES`) of each gold entity.
        pred: the category code of each predicted entity.
        gold_partner: the predicted row each gold entity is paired with, or -1.
        pred_partner: the gold row each predicted entity is paired with, or -1.
        boundary: for each gold entity in a boundary or boundary_type pair, its subtype (an
            index into `BOUNDARY`); -1 for every other gold entity.
        gold_overlapping: whether each gold entity overlaps a predicted one (of any pair).
        pred_overlapping: whether each predicted entity overlaps a gold one.
    """

    gold: Int
    pred: Int
    gold_partner: Int
    pred_partner: Int
    boundary: Int
    gold_overlapping: Bool
    pred_overlapping: Bool


def boundary_kind(gs: Int, ge: Int, ps: Int, pe: Int) -> Int:
    """The `BOUNDARY` subtype of pairs of overlapping, different spans (-1 for equal ones)."""
    left, right = ps != gs, pe != ge
    kind = np.full(gs.shape[0], -1, dtype=np.int64)
    kind[left & ~right] = 0
    kind[right & ~left] = 1
    both = left & right
    kind[both & (ps < gs) & (pe > ge)] = 2
    kind[both & (ps > gs) & (pe < ge)] = 3
    kind[both & ((ps < gs) == (pe < ge))] = 4
    return kind


def categorise(
    gold: SpanArray, pred: SpanArray, min_iou: float | None = None, min_gold_share: float | None = None
) -> Categories:
    """Match ``gold`` and ``pred`` (the same type vocabulary) and categorise every entity.

    ``min_iou`` and ``min_gold_share`` keep pairs out of the matching as they do for MUC.
    """
    gs, g_order = in_order(gold)
    ps, p_order = in_order(pred)
    g, p, overlap = overlap_edges(gs, ps, min_iou, min_gold_share)
    picked = optimal_edges(gs, ps, g, p, overlap)
    mg, mp = g_order[g[picked]], p_order[p[picked]]
    gold_partner = np.full(len(gold), -1, dtype=np.int64)
    pred_partner = np.full(len(pred), -1, dtype=np.int64)
    gold_partner[mg], pred_partner[mp] = mp, mg
    same_span = same_spans(gold, pred, mg, mp)
    same_type = gold.label[mg] == pred.label[mp]
    pair = np.where(
        same_span, np.where(same_type, CORRECT, TYPE), np.where(same_type, BOUNDARY_ERROR, BOUNDARY_TYPE)
    )
    gold_cat = np.full(len(gold), MISSED, dtype=np.int64)
    pred_cat = np.full(len(pred), SPURIOUS, dtype=np.int64)
    gold_cat[mg], pred_cat[mp] = pair, pair
    boundary = np.full(len(gold), -1, dtype=np.int64)
    kind = boundary_kind(gold.start[mg], gold.end[mg], pred.start[mp], pred.end[mp])
    boundary[mg] = np.where((kind < 0) & ~same_span, BOUNDARY.index("pieces"), kind)
    cg, cp = candidates(gs, ps)
    gold_overlapping = np.zeros(len(gold), dtype=np.bool_)
    pred_overlapping = np.zeros(len(pred), dtype=np.bool_)
    gold_overlapping[g_order[cg]] = True
    pred_overlapping[p_order[cp]] = True
    return Categories(
        gold_cat, pred_cat, gold_partner, pred_partner, boundary, gold_overlapping, pred_overlapping
    )


@frozen
class ErrorCounts:
    """How many entities fall in each category, for all types or for one.

    The pair categories (``correct``, ``type``, ``boundary``, ``boundary_type``) and ``missed``
    are counted on the gold side, by the gold entity's type; ``pred_type``, ``pred_boundary``,
    ``pred_boundary_type`` and ``spurious`` on the predicted side, by the prediction's type. Both
    sides are equal in the totals; for one type they differ where a pair joins two types.
    ``boundary_detail`` counts the subtypes of boundary and boundary_type pairs (gold side);
    ``missed_overlapping`` and ``spurious_overlapping`` the entities flagged as overlapping.
    """

    correct: int = 0
    type: int = 0
    boundary: int = 0
    boundary_type: int = 0
    missed: int = 0
    spurious: int = 0
    pred_type: int = 0
    pred_boundary: int = 0
    pred_boundary_type: int = 0
    boundary_detail: tuple[tuple[str, int], ...] = tuple((b, 0) for b in BOUNDARY)
    missed_overlapping: int = 0
    spurious_overlapping: int = 0

    @property
    def gold(self) -> int:
        """Gold entities: correct + type + boundary + boundary_type + missed."""
        return self.correct + self.type + self.boundary + self.boundary_type + self.missed

    @property
    def predicted(self) -> int:
        """Predicted entities: correct + the predicted-side pair errors + spurious."""
        return self.correct + self.pred_type + self.pred_boundary + self.pred_boundary_type + self.spurious

    @property
    def false_negatives(self) -> int:
        """The exact false negatives: every gold entity that is not correct."""
        return self.gold - self.correct

    @property
    def false_positives(self) -> int:
        """The exact false positives: every prediction that is not correct."""
        return self.predicted - self.correct

    def __add__(self, other: ErrorCounts) -> ErrorCounts:
        sums: dict[str, Any] = {f: getattr(self, f) + getattr(other, f) for f in _COUNTS}
        mine, theirs = dict(self.boundary_detail), dict(other.boundary_detail)
        sums["boundary_detail"] = tuple((k, mine[k] + theirs[k]) for k in BOUNDARY)
        return ErrorCounts(**sums)

    def to_dict(self) -> dict[str, Any]:
        """The counts, ``boundary_detail`` as a mapping, and the overlapping flags."""
        out: dict[str, Any] = {c: getattr(self, c) for c in CATEGORIES}
        out["boundary_detail"] = dict(self.boundary_detail)
        out["predicted"] = {
            "type": self.pred_type,
            "boundary": self.pred_boundary,
            "boundary_type": self.pred_boundary_type,
        }
        out["overlapping"] = {"missed": self.missed_overlapping, "spurious": self.spurious_overlapping}
        return out


_COUNTS = tuple(f for f in ErrorCounts.__dataclass_fields__ if f != "boundary_detail")


def error_counts(
    gold: SpanArray, pred: SpanArray, cats: Categories
) -> tuple[ErrorCounts, dict[str, ErrorCounts]]:
    """The category counts in total and by type (types with an entity on either side).

    ``pred`` has the labels of ``gold``, perhaps extended (`SpanArray.relabel`).
    """
    names = pred.labels if len(pred.labels) > len(gold.labels) else gold.labels
    n = len(names)
    g_type = gold.label * 6 + cats.gold
    p_type = pred.label * 6 + cats.pred
    by_gold = np.bincount(g_type, minlength=6 * n).reshape(n, 6) if n else np.zeros((0, 6), dtype=np.int64)
    by_pred = np.bincount(p_type, minlength=6 * n).reshape(n, 6) if n else np.zeros((0, 6), dtype=np.int64)
    detail = np.zeros((n, len(BOUNDARY)), dtype=np.int64)
    has = cats.boundary >= 0
    np.add.at(detail, (gold.label[has], cats.boundary[has]), 1)
    m_over = np.bincount(gold.label[(cats.gold == MISSED) & cats.gold_overlapping], minlength=n)
    s_over = np.bincount(pred.label[(cats.pred == SPURIOUS) & cats.pred_overlapping], minlength=n)

    def row(i: int | slice) -> ErrorCounts:
        g, p = by_gold[i].reshape(-1, 6).sum(axis=0), by_pred[i].reshape(-1, 6).sum(axis=0)
        d = detail[i].reshape(-1, len(BOUNDARY)).sum(axis=0)
        counts = {c: int(g[k]) for k, c in enumerate(CATEGORIES[:5])}
        return ErrorCounts(
            **counts,
            spurious=int(p[SPURIOUS]),
            pred_type=int(p[TYPE]),
            pred_boundary=int(p[BOUNDARY_ERROR]),
            pred_boundary_type=int(p[BOUNDARY_TYPE]),
            boundary_detail=tuple((b, int(k)) for b, k in zip(BOUNDARY, d.tolist(), strict=True)),
            missed_overlapping=int(np.atleast_1d(m_over[i]).sum()),
            spurious_overlapping=int(np.atleast_1d(s_over[i]).sum()),
        )

    present = np.flatnonzero(by_gold.sum(axis=1) + by_pred.sum(axis=1))
    return row(slice(None)), {names[i]: row(int(i)) for i in present.tolist()}
