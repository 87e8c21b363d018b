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

from array import array
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
    "resampled_part",
]

Interval = tuple[float, float] | None
Intervals = tuple[Interval, Interval, AgreeBootstrap | None]  # mean pairwise F1's, alpha's, how drawn
Values = tuple[bytes, tuple[int, int]]  # int64 values by document (units x columns), and that shape

PARTS = 4  # the resamples are summed in this many parts


def document_values(
    exact: bytes, same: list[int], by_label: list[int], counts: tuple[int, int, int], stats: Statistics
) -> Values:
    """Per document (int64, a row each): each pair's tp, fp and fn, then alpha's parts; and the shape.

    Alpha's parts are ``[n, S_2..S_m, n_c...]``: every token has all m labels, so only ``S_m`` (the
    document's pairs of equal labels) is not 0. ``exact``: each pair's tp, fp and fn by document.
    Raises the error of `check_memory` where the resamples' sums would not fit in memory.
    """
    n_pairs, m, k = counts
    n_docs = len(same)
    width = 3 * n_pairs + m + k
    check_memory(stats.resamples, width, plural(width, "column"))
    flat = array("q", bytes(8 * n_docs * width))
    ex = memoryview(exact).cast("q")
    for p in range(n_pairs):
        for j in range(3):
            at = p * 3 * n_docs + j
            flat[3 * p + j :: width] = array("q", ex[at : at + 3 * n_docs : 3])
    base = 3 * n_pairs
    flat[base::width] = array("q", [sum(by_label[d * k : (d + 1) * k]) for d in range(n_docs)])
    flat[base + m - 1 :: width] = array("q", same)
    for c in range(k):
        flat[base + m + c :: width] = array("q", by_label[c::k])
    return flat.tobytes(), (n_docs, width)


def bootstrap_tasks(stats: Statistics | None, pairs: list[Hashable], m: int, k: int) -> list[Task]:
    """The bootstrap as tasks (`nerve.compiled_agree_tasks`): ``values``, ``("draws", q)``, ``intervals``.

    ``pairs``: the tasks of the pairs (each gives its result and its exact matches by document);
    ``"tokens"`` gives the token counts (`agree_tokens`); m annotators, k labels.
    """
    parts = draw_parts(stats)

    def values(done: Done) -> Values | None:
        if stats is None:
            return None
        same, by_label = _ints(done["tokens"][1]), _ints(done["tokens"][2])
        exact = b"".join(done[p][1] for p in pairs)
        return document_values(exact, same, by_label, (len(pairs), m, k), stats)

    def drawn(part: tuple[int, int], done: Done) -> list[list[int]]:
        found = done["values"]
        return [] if found is None or stats is None else resampled_part(found, stats, part)

    def intervals(done: Done) -> Intervals:
        totals = [total for q in range(len(parts)) for total in done["draws", q]]
        return intervals_of(done["values"], totals, len(pairs), m, stats)

    out: list[Task] = [("values", ["tokens", *pairs], values)]
    out += [(("draws", q), ["values"], partial(drawn, part)) for q, part in enumerate(parts)]
    out.append(("intervals", ["values", *(("draws", q) for q in range(len(parts)))], intervals))
    return out


def _ints(b: bytes) -> list[int]:
    """int64 bytes as a list."""
    return memoryview(b).cast("q").tolist()


def draw_parts(stats: Statistics | None) -> list[tuple[int, int]]:
    """The parts the resamples are summed in: ``(first, last)`` each, `PARTS` of them (none without)."""
    if stats is None:
        return []
    n = stats.resamples
    cuts = [n * q // PARTS for q in range(PARTS + 1)]
    return list(pairwise(cuts))


def resampled_part(values: Values, stats: Statistics, part: tuple[int, int]) -> list[list[int]]:
    """The column sums of the resamples ``part`` (first to last) of ``values``; none of one document."""
    from .analysis.agree_draws import resampled_flat

    engine = speedups()
    assert engine is not None
    flat, shape = values
    if shape[0] < 2:
        return []
    return resampled_flat(engine, flat, shape, stats.resamples, stats.seed, part)


def intervals_of(
    values: Values | None, totals: list[list[int]], n_pairs: int, m: int, stats: Statistics | None
) -> Intervals:
    """The intervals of the mean pairwise F1 and of alpha from the resamples' ``totals`` (all parts)."""
    from .analysis.agree_draws import any_differs

    if stats is None or values is None:
        return None, None, None
    n, seed, level = stats.resamples, stats.seed, stats.confidence
    units = values[1][0]
    flags: tuple[Flag, ...] = document_flags(units)
    if units < 2:
        return None, None, AgreeBootstrap(n, seed, level, units, flags)
    f1s: list[float | None] = []
    alphas: list[float | None] = []
    for total in totals:
        f1 = 0.0
        for p in range(n_pairs):
            f1 += f1_of(total[3 * p], total[3 * p + 1], total[3 * p + 2])
        f1s.append(f1 / max(n_pairs, 1))
        alphas.append(alpha_of(total[3 * n_pairs :], m))
    found = []
    for name, drawn in (("mean pairwise F1", f1s), ("alpha", alphas)):
        known = [v for v in drawn if v is not None]
        if drawn and len(known) == len(drawn) and not any_differs(known):
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
