"""The threshold sweep: exact-match precision, recall and F1 at every confidence threshold at once.

In: both sides of a corpus as `SpanArray` columns in one type vocabulary, the predictions with
their ``score`` column. Out: a `Sweep`, one `Curve` over all types (micro) and one a type.

A threshold ``t`` keeps the predictions scored ``t`` or more; each distinct score is a threshold,
so predictions with equal scores come and go together. Exact matching is one to one between
equal entities, so which predictions are true positives does not depend on the threshold, but
for one thing: where a side has an entity more than once, the predicted copies that match are
the best-scored ones (as many as the gold side has). Sorting the predictions by score, best
first, before matching (`nerve.matching.exact.exact_matched` marks the first copies) makes them
so; then the true positives at every threshold are a cumulative sum, with no pass per threshold.
The false negatives are the gold entities less the true positives.

The best threshold maximises F1 (F-beta when a beta other than 1 is asked for); of several
thresholds with the same best F, the highest (it keeps the fewest predictions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import options
from .._frozen import frozen
from ..errors import InputError
from ..matching.exact import exact_matched

if TYPE_CHECKING:
    from ..model.arrays import Bool, Float, Int
    from ..model.spans import SpanArray

__all__ = ["TIE_RULE", "Curve", "Sweep", "check_scores", "threshold_sweep"]

#: How the best threshold is chosen among equals, said with it in every output.
TIE_RULE = "the highest threshold of those with the best F"


def _needs() -> str:
    return f'{options.flag("sweep")} needs a "score" (a confidence in 0..1) on each predicted entity'


def _div(a: Float, b: Float) -> Float:
    """``a / b`` elementwise, 0.0 where ``b`` is 0 (`nerve.model.counts.safe_div`)."""
    out: Float = np.zeros(a.shape, dtype=np.float64)
    np.divide(a, b, out=out, where=b != 0)
    return out


def _fbeta(p: Float, r: Float, beta: float) -> Float:
    """`nerve.model.counts.fbeta` elementwise, its operations in its order (equal to the last bit)."""
    if np.isinf(beta):
        return r.copy()
    b2 = beta * beta
    if np.isinf(b2):
        return _div(p * r, p + r / b2)
    return _div((1 + b2) * p * r, b2 * p + r)


@frozen(eq=False)
class Curve:
    """Precision, recall and F at each distinct threshold, the highest first (fractions in 0..1).

    Attributes:
        threshold: the distinct scores of the predictions, descending; row ``i`` keeps those scored
            ``threshold[i]`` or more.
        tp: the true positives kept at each threshold.
        fp: the false positives kept at each threshold.
        gold: the gold entities (the false negatives are ``gold - tp``).
        beta: the F-score's beta; ``fbeta`` is set when it is not 1.
    """

    threshold: Float
    tp: Int
    fp: Int
    gold: int
    beta: float = 1.0
    precision: Float = field(init=False)
    recall: Float = field(init=False)
    f1: Float = field(init=False)
    fbeta: Float | None = field(init=False)

    def __post_init__(self) -> None:
        p = _div(self.tp.astype(np.float64), (self.tp + self.fp).astype(np.float64))
        r = _div(self.tp.astype(np.float64), np.full(self.tp.shape, float(self.gold)))
        object.__setattr__(self, "precision", p)
        object.__setattr__(self, "recall", r)
        object.__setattr__(self, "f1", _fbeta(p, r, 1.0))
        object.__setattr__(self, "fbeta", _fbeta(p, r, self.beta) if self.beta != 1 else None)

    def __len__(self) -> int:
        return int(self.threshold.shape[0])

    @property
    def fn(self) -> Int:
        """The gold entities not found at each threshold."""
        return self.gold - self.tp

    @property
    def best(self) -> int | None:
        """The row of the best F (F-beta when set), the highest threshold of equals; ``None``: no row."""
        if not len(self):
            return None
        f = self.f1 if self.fbeta is None else self.fbeta
        return int(np.argmax(f))  # the first of equals: thresholds descend

    def row(self, i: int) -> dict[str, Any]:
        """Row ``i`` as JSON gives it: ``{threshold, precision, recall, f1, tp, fp, fn}`` (and ``fbeta``)."""
        d: dict[str, Any] = {
            "threshold": float(self.threshold[i]),
            "precision": float(self.precision[i]),
            "recall": float(self.recall[i]),
            "f1": float(self.f1[i]),
            "tp": int(self.tp[i]),
            "fp": int(self.fp[i]),
            "fn": int(self.gold - self.tp[i]),
        }
        if self.fbeta is not None:
            d["fbeta"] = float(self.fbeta[i])
        return d

    def rows(self) -> list[dict[str, Any]]:
        """Every row (`row`), the highest threshold first."""
        columns = [self.threshold, self.precision, self.recall, self.f1, self.tp, self.fp, self.fn]
        values = zip(*(c.tolist() for c in columns), strict=True)
        rows = [
            {"threshold": t, "precision": p, "recall": r, "f1": f, "tp": tp, "fp": fp, "fn": fn}
            for t, p, r, f, tp, fp, fn in values
        ]  # a dict display a row: a long curve has 100k rows
        if self.fbeta is not None:
            for row, fbeta in zip(rows, self.fbeta.tolist(), strict=True):
                row["fbeta"] = fbeta
        return rows

    def to_dict(self, rows: bool = True) -> dict[str, Any]:
        """``{"rows": [...], "best": row or null}`` (``rows=False``: the best alone)."""
        best = self.best
        return {**({"rows": self.rows()} if rows else {}), "best": None if best is None else self.row(best)}


@frozen(eq=False)
class Sweep:
    """The threshold sweep of a run: over all types (``micro``) and of each type, by name (sorted)."""

    micro: Curve
    per_type: Mapping[str, Curve]

    def to_dict(self, rows: bool = True) -> dict[str, Any]:
        """``{"rows", "best", "tie", "per_type": {TYPE: {"rows", "best"}}}``; ``best`` null without rows.

        ``rows=False`` leaves every ``"rows"`` out (`nerve.report.sweep.json_text` writes them).
        """
        return {
            **self.micro.to_dict(rows),
            "tie": TIE_RULE,
            "per_type": {k: c.to_dict(rows) for k, c in self.per_type.items()},
        }


def _curve(score: Float, hit: Bool, gold: int, beta: float) -> Curve:
    """The curve of predictions sorted by ``score`` (descending) that are true positives where ``hit``."""
    last = np.flatnonzero(np.append(score[1:] != score[:-1], True)) if len(score) else np.zeros(0, np.int64)
    tp = np.cumsum(hit, dtype=np.int64)[last]
    return Curve(score[last], tp, (last + 1 - tp).astype(np.int64), gold, beta)


def check_scores(pred: SpanArray, source: str) -> Float:
    """The predictions' scores: a number in 0..1 for each one.

    Raises:
        InputError: naming ``source`` (and the document and entity of a bad score) when the
            predictions have no scores, or one lacks its score or has one outside 0..1.
    """
    if not len(pred):
        return np.zeros(0, dtype=np.float64)
    if pred.score is None:
        raise InputError(source, None, f"the predictions have no scores: {_needs()}")
    bad = np.isnan(pred.score) | (pred.score < 0) | (pred.score > 1)
    if bad.any():
        k = int(np.argmax(bad))
        d = int(pred.doc[k])
        where = f"document {d}, entity {int(np.count_nonzero(pred.doc[:k] == d))}"
        value = pred.score[k]
        got = "has none" if np.isnan(value) else f"has {float(value)!r}"
        raise InputError(source, None, f"{where} {got}: {_needs()}")
    return pred.score


def threshold_sweep(gold: SpanArray, pred: SpanArray, beta: float = 1.0, source: str = "pred") -> Sweep:
    """The `Sweep` of ``pred`` (scored: `check_scores`) against ``gold``; both index ``pred.labels``.

    Raises:
        InputError: the predictions' scores are missing or outside 0..1 (`check_scores`).
    """
    score = check_scores(pred, source)
    order = np.argsort(-score, kind="stable")
    ranked = pred.select(order)
    hit = exact_matched(gold, ranked)[1]
    ranked_score = score[order] + 0.0  # -0.0 + 0.0 is 0.0: a score of -0.0 is the threshold 0.0
    micro = _curve(ranked_score, hit, len(gold), beta)
    n = len(pred.labels)
    by_type = np.argsort(ranked.label, kind="stable")  # each type's rows, still best first
    bounds = np.searchsorted(ranked.label[by_type], np.arange(n + 1))
    gold_count = np.bincount(gold.label, minlength=n)
    per_type = {}
    for k in sorted(range(n), key=lambda i: pred.labels[i]):
        rows = by_type[bounds[k] : bounds[k + 1]]
        per_type[pred.labels[k]] = _curve(ranked_score[rows], hit[rows], int(gold_count[k]), beta)
    return Sweep(micro, per_type)
