"""Statistics entry points: `compare` (paired tests of systems) and the bootstrap of `score`.

In: a gold source and prediction sources (files aligned line by line, as for `nerve.score`),
the resampling options (checked by `nerve.options.bootstrap`) and `score`'s reading options.
Out: `Comparisons` (`nerve.analysis.compare`), or a `Result` carrying `Bootstrap` intervals.
The analysis modules are imported when called, so plain scoring does not load them.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import options
from ..errors import InputError, plural
from ..io import formats
from ..io.progress import ProgressFn, file_bytes, reporting
from ..model.signature import bootstrap_field
from ..plan import ANALYSIS, Plan, Statistics, refuse
from ..results import Result
from .pipeline import aligned_input
from .planned import plan_of
from .sources import Source, input_kinds, is_path

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..analysis.aligned import Aligned
    from ..analysis.compare import Comparisons
    from ..analysis.summary import Analysis

__all__ = ["compare", "with_bootstrap"]


def with_bootstrap(result: Result, aligned: Aligned, stats: Statistics, found: Analysis) -> Result:
    """``result`` with the bootstrap ``stats`` asks for (resamples, seed, confidence, unit) in its analysis.

    The signature gains the bootstrap's field; the slices, if any, their bands' intervals. The
    unit ``auto`` becomes documents or sentences (`nerve.analysis.units.choose_unit`).
    """
    from ..analysis.bootstrap import bootstrap_intervals, unit_counts
    from ..analysis.units import choose_unit

    n, seed, level = stats.resamples, stats.seed, stats.confidence
    unit = choose_unit(stats.unit, aligned.n_docs, aligned.tokens is not None)
    boot = bootstrap_intervals(unit_counts(aligned, unit), n, seed, level)
    settings = replace(result.settings, statistics=(boot.signature_field,))
    if found.slices is not None:  # the slices' bands, from the same resamples
        from ..analysis.slice_intervals import slice_intervals

        ci = slice_intervals(found.slices, aligned, n, seed, level, unit)
        found = replace(found, slices=replace(found.slices, intervals=ci))
    return replace(result, settings=settings, analysis=replace(found, bootstrap=boot))


def _name(source: Source, i: int) -> str:
    return os.fspath(source) if is_path(source) else f"system {i + 1}"  # type: ignore[arg-type]


def _check_units(aligned: Aligned, first: Aligned, unit: str, name: str, gold: str) -> None:
    """Every system must have the baseline's units: the same documents and sentences."""
    want, got = first.n_units(unit), aligned.n_units(unit)
    same = want == got
    if same and aligned.tokens is not None and first.tokens is not None:
        a, b = aligned.tokens, first.tokens
        same = bool((a.document == b.document).all() and (a.sentence == b.sentence).all())
    if not same:
        detail = f"expected the {plural(want, unit)} of {gold} (as the first system has), but found {got}"
        raise InputError(
            name, None, detail if want != got else f"{unit}s do not line up with those of {gold}"
        )


def _scored(
    gold: Source, systems: Sequence[Source], names: list[str], gold_name: str, plan: Plan
) -> tuple[tuple[Result, Aligned], str, list[Any]]:
    """The first system's result and corpus, the unit, and each system's counts by unit.

    The unit is ``plan``'s (``auto`` is chosen on the first system's corpus); ``gold_name``: gold's name.
    Where the systems read as several formats, the result's source names each (``; ``-separated).
    """
    from ..analysis.bootstrap import unit_counts
    from ..analysis.units import choose_unit

    assert plan.statistics is not None
    unit_name = plan.statistics.unit
    matrices: list[Any] = []
    read: dict[str, None] = {}  # each source read, in order
    first: tuple[Result, Aligned] | None = None
    for name, system, each in zip(names, systems, _system_plans(gold, systems, plan), strict=True):
        result, aligned = aligned_input(gold, system, each, words=False)
        read[result.settings.source] = None
        if first is not None:
            _check_units(aligned, first[1], unit_name, name, gold_name)
        else:
            first = (result, aligned)
            unit_name = choose_unit(unit_name, aligned.n_docs, aligned.tokens is not None)
        matrices.append(unit_counts(aligned, unit_name).micro())
    assert first is not None
    settings = replace(first[0].settings, source="; ".join(read))
    return (replace(first[0], settings=settings), first[1]), unit_name, matrices


def _system_plans(gold: Source, systems: Sequence[Source], plan: Plan) -> list[Plan]:
    """``plan`` for each system, less the options of model outputs its formats do not take but another's do.

    An LLM's entity list beside a pipeline's output: ``normalize`` for the one, ``min_score`` for
    the other. An option that no system's formats take stays in every plan, to be refused.
    """
    r = plan.reading
    given = r.outputs.given()
    if not given:
        return [plan] * len(systems)
    named = (r.input_format, r.gold_format, r.pred_format)
    kinds = [input_kinds(gold, system, named, r.offsets) for system in systems]
    takes = [{n for n in given if any(formats.format_named(k).takes(n) for k in pair)} for pair in kinds]
    taken = set().union(*takes)
    unset: list[dict[str, Any]] = [dict.fromkeys(taken - mine) for mine in takes]
    return [replace(plan, reading=replace(r, **none)) for none in unset]


def compare(
    gold: Source,
    systems: Sequence[Source],
    *,
    bootstrap: int | str = options.DEFAULT_RESAMPLES,
    seed: int | str | None = None,
    unit: str | None = None,
    confidence: float | str | None = None,
    progress: ProgressFn | None = None,
    **score_options: Any,
) -> Comparisons:
    """Compare each system with the first (the baseline) on ``gold``: micro F1 difference and p-values.

    Each system is scored against ``gold`` as ``nerve.score(gold, system, **score_options)``
    would (the reading options: ``scheme``, ``repair``, ``tag_format``...). Then, on the same
    ``bootstrap`` resamples of the units (``unit``: documents, sentences, or ``auto``: documents
    when there are 20 or more, else sentences) drawn with ``seed``, and as many randomisation
    trials: the F1 difference's percentile interval at ``confidence``, the paired-bootstrap and
    approximate-randomisation p-values, and Holm's correction of the latter across systems
    (`nerve.analysis.compare` says how); those that cannot be computed are ``None``, flagged
    with the reason. ``progress`` is called ``(bytes read, total)`` as the files are read, the
    gold file once per system.

    Raises:
        OptionError: fewer than two systems, or a bad resampling option.
        InputError: a system whose documents or sentences are not those of the others.
    """
    from ..analysis.compare import Comparisons, compare_flags, paired

    options.systems(systems)
    refuse(score_options, "compare", (*ANALYSIS, "progress"))
    options.resamples(bootstrap)
    statistics = dict(bootstrap=bootstrap, seed=seed, confidence=confidence, unit=unit)
    plan = plan_of(**score_options, **statistics, progress=progress)
    assert plan.statistics is not None
    n, seed_value, level = plan.statistics.resamples, plan.statistics.seed, plan.statistics.confidence
    gold_name = _name(gold, -1) if is_path(gold) else "the gold"
    names = [_name(s, i) for i, s in enumerate(systems)]
    total = sum(file_bytes((gold, system)) for system in systems) if progress else 0
    with reporting(progress, total):
        first, unit_name, matrices = _scored(gold, systems, names, gold_name, plan)
    comparisons, _, _ = paired(matrices, names, n, seed_value, level)
    units = first[1].n_units(unit_name)
    flags = compare_flags(comparisons, units, unit_name, first[1].tokens is not None)
    fields = (
        bootstrap_field("paired percentile", n, unit_name, seed_value, level),
        f"randomization n={n} unit={unit_name}",
    )
    signature = replace(first[0].settings, statistics=fields).signature()
    return Comparisons(tuple(comparisons), n, unit_name, seed_value, level, units, signature, flags)
