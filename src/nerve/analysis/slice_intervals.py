"""Bootstrap intervals of the slices: each band's precision, recall and F1 under resampling.

In: the `Slices` of a corpus, its `Aligned` form, and the bootstrap's resamples, seed, confidence
and unit. Out: one `Interval` per band of each slice, from the same resamples as the headline
intervals (the same seed draws the same units). The ``document`` slice under document resampling
gets none: each of its bands is one unit, whose scores never change when it is drawn. Nor do
the ``nesting`` and ``attr:NAME`` slices: a matched pair can straddle two of their bands, and the
resampled counts hold one true-positive count per band. A band's score that is the same in
every resample has no interval (``None``, n/a), as in `nerve.analysis.bootstrap`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import plural
from .aligned import Aligned
from .attr_slices import PREFIX
from .bootstrap import Interval, percentiles, replicates, resample_totals
from .slices import Slices
from .units import check_memory, varies

__all__ = ["slice_intervals"]


def slice_intervals(
    slices: Slices, aligned: Aligned, n: int, seed: int, confidence: float, unit: str
) -> dict[str, Mapping[str, Interval]]:
    """The intervals of every band of every slice of ``slices`` (see the module for the exception)."""
    out: dict[str, Mapping[str, Interval]] = {}
    for name in slices.rows:
        if (name == "document" and unit == "document") or name == "nesting" or name.startswith(PREFIX):
            continue
        bands, m = slices.unit_counts(aligned, name, unit)  # (units, bands, 3): gold, pred, tp
        tp = m[..., 2]
        counts = np.stack([tp, m[..., 1] - tp, m[..., 0] - tp], axis=-1)  # tp, fp, fn
        u, b = counts.shape[0], counts.shape[1]
        if u == 0 or b == 0:
            continue
        check_memory(n, b, f"the {plural(b, 'band')} of the {name} slice")
        totals = resample_totals(counts.reshape(u, b * 3), n, np.random.default_rng(seed))
        scores = replicates(totals.reshape(n, b, 3)).per_type
        bounds, moving = percentiles(scores, confidence), varies(scores)
        out[name] = {band: Interval.of(bounds[:, i], moving[i]) for i, band in enumerate(bands)}
    return out
