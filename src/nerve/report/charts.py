"""The HTML report's charts: matplotlib figures drawn as inline SVG text.

In: the analysis's numbers (a `Confusion`, error counts by type, a slice's buckets). Out: an
``<svg>`` element as a string, to be inlined into the page as it is.

Why matplotlib and SVG rather than Vega-Lite: the page must work offline, so a Vega-Lite chart
would carry the vega, vega-lite and vega-embed runtimes inline in every page (several hundred
kilobytes of minified JavaScript, which would also have to be fetched at build time, since no
third-party JavaScript is kept in this repository), and draw the charts in the browser each time
the page opens. A matplotlib chart is 10-40 KB of SVG, drawn once, with nothing to run in the
browser. The figures are `matplotlib.figure.Figure` objects saved as SVG: no pyplot, no GUI
backend, no global list of figures. matplotlib is imported here only, inside the functions (about
0.9 s on first use, then about 0.1-0.2 s a chart), so ``nerve score`` never pays for it.

Text is kept as SVG ``<text>`` (``svg.fonttype: none``), which matplotlib's SVG writer escapes
(``&``, ``<``, ``>`` and quotes), so a hostile type name is text; ``text.parse_math`` is off, so a
``$`` in a name is a dollar sign. The XML prolog and the DOCTYPE (which names a URL) are cut, as
are the RDF metadata, the style element (whose ``*`` rule would reach the whole page; the page's
style sheet has it for the charts only) and matplotlib's element ids, which would repeat from one
chart to the next; the ids that clip paths and markers use are salted per chart
(``svg.hashsalt``), so they stay unique.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..analysis.confusion import MISSED, SPURIOUS, Confusion
from ..analysis.errors import ErrorCounts

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["COLOURS", "ERROR_CATEGORIES", "error_bars", "heatmap", "histogram", "pr_curve", "slice_bars"]

# Okabe-Ito colours, distinguishable with the common colour-vision deficiencies; the page's CSS
# uses the same ones for the categories in the instance browser.
COLOURS = {
    "correct": "#009E73",
    "type": "#E69F00",
    "boundary": "#56B4E9",
    "boundary_type": "#CC79A7",
    "missed": "#D55E00",
    "spurious": "#0072B2",
}
ERROR_CATEGORIES = ("type", "boundary", "boundary_type", "missed", "spurious")
_METRIC_COLOURS = {"precision": "#56B4E9", "recall": "#E69F00", "f1": "#009E73"}
LABEL_CHARS = 32  # of a name on an axis; the tables give names whole
_ANNOTATE_UP_TO = 30  # types; beyond that the heatmap's cells are too small for their counts
HEATMAP_TYPES = 60  # drawn at most by a heatmap or the error bars; the tables have every type
_PROLOG = re.compile(r"\A.*?(?=<svg)", re.S)
_IDS = re.compile(r' id="[A-Za-z_.]+_\d+"')
_CUT = re.compile(r"<style[^>]*>.*?</style>|<metadata>.*?</metadata>|<defs>\s*</defs>", re.S)
_serial = itertools.count()
_RC: dict[Any, Any] = {  # typed loosely: matplotlib types the keys as literals
    "svg.fonttype": "none",
    "text.parse_math": False,
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def _label(name: str) -> str:
    """A type or bucket name for an axis: ``""`` for the empty one, cut to `LABEL_CHARS`."""
    if not name:
        return '""'
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "\u2026"


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _svg(fig: Figure, title: str) -> str:
    """The figure as one ``<svg>`` element, with an accessible title."""
    import matplotlib

    buffer = io.StringIO()
    metadata = {"Creator": None, "Date": None, "Format": None, "Type": None, "Title": title}
    with matplotlib.rc_context({"svg.hashsalt": f"nerve-chart-{next(_serial)}"}):
        fig.savefig(buffer, format="svg", metadata=metadata)
    text = _PROLOG.sub("", buffer.getvalue(), count=1)
    text = _CUT.sub("", _IDS.sub("", text))
    return text.replace("<svg ", '<svg role="img" class="chart" ', 1)


def _rc() -> Any:
    import matplotlib

    return matplotlib.rc_context(_RC)


def _heatmap_types(matrix: Confusion) -> list[int]:
    """The rows (and columns) a heatmap shows, SPURIOUS / MISSED last.

    Every type up to `HEATMAP_TYPES`, else those with the most entities (gold and predicted), in
    name order.
    """
    n = len(matrix.types)
    if n <= HEATMAP_TYPES:
        return list(range(n + 1))
    entities = (
        np.asarray(matrix.sparse.sum(axis=1)).ravel()[:n] + np.asarray(matrix.sparse.sum(axis=0)).ravel()[:n]
    )
    top = np.argsort(-entities, kind="stable")[:HEATMAP_TYPES]
    return [*sorted(top.tolist()), n]


def heatmap(matrix: Confusion, title: str) -> str:
    """The confusion matrix: colour is each cell's share of its row (square root), text its count.

    With more than `HEATMAP_TYPES` types, only those with the most entities are drawn (the title
    says so); the colours are still shares of the whole gold rows.
    """
    from matplotlib.colors import PowerNorm

    shown = _heatmap_types(matrix)
    if len(shown) - 1 < len(matrix.types):
        title += f" ({len(shown) - 1} of {len(matrix.types):,} types: those with the most entities)"
    rows = [*(matrix.types[i] for i in shown[:-1]), SPURIOUS]
    cols = [*(matrix.types[i] for i in shown[:-1]), MISSED]
    values = np.asarray(matrix.sparse[shown][:, shown].toarray(), dtype=np.int64)
    counts = values.astype(np.float64)
    sums = np.asarray(matrix.sparse.sum(axis=1), dtype=np.float64)[shown].reshape(-1, 1)  # whole rows
    share = np.divide(counts, sums, out=np.zeros_like(counts), where=sums > 0)
    n = len(rows)
    side = min(2.2 + 0.42 * n, 14.0)
    with _rc():
        fig = _figure(side + 0.8, side)
        ax = fig.add_subplot()
        image = ax.imshow(share, cmap="Blues", norm=PowerNorm(0.5, 0, 1), interpolation="nearest")
        ax.set_xticks(range(n), [_label(c) for c in cols], rotation=45, ha="right", rotation_mode="anchor")
        ax.set_yticks(range(n), [_label(r) for r in rows])
        ax.set_xlabel("predicted")
        ax.set_ylabel("gold")
        ax.set_title(title)
        if n <= _ANNOTATE_UP_TO:
            for (i, j), value in np.ndenumerate(values):
                if value:
                    colour = "white" if share[i, j] > 0.4 else "black"
                    ax.text(j, i, str(value), ha="center", va="center", color=colour, fontsize=7)
        fig.colorbar(image, ax=ax, shrink=0.7, label="share of the gold row")
        return _svg(fig, title)


def error_bars(by_type: Mapping[str, ErrorCounts], title: str) -> str:
    """One stacked bar of error counts per type (pair errors and missed by the gold type).

    With more than `HEATMAP_TYPES` types, those with the most errors (the title says so).
    """
    from matplotlib.ticker import MaxNLocator

    types = list(by_type)
    values = np.asarray(
        [[getattr(by_type[t], c) for c in ERROR_CATEGORIES] for t in types], dtype=np.float64
    ).reshape(len(types), len(ERROR_CATEGORIES))
    if len(types) > HEATMAP_TYPES:
        top = sorted(np.argsort(-values.sum(axis=1), kind="stable")[:HEATMAP_TYPES].tolist())
        title += f" ({HEATMAP_TYPES} of {len(types):,} types: those with the most errors)"
        types, values = [types[i] for i in top], values[top].reshape(len(top), len(ERROR_CATEGORIES))
    with _rc():
        fig = _figure(7.0, 1.6 + 0.32 * max(len(types), 1))
        ax = fig.add_subplot()
        left = np.zeros(len(types))
        positions = np.arange(len(types))
        for k, name in enumerate(ERROR_CATEGORIES):
            ax.barh(positions, values[:, k], left=left, color=COLOURS[name], label=name, height=0.7)
            left += values[:, k]
        ax.set_yticks(positions, [_label(t) for t in types])
        ax.invert_yaxis()
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("entities")
        fig.suptitle(title)
        fig.legend(loc="outside lower center", ncols=5, frameon=False, fontsize=8)
        return _svg(fig, title)


def slice_bars(buckets: Sequence[tuple[str, Mapping[str, float]]], title: str) -> str:
    """Precision, recall and F1 of each bucket of a slice, as grouped bars."""
    metrics = [m for m in _METRIC_COLOURS if any(m in values for _, values in buckets)]
    n = len(buckets)
    with _rc():
        fig = _figure(min(2.0 + 0.45 * n * max(len(metrics), 1) / 3, 12.0), 3.0)
        ax = fig.add_subplot()
        width = 0.8 / max(len(metrics), 1)
        positions = np.arange(n)
        for k, metric in enumerate(metrics):
            heights = [float(values.get(metric, 0.0)) * 100 for _, values in buckets]
            ax.bar(
                positions + (k - (len(metrics) - 1) / 2) * width,
                heights,
                width,
                label=metric,
                color=_METRIC_COLOURS[metric],
            )
        ax.set_xticks(
            positions,
            [_label(name) for name, _ in buckets],
            rotation=30 if n > 6 else 0,
            ha="right" if n > 6 else "center",
        )
        ax.set_ylim(0, 100)
        ax.set_ylabel("%")
        fig.suptitle(title)
        fig.legend(loc="outside lower center", ncols=3, frameon=False, fontsize=8)
        return _svg(fig, title)


def histogram(values: Sequence[float], title: str, label: str) -> str:
    """How the F1 (or another share) of many buckets is spread, in percent."""
    with _rc():
        fig = _figure(6.0, 2.8)
        ax = fig.add_subplot()
        ax.hist(np.asarray(values, dtype=np.float64) * 100, bins=20, range=(0, 100), color="#009E73")
        ax.set_xlabel(label)
        ax.set_ylabel("buckets")
        ax.set_title(title)
        return _svg(fig, title)


def pr_curve(precision: Sequence[float], recall: Sequence[float], best: int | None, title: str) -> str:
    """The precision-recall curve of a threshold sweep (in percent), its best point marked.

    The points are the thresholds, the highest first (at most a few hundred: the caller thins a
    long curve); a step line joins them, as precision holds until the next threshold adds some.
    """
    p, r = np.asarray(precision, dtype=np.float64) * 100, np.asarray(recall, dtype=np.float64) * 100
    with _rc():
        fig = _figure(5.0, 3.6)
        ax = fig.add_subplot()
        dots = "." if len(p) <= 60 else None
        ax.plot(r, p, drawstyle="steps-post", color=_METRIC_COLOURS["f1"], marker=dots)
        if best is not None:
            point: dict[str, Any] = {"marker": "o", "markersize": 8, "linestyle": "none", "clip_on": False}
            ax.plot([r[best]], [p[best]], color=COLOURS["missed"], label="best F1", **point)
            ax.legend(loc="lower left", frameon=False, fontsize=8)
        ax.set_xlim(0, 100)
        ax.set_ylim(0, 100)
        ax.set_xlabel("recall %")
        ax.set_ylabel("precision %")
        ax.set_title(title)
        return _svg(fig, title)
