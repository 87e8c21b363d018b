"""The slices of a `Result` (`nerve.analysis.slices`) in each output format but JSON.

In: a `Result` whose analysis holds slices (nothing is rendered otherwise). Out: lines to append
to the table, Markdown and LaTeX renderings (one table per slice: the band, P/R/F1 in percent, the
gold, predicted and correct counts) and a ``# slices`` section of CSV rows at full precision.
JSON carries them through `Result.to_dict` (``"slices"``).
"""

from __future__ import annotations

import csv
from typing import TYPE_CHECKING, TextIO

from ..analysis.slices import Slices
from ..results import Result
from .tables import aligned, latex_tabular, markdown_table

if TYPE_CHECKING:
    from ..analysis.bootstrap import Interval

__all__ = ["slices_csv", "slices_latex", "slices_markdown", "slices_text"]

Table = tuple[list[str], list[list[str]]]


def _slices(result: Result) -> Slices | None:
    return result.analysis.slices if result.analysis is not None else None


def _title(name: str, found: Slices) -> str:
    """The slice's name, with what its bands count where that is not plain."""
    if name == "length":
        return f"length ({found.length_unit})"
    if name == "sentence_length":
        return "sentence length (tokens)"
    if name == "frequency":
        return "gold surface frequency"
    return name


def _tables(found: Slices) -> list[Table]:
    tables = []
    for name, bands in found.rows.items():
        ci = (found.intervals or {}).get(name)
        split = any(r.pred_tp is not None for r in bands.values())
        head = [_title(name, found), "precision", "recall", "f1", "gold", "predicted", "correct"]
        head += ["correct predicted"] if split else []
        head += ["f1 interval"] if ci is not None else []
        body = []
        for band, r in bands.items():
            row = [band or '""', *(f"{100 * x:.2f}" for x in (r.precision, r.recall, r.f1))]
            row += [str(r.gold), str(r.pred), str(r.tp), *([str(r.pred_tp)] if split else [])]
            if ci is not None:
                f1 = ci[band].f1 if band in ci else None
                row.append("n/a" if f1 is None else f"{100 * f1[0]:.2f}-{100 * f1[1]:.2f}")
            body.append(row)
        tables.append((head, body))
    return tables


def slices_text(result: Result) -> list[str]:
    """Plain-text tables, each followed by a blank line (none without slices)."""
    found = _slices(result)
    return [line for head, body in _tables(found) for line in [*aligned(head, body), ""]] if found else []


def slices_markdown(result: Result) -> list[str]:
    """Markdown tables, each after a blank line."""
    found = _slices(result)
    return (
        [line for head, body in _tables(found) for line in ["", *markdown_table(head, body)]] if found else []
    )


def slices_latex(result: Result) -> list[str]:
    """LaTeX ``tabular``s, each after a blank line."""
    found = _slices(result)
    if not found:
        return []
    return [
        line
        for head, body in _tables(found)
        for line in ["", *latex_tabular([h.capitalize() for h in head], body)]
    ]


def _csv_bounds(i: Interval | None) -> list[str]:
    """Low and high of precision, recall and F1: ``n/a`` for an interval that cannot be computed."""
    if i is None:
        return [""] * 6
    return [v for m in (i.precision, i.recall, i.f1) for v in (["n/a"] * 2 if m is None else map(repr, m))]


def slices_csv(result: Result, buf: TextIO) -> None:
    """A ``# slices`` section: ``slice,band,gold,pred,tp,precision,recall,f1`` rows, after a blank line.

    With intervals, six more columns: ``precision_low``, ``precision_high``, ``recall_low``...
    (empty for a slice without intervals, ``n/a`` for an interval that cannot be computed). With
    the ``nesting`` slice, a last ``pred_tp`` column (matched predictions of the band; empty for
    the other slices).
    """
    found = _slices(result)
    if not found:
        return
    buf.write("\n# slices\n")
    writer = csv.writer(buf, lineterminator="\n")
    ci = found.intervals
    extra = [f"{m}_{end}" for m in ("precision", "recall", "f1") for end in ("low", "high")] if ci else []
    split = any(r.pred_tp is not None for bands in found.rows.values() for r in bands.values())
    extra += ["pred_tp"] if split else []
    writer.writerow(["slice", "band", "gold", "pred", "tp", "precision", "recall", "f1", *extra])
    for name, bands in found.rows.items():
        for band, r in bands.items():
            row = [name, band, r.gold, r.pred, r.tp, repr(r.precision), repr(r.recall), repr(r.f1)]
            if ci:
                i = ci.get(name, {}).get(band)
                row += _csv_bounds(i)
            row += ["" if r.pred_tp is None else r.pred_tp] if split else []
            writer.writerow(row)
