"""The confusion matrix of entity types, in two views of the one matching.

In: both sides and their `Categories`. Out: a `Confusion` whose rows are the gold types plus
``SPURIOUS`` and whose columns are the predicted types plus ``MISSED``. Row sums are the gold
counts per type (the ``SPURIOUS`` row: the unpaired predictions by type) and column sums the
predicted counts. The two views differ only in where boundary errors go:

- ``exact``: only pairs with the same span are cells of types; a boundary or boundary_type pair
  counts as its gold entity MISSED and its prediction SPURIOUS, as exact scoring counts them.
- ``overlap``: every pair of the matching is a cell, so a boundary error sits on the diagonal and
  a boundary_type error off it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..model.spans import SpanArray
from .errors import BOUNDARY_ERROR, BOUNDARY_TYPE, Categories

if TYPE_CHECKING:
    from ..model.arrays import Int

__all__ = ["MISSED", "SPURIOUS", "Confusion", "confusion"]

MISSED = "MISSED"
SPURIOUS = "SPURIOUS"
_PLACEMENT = {
    "exact": "boundary errors count as MISSED (gold) and SPURIOUS (prediction)",
    "overlap": "boundary errors count as pairs: same type on the diagonal, other type off it",
}


@frozen(eq=False)
class Confusion:
    """Counts of (gold type or SPURIOUS, predicted type or MISSED), kept sparse.

    Attributes:
        view: ``"exact"`` or ``"overlap"``.
        types: the entity types by name, in the order of rows and columns.
        sparse: a ``(len(types) + 1) x (len(types) + 1)`` `scipy.sparse.csr_array` of counts;
            the last row is SPURIOUS and the last column MISSED (their shared corner is always
            0). Only the cells that occur are stored, so thousands of types cost no more than
            their entities.
    """

    view: str
    types: tuple[str, ...]
    sparse: Any

    @property
    def placement(self) -> str:
        """How this view places boundary errors."""
        return _PLACEMENT[self.view]

    @property
    def matrix(self) -> Int:
        """The counts as a dense array: ``(len(types) + 1)`` squared cells, for a few types only."""
        return np.asarray(self.sparse.toarray(), dtype=np.int64)

    def row(self, i: int) -> Int:
        """Row ``i`` (a gold type, or the last: SPURIOUS) as a dense array of counts."""
        return np.asarray(self.sparse[[i], :].toarray()[0], dtype=np.int64)

    def cells(self) -> list[tuple[int, int, int]]:
        """The nonzero cells as (row, column, count), in row-major order."""
        coo = self.sparse.tocoo()
        order = np.lexsort((coo.col, coo.row))
        return list(
            zip(coo.row[order].tolist(), coo.col[order].tolist(), coo.data[order].tolist(), strict=True)
        )

    def cell(self, gold: str, pred: str) -> int:
        """The count of one cell, by names (``SPURIOUS`` as gold, ``MISSED`` as predicted)."""
        rows = (*self.types, SPURIOUS)
        cols = (*self.types, MISSED)
        return int(self.sparse[rows.index(gold), cols.index(pred)])

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{gold type or "SPURIOUS": {predicted type or "MISSED": n}}``, zero cells left out."""
        rows = (*self.types, SPURIOUS)
        cols = (*self.types, MISSED)
        out: dict[str, dict[str, int]] = {}
        for i, j, n in self.cells():
            out.setdefault(rows[i], {})[cols[j]] = n
        return out

    def describe(self) -> dict[str, Any]:
        """The view, its placement of boundary errors and the cells."""
        return {"view": self.view, "placement": self.placement, "cells": self.to_dict()}

    def __add__(self, other: Confusion) -> Confusion:
        """The sum of two confusion matrices of one view, over the union of their types."""
        types = sorted(set(self.types) | set(other.types))
        index = {t: i for i, t in enumerate(types)}
        size = len(types) + 1
        parts = []
        for c in (self, other):
            at = np.asarray([index[t] for t in c.types] + [size - 1], dtype=np.int64)
            coo = c.sparse.tocoo()
            parts.append((at[coo.row], at[coo.col], coo.data))
        rows, cols, data = (np.concatenate(x) for x in zip(*parts, strict=True))
        return Confusion(self.view, tuple(types), _csr(data, rows, cols, size))


def _csr(data: Int, rows: Int, cols: Int, size: int) -> Any:
    """A ``size`` x ``size`` sparse array of int64 counts; repeated coordinates add up."""
    from scipy.sparse import coo_array

    counts = coo_array((data.astype(np.int64), (rows, cols)), shape=(size, size))
    return counts.tocsr()


def confusion(gold: SpanArray, pred: SpanArray, cats: Categories, view: str = "exact") -> Confusion:
    """The confusion matrix of the matching in ``cats``, in the ``exact`` or ``overlap`` view."""
    if view not in _PLACEMENT:
        raise ValueError(f"Expected view 'exact' or 'overlap', but got {view!r}")
    names = pred.labels if len(pred.labels) > len(gold.labels) else gold.labels  # pred: relabelled
    n = len(names)
    paired = cats.gold_partner >= 0
    if view == "exact":
        paired &= ~np.isin(cats.gold, (BOUNDARY_ERROR, BOUNDARY_TYPE))
    missed = gold.label[~paired]
    pred_paired = np.zeros(len(pred), dtype=np.bool_)
    pred_paired[cats.gold_partner[paired]] = True
    spurious = pred.label[~pred_paired]
    order = sorted(range(n), key=lambda i: names[i])  # types by name, SPURIOUS / MISSED last
    at = np.empty(n + 1, dtype=np.int64)
    at[[*order, n]] = np.arange(n + 1)
    rows = np.concatenate([gold.label[paired], missed, np.full(len(spurious), n)]).astype(np.int64)
    cols = np.concatenate([pred.label[cats.gold_partner[paired]], np.full(len(missed), n), spurious])
    ones = np.ones(len(rows), dtype=np.int64)
    counts = _csr(ones, at[rows], at[cols.astype(np.int64)], n + 1)
    return Confusion(view, tuple(names[i] for i in order), counts)
