"""Bootstrap confidence intervals: exact-match counts per unit, resampled with replacement.

In: an `Aligned` corpus and the resampling unit (``"document"`` or ``"sentence"``). Out:
`UnitCounts`, the ``(units x types x 3)`` matrix of exact-match tp, fp and fn of every unit and
type (its column sums are the exact counts of `nerve.score`); and `Bootstrap`, the percentile
intervals of micro, macro and weighted precision, recall and F1 and of every type's.

The resamples (the protocol the tests replay one resample at a time): numpy's PCG64 generator
is seeded with the seed (`numpy.random.default_rng`), and resample ``i = 0 .. N-1`` is
``rng.integers(0, U, size=U, dtype=np.int64)``: ``U`` units drawn with replacement. The draws
are made a few resamples at a time (``size=(c, U)``), which gives the same numbers, turned
into how often each unit was drawn (``np.bincount``), and multiplied by the count matrix: one
matrix product gives the totals of every resample. Scores are computed from the totals as
`nerve.Counts.score` does (0 for a zero denominator): micro from the summed counts, macro the
mean of the type scores, weighted their mean with each type's resampled gold count as weight.
The interval at confidence ``c`` is numpy's ``quantile`` (linear interpolation, Hyndman and
Fan's type 7) of the resampled scores at ``(1 - c) / 2`` and ``(1 + c) / 2``. A score that is
the same in every resample (one unit; or nothing in the data that moves it) has no interval:
``None``, flagged ``degenerate`` (or ``one_unit``, ``no_units``, ``no_gold``), never a
zero-width interval that would look exact. Fewer than 20 units are flagged ``few_units``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..errors import NerveError, OptionError, plural
from ..matching.exact import exact_matched
from ..model.signature import bootstrap_field
from ..options import flag, setting
from .aligned import Aligned
from .units import Flag, check_memory, unit_flags, varies

if TYPE_CHECKING:
    from ..model.arrays import Bool, Float, Int

__all__ = [
    "CHUNK",
    "Bootstrap",
    "Flag",
    "Interval",
    "Replicates",
    "UnitCounts",
    "bootstrap_intervals",
    "degenerate",
    "flags_of",
    "percentiles",
    "replicates",
    "resample_totals",
    "scores",
    "unit_counts",
]

CHUNK = 8  # resamples drawn at a time: their weights stay in the CPU's caches
TP, FP, FN = 0, 1, 2
RESERVED = ("micro", "macro", "weighted", "n", "unit", "seed", "confidence", "method", "flags")


@frozen(eq=False)
class UnitCounts:
    """Exact-match counts per resampling unit and type.

    Attributes:
        counts: ``(units, types, 3)`` integers: tp, fp and fn of each unit and type.
        types: the type names, sorted, in the order of the second axis.
        unit: ``"document"`` or ``"sentence"``.
        sentences: whether the corpus has sentences (tagged input; span files have none).
    """

    counts: Int
    types: tuple[str, ...]
    unit: str
    sentences: bool = True

    @property
    def n_units(self) -> int:
        """How many units there are."""
        return int(self.counts.shape[0])

    def totals(self) -> Int:
        """The ``(types, 3)`` sums over units: the exact counts of the corpus."""
        return self.counts.sum(axis=0)

    def micro(self) -> Int:
        """The ``(units, 3)`` counts summed over types."""
        return self.counts.sum(axis=1)


def unit_counts(aligned: Aligned, unit: str = "document") -> UnitCounts:
    """The exact-match tp, fp and fn of every unit (document or sentence) and type of ``aligned``.

    Raises:
        OptionError: sentences of span files, which have documents only.
    """
    if unit == "sentence" and aligned.tokens is None:
        detail = (
            f"span files have documents but no sentences: resample documents ({setting('unit', 'document')})"
        )
        raise OptionError(flag("unit"), detail)
    gold, pred = aligned.gold, aligned.pred
    if pred.labels != gold.labels:
        pred = pred.relabel(gold.labels)
    names = pred.labels
    by_name = sorted(range(len(names)), key=names.__getitem__)
    rank = np.empty(len(names), dtype=np.int64)
    rank[by_name] = np.arange(len(names), dtype=np.int64)
    n_units, n_types = aligned.n_units(unit), len(names)
    g_unit, p_unit = aligned.unit_of(gold, unit), aligned.unit_of(pred, unit)
    g_type, p_type = rank[gold.label], rank[pred.label]
    size = n_units * n_types
    g = np.bincount(g_unit * n_types + g_type, minlength=size)
    p = np.bincount(p_unit * n_types + p_type, minlength=size)
    hit = exact_matched(gold, pred)[0]
    hit_unit, hit_type = g_unit[hit], g_type[hit]
    tp = np.bincount(hit_unit * n_types + hit_type, minlength=size)
    counts = np.stack([tp, p - tp, g - tp], axis=-1).astype(np.int64).reshape(n_units, n_types, 3)
    return UnitCounts(counts, tuple(names[i] for i in by_name), unit, aligned.tokens is not None)


def _weights(rng: np.random.Generator, n: int, units: int) -> Iterator[tuple[int, Float]]:
    """How often each unit is drawn in each resample, ``CHUNK`` resamples at a time."""
    offsets = (np.arange(CHUNK, dtype=np.int64) * units)[:, None]
    for begin in range(0, n, CHUNK):
        rows = min(CHUNK, n - begin)
        draws = rng.integers(0, units, size=(rows, units), dtype=np.int64)
        draws += offsets[:rows]
        drawn = np.bincount(draws.ravel(), minlength=rows * units).reshape(rows, units)
        yield begin, drawn.astype(np.float64)


def resample_totals(matrix: Int, n: int, rng: np.random.Generator) -> Float:
    """The column sums of ``n`` resamples of the rows of ``matrix`` ``(units, k)``: ``(n, k)``.

    Counts are summed as float64, exact for totals below 2**53.
    """
    units, k = matrix.shape
    out = np.zeros((n, k), dtype=np.float64)
    if units == 0:
        return out
    values = matrix.astype(np.float64)
    for begin, weights in _weights(rng, n, units):
        out[begin : begin + weights.shape[0]] = weights @ values
    return out


def scores(tp: Float, fp: Float, fn: Float) -> tuple[Float, Float, Float]:
    """Precision, recall and F1 of count arrays, as `nerve.Counts.score` computes them."""

    def div(a: Float, b: Float) -> Float:
        return np.divide(a, b, out=np.zeros(np.shape(a)), where=b != 0)

    precision = div(tp, tp + fp)
    recall = div(tp, tp + fn)
    f1 = div(2.0 * precision * recall, 1.0 * precision + recall)
    return precision, recall, f1


@frozen(eq=False)
class Replicates:
    """The scores of every resample: ``(n, 3)`` arrays of precision, recall and F1 (and per type)."""

    micro: Float
    macro: Float
    weighted: Float
    per_type: Float  # (n, types, 3)


def replicates(totals: Float) -> Replicates:
    """The scores of resampled totals ``(n, types, 3)`` (tp, fp, fn)."""
    tp, fp, fn = totals[..., TP], totals[..., FP], totals[..., FN]
    per_type = np.stack(scores(tp, fp, fn), axis=-1)
    micro = np.stack(scores(tp.sum(axis=1), fp.sum(axis=1), fn.sum(axis=1)), axis=-1)
    n, n_types = tp.shape
    gold = tp + fn
    plain, by_gold, support = np.zeros((n, 3)), np.zeros((n, 3)), np.zeros(n)
    for t in range(n_types):  # one type after the other, as `nerve.ExactScores` adds them up
        plain += per_type[:, t]
        by_gold += per_type[:, t] * gold[:, t, None]
        support += gold[:, t]
    macro = plain / n_types if n_types else plain
    weighted = np.divide(by_gold, support[:, None], out=np.zeros((n, 3)), where=support[:, None] != 0)
    return Replicates(micro, macro, weighted, per_type)


def percentiles(values: Float, confidence: float) -> Float:
    """The percentile interval of ``values`` along the first axis: ``[low, high]`` first."""
    tail = (1 - confidence) / 2
    return np.quantile(values, [tail, 1 - tail], axis=0)


Bounds = tuple[float, float] | None


@frozen
class Interval:
    """Percentile intervals ``(low, high)`` of precision, recall and F1 (fractions).

    An interval is ``None`` (``n/a``) where every resample gives the same value: one unit, or
    nothing that varies, leaves no spread to measure, and a zero-width interval would look exact.
    """

    precision: Bounds
    recall: Bounds
    f1: Bounds

    @classmethod
    def of(cls, bounds: Float, varying: Bool | None = None) -> Interval:
        """The intervals of a ``(2, 3)`` array (low and high of precision, recall, F1).

        ``varying``: whether each of the three varies across the resamples (``None``: all do).
        """
        lo, hi = bounds.tolist()
        keep = [True] * 3 if varying is None else varying.tolist()
        p, r, f = ((lo[k], hi[k]) if keep[k] else None for k in range(3))
        return cls(p, r, f)

    def to_dict(self) -> dict[str, list[float] | None]:
        """``{"precision": [low, high], "recall": [...], "f1": [...]}``, ``None`` for n/a."""
        pairs = {"precision": self.precision, "recall": self.recall, "f1": self.f1}
        return {k: None if v is None else list(v) for k, v in pairs.items()}

    @property
    def missing(self) -> bool:
        """Whether any of the three is n/a."""
        return None in (self.precision, self.recall, self.f1)


@frozen(eq=False)
class Bootstrap:
    """Percentile bootstrap intervals of the exact scores.

    Attributes:
        micro: intervals of the micro-averaged scores.
        macro: of the mean of the type scores.
        weighted: of the gold-weighted mean of the type scores.
        per_type: of each type's scores, by name.
        n: how many resamples.
        unit: what was resampled, ``"document"`` or ``"sentence"``.
        seed: the seed of the resamples.
        confidence: the intervals' level, e.g. 0.95.
        units: how many units there are.
        flags: the cases found that make intervals unreliable or n/a (`nerve.analysis.units.Flag`).
        method: ``"percentile"``.
        replicates: every resample's scores (not in ``to_dict``), for plots and checks.
    """

    micro: Interval
    macro: Interval
    weighted: Interval
    per_type: Mapping[str, Interval]
    n: int
    unit: str
    seed: int
    confidence: float
    units: int
    flags: tuple[Flag, ...] = ()
    method: str = "percentile"
    replicates: Replicates | None = field(default=None, repr=False)

    @property
    def signature_field(self) -> str:
        """The signature's field: ``bootstrap percentile n=1000 unit=document seed=12345 confidence=0.95``."""
        return bootstrap_field(self.method, self.n, self.unit, self.seed, self.confidence)

    def to_dict(self) -> dict[str, Any]:
        """``{"micro"|"macro"|"weighted"|TYPE: {"precision"|"recall"|"f1": [low, high]}, "n", ...}``."""
        out: dict[str, Any] = {
            "micro": self.micro.to_dict(),
            "macro": self.macro.to_dict(),
            "weighted": self.weighted.to_dict(),
        }
        out.update((name, i.to_dict()) for name, i in self.per_type.items())
        out.update(n=self.n, unit=self.unit, seed=self.seed, confidence=self.confidence, method=self.method)
        out["flags"] = [f.to_dict() for f in self.flags]
        return out


def flags_of(counts: UnitCounts) -> tuple[Flag, ...]:
    """The cases that make intervals unreliable: too few units, types without gold or in one unit."""
    u, unit = counts.n_units, counts.unit
    found = [Flag(kind, None, message) for kind, message in unit_flags(u, unit, counts.sentences)]
    gold = counts.counts[..., TP] + counts.counts[..., FN]
    if u and not gold.any():
        found.append(Flag("no_gold", None, "no gold entities: recall is undefined, so its intervals are n/a"))
    seen = ((gold + counts.counts[..., FP]) > 0).sum(axis=0)
    for t, name in enumerate(counts.types):
        if not gold[:, t].any():
            message = "no gold entity of this type: its recall is undefined, so its intervals are n/a"
            found.append(Flag("no_gold", name, message))
        if u > 1 and seen[t] < 2:
            message = f"seen in {int(seen[t])} {unit} of {u}: its interval rests on that {unit} alone"
            found.append(Flag("few_units", name, message))
    return tuple(found)


def degenerate(scope: str, type_name: str | None, varying: Bool) -> list[Flag]:
    """A ``degenerate`` flag of ``scope`` (``"micro avg"``, ``"type PER"``) where a score never varies."""
    fixed = [m for m, v in zip(("precision", "recall", "F1"), varying.tolist(), strict=True) if not v]
    if not fixed:
        return []
    what = " and ".join([", ".join(fixed[:-1]), fixed[-1]] if len(fixed) > 1 else fixed)
    message = f"{scope}: every resample gives the same {what}, so there is no spread to measure: n/a"
    return [Flag("degenerate", type_name, message)]


def bootstrap_intervals(counts: UnitCounts, n: int, seed: int, confidence: float) -> Bootstrap:
    """Percentile intervals from ``n`` resamples of the units of ``counts``, drawn with ``seed``.

    Raises:
        NerveError: a type named like a key of the JSON form (``"micro"``, ``"n"``...).
    """
    clash = sorted(set(counts.types) & set(RESERVED))
    if clash:
        raise NerveError(f"entity type {clash[0]!r} has the name of a bootstrap key; rename the type")
    u, t = counts.n_units, len(counts.types)
    check_memory(n, t, plural(t, "type"))
    totals = resample_totals(counts.counts.reshape(u, t * 3), n, np.random.default_rng(seed))
    rep = replicates(totals.reshape(n, t, 3))
    averages = {"micro": rep.micro, "macro": rep.macro, "weighted": rep.weighted}
    moving = {a: varies(v) for a, v in averages.items()}
    micro, macro, weighted = (Interval.of(percentiles(v, confidence), moving[a]) for a, v in averages.items())
    bounds = percentiles(rep.per_type, confidence) if t else np.zeros((2, 0, 3))
    by_type = varies(rep.per_type)
    per_type = {name: Interval.of(bounds[:, i], by_type[i]) for i, name in enumerate(counts.types)}
    flags = flags_of(counts)
    if u > 1:  # fewer units: every score is the same in every resample, as the unit flag says
        silent = {f.type for f in flags if f.kind == "no_gold"}  # its flag says so already
        found = [degenerate(f"{a} avg", None, v) for a, v in moving.items() if None not in silent]
        types = enumerate(counts.types)
        found += [degenerate(f"type {name!r}", name, by_type[i]) for i, name in types if name not in silent]
        flags += tuple(f for fs in found for f in fs)
    return Bootstrap(
        micro, macro, weighted, per_type, n, counts.unit, seed, confidence, u, flags, replicates=rep
    )
