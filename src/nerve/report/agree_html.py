"""The agreement page (``nerve report --agree``): one self-contained HTML file in the report's style.

In: an `nerve.analysis.agree_result.Agreement`. Out: the page's text: the statistics over all
annotators with their intervals (``n/a`` with the reason where one cannot be computed), the
warnings, the annotators and the documents each left out, an annotator x annotator heatmap of
exact F1, partial F1 and Cohen's kappa (table cells shaded by value), the per-type means, and the
disagreements with who marked what. Rendered by the report's jinja2 environment (autoescaped) with
its style sheet inlined; the page runs no script and asks for nothing.
"""

from __future__ import annotations

from typing import Any

from .._version import __version__
from ..analysis.agree_result import Agreement
from . import charts
from .html import page_asset, page_environment, require

__all__ = ["render_agree_html"]

HEATMAPS = (("exact", "exact F1"), ("partial", "partial F1 (MUC)"), ("kappa", "Cohen's kappa (token labels)"))


def _colour(value: float | None) -> str:
    """A cell's shade: white at 0 (or below, or n/a) to a deep blue at 1, text kept readable."""
    if value is None:
        return "#fff7ed"
    share = min(max(value, 0.0), 1.0)
    return f"hsl(210, 70%, {round(97 - 45 * share)}%)"


def _heatmaps(result: Agreement) -> list[dict[str, Any]]:
    out = []
    for metric, title in HEATMAPS:
        matrix = result.matrix(metric)
        rows = [
            {
                "name": a,
                "cells": [
                    {"name": b, "self": a == b, "value": matrix[a][b], "colour": _colour(matrix[a][b])}
                    for b in result.names
                ],
            }
            for a in result.names
        ]
        out.append({"metric": metric, "title": title, "rows": rows, "mean": result.mean_of(metric)})
    return out


def _statistics(result: Agreement) -> list[dict[str, Any]]:
    def row(
        name: str, value: float | None, interval: Any = None, reason: str | None = None, boot: bool = False
    ) -> dict[str, Any]:
        return {
            "name": name,
            "value": value,
            "interval": interval,
            "reason": reason,
            "bootstrapped": boot and result.bootstrap is not None,
        }

    f1, alpha, fleiss = result.mean_f1, result.alpha, result.fleiss_kappa
    return [
        row("mean pairwise exact F1", f1.value, f1.interval, f1.reason, True),
        row("mean pairwise partial F1", result.mean_partial_f1),
        row("mean Cohen's kappa", result.mean_of("kappa")),
        row("Fleiss' kappa", fleiss.value, None, fleiss.reason),
        row("Krippendorff's alpha (nominal)", alpha.value, alpha.interval, alpha.reason, True),
    ]


def render_agree_html(result: Agreement, *, title: str | None = None, cap: int = 1000) -> str:
    """The agreement page of ``result``, listing at most ``cap`` disagreements."""
    require()
    from markupsafe import Markup

    d = result.disagreements
    rows = [r.to_dict() for r in d.rows[:cap]]
    template = page_environment().get_template("agree.html.j2")
    colours = "".join(f"--{name}:{colour};" for name, colour in charts.COLOURS.items())
    return template.render(
        title=title or "nerve agreement",
        version=__version__,
        names=list(result.names),
        documents=result.documents,
        tokens=result.tokens,
        warnings=list(result.warnings),
        statistics=_statistics(result),
        bootstrap=result.bootstrap.to_dict() if result.bootstrap is not None else None,
        annotators=[a.to_dict() for a in result.annotators],
        heatmaps=_heatmaps(result),
        types=[
            {"name": t, "exact": result.mean_of("exact", t), "partial": result.mean_of("partial", t)}
            for t in result.types
        ],
        disagreements=d.to_dict(),
        rows=rows,
        listed=len(rows),
        colours=colours,
        style=Markup(page_asset("report.css")),
    )
