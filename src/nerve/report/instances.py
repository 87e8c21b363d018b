"""Instance lists as JSONL, CSV or a readable table.

In: `Instances` (`nerve.analysis.instances`). Out: text. JSONL has one object per row, after a
first line ``{"totals": ..., "shown": ...}`` saying how many errors of each category matched and
how many are listed; CSV has a header of the row fields after two ``#`` comment lines of the
same; the table gives one aligned row per error with its context, and the same two lines on top.
"""

from __future__ import annotations

import csv
import io
import json

from ..analysis.instances import FIELDS, Instances
from ..analysis.query import INSTANCE_FORMATS
from .tables import aligned

__all__ = ["INSTANCE_FORMATS", "render_instances"]


def _summary(found: Instances) -> tuple[str, str]:
    d = found.to_dict()
    totals = ", ".join(f"{c} {n}" for c, n in d["totals"].items())
    shown = ", ".join(f"{c} {n}" for c, n in d["shown"].items())
    return f"errors matching: {totals}", f"listed: {shown}"


def _jsonl(found: Instances) -> str:
    d = found.to_dict()
    head = json.dumps({"totals": d["totals"], "shown": d["shown"]}, ensure_ascii=False)
    return "".join([head + "\n", *(json.dumps(r, ensure_ascii=False) + "\n" for r in d["rows"])])


def _csv(found: Instances) -> str:
    buf = io.StringIO()
    for line in _summary(found):
        buf.write(f"# {line}\n")
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(FIELDS)
    writer.writerows([["" if v is None else v for v in r.to_dict().values()] for r in found.rows])
    return buf.getvalue()


def _cell(value: object) -> str:
    return "-" if value is None or value == "" else str(value).replace("\n", " ")


def _table(found: Instances) -> str:
    head = ["category", "detail", "where", "gold", "predicted", "context"]
    body = []
    for r in found.rows:
        where = f"{r.source}:{r.line}" if r.line is not None else f"{r.source} doc {r.document}"
        if r.line is None and r.source.endswith(".ann"):
            where = r.source  # brat: the document's own file
        gold = (
            f"{r.gold_type} [{r.gold_start},{r.gold_end}) {_cell(r.gold_text)}"
            if r.gold_type is not None
            else "-"
        )
        pred = (
            f"{r.pred_type} [{r.pred_start},{r.pred_end}) {_cell(r.pred_text)}"
            if r.pred_type is not None
            else "-"
        )
        body.append([r.category, _cell(r.detail), where, gold, pred, _cell(r.context)])
    return "\n".join([*_summary(found), "", *aligned(head, body, labels=len(head))]) + "\n"


def render_instances(found: Instances, output: str) -> str:
    """``found`` as ``jsonl``, ``csv`` or ``table``."""
    renderers = {"jsonl": _jsonl, "csv": _csv, "table": _table}
    if output not in renderers:
        raise ValueError(
            f"Expected an instance format among {', '.join(INSTANCE_FORMATS)}, but got {output!r}"
        )
    return renderers[output](found)
