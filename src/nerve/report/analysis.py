"""The analysis parts of a `Result` as titled tables, for every renderer.

In: a `Result` whose ``analysis`` holds error categories, confusion matrices and bootstrap
intervals (`nerve.report.stats`). Out:
`AnalysisTable`s: a title, a header and rows of cells (counts as integers), how many leading
columns are labels, and a note. The text, Markdown and LaTeX renderers print them after the
scores; CSV writes each as a ``# title`` section with full-precision values; JSON has them in
`Result.to_dict` already.
"""

from __future__ import annotations

from .._frozen import frozen
from ..analysis.confusion import MISSED, SPURIOUS, Confusion
from ..analysis.errors import BOUNDARY, ErrorCounts
from ..analysis.summary import ErrorAnalysis
from ..results import Result

__all__ = ["AnalysisTable", "analysis_tables"]


@frozen
class AnalysisTable:
    """One table of the analysis: values are strings or numbers, ``labels`` leading columns."""

    title: str
    head: list[str]
    rows: list[list[object]]
    labels: int = 1
    note: str = ""


def _name(name: str) -> str:
    return name if name else '""'


def _error_row(label: str, c: ErrorCounts) -> list[object]:
    return [label, c.gold, c.correct, c.type, c.boundary, c.boundary_type, c.missed, c.predicted, c.spurious]


def _errors(errors: ErrorAnalysis) -> list[AnalysisTable]:
    head = [
        "type",
        "gold",
        "correct",
        "type err",
        "boundary",
        "bound+type",
        "missed",
        "predicted",
        "spurious",
    ]
    rows = [_error_row(_name(n), c) for n, c in errors.by_type.items()]
    rows.append(_error_row("total", errors.total))
    note = (
        "per type: the pair errors and missed by the gold entity's type, spurious by the prediction's; "
        "exact FN = type err + boundary + bound+type + missed, FP = predicted - correct"
    )
    detail_head = ["type", *BOUNDARY, "missed overlapping", "spurious overlapping"]
    detail = []
    for label, c in [*((_name(n), c) for n, c in errors.by_type.items()), ("total", errors.total)]:
        detail.append(
            [label, *(k for _, k in c.boundary_detail), c.missed_overlapping, c.spurious_overlapping]
        )
    detail_note = (
        "boundary subtypes of boundary and bound+type pairs (gold side), and unpaired entities that overlap"
    )
    return [
        AnalysisTable("errors", head, rows, note=note),
        AnalysisTable("error details", detail_head, detail, note=detail_note),
    ]


#: Up to this many types a confusion matrix is a square table; beyond, its nonzero cells are listed.
SQUARE_UP_TO = 40


def _confusion(c: Confusion) -> AnalysisTable:
    """The matrix as a square table, or, with more than `SQUARE_UP_TO` types, its nonzero cells."""
    rows_names = [*map(_name, c.types), SPURIOUS]
    if len(c.types) > SQUARE_UP_TO:
        cols_names = [*map(_name, c.types), MISSED]
        cells: list[list[object]] = [[rows_names[i], cols_names[j], n] for i, j, n in c.cells()]
        note = f"{c.placement}; {len(c.types):,} types: the nonzero cells, one a row"
        return AnalysisTable(f"confusion ({c.view})", ["gold", "predicted", "count"], cells, 2, note)
    head = ["gold \\ predicted", *map(_name, c.types), MISSED]
    rows: list[list[object]] = [[name, *c.row(i).tolist()] for i, name in enumerate(rows_names)]
    return AnalysisTable(f"confusion ({c.view})", head, rows, note=c.placement)


def analysis_tables(result: Result) -> list[AnalysisTable]:
    """The tables of every analysis part ``result`` carries, in a fixed order."""
    a = result.analysis
    if a is None:
        return []
    tables = []
    if a.errors is not None:
        tables += _errors(a.errors)
    if a.confusion is not None:
        tables += [_confusion(a.confusion[v]) for v in ("exact", "overlap")]
    if a.bootstrap is not None:
        from .stats import bootstrap_tables

        tables += [AnalysisTable(*t) for t in bootstrap_tables(result)]
    return tables
