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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..model.spans import SpanArray
from .errors import BOUNDARY_ERROR, BOUNDARY_TYPE, Categories

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]

__all__ = ["MISSED", "SPURIOUS", "Confusion", "confusion"]

MISSED = "MISSED"
SPURIOUS = "SPURIOUS"
_PLACEMENT = {
    "exact": "boundary errors count as MISSED (gold) and SPURIOUS (prediction)",
    "overlap": "boundary errors count as pairs: same type on the diagonal, other type off it",
}


@dataclass(frozen=True, eq=False)
class Confusion:
    """Counts of (gold type or SPURIOUS, predicted type or MISSED).

    Attributes:
        view: ``"exact"`` or ``"overlap"``.
        types: the entity types by name, in the order of rows and columns.
        matrix: ``(len(types) + 1) x (len(types) + 1)`` counts; the last row is SPURIOUS and the
            last column MISSED (their shared corner is always 0).
    """

    view: str
    types: tuple[str, ...]
    matrix: Int

    @property
    def placement(self) -> str:
        """How this view places boundary errors."""
        return _PLACEMENT[self.view]

    def cell(self, gold: str, pred: str) -> int:
        """The count of one cell, by names (``SPURIOUS`` as gold, ``MISSED`` as predicted)."""
        rows = (*self.types, SPURIOUS)
        cols = (*self.types, MISSED)
        return int(self.matrix[rows.index(gold), cols.index(pred)])

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{gold type or "SPURIOUS": {predicted type or "MISSED": n}}``, zero cells left out."""
        rows = (*self.types, SPURIOUS)
        cols = (*self.types, MISSED)
        out: dict[str, dict[str, int]] = {}
        for i, j in zip(*np.nonzero(self.matrix), strict=True):
            out.setdefault(rows[i], {})[cols[j]] = int(self.matrix[i, j])
        return out

    def describe(self) -> dict[str, Any]:
        """The view, its placement of boundary errors and the cells."""
        return {"view": self.view, "placement": self.placement, "cells": self.to_dict()}


def confusion(gold: SpanArray, pred: SpanArray, cats: Categories, view: str = "exact") -> Confusion:
    """The confusion matrix of the matching in ``cats``, in the ``exact`` or ``overlap`` view."""
    if view not in _PLACEMENT:
        raise ValueError(f"Expected view 'exact' or 'overlap', but got {view!r}")
    names = pred.labels if len(pred.labels) > len(gold.labels) else gold.labels  # pred: relabelled
    n = len(names)
    paired = cats.gold_partner >= 0
    if view == "exact":
        paired &= ~np.isin(cats.gold, (BOUNDARY_ERROR, BOUNDARY_TYPE))
    rows = gold.label[paired]
    cols = pred.label[cats.gold_partner[paired]]
    missed = gold.label[~paired]
    pred_paired = np.zeros(len(pred), dtype=np.bool_)
    pred_paired[cats.gold_partner[paired]] = True
    spurious = pred.label[~pred_paired]
    size = n + 1
    keys = np.concatenate([rows * size + cols, missed * size + n, n * size + spurious])
    matrix = np.bincount(keys, minlength=size * size).reshape(size, size).astype(np.int64)
    order = [*sorted(range(n), key=lambda i: names[i]), n]  # types by name, SPURIOUS / MISSED last
    return Confusion(view, tuple(names[i] for i in order[:n]), matrix[np.ix_(order, order)])
