"""Exact scores over discontinuous entities only, as the discontinuous-NER papers report them.

In: both sides of a corpus as `SpanArray` columns in one type vocabulary, with the pieces of
discontinuous entities in ``fragments``. Out: `Counts` over the entities of more than one piece,
or ``None`` when neither side has one (the result then carries no such part).

The convention is that of Dai et al. (2020), "An Effective Transition-based Model for
Discontinuous NER" (ACL): precision is over the predicted discontinuous entities, recall over the
gold discontinuous ones. An exact match needs every piece equal, so a matched discontinuous
entity is matched by a discontinuous one of the other side, and both sides count the same true
positives: the multiset intersection of the two sides' discontinuous entities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..matching.exact import exact_match_fragments
from ..model.counts import Counts, Score

if TYPE_CHECKING:
    from ..model.arrays import Bool
    from ..model.spans import SpanArray

__all__ = ["DiscontinuousScores", "discontinuous_counts", "discontinuous_scores", "is_discontinuous"]


@frozen
class DiscontinuousScores:
    """Exact precision, recall and F1 over discontinuous entities only (see the module).

    ``counts`` is the additive state: TP, FP (predicted discontinuous entities not matched) and
    FN (gold discontinuous entities not matched); the scores are fractions derived from it.
    """

    counts: Counts
    beta: float = 1.0

    @property
    def score(self) -> Score:
        """Precision over predicted, recall over gold discontinuous entities, and F1."""
        return self.counts.score(self.beta)

    def __add__(self, other: DiscontinuousScores) -> DiscontinuousScores:
        return DiscontinuousScores(self.counts + other.counts, self.beta)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: fractions and counts, as for the exact scores."""
        return self.score.to_dict()


def is_discontinuous(spans: SpanArray) -> Bool:
    """Whether each span has more than one piece."""
    if spans.fragments is None:
        return np.zeros(len(spans), dtype=np.bool_)
    return np.diff(spans.fragments.offsets) > 1


def discontinuous_counts(gold: SpanArray, pred: SpanArray) -> Counts | None:
    """Exact TP, FP and FN over discontinuous entities only; ``None`` when neither side has one.

    ``gold`` and ``pred`` share one type vocabulary (``pred.labels`` extends ``gold.labels``).
    """
    g_mask, p_mask = is_discontinuous(gold), is_discontinuous(pred)
    if not g_mask.any() and not p_mask.any():
        return None
    g, p = gold.select(g_mask), pred.select(p_mask)
    n_types = max(len(gold.labels), len(pred.labels))
    tp = int(exact_match_fragments(g, p, n_types).sum()) if len(g) and len(p) else 0
    return Counts(tp, len(p) - tp, len(g) - tp)


def discontinuous_scores(gold: SpanArray, pred: SpanArray, beta: float = 1.0) -> DiscontinuousScores | None:
    """`discontinuous_counts` scored with ``beta``; ``None`` when neither side has one."""
    counts = discontinuous_counts(gold, pred)
    return None if counts is None else DiscontinuousScores(counts, beta)
