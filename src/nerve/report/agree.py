"""`nerve agree`'s result in every output format: a text table, JSON, Markdown, CSV and LaTeX.

In: an `nerve.analysis.agree_result.Agreement`. Out: the text. Every format carries the same
tables: the annotators (documents annotated, and those left out), the pairwise exact and partial
F1 matrices with their means, Cohen's kappa matrix, Fleiss' kappa and Krippendorff's alpha with
their intervals, the per-type exact F1 means, the disagreement counts by category with the rows
listed, the consensus and its ties, and the warnings. Text formats give percent, JSON and CSV
fractions; a statistic that cannot be computed is ``n/a`` (``null`` in JSON) and its reason follows.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from ..analysis.agree_result import Agreement, Consensus
from .tables import aligned, by_format, latex_tabular, markdown_table

__all__ = ["AGREE_RENDERERS", "NA", "agree_tables", "render_agree"]

NA = "n/a"
Table = tuple[str, list[str], Sequence[Sequence[object]], str]  # title, head, rows, note
#: how many leading columns of a table are labels (left-aligned); 1 where not listed
LABELS = {"annotators": 2, "disagreement list": 4, "consensus ties": 4, "over all annotators": 1}


def _matrix(result: Agreement, what: str) -> list[list[object]]:
    m = result.matrix(what)
    return [
        [a, *(m[a][b] if m[a][b] is not None else ("-" if a == b else None) for b in result.names)]
        for a in result.names
    ]


def _interval(pair: tuple[float, float] | None) -> list[object]:
    return [None, None] if pair is None else list(pair)


def agree_tables(result: Agreement, shown: int | None = None) -> list[Table]:
    """Every table of the result, cells as values (``None``: n/a), in the order they are shown.

    ``shown``: the lists (disagreements, ties) give only their first ``shown`` rows (all: ``None``).
    """
    names = list(result.names)
    people = [
        [a.name, a.source, a.entities, a.documents, ", ".join(a.missing) or "-"] for a in result.annotators
    ]
    tables: list[Table] = [
        ("annotators", ["annotator", "source", "entities", "documents", "left out"], people, ""),
        (
            "pairwise exact F1",
            ["", *names],
            _matrix(result, "exact"),
            f"mean {_fmt(result.mean_f1.value, True)}",
        ),
        ("pairwise partial F1 (MUC)", ["", *names], _matrix(result, "partial"), ""),
        ("Cohen's kappa (token labels)", ["", *names], _matrix(result, "kappa"), ""),
    ]
    stats: list[list[object]] = [
        [
            "mean pairwise exact F1",
            result.mean_f1.value,
            *_interval(result.mean_f1.interval),
            result.mean_f1.reason or "",
        ],
        ["mean pairwise partial F1", result.mean_partial_f1, "-", "-", ""],
        ["mean Cohen's kappa", result.mean_of("kappa"), "-", "-", ""],
        ["Fleiss' kappa", result.fleiss_kappa.value, "-", "-", result.fleiss_kappa.reason or ""],
        [
            "Krippendorff's alpha",
            result.alpha.value,
            *_interval(result.alpha.interval),
            result.alpha.reason or "",
        ],
    ]
    b = result.bootstrap
    note = ""
    if b is not None:
        said = [f"{f.kind}: {f.message}" for f in b.flags if f.kind == "few_units"]
        note = "; ".join([f"percentile, {b.n} resamples of the {b.units} documents, seed {b.seed}", *said])
    level = f" ({100 * b.confidence:g}% interval)" if b is not None else ""
    tables.append(
        (f"over all annotators{level}", ["statistic", "value", "low", "high", "n/a because"], stats, note)
    )
    types = [[t, result.mean_of("exact", t), result.mean_of("partial", t)] for t in result.types]
    tables.append(("per type (mean over pairs)", ["type", "exact F1", "partial F1"], types, ""))
    d = result.disagreements
    counts = [[c, n] for c, n in d.by_category.items()]
    tables.append(
        ("disagreements", ["category", "clusters"], counts, f"{d.total} in all, {len(d.rows)} listed")
    )
    tables.append(_rows(result, shown))
    if result.consensus is not None:
        tables.append(_ties(result.consensus, shown))
    return tables


def _ties(c: Consensus, shown: int | None) -> Table:
    tied = [[doc, text or "", kind, ", ".join(who)] for doc, text, kind, who in c.tied[:shown]]
    note = f"{c.rule}: {c.entities} entities kept, {c.ties} ties left out" + (
        f"; written to {c.written}" if c.written else ""
    )
    return ("consensus ties", ["document", "text", "type", "marked by"], tied, note)


def _rows(result: Agreement, shown: int | None) -> Table:
    rows: list[list[object]] = []
    for r in result.disagreements.rows[:shown]:
        said = "; ".join(
            f"{who}: {', '.join(f'{t} {y}' for t, y in marks) or '-'}" for who, marks in r.marks.items()
        )
        rows.append([r.document, r.category, r.context or r.text or "", said])
    return ("disagreement list", ["document", "category", "context", "who said what"], rows, "")


def _fmt(value: object, percent: bool) -> str:
    if value is None:
        return NA
    if isinstance(value, float):
        return f"{100 * value:.2f}" if percent else repr(value)
    return str(value)


SHOWN = 20  # rows of a list a text table shows; JSON and CSV give every one


def _text_tables(
    result: Agreement,
    layout: Callable[[list[str], list[list[str]], int], list[str]],
    heading: Callable[[str], str],
    comment: str = "",
) -> str:
    """Every table laid out by ``layout`` under its ``heading``; notes and warnings after ``comment``."""
    out: list[str] = []
    listed = {
        "disagreement list": len(result.disagreements.rows),
        "consensus ties": len(result.consensus.tied) if result.consensus is not None else 0,
    }
    for title, head, rows, note in agree_tables(result, SHOWN):  # the lists' rows beyond are not shown
        if not rows and title in listed:
            continue
        out.append(heading(title))
        if title in listed and listed[title] > SHOWN:
            note = "; ".join(
                x for x in (note, f"the first {SHOWN} of {listed[title]} shown: --output json lists all") if x
            )
        body = [[_fmt(c, True) for c in r] for r in rows]
        out += layout(head, body, LABELS.get(title, 1))
        if note:
            out.append(comment + note)
        out.append("")
    out += [f"{comment}warning: {w}" for w in result.warnings]
    return "\n".join(out).rstrip() + "\n"


def _table(result: Agreement) -> str:
    return _text_tables(result, aligned, lambda t: f"{t}:")


def _markdown(result: Agreement) -> str:
    return _text_tables(result, markdown_table, lambda t: f"### {t}\n")


def _latex(result: Agreement) -> str:
    return _text_tables(result, lambda h, b, n: latex_tabular(h, b, n), lambda t: f"% {t}", "% ")


def _json(result: Agreement) -> str:
    import json  # here: a table needs neither json nor csv (2 ms of start-up)

    return json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _csv(result: Agreement) -> str:
    import csv

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["table", "row", "column", "value"])
    for title, head, rows, note in agree_tables(result):
        for r in rows:
            for column, cell in zip(head[1:], r[1:], strict=True):
                w.writerow([title, r[0], column, "" if cell is None else cell])
        if note:
            w.writerow([title, "note", "", note])
    for warning in result.warnings:
        w.writerow(["warnings", "", "", warning])
    return buf.getvalue()


AGREE_RENDERERS = by_format(_table, _json, _markdown, _csv, _latex)


def render_agree(result: Agreement, fmt: str = "table") -> str:
    """``result`` as ``fmt``: ``table``, ``json``, ``markdown``, ``csv`` or ``latex``."""
    return AGREE_RENDERERS[fmt](result)
