"""`Analysis`: the typed results of the analysis that a `nerve.Result` carries.

In: the `Aligned` corpus and what was asked for. Out: an `Analysis` with the error categories
(`ErrorAnalysis`), the confusion matrix in its two views, the slices (`slices.Slices`) and the
bootstrap intervals, each with ``to_dict()``; its keys join the top level of ``nerve score
--output json`` (``"errors"``, ``"confusion"``, ``"slices"``, ``"bootstrap"``...).
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any

from .._frozen import frozen
from ..errors import NerveError
from .aligned import Aligned
from .confusion import Confusion, confusion
from .errors import Categories, ErrorCounts, categorise, error_counts
from .instances import InstanceQuery, Instances, instances_of
from .slices import Slices

if TYPE_CHECKING:
    from .bootstrap import Bootstrap

__all__ = ["Analysis", "ErrorAnalysis", "analyse"]


@frozen
class ErrorAnalysis:
    """Error category counts in total and by entity type."""

    total: ErrorCounts
    by_type: dict[str, ErrorCounts]

    def __add__(self, other: ErrorAnalysis) -> ErrorAnalysis:
        by_type = dict(self.by_type)
        for name, counts in other.by_type.items():
            by_type[name] = by_type[name] + counts if name in by_type else counts
        return ErrorAnalysis(self.total + other.total, dict(sorted(by_type.items())))

    def to_dict(self) -> dict[str, Any]:
        """The total counts, and ``"by_type"``."""
        return {**self.total.to_dict(), "by_type": {k: v.to_dict() for k, v in self.by_type.items()}}


@frozen(eq=False)
class Analysis:
    """What the analysis found; each part is ``None`` when it was not asked for.

    Attributes:
        errors: the error categories.
        confusion: the confusion matrix by view, ``"exact"`` and ``"overlap"``.
        instances: the error rows asked for (not in ``to_dict``: they are written on their own).
        categories: the category of every entity (not in ``to_dict``).
        slices: P/R/F1 by slice (length, type, document...).
        bootstrap: the bootstrap intervals (`nerve.analysis.bootstrap.Bootstrap`).
    """

    errors: ErrorAnalysis | None = None
    confusion: dict[str, Confusion] | None = None
    instances: Instances | None = field(default=None, repr=False)
    categories: Categories | None = field(default=None, repr=False)
    slices: Slices | None = None
    bootstrap: Bootstrap | None = None

    def merge(self, other: Analysis) -> Analysis:
        """Add the counts of an analysis of other documents (the same parts asked for).

        Slices do not merge (documents are numbered per corpus, bands of frequency are counted
        over it): slice the whole corpus instead. Bootstrap intervals do not add up either.
        """
        if self.slices is not None or other.slices is not None:
            raise NerveError("cannot merge analyses with slices: score the documents together to slice them")
        if self.bootstrap is not None or other.bootstrap is not None:
            raise NerveError(
                "cannot merge bootstrap intervals: they do not add up; score the documents together instead"
            )
        if (self.errors is None) != (other.errors is None) or (self.confusion is None) != (
            other.confusion is None
        ):
            raise NerveError("cannot merge analyses of different parts: ask both for the same ones")
        if self.instances is not None or other.instances is not None:
            raise NerveError("cannot merge instance lists: their document and sentence numbers would clash")
        errors = self.errors + other.errors if self.errors and other.errors else None
        views = None
        if self.confusion is not None and other.confusion is not None:
            views = {v: self.confusion[v] + other.confusion[v] for v in self.confusion}
        return Analysis(errors, views)

    def to_dict(self) -> dict[str, Any]:
        """The top-level JSON keys of what was asked for.

        ``"errors"``; ``"confusion"`` (the exact view's cells), ``"confusion_overlap"`` (the
        overlap view's) and ``"confusion_placement"`` (how each view places boundary errors);
        ``"bootstrap"`` (`Bootstrap.to_dict`).
        """
        out: dict[str, Any] = {}
        if self.errors is not None:
            out["errors"] = self.errors.to_dict()
        if self.confusion is not None:
            out["confusion"] = self.confusion["exact"].to_dict()
            out["confusion_overlap"] = self.confusion["overlap"].to_dict()
            out["confusion_placement"] = {v: c.placement for v, c in self.confusion.items()}
        if self.slices is not None:
            out.update(self.slices.to_dict())
        if self.bootstrap is not None:
            out["bootstrap"] = self.bootstrap.to_dict()
        return out


def analyse(
    aligned: Aligned,
    *,
    errors: bool = False,
    confusion_matrix: bool = False,
    min_iou: float | None = None,
    min_gold_share: float | None = None,
    query: InstanceQuery | None = None,
    slices: Slices | None = None,
) -> Analysis:
    """Categorise every entity of ``aligned`` once, and count (and list) what was asked for.

    ``slices`` is computed apart (`nerve.analysis.slices`) and kept as it is.
    """
    if not errors and not confusion_matrix and query is None:
        return Analysis(slices=slices)
    gold, pred = aligned.gold, aligned.pred
    cats = categorise(gold, pred, min_iou, min_gold_share)
    found = None
    if errors:
        total, by_type = error_counts(gold, pred, cats)
        found = ErrorAnalysis(total, dict(sorted(by_type.items())))
    views = {v: confusion(gold, pred, cats, v) for v in ("exact", "overlap")} if confusion_matrix else None
    rows = None
    if query is not None:
        rows = instances_of(aligned, cats, query)
    return Analysis(found, views, rows, cats, slices)
