"""Renderers of the text-level metrics (ie-eval's): Markdown in ie-eval's layout, JSON or a table.

In: `TextScores` (fractions in 0..1); out: text, scores as percentages in the tables.
"""

from __future__ import annotations

import json

from ..metrics.text import BagRow, ErrorRow, NervalRow, TextScores, rate
from ..model.counts import fbeta
from .tables import aligned, markdown_table

__all__ = ["TEXT_COMMANDS", "render_text"]

TEXT_COMMANDS = ("ecer-ewer", "nerval", "bow", "botw", "boe", "ie-all")
_TEXT_OUTPUTS = ("markdown", "json", "table")


def _pct(value: float) -> str:
    return f"{value:.2f}"


def _rate_pct(errors: float, gold: int) -> str:
    """A text error rate in percent, computed from its counts as ie-eval prints it."""
    return _pct(rate(errors, gold, 100.0))


def _f1_pct(row: ErrorRow | NervalRow | BagRow) -> str:
    """F1 in percent, the harmonic mean of the percentages as ie-eval computes it."""
    assert isinstance(row, NervalRow)
    return _pct(fbeta(100 * row.precision, 100 * row.recall))


_TEXT_HEADS = {
    "ie-all": ["BoW-F1 (%)", "BoTW-F1 (%)", "BoE-F1 (%)", "ECER OI (%)", "EWER OI (%)", "Nerval-F1 (OI) (%)"],
    "ecer-ewer": ["ECER (%)", "EWER (%)"],
    "nerval": ["Precision (%)", "Recall (%)", "F1 (%)"],
    "bags": ["bWER (%)", "Precision (%)", "Recall (%)", "F1 (%)"],
}
#: What ie-eval calls the items of each bag, in its column headers.
_BAG_UNITS = {"bow": "word", "botw": "tagged_word", "boe": "entity"}


def _text_cells(command: str, pick: dict[str, ErrorRow | NervalRow | BagRow]) -> list[str]:
    """The cells of one row of a text-metric command, after the category."""
    row = pick["ecer-ewer" if command == "ie-all" else command]
    if isinstance(row, ErrorRow):
        rates = [_rate_pct(row.char_errors, row.gold), _rate_pct(row.word_errors, row.gold)]
        if command == "ie-all":
            f1 = [_f1_pct(pick[m]) for m in ("bow", "botw", "boe")]
            return [*f1, *rates, _f1_pct(pick["nerval"]), str(row.documents)]
        return [*rates, str(row.gold), str(row.predicted), str(row.documents)]
    scores = [_pct(100 * row.precision), _pct(100 * row.recall), _f1_pct(row)]
    if isinstance(row, BagRow):
        scores.insert(0, _rate_pct(row.errors, row.gold))
    return [*scores, str(row.gold), str(row.predicted), str(row.documents)]


def _text_head(command: str) -> list[str]:
    """The header of a text-metric command's table: ie-eval 0.2.0's column names.

    ``ie-all`` has the columns of ie-eval's ``all`` but its order-dependent ECER, EWER and
    Nerval-F1, which nerve does not compute.
    """
    if command == "ie-all":
        return ["Category", *_TEXT_HEADS[command], "N documents"]
    if command in ("ecer-ewer", "nerval"):
        counts = ["Ground truth entities", "Predicted entities"]
        return ["Category", *_TEXT_HEADS[command], *counts, "N documents"]
    unit = _BAG_UNITS[command]
    return ["Category", *_TEXT_HEADS["bags"], f"Ground truth {unit}", f"Predicted {unit}", "N documents"]


def _text_rows(scores: TextScores, command: str, by_category: bool) -> tuple[list[str], list[list[str]]]:
    """The header and rows of one text-metric command, total first, as ie-eval lays them out."""
    tables = {
        "ecer-ewer": scores.ecer_ewer,
        "nerval": scores.nerval,
        "bow": scores.bow,
        "botw": scores.botw,
        "boe": scores.boe,
    }
    wanted = [m for m in tables if command in ("ie-all", m)]
    present = {m: t for m in wanted if (t := tables[m]) is not None}
    if len(present) != len(wanted):
        raise ValueError(f"the scores lack a metric that {command} shows")
    body = [["total", *_text_cells(command, {m: t.total for m, t in present.items()})]]
    if by_category:
        for name in sorted({c for t in present.values() for c in t.per_category}):
            rows = {m: t.per_category.get(name) for m, t in present.items()}
            pick = {m: row if row is not None else type(present[m].total)() for m, row in rows.items()}
            # A category literally named "total" is quoted, so it cannot be read as the total row.
            body.append([f'"{name}"' if name == "total" else name, *_text_cells(command, pick)])
    return _text_head(command), body


def render_text(scores: TextScores, command: str, output: str = "markdown", by_category: bool = False) -> str:
    """Render the scores of a text-metric command as Markdown (ie-eval's layout), JSON or a table.

    JSON is ``{"signature", "documents", "total": {...}, "per_category": {CATEGORY: {...}}}``; for
    ``ie-all`` each of those holds one object per metric.
    """
    if command not in TEXT_COMMANDS:
        raise ValueError(f"Expected a command among {', '.join(TEXT_COMMANDS)}, but got {command!r}")
    if output not in _TEXT_OUTPUTS:
        raise ValueError(f"Expected an output format among {', '.join(_TEXT_OUTPUTS)}, but got {output!r}")
    if output == "json":
        d = scores.to_dict()
        metrics = ["ecer-ewer", "nerval", "bow", "botw", "boe"] if command == "ie-all" else [command]
        out: dict[str, object] = {"signature": d["signature"], "documents": d["documents"]}
        if scores.threshold is not None and "nerval" in metrics:
            out["threshold"] = scores.threshold
        if command == "ie-all":
            out["total"] = {m: d[m]["total"] for m in metrics if m in d}
            categories = sorted({c for m in metrics if m in d for c in d[m]["per_category"]})
            out["per_category"] = {
                c: {m: d[m]["per_category"].get(c) for m in metrics if m in d} for c in categories
            }
        else:
            out["total"] = d[command]["total"]
            out["per_category"] = d[command]["per_category"]
        if not by_category:
            out["per_category"] = {}
        return json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    head, body = _text_rows(scores, command, by_category)
    if output == "table":
        return scores.signature + "\n\n" + "\n".join(aligned(head, body)) + "\n"
    return "\n".join([f"`{scores.signature}`", "", *markdown_table(head, body)]) + "\n"
