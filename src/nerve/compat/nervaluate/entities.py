"""nervaluate 1.2.1's result types: `EvaluationResult` (counts and scores) and `EvaluationIndices`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...metrics.muc import MucCounts

__all__ = ["EvaluationIndices", "EvaluationResult"]


@dataclass
class EvaluationResult:
    """nervaluate's counts and scores of one strategy, overall or for one tag."""

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    missed: int = 0
    spurious: int = 0
    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    actual: int = 0
    possible: int = 0

    @classmethod
    def of(cls, c: MucCounts) -> EvaluationResult:
        """The result of nerve's counts: gold-side counts, with ``actual`` from the predicted side."""
        return cls(c.cor, c.inc, c.par, c.mis, c.spu, c.precision, c.recall, c.f1, c.act, c.pos)

    def compute_metrics(self, partial_or_type: bool = False) -> None:
        """Recompute ``actual``, ``possible``, precision, recall and F1 from the five counts.

        As nervaluate 1.2.1 does: ``actual`` is correct + incorrect + partial + spurious and
        ``possible`` correct + incorrect + partial + missed; with ``partial_or_type`` a partial
        counts half. A zero denominator gives the integer 0, as there. For a per-tag row of the
        optimal matching, whose ``actual`` counts the predicted side, this gives nervaluate's
        numbers from the gold-side counts instead.
        """
        self.actual = self.correct + self.incorrect + self.partial + self.spurious
        self.possible = self.correct + self.incorrect + self.partial + self.missed
        hits = self.correct + 0.5 * self.partial if partial_or_type else self.correct
        self.precision = hits / self.actual if self.actual > 0 else 0
        self.recall = hits / self.possible if self.possible > 0 else 0
        total = self.precision + self.recall
        self.f1 = 2 * (self.precision * self.recall) / total if total > 0 else 0


@dataclass
class EvaluationIndices:
    """``(document index, entity index)`` of each outcome: predictions, and gold entities for missed."""

    correct_indices: list[tuple[int, int]] = field(default_factory=list)
    incorrect_indices: list[tuple[int, int]] = field(default_factory=list)
    partial_indices: list[tuple[int, int]] = field(default_factory=list)
    missed_indices: list[tuple[int, int]] = field(default_factory=list)
    spurious_indices: list[tuple[int, int]] = field(default_factory=list)
