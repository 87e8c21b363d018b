"""Paired comparison of systems on one gold corpus: the F1 difference, its interval and p-values.

In: one ``(units, 3)`` matrix of micro exact-match counts (tp, fp, fn) per system, all over the
same units (documents or sentences), the baseline first. Out: `Comparisons`, one `Comparison`
of each other system with the baseline. Everything is drawn from one numpy PCG64 generator
seeded with the seed: first the ``N`` bootstrap resamples, exactly as `nerve.analysis.bootstrap`
draws them (so the baseline's resamples are those of ``nerve score --bootstrap N`` with that
seed), then ``N`` randomisation trials, trial ``j`` being ``rng.integers(0, 2, size=U,
dtype=np.int64)`` (1: the unit's outputs are swapped). Every system is compared on the same
resamples and the same trials. With ``Δ`` the observed micro-F1 difference (system minus
baseline) and ``Δ_i`` that of resample ``i``:

- the interval of ``Δ`` is the percentile interval of the ``Δ_i`` (as `bootstrap.percentiles`);
- the paired-bootstrap p-value is the shift test of Berg-Kirkpatrick, Burkett and Klein (2012),
  two-sided, with add-one smoothing: ``p = (1 + #{i : |Δ_i - Δ| >= |Δ|}) / (N + 1)``. The
  resampled differences shifted by ``Δ`` stand for the differences under the null hypothesis
  (no difference); Koehn (2004) counted instead the resamples the system loses. sacreBLEU's
  ``paired_bs`` shifts by the mean of ``|Δ_i|`` and counts ``>``; neleval leaves its bootstrap
  test out (``count_bootstrap_trials`` counts sign flips, as Koehn);
- the approximate-randomisation p-value (Riezler and Maxwell 2005; sacreBLEU's ``paired_ar``,
  neleval's ``significance --permute``) swaps the two systems' outputs of each unit with
  probability 1/2, two-sided with add-one smoothing: ``p = (1 + #{j : |D_j| >= |Δ|}) / (N + 1)``,
  ``D_j`` the F1 difference of trial ``j``. neleval counts one side only (``D_j >= Δ`` for
  ``Δ >= 0``); the trials' distribution is symmetric, so its p-value is about half this one;
- Holm's step-down correction of the randomisation p-values across the systems: with the ``m``
  p-values sorted, ``p_(k)`` becomes ``max over j <= k of min(1, (m - j + 1) p_(j))``.

A statistic that cannot be computed is ``None`` (``null`` in JSON, ``n/a`` in tables), never
a number: the interval and the bootstrap p-value when every ``Δ_i`` is the same (one unit, or
two systems that differ alike everywhere), the randomisation p-value (and Holm's) when every
``|D_j|`` is the same (one unit, or systems that differ in one unit only). A system compared
with itself has neither. Holm's correction runs over the p-values there are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..errors import plural
from .bootstrap import CHUNK, FN, FP, TP, percentiles, resample_totals, scores
from .units import check_memory, unit_flags, varies

if TYPE_CHECKING:
    from ..model.arrays import Float, Int

__all__ = ["Comparison", "Comparisons", "compare_flags", "holm", "paired", "swap_totals"]


@frozen
class Comparison:
    """One system against the baseline: micro F1 difference (system minus baseline) and p-values.

    ``f1`` and ``baseline_f1`` are the two systems' micro F1 (not in `to_dict`, which keeps the
    JSON contract); ``ci`` is the percentile interval of the difference. ``ci`` and the p-values
    are ``None`` where they cannot be computed (the module says when).
    """

    system: str
    baseline: str
    delta_f1: float
    ci: tuple[float, float] | None
    p_bootstrap: float | None
    p_randomization: float | None
    p_holm: float | None
    f1: float = 0.0
    baseline_f1: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``system``, ``baseline``, ``delta_f1``, ``ci`` ``[low, high]`` and the p-values.

        The keys are ``p_bootstrap``, ``p_randomization`` and ``p_holm``; ``None`` for n/a.
        """
        return {
            "system": self.system,
            "baseline": self.baseline,
            "delta_f1": self.delta_f1,
            "ci": None if self.ci is None else list(self.ci),
            "p_bootstrap": self.p_bootstrap,
            "p_randomization": self.p_randomization,
            "p_holm": self.p_holm,
        }


@frozen
class Comparisons:
    """Every system against the first, with what the numbers depend on.

    Attributes:
        comparisons: one per system after the baseline, in the order given.
        n: bootstrap resamples, and randomisation trials.
        unit: what was resampled and swapped, ``"document"`` or ``"sentence"``.
        seed: the seed of both.
        confidence: the level of the intervals.
        units: how many units there are.
        signature: the signature line.
        flags: what makes the statistics unreliable or n/a (``no_units``, ``one_unit``,
            ``few_units``, ``degenerate``) as ``(kind, message)``: see `compare_flags`.
    """

    comparisons: tuple[Comparison, ...]
    n: int
    unit: str
    seed: int
    confidence: float
    units: int
    signature: str = ""
    flags: tuple[tuple[str, str], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """``{"comparisons": [...], "n", "unit", "seed", "confidence", "signature", "flags"}``."""
        return {
            "comparisons": [c.to_dict() for c in self.comparisons],
            "n": self.n,
            "unit": self.unit,
            "seed": self.seed,
            "confidence": self.confidence,
            "signature": self.signature,
            "flags": [{"kind": k, "message": m} for k, m in self.flags],
        }


def _f1(totals: Float) -> Float:
    """Micro F1 of ``(..., 3)`` totals (tp, fp, fn)."""
    return scores(totals[..., TP], totals[..., FP], totals[..., FN])[2]


def swap_totals(diff: Int, n: int, rng: np.random.Generator) -> Float:
    """``(n, k)``: for each randomisation trial, the sum of ``diff`` ``(units, k)`` over swapped units."""
    units, k = diff.shape
    out = np.zeros((n, k), dtype=np.float64)
    if units == 0:
        return out
    values = diff.astype(np.float64)
    for begin in range(0, n, CHUNK):
        rows = min(CHUNK, n - begin)
        swapped = rng.integers(0, 2, size=(rows, units), dtype=np.int64).astype(np.float64)
        out[begin : begin + rows] = swapped @ values
    return out


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p`` (in the given order)."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def paired(
    matrices: Sequence[Int], names: Sequence[str], n: int, seed: int, confidence: float
) -> tuple[list[Comparison], Float, Float]:
    """Compare each system's ``(units, 3)`` counts with the first's, on shared resamples and trials.

    Returns:
        The comparisons, every system's micro F1 in every resample ``(n, systems)`` and the
        F1 differences of every randomisation trial ``(n, systems - 1)``.
    """
    s = len(matrices)
    check_memory(n, s, plural(s, "system"))
    rng = np.random.default_rng(seed)
    stacked = np.concatenate(matrices, axis=1)
    totals = stacked.sum(axis=0).reshape(s, 3).astype(np.float64)
    f1 = _f1(totals)
    delta = f1[1:] - f1[0]
    resampled = _f1(resample_totals(stacked, n, rng).reshape(n, s, 3))
    deltas = resampled[:, 1:] - resampled[:, :1]
    base = matrices[0]
    moved = swap_totals(np.concatenate([m - base for m in matrices[1:]], axis=1), n, rng).reshape(n, s - 1, 3)
    randomized = _f1(totals[1:] - moved) - _f1(totals[0] + moved)
    bounds = percentiles(deltas, confidence)
    p_boot = (1 + (np.abs(deltas - delta) >= np.abs(delta)).sum(axis=0)) / (n + 1)
    p_ar = (1 + (np.abs(randomized) >= np.abs(delta)).sum(axis=0)) / (n + 1)
    boot_ok, ar_ok = varies(deltas).tolist(), varies(np.abs(randomized)).tolist()
    tested = [i for i in range(s - 1) if ar_ok[i]]
    adjusted = dict(zip(tested, holm([float(p_ar[i]) for i in tested]), strict=True))
    out = [
        Comparison(
            names[i + 1],
            names[0],
            float(delta[i]),
            (float(bounds[0, i]), float(bounds[1, i])) if boot_ok[i] else None,
            float(p_boot[i]) if boot_ok[i] else None,
            float(p_ar[i]) if ar_ok[i] else None,
            adjusted.get(i),
            float(f1[i + 1]),
            float(f1[0]),
        )
        for i in range(s - 1)
    ]
    return out, resampled, randomized


def compare_flags(
    comparisons: Sequence[Comparison], units: int, unit: str, sentences: bool
) -> tuple[tuple[str, str], ...]:
    """``(kind, message)`` of too few units (`nerve.analysis.units.unit_flags`) and of n/a statistics.

    ``sentences``: whether the corpus has sentences to resample. With two units or more, each
    system whose interval or p-values are n/a gets a ``degenerate`` flag saying why.
    """
    flags = unit_flags(units, unit, sentences)
    if units < 2:
        return tuple(flags)
    for c in comparisons:
        if c.ci is None:
            what = "F1 difference, so ci and p bootstrap are n/a"
            flags.append(("degenerate", f"{c.system}: every resample gives the same {what}"))
        if c.p_randomization is None:
            what = "size of difference (as when the outputs differ in one unit only)"
            message = (
                f"every randomisation trial gives the same {what}, so p randomization and p holm are n/a"
            )
            flags.append(("degenerate", f"{c.system}: {message}"))
    return tuple(flags)
