"""The threshold sweep of a `Result` as titled tables, for the text renderers.

In: a `Sweep` (`nerve.metrics.sweep`). Out: `AnalysisTable` s: the micro curve, with its best
threshold, and each type's best threshold; CSV adds every type's whole curve. The text, Markdown
and LaTeX tables show a readable subset of a long curve (`shown`): at most `SHOWN` thresholds
spread evenly over it, the first and the last, and the best; JSON and CSV have every row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import charts
from .analysis import AnalysisTable

if TYPE_CHECKING:
    from ..metrics.sweep import Curve, Sweep
    from ..model.arrays import Int

__all__ = ["CHART_POINTS", "SHOWN", "shown", "sweep_data", "sweep_tables"]

SHOWN = 20  # thresholds of a curve in the text tables; beyond that, evenly spread ones
CHART_POINTS = 400  # thresholds drawn by the HTML page's curve; beyond that, evenly spread ones


def shown(curve: Curve, limit: int = SHOWN) -> Int:
    """The rows of ``curve`` a table shows: all of them, or ``limit`` spread evenly and the best.

    A curve of ``limit`` rows or fewer is shown whole; a longer one by ``limit`` rows spread
    evenly over it (the first and the last among them), and the best row.
    """
    n = len(curve)
    if n <= limit:
        return np.arange(n, dtype=np.int64)
    rows = np.unique(np.round(np.linspace(0, n - 1, limit)).astype(np.int64))
    best = curve.best
    return np.union1d(rows, [best]).astype(np.int64) if best is not None else rows


def _head(curve: Curve) -> list[str]:
    beta = [f"f{curve.beta:g}"] if curve.fbeta is not None else []
    return ["threshold", "precision", "recall", "f1", *beta, "tp", "fp", "fn"]


def _row(curve: Curve, i: int) -> list[object]:
    """Row ``i``: the threshold as text at full precision (not a fraction to show in percent)."""
    d = curve.row(i)
    scores = [d["precision"], d["recall"], d["f1"], *([d["fbeta"]] if "fbeta" in d else [])]
    return [repr(d["threshold"]), *scores, d["tp"], d["fp"], d["fn"]]


def _micro(sweep: Sweep, full: bool) -> AnalysisTable:
    curve = sweep.micro
    rows = np.arange(len(curve)) if full else shown(curve)
    best = curve.best
    said = "none: no predicted entity" if best is None else f"{curve.row(best)['threshold']!r}"
    note = f"keeps predictions scored >= threshold; best {said} (the highest of equal best F)"
    if len(rows) < len(curve):
        note += (
            f"; {len(rows)} of {len(curve):,} thresholds shown, spread evenly, with the best"
            " (json and csv have all)"
        )
    return AnalysisTable("threshold sweep", _head(curve), [_row(curve, int(i)) for i in rows], 1, note)


def _best(sweep: Sweep) -> AnalysisTable:
    """Each type's best threshold; ``n/a`` where the type has no predictions to threshold."""
    head = ["type", "thresholds", *_head(sweep.micro)]
    rows: list[list[object]] = []
    for name, curve in sweep.per_type.items():
        best = curve.best
        if best is None:
            rows.append([name or '""', 0, *["n/a"] * (len(head) - 2)])
        else:
            rows.append([name or '""', len(curve), *_row(curve, best)])
    note = "n/a: no predictions of the type"
    return AnalysisTable(
        "best threshold per type", head, rows, 1, note if any(r[1] == 0 for r in rows) else ""
    )


def _per_type(sweep: Sweep) -> AnalysisTable:
    """Every type's whole curve, for CSV."""
    head = ["type", *_head(sweep.micro)]
    rows = [[name, *_row(c, i)] for name, c in sweep.per_type.items() for i in range(len(c))]
    return AnalysisTable("threshold sweep per type", head, rows, 1)


def sweep_tables(sweep: Sweep, full: bool = False) -> list[AnalysisTable]:
    """The sweep's tables; ``full`` (CSV): every row of the curve, and each type's whole curve."""
    tables = [_micro(sweep, full), _best(sweep)]
    return [*tables, _per_type(sweep)] if full else tables


def sweep_data(sweep: Sweep, system: str) -> dict[str, Any]:
    """The HTML page's sweep: the precision-recall chart, the rows a table shows, the best rows.

    ``{"svg", "rows": [row, ...], "total": thresholds, "best": row or None, "per_type": [{"name",
    "thresholds", "best"}]}``, rows as `Curve.row` gives them (fractions; the page shows percent).
    """
    from ..metrics.sweep import TIE_RULE

    curve = sweep.micro
    drawn = shown(curve, CHART_POINTS)
    best = curve.best
    at = None if best is None else int(np.searchsorted(drawn, best))  # the best row is among those drawn
    title = f"{system}: precision and recall by confidence threshold"
    precision, recall = curve.precision[drawn].tolist(), curve.recall[drawn].tolist()
    return {
        "svg": charts.pr_curve(precision, recall, at, title) if len(curve) else None,
        "rows": [curve.row(int(i)) for i in shown(curve)],
        "total": len(curve),
        "best": None if best is None else curve.row(best),
        "tie": TIE_RULE,
        "per_type": [
            {"name": name, "thresholds": len(c), "best": None if c.best is None else c.row(c.best)}
            for name, c in sweep.per_type.items()
        ],
    }
