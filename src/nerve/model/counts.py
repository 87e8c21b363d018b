"""Additive counts and the scores derived from them, shared by every metric family.

`ExactTotals` is what a run of exact scoring ends with, whichever engine counted it (numpy's
`nerve.metrics.exact.ExactAccumulator`, or the compiled reader of CoNLL files, which builds it
here, below numpy: `nerve.compiled`); `nerve.results.Result.of` turns it into a result.

A zero denominator gives 0.0 (`safe_div`): precision is 0 when nothing was predicted, recall is 0
when there is nothing to find, F1 is 0 when both are 0. Everything here adds up across shards.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import field

from .._frozen import frozen
from ..errors import SchemeError
from .schemes import Scheme, infer_scheme

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Counts", "ExactTotals", "RepairStats", "Score", "TokenStats", "Totals", "fbeta", "safe_div"]
__all__ += ["score_dict"]


def safe_div(a: float, b: float) -> float:
    """``a / b``, or 0.0 when ``b`` is 0."""
    return a / b if b else 0.0


def fbeta(precision: float, recall: float, beta: float = 1.0) -> float:
    """The weighted harmonic mean of precision and recall; 0.0 when both are 0.

    ``beta`` weighs recall ``beta`` times as much as precision; ``inf`` gives recall alone. Past
    ``beta`` 1e154 its square overflows: the fraction is then divided through by it, which gives
    its limit (recall, or 0 where precision is 0) rather than inf / inf.
    """
    if math.isinf(beta):
        return recall
    b2 = beta * beta
    if math.isinf(b2):
        return safe_div(precision * recall, precision + recall / b2)
    return safe_div((1 + b2) * precision * recall, b2 * precision + recall)


class Totals:
    """Gold and predicted totals of anything with ``tp``, ``fp`` and ``fn``."""

    tp: int
    fp: int
    fn: int

    @property
    def gold(self) -> int:
        """How many gold entities there are (tp + fn)."""
        return self.tp + self.fn

    @property
    def predicted(self) -> int:
        """How many entities were predicted (tp + fp)."""
        return self.tp + self.fp


def score_dict(s: Any) -> dict[str, Any]:
    """Precision, recall, F1 and the counts of a score or row, as JSON gives them, in this order."""
    return {
        "precision": s.precision,
        "recall": s.recall,
        "f1": s.f1,
        "tp": s.tp,
        "fp": s.fp,
        "fn": s.fn,
        "gold": s.gold,
        "predicted": s.predicted,
    }


@frozen
class Counts(Totals):
    """True positives, false positives and false negatives; they add up across shards."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def score(self, beta: float = 1.0) -> Score:
        """Precision, recall and F-scores of these counts."""
        p = safe_div(self.tp, self.predicted)
        r = safe_div(self.tp, self.gold)
        return Score(p, r, fbeta(p, r), self.tp, self.fp, self.fn, fbeta(p, r, beta) if beta != 1 else None)


@frozen
class Score(Totals):
    """Precision, recall and F1 (fractions in 0..1) with the counts they come from.

    For the macro and weighted averages the counts are the corpus totals and the scores are
    averages of the per-type scores. ``fbeta`` is set only when a beta other than 1 was asked for.
    """

    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int
    fbeta: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: scores as fractions, counts as integers."""
        d = score_dict(self)
        if self.fbeta is not None:
            d["fbeta"] = self.fbeta
        return d


@frozen
class TokenStats:
    """Token accuracy on the raw tags, before any repair, kept apart from entity scores."""

    count: int = 0
    correct: int = 0

    @property
    def accuracy(self) -> float:
        """The share of tokens whose predicted tag equals the gold tag (0.0 for no tokens)."""
        return safe_div(self.correct, self.count)

    def __add__(self, other: TokenStats) -> TokenStats:
        return TokenStats(self.count + other.count, self.correct + other.correct)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"count": self.count, "accuracy": self.accuracy}


@frozen
class SchemeEvidence:
    """What nerve infers a scheme from (`nerve.model.schemes.infer_scheme`); it adds up across shards.

    Attributes:
        letters: the letters of the tags read.
        b_after_other: some ``B`` starts an entity not right after one of its type.
        e_before_other: some ``E`` ends an entity not right before one of its type.
        bare: the tags are bare types (IO).
    """

    letters: frozenset[str] = frozenset()
    b_after_other: bool = False
    e_before_other: bool = False
    bare: bool = False

    def __add__(self, other: SchemeEvidence) -> SchemeEvidence:
        return SchemeEvidence(
            self.letters | other.letters,
            self.b_after_other or other.b_after_other,
            self.e_before_other or other.e_before_other,
            self.bare or other.bare,
        )

    def scheme(self) -> str | None:
        """The name of the scheme inferred, or ``None`` where no single scheme has the letters."""
        if self.bare:
            return "IO"
        try:
            return infer_scheme(self.letters, self.b_after_other, self.e_before_other).name
        except SchemeError:
            return None


@frozen
class RepairStats:
    """How many transitions the scheme does not allow, on each side, and of which kinds.

    ``by_kind`` maps a transition between tag kinds (``"O -> I"``) to its count, gold and
    predicted together. ``evidence``, when the scheme was given rather than inferred, is what
    nerve would have inferred it from: where the repairs are many and the tags point to another
    scheme, the given one likely does not fit (`nerve.results.Result.warnings`). It adds up
    across shards, and takes no part in comparisons.
    """

    policy: str
    gold: int = 0
    pred: int = 0
    by_kind: Mapping[str, int] = field(default_factory=dict)
    evidence: SchemeEvidence | None = field(default=None, compare=False, repr=False)

    @property
    def total(self) -> int:
        """Invalid transitions on both sides."""
        return self.gold + self.pred

    def __add__(self, other: RepairStats) -> RepairStats:
        kinds = dict(self.by_kind)
        for k, v in other.by_kind.items():
            kinds[k] = kinds.get(k, 0) + v
        return RepairStats(
            self.policy,
            self.gold + other.gold,
            self.pred + other.pred,
            dict(sorted(kinds.items())),
            self.evidence + other.evidence if self.evidence and other.evidence else None,
        )

    @property
    def fits(self) -> str | None:
        """The scheme nerve infers from the tags, where the scheme was given (``None`` otherwise)."""
        return None if self.evidence is None else self.evidence.scheme()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"policy": self.policy, "gold": self.gold, "pred": self.pred, "by_kind": dict(self.by_kind)}


@frozen
class ExactTotals:
    """What an engine's exact counts end with: per-type counts, token statistics, repairs, the schemes."""

    counts: dict[str, Counts]
    tokens: TokenStats
    repairs: RepairStats
    scheme: Scheme | None  # None: spans, which have no scheme
    sentences: int
    documents: int
    muc: Any = None  # a `nerve.metrics.muc.MucResult`, where MUC was asked for (a metric above this layer)
    pred_scheme: Scheme | None = None  # the predictions', when it is not ``scheme``
