"""Statistics in every output format: bootstrap intervals of a `Result`, and `nerve compare`.

In: a `Result` whose analysis holds a `Bootstrap`, or the `Comparisons` of ``nerve compare``.
Out: for the score renderers, tables with the fields of `nerve.report.analysis.AnalysisTable`
(the intervals beside the point estimates, and the degenerate cases found), which they print
after the other tables; for ``compare``, the rendering as a text table, JSON, CSV, Markdown or
LaTeX. Text formats give scores and differences in percent (points) and p-values with four
decimals; JSON and CSV give fractions. A statistic that cannot be computed (``None``) is ``n/a``
in every table (``null`` in JSON), and the flags that say why, and what to do, follow.
"""

from __future__ import annotations

import csv
import io
import json

from ..analysis.bootstrap import Bootstrap, Interval
from ..analysis.compare import Comparisons
from ..errors import plural
from ..results import Result, Score
from .tables import aligned, by_format, latex_tabular, markdown_table

__all__ = ["COMPARE_RENDERERS", "NA", "bootstrap_tables", "render_compare"]

NA = "n/a"  # a statistic that cannot be computed
_UNIT_FLAGS = ("no_units", "one_unit", "few_units")  # of the whole corpus: said beside the intervals


def _bounds(pair: tuple[float, float] | None) -> list[object]:
    return [NA, NA] if pair is None else list(pair)


def _row(label: str, s: Score, i: Interval) -> list[object]:
    return [label, s.precision, *_bounds(i.precision), s.recall, *_bounds(i.recall), s.f1, *_bounds(i.f1)]


def bootstrap_tables(result: Result) -> list[tuple[str, list[str], list[list[object]], int, str]]:
    """The intervals of every type and average beside the point estimates; the flags, if any.

    Each table is ``(title, head, rows, labels, note)``, the fields of
    `nerve.report.analysis.AnalysisTable`, which prints them after the other analysis tables.
    """
    b = result.analysis.bootstrap if result.analysis is not None else None
    if b is None:
        return []
    head = ["type", "precision", "P low", "P high", "recall", "R low", "R high", "f1", "F1 low", "F1 high"]
    rows = [_row(name if name else '""', result.per_type[name], i) for name, i in b.per_type.items()]
    for avg in ("micro", "macro", "weighted"):
        rows.append(_row(f"{avg} avg", getattr(result.exact, avg), getattr(b, avg)))
    title = f"bootstrap {100 * b.confidence:g}% intervals"
    tables = [(title, head, rows, 1, _note(b))]
    if b.flags:
        flags: list[list[object]] = [
            [f.kind, "(all)" if f.type is None else f.type or '""', f.message] for f in b.flags
        ]
        tables.append(("bootstrap flags", ["flag", "type", "message"], flags, 3, ""))
    return tables


def _note(b: Bootstrap) -> str:
    """How the intervals were made; the corpus' unit flag, and why some are n/a."""
    note = f"{b.method}, {b.n} resamples of the {plural(b.units, b.unit)}, seed {b.seed}"
    said = [f"{f.kind}: {f.message}" for f in b.flags if f.kind in _UNIT_FLAGS and f.type is None]
    intervals = [b.micro, b.macro, b.weighted, *b.per_type.values()]
    if not said and any(i.missing for i in intervals):
        said = ["n/a: a score that is the same in every resample has no interval (see the flags)"]
    return "; ".join([note, *said])


# --------------------------------------------------------------------------- compare

_HEAD = ["system", "f1", "delta f1", "ci low", "ci high", "p bootstrap", "p randomization", "p holm"]


def _rows(result: Comparisons, percent: bool) -> list[list[str]]:
    """One row per system; in percent (points) with p-values to four decimals, or full precision."""

    def pc(v: float | None, sign: bool = False) -> str:
        if v is None:
            return NA
        return f"{100 * v:+.2f}" if sign else f"{100 * v:.2f}"

    rows = []
    for c in result.comparisons:
        ps = [c.p_bootstrap, c.p_randomization, c.p_holm]
        ci = (None, None) if c.ci is None else c.ci
        if percent:
            cells = [pc(c.f1), pc(c.delta_f1, True), pc(ci[0], True), pc(ci[1], True)]
            cells += [NA if p is None else f"{p:.4f}" for p in ps]
        else:
            cells = [NA if v is None else repr(v) for v in (c.f1, c.delta_f1, *ci, *ps)]
        rows.append([c.system, *cells])
    return rows


def _baseline(result: Comparisons) -> str:
    if not result.comparisons:
        return "baseline: none"
    first = result.comparisons[0]
    return f"baseline: {first.baseline}, micro F1 {100 * first.baseline_f1:.2f}"


def _notes(result: Comparisons) -> list[str]:
    level = f"{100 * result.confidence:g}%"
    lines = [
        f"{result.n} paired resamples and {result.n} randomisation trials of the "
        f"{plural(result.units, result.unit)}, seed {result.seed}; micro F1 in percent, "
        f"delta = system - baseline with its {level} percentile interval; p holm corrects p randomization",
    ]
    return lines + _flag_lines(result)


def _flag_lines(result: Comparisons) -> list[str]:
    """The ``n/a`` rule where a statistic is n/a, and every flag."""
    lines = []
    if any(None in (c.ci, c.p_bootstrap, c.p_randomization) for c in result.comparisons):
        lines.append(f"{NA}: a statistic these resamples cannot give; the flags say why and what to do")
    return lines + [f"flag {kind}: {message}" for kind, message in result.flags]


def _table(result: Comparisons) -> str:
    lines = aligned(_HEAD, _rows(result, True))
    return "\n".join([result.signature, "", _baseline(result), "", *lines, "", *_notes(result)]) + "\n"


def _markdown(result: Comparisons) -> str:
    lines = markdown_table(_HEAD, _rows(result, True))
    top = [f"`{result.signature}`", "", _baseline(result), ""]
    return "\n".join([*top, *lines, "", *_notes(result)]) + "\n"


def _latex(result: Comparisons) -> str:
    head = [h.capitalize() for h in _HEAD]
    comments = [f"% {line}" for line in (_baseline(result), *_notes(result))]
    return "\n".join([f"% {result.signature}", *latex_tabular(head, _rows(result, True)), *comments]) + "\n"


def _csv(result: Comparisons) -> str:
    """The signature as a ``#`` comment, then one row per system with the baseline, fractions."""
    buf = io.StringIO()
    buf.write(f"# {result.signature}\n")
    writer = csv.writer(buf, lineterminator="\n")
    head = [h.replace(" ", "_") for h in _HEAD]
    writer.writerow([head[0], "baseline", "baseline_f1", *head[1:]])
    for c, row in zip(result.comparisons, _rows(result, False), strict=True):
        writer.writerow([row[0], c.baseline, repr(c.baseline_f1), *row[1:]])
    for line in _flag_lines(result):
        buf.write(f"# {line}\n")
    return buf.getvalue()


def _json(result: Comparisons) -> str:
    return json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n"


COMPARE_RENDERERS = by_format(_table, _json, _markdown, _csv, _latex)


def render_compare(result: Comparisons, output: str = "table") -> str:
    """Render ``nerve compare``'s result in one of `COMPARE_RENDERERS`' formats."""
    return COMPARE_RENDERERS[output](result)
