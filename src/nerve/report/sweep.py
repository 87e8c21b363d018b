"""The threshold sweep of a `Result` as titled tables, for the text renderers.

In: a `Sweep` (`nerve.metrics.sweep`). Out: `AnalysisTable` s: the micro curve, with its best
threshold, and each type's best threshold; the CSV sections (`sweep_csv`), which add every type's
whole curve; JSON with a row a line (`json_text`); the HTML page's part (`sweep_data`). The text,
Markdown and LaTeX tables show a readable subset of a long curve (`shown`): at most `SHOWN`
thresholds spread evenly over it, the first and the last, and the best; JSON and CSV have every row.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Iterable, Iterator
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson

from . import charts
from .analysis import AnalysisTable

if TYPE_CHECKING:
    from ..metrics.sweep import Curve, Sweep
    from ..model.arrays import Int

__all__ = ["CHART_POINTS", "SHOWN", "json_text", "shown", "sweep_data", "sweep_tables"]

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


def _texts(column: Any) -> list[str]:
    """Each number of a column as text (orjson's, in C: Python's ``repr`` takes seconds on 1M floats)."""
    return (
        orjson.dumps(np.ascontiguousarray(column), option=orjson.OPT_SERIALIZE_NUMPY)
        .decode()[1:-1]
        .split(",")
    )


def _row_pieces(texts: list[list[str]], cells: list[str], end: str) -> Iterator[str]:
    """The pieces of rows: ``cells[i]`` before column ``i``'s number (``texts[i]``), ``end`` after each row.

    Interleaved in C, for one join: 100k rows and more are usual.
    """
    parts: list[Any] = []
    for cell, column in zip(cells, texts, strict=True):
        parts += [repeat(cell), column]
    return chain.from_iterable(zip(*parts, repeat(end)))


def _rows_text(columns: list[Any], cells: list[str], end: str) -> str:
    """Rows of ``columns`` (numbers) as text (`_row_pieces`), their numbers written by `_texts`."""
    return "".join(_row_pieces(list(map(_texts, columns)), cells, end))


def _csv_columns(curve: Curve) -> list[Any]:
    """The columns of `_head`'s names, in its order."""
    columns: list[Any] = [curve.threshold, curve.precision, curve.recall, curve.f1]
    return columns + ([curve.fbeta] if curve.fbeta is not None else []) + [curve.tp, curve.fp, curve.fn]


def _lines(curve: Curve, lead: str = "") -> str:
    """Every row of ``curve`` as a CSV line at full precision (each ending a line), after ``lead``."""
    columns = _csv_columns(curve)
    return _rows_text(columns, [lead, *[","] * (len(columns) - 1)], "\n") if len(curve) else ""


def _cell(value: object) -> str:
    """One CSV cell as `csv.writer` writes it (a type name may hold a comma or a quote)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([value])  # the renderers' line end, which is quoted
    return buf.getvalue()[:-1]


def sweep_csv(sweep: Sweep) -> str:
    """The sweep's CSV sections, each after a blank line: every row, each type's best, each type's rows.

    ``# threshold sweep: NOTE``, ``# best threshold per type`` and ``# threshold sweep per type``.
    """
    curve = sweep.micro
    out = [f"# threshold sweep: {_note(curve, len(curve))}", ",".join(_head(curve))]
    out += [_lines(curve)[:-1]] if len(curve) else []
    best = _best(sweep)
    out += ["", f"# {best.title}" + (f": {best.note}" if best.note else ""), ",".join(best.head)]
    out += [",".join(_cell(v if not isinstance(v, float) else repr(v)) for v in row) for row in best.rows]
    out += ["", "# threshold sweep per type", ",".join(["type", *_head(curve)])]
    rows = "".join(_lines(c, _cell(name) + ",") for name, c in sweep.per_type.items())
    return "\n" + "\n".join(out) + "\n" + rows


def _micro(sweep: Sweep) -> AnalysisTable:
    curve = sweep.micro
    rows = shown(curve)
    return AnalysisTable(
        "threshold sweep", _head(curve), [_row(curve, int(i)) for i in rows], 1, _note(curve, len(rows))
    )


def _note(curve: Curve, n_shown: int) -> str:
    """What a row keeps and the best threshold; how many rows are shown, when not all of them."""
    best = curve.best
    said = "none: no predicted entity" if best is None else f"{curve.row(best)['threshold']!r}"
    note = f"keeps predictions scored >= threshold; best {said} (the highest of equal best F)"
    if n_shown < len(curve):
        note += (
            f"; {n_shown} of {len(curve):,} thresholds shown, spread evenly, with the best"
            " (json and csv have all)"
        )
    return note


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


def sweep_tables(sweep: Sweep) -> list[AnalysisTable]:
    """The sweep's tables for the text, Markdown and LaTeX outputs (CSV: `sweep_csv`)."""
    return [_micro(sweep), _best(sweep)]


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


def _json_rows(curve: Curve, pad: str) -> Iterator[str]:
    """The pieces of ``curve``'s rows, ``{"threshold": ...}`` as `Curve.row` has it, a line each.

    Made column by column (`_row_pieces`), never as one dict a row: 100k rows are usual.
    """
    if not len(curve):
        return iter(("[]",))
    names = ["threshold", "precision", "recall", "f1", "tp", "fp", "fn"]
    columns: list[Any] = [curve.threshold, curve.precision, curve.recall, curve.f1, curve.tp, curve.fp]
    columns.append(curve.fn)
    if curve.fbeta is not None:
        names.append("fbeta")
        columns.append(curve.fbeta)
    texts = list(map(_texts, columns))
    cells = [", " * (k > 0) + f'"{name}": ' for k, name in enumerate(names)]
    first = "".join(cell + text[0] for cell, text in zip(cells, texts, strict=True))
    cells[0] = ",\n" + pad + "{" + cells[0]
    rest = _row_pieces([text[1:] for text in texts], cells, "}")
    return chain(("[\n", pad, "{", first, "}"), rest, ("\n", pad[:-2], "]"))


def json_text(out: dict[str, Any], sweep: Sweep) -> str:
    """``out`` (a result's JSON object, without its sweep) with ``"sweep"``, indented, a row a line.

    The sweep goes before ``"warnings"``, as in `Result.to_dict`. A sweep over 100k scored
    predictions has as many rows, micro and again per type: indented key by key by Python's
    indenting encoder (pure Python) they would be some 45 MB written in seconds.
    """
    warnings = out.pop("warnings", None)
    salt = uuid.uuid4().hex  # the marks: no type name or other value can be them
    curves = [sweep.micro, *sweep.per_type.values()]
    shown = {"rows": f"{salt}-0", **sweep.to_dict(rows=False)}
    for k, name in enumerate(sweep.per_type, start=1):
        shown["per_type"][name] = {"rows": f"{salt}-{k}", **shown["per_type"][name]}
    out["sweep"] = shown
    if warnings is not None:
        out["warnings"] = warnings
    text = json.dumps(out, indent=2, ensure_ascii=False)
    pieces: list[Iterable[str]] = []
    at = 0
    for k, curve in enumerate(curves):
        mark = f'"rows": "{salt}-{k}"'
        found = text.index(mark, at)
        pad = " " * (found - text.rindex("\n", 0, found) + 1)
        pieces += [(text[at:found], '"rows": '), _json_rows(curve, pad)]
        at = found + len(mark)
    return "".join(chain.from_iterable([*pieces, (text[at:],)]))
