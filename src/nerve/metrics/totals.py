"""What a run of exact scoring ends with, whichever engine counted it: `ExactTotals`.

In: the counts of an engine, numpy's `nerve.metrics.exact.ExactAccumulator` or the compiled
reader of CoNLL files (`nerve._speedups`). Out: `ExactTotals`, which `nerve.results.Result.of`
turns into a result. This module imports no numpy, so that a run counted by the compiled engine
reaches its rendering without loading it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.counts import Counts, RepairStats, TokenStats
from ..model.schemes import Scheme

if TYPE_CHECKING:
    from .muc import MucResult

__all__ = ["ExactTotals"]


@dataclass(frozen=True)
class ExactTotals:
    """What an engine's exact counts end with: per-type counts, token statistics, repairs, the schemes."""

    counts: dict[str, Counts]
    tokens: TokenStats
    repairs: RepairStats
    scheme: Scheme | None  # None: spans, which have no scheme
    sentences: int
    documents: int
    muc: MucResult | None = None
    pred_scheme: Scheme | None = None  # the predictions', when it is not ``scheme``
