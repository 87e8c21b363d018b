"""Precision, recall, F-beta and support from entity counts, with seqeval's arithmetic.

In: `EntityCounts` and seqeval's ``average``, ``beta``, ``zero_division`` and ``warn_for``. Out:
what seqeval 1.2.2 returns for those counts, bit for bit: numpy arrays per type for
``average=None``, numpy scalars for an average, and the same `UndefinedMetricWarning` messages
(issued with `warnings.warn`) when a denominator is zero and ``zero_division="warn"``.

One difference: a macro average over no types at all is the micro one (seqeval takes the mean
of an empty array: ``nan`` and a RuntimeWarning), so no entities on either side give the
``zero_division`` value, as the weighted average already does in seqeval.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import OptionError
from .counts import EntityCounts

if TYPE_CHECKING:
    from ...model.arrays import Float as Floats
    from ...model.arrays import Int as Ints

__all__ = [
    "AVERAGES",
    "UndefinedMetricWarning",
    "check_options",
    "precision_recall_fscore",
    "warn_sample_weight",
]

AVERAGES = (None, "micro", "macro", "weighted")


class UndefinedMetricWarning(UserWarning):
    """A score with a zero denominator, set by ``zero_division`` (scikit-learn's class, by name)."""


def check_options(average: str | None, zero_division: object, beta: float = 1.0) -> None:
    """Check ``average``, ``zero_division`` and ``beta`` against seqeval's choices (an OptionError).

    seqeval takes any ``zero_division`` other than ``"warn"`` and 0 as 1; here it must be one of
    the three.
    """
    if average not in AVERAGES:
        detail = f"expected one of None, 'micro', 'macro', 'weighted', but got {average!r}"
        raise OptionError("average", detail)
    if zero_division not in ("warn", 0, 1):
        raise OptionError("zero_division", f"expected 'warn', 0 or 1, but got {zero_division!r}")
    if not isinstance(beta, int | float | np.number) or not beta >= 0:
        raise OptionError("beta", f"expected a number >= 0 (inf for recall alone), but got {beta!r}")


def warn_sample_weight(sample_weight: object) -> None:
    """A warning when ``sample_weight`` is given: seqeval 1.2.2 never uses it, and neither does this."""
    if sample_weight is not None:
        warnings.warn(
            "sample_weight is ignored, as seqeval 1.2.2 ignores it (it only weighs average='samples', "
            "which seqeval refuses): the scores are unweighted",
            UserWarning,
            stacklevel=3,
        )


def _warn(modifier: str, msg_start: str, size: int) -> None:
    where = "due to" if size == 1 else "in labels with"
    warnings.warn(
        f"{msg_start} ill-defined and being set to 0.0 {where} no {modifier} samples. "
        "Use `zero_division` parameter to control this behavior.",
        UndefinedMetricWarning,
        stacklevel=4,
    )


def _divide(
    numerator: Ints,
    denominator: Ints,
    metric: str,
    modifier: str,
    warn_for: Collection[str],
    zero_division: object,
) -> Floats:
    """``numerator / denominator``, the ``zero_division`` value where the denominator is 0."""
    mask = denominator == 0
    result = numerator / np.where(mask, 1, denominator)
    if not mask.any():
        return result
    result[mask] = 0.0 if zero_division in ("warn", 0) else 1.0
    if zero_division == "warn" and metric in warn_for:
        start = f"{metric.title()} and F-score are" if "f-score" in warn_for else f"{metric.title()} is"
        _warn(modifier, start, len(result))
    return result


def precision_recall_fscore(
    counts: EntityCounts,
    *,
    average: str | None,
    warn_for: Collection[str] = ("precision", "recall", "f-score"),
    beta: float = 1.0,
    zero_division: object = "warn",
) -> tuple[Any, Any, Any, Any]:
    """The ``(precision, recall, fbeta, support)`` seqeval gives ``counts``; options checked before."""
    tp, pred, true = counts.tp, counts.pred, counts.true
    if average == "micro" or (average == "macro" and not counts.names):
        tp, pred, true = (np.array([x.sum()]) for x in (tp, pred, true))
    precision = _divide(tp, pred, "precision", "predicted", warn_for, zero_division)
    recall = _divide(tp, true, "recall", "true", warn_for, zero_division)
    if zero_division == "warn" and warn_for == ("f-score",) and (pred[true == 0] == 0).any():
        _warn("true nor predicted", "F-score is", len(true))
    if np.isposinf(beta):
        f_score = recall
    elif np.isinf(float(beta) * float(beta)):  # past 1e154 seqeval's beta**2 raises OverflowError
        f_score = np.where(precision > 0, recall, 0.0)  # the limit: recall, 0 where precision is 0
    else:
        beta2 = beta**2
        denom = beta2 * precision + recall
        denom[denom == 0.0] = 1
        f_score = (1 + beta2) * precision * recall / denom
    if average is None:
        return precision, recall, f_score, true
    weights: Ints | None = None
    if average == "weighted":
        if true.sum() == 0:
            value = 0.0 if zero_division in ("warn", 0) else 1.0
            none_predicted = pred.sum() == 0
            return (value if none_predicted else 0.0, value, value if none_predicted else 0.0, sum(true))
        weights = true
    return (
        np.average(precision, weights=weights),
        np.average(recall, weights=weights),
        np.average(f_score, weights=weights),
        sum(true),
    )
