"""`write_report`: score one or more systems against a gold file and write the HTML report.

In: the gold source, the prediction sources (aligned with the gold file line by line, as for
`nerve.score`; none for one merged file), where to write, and `score`'s keyword arguments. Out: the
report file (`nerve.report.html`) and each system's `Result`, with its analysis.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import options
from ..errors import OptionError
from ..io.progress import ProgressFn, file_bytes, reporting
from ..plan import Plan, refuse
from ..results import Result
from .pipeline import aligned_input
from .planned import plan_of
from .sources import Source, is_path

if TYPE_CHECKING:
    from ..report.html_data import SystemReport

__all__ = ["DEFAULT_CAP", "write_page", "write_report"]

DEFAULT_CAP = 1000  # instances of each error category in the page


def write_report(
    gold: Source,
    preds: Source | Sequence[Source] | None,
    output: str | os.PathLike[str],
    *,
    names: Sequence[str] | None = None,
    title: str | None = None,
    max_instances: int = DEFAULT_CAP,
    slices: str | Sequence[str] | None = None,
    train: str | os.PathLike[str] | None = None,
    meta: str | os.PathLike[str] | None = None,
    bootstrap: int | None = None,
    seed: int | None = None,
    confidence: float | None = None,
    unit: str | None = None,
    progress: ProgressFn | None = None,
    **score_kwargs: Any,
) -> list[Result]:
    """Score each prediction against ``gold`` with error analysis, and write the HTML report.

    ``preds`` is one prediction source or a sequence of them, each aligned with ``gold`` line by
    line; ``None`` (or an empty sequence) reads ``gold`` as a merged file, one system. ``names``
    labels the systems (default: the prediction file names). ``max_instances`` caps the instances
    of each error category in the page's instance browser. ``slices``, ``train`` and ``meta`` are
    `nerve.score`'s; by default the page slices by length, type and (for tagged input) sentence
    length. The headline scores carry percentile intervals: ``bootstrap`` resamples (default 1000)
    of each ``unit`` (``auto``, ``n/a`` and flags as `nerve.score` gives them) drawn with ``seed``,
    at ``confidence``. ``score_kwargs`` are `nerve.score`'s other keyword arguments (``scheme``,
    ``repair``, ``min_iou``...), but ``errors`` and ``confusion``, which the report always sets.
    ``progress``: called ``(bytes read, total)``.

    Returns:
        Each system's `Result`, with ``analysis`` (errors, confusion and categories).

    Raises:
        OptionError: a bad option, or an ``output`` that cannot be written.
        NerveError: jinja2 or matplotlib is not installed (the ``report`` extra).
        InputError: unreadable or malformed input, as `nerve.score` raises it.
    """
    from ..report.html import render_html, require

    require()  # before the scoring, which can take a while
    cap = options.positive_int(max_instances, "max_instances")
    for analysis_option in ("errors", "confusion"):
        if analysis_option in score_kwargs:
            detail = "the report always analyses errors and confusion; leave it out"
            raise OptionError(options.flag(analysis_option), detail)
    refuse(score_kwargs, "write_report", ("instances",))
    resamples = options.DEFAULT_RESAMPLES if bootstrap is None else bootstrap  # the page shows intervals
    statistics = dict(bootstrap=resamples, seed=seed, confidence=confidence, unit=unit)
    plan = plan_of(**score_kwargs, slices=slices, train=train, meta=meta, **statistics, progress=progress)
    sources = _predictions(preds)
    labels = _names(gold, sources, names)
    total = sum(file_bytes((gold, pred, train)) for pred in sources) if progress else 0
    with reporting(progress, total):  # the gold file is read once per system
        pairs = zip(sources, labels, strict=True)
        systems = [_analysed(gold, pred, label, plan) for pred, label in pairs]
    page = render_html(systems, title=title, cap=cap)
    write_page(output, page)
    return [s.result for s in systems]


def _analysed(gold: Source, pred: Source | None, label: str, plan: Plan) -> SystemReport:
    """One system scored, with errors, confusion, slices and the bootstrap.

    The analysis modules are imported here, so that ``nerve --help`` does not load them.
    """
    from ..analysis.summary import analyse
    from ..report.html_data import SystemReport
    from .analysed import slice_table
    from .compare import with_bootstrap

    result, aligned = aligned_input(gold, pred, plan, words=True)
    wanted, overlap = plan.analysing, plan.metrics.overlap
    default = ("length", "type") + (("sentence_length",) if aligned.tokens is not None else ())
    table = slice_table(result, aligned, wanted.slices or default, wanted.train, wanted.meta, plan)
    found = analyse(
        aligned,
        errors=True,
        confusion_matrix=True,
        min_iou=overlap.min_iou if overlap else None,
        min_gold_share=overlap.min_gold_share if overlap else None,
        slices=table,
    )
    assert plan.statistics is not None
    return SystemReport(label, with_bootstrap(result, aligned, plan.statistics, found), aligned)


def _predictions(preds: Source | Sequence[Source] | None) -> list[Source | None]:
    """The prediction sources as a list; ``[None]`` for a merged gold file.

    A sequence whose first item is a sentence (a sequence of tags) is one source of tag lists.
    """
    if preds is None:
        return [None]
    if is_path(preds) or not isinstance(preds, Sequence):
        return [preds]  # type: ignore[list-item]
    first = preds[0] if preds else None
    if isinstance(first, Sequence) and not is_path(first) and first and isinstance(first[0], str):
        return [preds]  # type: ignore[list-item]
    return list(preds) or [None]


def _names(gold: Source, preds: list[Source | None], names: Sequence[str] | None) -> list[str]:
    """Each system's label: ``names``, or its file's name (its path where names repeat)."""
    if names is not None:
        if len(names) != len(preds):
            systems = f"each of the {len(preds)} systems" if len(preds) != 1 else "the one system"
            detail = f"expected one name for {systems}, but got {len(names)}"
            raise OptionError(options.flag("names"), detail)
        return [str(n) for n in names]
    files = [gold if p is None else p for p in preds]
    paths = [os.fspath(f) if is_path(f) else None for f in files]  # type: ignore[arg-type]
    labels = [Path(p).name if p is not None else f"system {k + 1}" for k, p in enumerate(paths)]
    if len(set(labels)) < len(labels):
        labels = [p if p is not None else f"system {k + 1}" for k, p in enumerate(paths)]
    return labels


def write_page(output: str | os.PathLike[str], page: str) -> None:
    """Write ``page`` to ``output``; a path that cannot be written is the caller's mistake (``--output``).

    The one writer of nerve's HTML pages: the systems' report and the agreement page (`write_agreement`).
    """
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as err:
        detail = f"cannot write {os.fspath(output)!r}: {err.strerror or err}"
        raise OptionError(options.flag("output"), detail) from None
