"""The bootstrap of `nerve.agree` on the compiled path: documents resampled, in parts, without numpy.

In: each pair's exact tp, fp and fn by document, each document's labels and pairs of equal labels,
and the statistics asked for. Out: the intervals of the mean pairwise F1 and of alpha, with the
`AgreeBootstrap` that says how they were drawn and what they cannot say, as the numpy engine's
`nerve.api.agree_measure` gives them (`agree_intervals`): the same draws (numpy's `default_rng`,
reimplemented in C), whole-number sums, and the same formulas (`nerve.analysis.agree_formulas`).

The resamples are summed in parts (`draw_parts`), each a task of its own (`nerve.compiled_agree_tasks`):
both threads share them. A part draws, and drops, the draws of the resamples before its own.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import partial
from itertools import pairwise

from ._engine import speedups
from .analysis.agree_formulas import alpha_of, degenerate_flag, document_flags, f1_of
from .analysis.agree_result import AgreeBootstrap
from .analysis.units import Flag, check_memory
from .compiled_agree_tasks import Done, Task
from .errors import plural
from .plan import Statistics

__all__ = [
    "Intervals",
    "Values",
    "bootstrap_tasks",
    "document_values",
    "draw_parts",
    "intervals_of",
    "resample_statistics",
    "resampled_part",
]

Interval = tuple[float, float] | None
Intervals = tuple[Interval, Interval, AgreeBootstrap | None]  # mean pairwise F1's, alpha's, how drawn
Values = tuple[bytes, tuple[int, int]]  # int64 values by document (units x columns), and that shape
Drawn = tuple[list[float | None], list[float | None]]  # each resample's mean pairwise F1, and alpha

PARTS = 4  # the resamples are summed in this many parts


def document_values(
    exacts: list[bytes], same: bytes, by_label: bytes, counts: tuple[int, int], stats: Statistics
) -> Values:
    """Per document (int64, a row each): each pair's tp, fp and fn, then alpha's parts; and the shape.

    Alpha's parts are ``[n, S_2..S_m, n_c...]``: every token has all m labels, so only ``S_m`` (the
    document's pairs of equal labels) is not 0. ``exacts``: each pair's tp, fp and fn by document;
    ``same`` and ``by_label``: each document's pairs of equal labels and its k label counts (int64);
    ``counts``: m and k. Raises the error of `check_memory` where the resamples' sums would not fit
    in memory. Built in C (`agree_values`).
    """
    m, k = counts
    n_docs = len(same) // 8
    width = 3 * len(exacts) + m + k
    check_memory(stats.resamples, width, plural(width, "column"))
    engine = speedups()
    assert engine is not None
    return engine.agree_values(exacts, same, by_label, m, k), (n_docs, width)


def bootstrap_tasks(stats: Statistics | None, pairs: list[Hashable], m: int, k: int) -> list[Task]:
    """The bootstrap as tasks (`nerve.compiled_agree_tasks`): ``values``, ``("draws", q)``, ``intervals``.

    ``pairs``: the tasks of the pairs (each gives its result and its exact matches by document);
    ``"tokens"`` gives the token counts (`agree_tokens`); m annotators, k labels.
    """
    parts = draw_parts(stats)

    def values(done: Done) -> Values | None:
        if stats is None:
            return None
        exacts = [done[p][1] for p in pairs]
        return document_values(exacts, done["tokens"][1], done["tokens"][2], (m, k), stats)

    def drawn(part: tuple[int, int], done: Done) -> Drawn:
        assert stats is not None  # there are parts only where there are statistics
        totals = resampled_part(done["values"], stats, part)
        return resample_statistics(totals, len(pairs), m)  # here: beside the other part's sums in C

    def intervals(done: Done) -> Intervals:
        f1s = [v for q in range(len(parts)) for v in done["draws", q][0]]
        alphas = [v for q in range(len(parts)) for v in done["draws", q][1]]
        return intervals_of(done["values"], (f1s, alphas), stats)

    out: list[Task] = [("values", ["tokens", *pairs], values)]
    out += [(("draws", q), ["values"], partial(drawn, part)) for q, part in enumerate(parts)]
    out.append(("intervals", ["values", *(("draws", q) for q in range(len(parts)))], intervals))
    return out


def draw_parts(stats: Statistics | None) -> list[tuple[int, int]]:
    """The parts the resamples are summed in: ``(first, last)`` each, `PARTS` of them (none without)."""
    if stats is None:
        return []
    n = stats.resamples
    cuts = [n * q // PARTS for q in range(PARTS + 1)]
    return list(pairwise(cuts))


def resampled_part(values: Values, stats: Statistics, part: tuple[int, int]) -> list[list[int]]:
    """The column sums of the resamples ``part`` (first to last) of ``values``.

    Of one document or none they are drawn too (cheaply), and `intervals_of` says they give no interval.
    """
    from .analysis.agree_draws import resampled_flat

    engine = speedups()
    assert engine is not None
    flat, shape = values
    return resampled_flat(engine, flat, shape, stats.resamples, stats.seed, part)


def resample_statistics(totals: list[list[int]], n_pairs: int, m: int) -> Drawn:
    """The mean pairwise F1 and alpha of each resample, from its column sums (`agree_formulas`)."""
    f1s: list[float | None] = []
    alphas: list[float | None] = []
    for total in totals:
        f1 = 0.0
        for p in range(n_pairs):
            f1 += f1_of(total[3 * p], total[3 * p + 1], total[3 * p + 2])
        f1s.append(f1 / max(n_pairs, 1))
        alphas.append(alpha_of(total[3 * n_pairs :], m))
    return f1s, alphas


def intervals_of(values: Values | None, drawn: Drawn, stats: Statistics | None) -> Intervals:
    """The intervals of the mean pairwise F1 and of alpha from every resample's (`resample_statistics`)."""
    from .analysis.agree_draws import any_differs

    if stats is None:
        return None, None, None
    assert values is not None  # there are values wherever there are statistics
    n, seed, level = stats.resamples, stats.seed, stats.confidence
    units = values[1][0]
    flags: tuple[Flag, ...] = document_flags(units)
    if units < 2:
        return None, None, AgreeBootstrap(n, seed, level, units, flags)
    f1s, alphas = drawn
    found = []
    for name, values_of in (("mean pairwise F1", f1s), ("alpha", alphas)):
        known = [v for v in values_of if v is not None]
        if values_of and len(known) == len(values_of) and not any_differs(known):
            found.append(degenerate_flag(name))
    info = AgreeBootstrap(n, seed, level, units, flags + tuple(found))
    return _bounds(f1s, level), _bounds(alphas, level), info


def _bounds(values: list[float | None], confidence: float) -> Interval:
    """The percentile interval of resampled values; ``None`` if undefined somewhere or never varying."""
    from .analysis.agree_draws import any_differs, quantiles

    if not values or any(v is None for v in values):
        return None
    known = [v for v in values if v is not None]
    return quantiles(known, confidence) if any_differs(known) else None
