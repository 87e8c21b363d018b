"""What the HTML report shows, prepared for its template: one mapping per scored system.

In: `SystemReport` s (a name, the `Result` with its analysis, and the `Aligned` corpus). Out: plain
mappings of numbers and strings (fractions, not percentages: the template formats them), the
charts as SVG text (`nerve.report.charts`) and the instance browser's data as JSON text that is
safe inside a ``<script>`` element (`safe_json`).

The parts of the analysis that other modules compute are read from ``Analysis.to_dict()`` and
shown when present, so the report does not depend on those modules: ``"bootstrap"``
(``{"micro"|"macro"|"weighted"|TYPE: {"precision"|"recall"|"f1": [low, high] or null}, "n",
"unit", "seed", "confidence", "flags"}``) puts confidence intervals beside the scores (``n/a``
for ``null``, an interval that cannot be computed) and its flags above them, and ``"slices"`` (``{slice:
{bucket: {"precision", "recall", "f1", ...}}}``, or a list of bucket mappings) draws a chart per
slice. A result with a threshold sweep (`nerve.report.sweep.sweep_data`) has its precision-recall curve.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from .._frozen import frozen
from ..analysis.aligned import Aligned
from ..analysis.errors import BOUNDARY
from ..results import Result
from . import charts
from .browser import instance_data
from .renderers import note_lines
from .sweep import sweep_data

__all__ = ["MAX_SLICE_BARS", "SystemReport", "page_data", "safe_json"]

MAX_SLICE_BARS = 40  # buckets; a slice with more (documents, say) is drawn as a histogram
_AVERAGES = ("micro", "macro", "weighted")
_METRICS = ("precision", "recall", "f1")
_BUCKET_KEYS = ("bucket", "name", "value", "slice", "key")


@frozen(eq=False)
class SystemReport:
    """One scored system: its name, its `Result` (with ``analysis``) and its `Aligned` corpus."""

    name: str
    result: Result
    aligned: Aligned | None = None


def safe_json(value: Any) -> str:
    r"""``value`` as JSON that can sit inside an HTML ``<script>`` element as it is.

    ``<``, ``>`` and ``&`` occur in JSON only inside strings, where ``\u003c`` (and so on) mean
    the same characters, so no ``</script>`` or ``<!--`` can end or change the element.
    """
    raw = orjson.dumps(value, option=orjson.OPT_SERIALIZE_NUMPY)
    return raw.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026").decode()


def page_data(systems: Sequence[SystemReport], cap: int) -> list[dict[str, Any]]:
    """The template's mapping of each system, in order (``id`` is ``sys0``, ``sys1``...)."""
    return [_system(k, s, cap) for k, s in enumerate(systems)]


def _system(k: int, system: SystemReport, cap: int) -> dict[str, Any]:
    result = system.result
    analysis = result.analysis
    found = analysis.to_dict() if analysis is not None else {}
    bootstrap = found.get("bootstrap") if isinstance(found.get("bootstrap"), Mapping) else None
    out: dict[str, Any] = {
        "id": f"sys{k}",
        "name": system.name,
        "signature": result.signature,
        "sources": list(system.aligned.sources) if system.aligned is not None else [],
        "counts": _corpus_counts(result),
        "headline": [_scores(a, getattr(result.exact, a), bootstrap) for a in _AVERAGES],
        "bootstrap": _bootstrap_note(bootstrap),
        "per_type": _per_type(result, bootstrap),
        "confusion": [],
        "errors": None,
        "slices": _slices(found.get("slices"), system.name),
        "instances": None,
        "hallucinated": [{"type": t, "texts": list(v)} for t, v in result.hallucinated.items()],
        "notes": note_lines(result),  # as the text output words them: repairs, each side's notes, warnings
        "sweep": None if result.sweep is None else sweep_data(result.sweep, system.name),
    }
    if analysis is not None and analysis.confusion is not None:
        out["confusion"] = [
            {"view": v, "placement": c.placement, "svg": charts.heatmap(c, f"{system.name}: {v} view")}
            for v, c in analysis.confusion.items()
        ]
    if analysis is not None and analysis.errors is not None:
        errors = analysis.errors
        out["errors"] = {
            "svg": charts.error_bars(errors.by_type, f"{system.name}: errors by type")
            if errors.by_type
            else None,
            "total": {c: getattr(errors.total, c) for c in charts.ERROR_CATEGORIES},
            "boundary_detail": [(b, dict(errors.total.boundary_detail)[b]) for b in BOUNDARY],
            "overlapping": errors.total.to_dict()["overlapping"],
        }
    if analysis is not None and analysis.categories is not None and system.aligned is not None:
        out["instances"] = safe_json(instance_data(system.aligned, analysis.categories, cap))
    return out


def _corpus_counts(result: Result) -> dict[str, Any]:
    """What the corpus holds; ``spans`` is true for span input, which has no tokens or sentences."""
    return {
        "spans": result.settings.source != "tags",
        "tokens": result.tokens.count,
        "sentences": result.sentences,
        "documents": result.documents,
        "gold": result.micro.gold,
        "predicted": result.micro.predicted,
    }


def _interval(value: Any) -> tuple[float, float] | None:
    """A ``[low, high]`` pair of numbers, or ``None`` for anything else."""
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        low, high = value
        if isinstance(low, (int, float)) and isinstance(high, (int, float)):
            return float(low), float(high)
    return None


def _scores(name: str, score: Any, bootstrap: Mapping[str, Any] | None) -> dict[str, Any]:
    """Precision, recall and F1 of one row, with their intervals where the bootstrap gives them.

    A metric the bootstrap lists with no interval (``null``) is in ``ci`` as ``None``: n/a.
    """
    row = bootstrap.get(name) if bootstrap is not None else None
    ci = {m: _interval(row[m]) for m in _METRICS if m in row} if isinstance(row, Mapping) else {}
    return {"name": name, **{m: getattr(score, m) for m in _METRICS}, "ci": ci}


def _bootstrap_note(bootstrap: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """How the intervals were made, their flags, and whether any is n/a."""
    if bootstrap is None:
        return None
    note = {k: bootstrap.get(k) for k in ("n", "unit", "seed", "confidence")}
    flags = bootstrap.get("flags")
    listed = flags if isinstance(flags, Sequence) and not isinstance(flags, str) else []
    note["flags"] = [
        {k: None if f.get(k) is None else str(f.get(k)) for k in ("kind", "type", "message")}
        for f in listed
        if isinstance(f, Mapping)
    ]
    scopes = [v for v in bootstrap.values() if isinstance(v, Mapping)]
    note["missing"] = any(m in v and _interval(v[m]) is None for v in scopes for m in _METRICS)
    return note


def _per_type(result: Result, bootstrap: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    analysis = result.analysis
    by_type = analysis.errors.by_type if analysis is not None and analysis.errors is not None else {}
    rows = []
    for name, score in result.per_type.items():
        row = _scores(name, score, bootstrap)
        row.update(tp=score.tp, fp=score.fp, fn=score.fn, gold=score.gold, predicted=score.predicted)
        counts = by_type.get(name)
        row["errors"] = {c: getattr(counts, c) for c in charts.ERROR_CATEGORIES} if counts else None
        rows.append(row)
    return rows


def _slices(found: Any, system: str) -> list[dict[str, Any]]:
    """Each slice's buckets as rows and a chart; a slice of an unknown shape is shown as JSON."""
    if not isinstance(found, Mapping):
        return [] if found is None else [{"name": "slices", "raw": _pretty(found)}]
    return [_slice(str(name), value, system) for name, value in found.items()]


def _slice(name: str, value: Any, system: str) -> dict[str, Any]:
    buckets = _buckets(value)
    if buckets is None:
        return {"name": name, "raw": _pretty(value)}
    title = f"{system}: by {name}"
    svg: str | None = None
    if len(buckets) > MAX_SLICE_BARS:
        f1 = [_number(b.get("f1")) for _, b in buckets]
        svg = charts.histogram(f1, f"{title} ({len(buckets)} buckets)", "F1 of a bucket (%)")
    elif buckets:
        scores = [(bucket, {m: _number(b[m]) for m in _METRICS if m in b}) for bucket, b in buckets]
        svg = charts.slice_bars(scores, title)
    columns = [c for c in ("gold", "predicted", "tp", "fp", "fn") if any(c in b for _, b in buckets)]
    rows = []
    for bucket, b in buckets:
        ci = b.get("ci")
        intervals = {m: _interval(ci.get(m)) for m in _METRICS} if isinstance(ci, Mapping) else {}
        row = {"name": bucket, **{m: b.get(m) for m in _METRICS}, "ci": intervals}
        rows.append({**row, "counts": [b.get(c) for c in columns]})
    return {"name": name, "svg": svg, "columns": columns, "rows": rows}


def _number(value: Any) -> float:
    """A score as a float; 0.0 for anything that is not a number."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _buckets(value: Any) -> list[tuple[str, Mapping[str, Any]]] | None:
    """A slice's ``(bucket, scores)`` pairs, from a mapping or a list; ``None`` for other shapes."""
    if isinstance(value, Mapping):
        inner = value.get("buckets", value)
        if inner is not value:
            return _buckets(inner)
        pairs = list(value.items())
    elif isinstance(value, Sequence) and not isinstance(value, str):
        pairs = []
        for item in value:
            if not isinstance(item, Mapping):
                return None
            key = next((k for k in _BUCKET_KEYS if k in item), None)
            pairs.append((item.get(key) if key else len(pairs), item))
    else:
        return None
    if not all(isinstance(b, Mapping) and any(m in b for m in _METRICS) for _, b in pairs):
        return None
    return [(str(k), b) for k, b in pairs]


def _pretty(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SERIALIZE_NUMPY).decode()
    except TypeError:
        return repr(value)
