"""Renderers: a `Result` as a text table, JSON, Markdown, CSV or LaTeX.

Every rendering carries the signature. Tables show scores as percentages with two decimals; JSON
and CSV give full-precision fractions in 0..1.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

from ..metrics.muc import MODES
from ..metrics.text import BagRow, ErrorRow, NervalRow, TextScores, rate
from ..model.counts import fbeta
from ..results import Result, Score

__all__ = ["RENDERERS", "TEXT_COMMANDS", "render", "render_text"]

_ROWS = ("micro", "macro", "weighted")


def _rows(result: Result) -> list[tuple[str, Score]]:
    rows = list(result.per_type.items())
    rows += [(f"{name} avg", getattr(result.exact, name)) for name in _ROWS]
    return rows


def _type_name(name: str) -> str:
    return name if name else '""'


def _footer(result: Result) -> str:
    if result.settings.source != "tags":
        return f"documents: {result.documents}\n"
    r = result.repairs
    kinds = ", ".join(f"{k}: {v}" for k, v in r.by_kind.items())
    repairs = f"invalid transitions: gold {r.gold}, pred {r.pred}" + (f" ({kinds})" if kinds else "")
    tokens = f"tokens: {result.tokens.count}, tag accuracy {100 * result.tokens.accuracy:.2f}% (raw tags)"
    return f"{tokens}; sentences: {result.sentences}; documents: {result.documents}\n{repairs}\n"


def _percent_cells(s: Score, with_fbeta: bool) -> list[str]:
    cells = [f"{100 * s.precision:.2f}", f"{100 * s.recall:.2f}", f"{100 * s.f1:.2f}"]
    if with_fbeta:
        cells.append(f"{100 * (s.fbeta or 0.0):.2f}")
    return [*cells, str(s.gold), str(s.predicted), str(s.tp)]


def _header(result: Result) -> list[str]:
    beta = result.settings.beta
    head = ["type", "precision", "recall", "f1"]
    if beta != 1:
        head.append(f"f{beta:g}")
    return [*head, "gold", "predicted", "correct"]


def _muc_rows(result: Result) -> tuple[list[str], list[list[str]]]:
    """The four MUC modes side by side: P, R, F1 of each, then POS and ACT."""
    assert result.muc is not None
    modes = result.muc.modes
    head = ["muc", *(f"{m} {x}" for m in MODES for x in ("P", "R", "F1")), "pos", "act"]
    names = ["overall", *modes["strict"].per_type]
    body = []
    for name in names:
        cells = [_type_name(name) if name != "overall" else "overall"]
        counts = [modes[m].overall if name == "overall" else modes[m].per_type[name] for m in MODES]
        for c in counts:
            cells += [f"{100 * c.precision:.2f}", f"{100 * c.recall:.2f}", f"{100 * c.f1:.2f}"]
        cells += [str(counts[0].pos), str(counts[0].act)]
        body.append(cells)
    return head, body


def _aligned(head: list[str], body: list[list[str]]) -> list[str]:
    width = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        rest = (c.rjust(w) for c, w in zip(cells[1:], width[1:], strict=True))
        return "  ".join([cells[0].ljust(width[0]), *rest]).rstrip()

    return [line(head), *(line(r) for r in body)]


def _markdown_table(head: list[str], body: list[list[str]]) -> list[str]:
    """A Markdown table: the first column left-aligned (``|`` escaped), the others right-aligned."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join([":---", *["---:"] * (len(head) - 1)]) + "|"]
    return out + ["| " + " | ".join([r[0].replace("|", "\\|"), *r[1:]]) + " |" for r in body]


def render_table(result: Result) -> str:
    """A plain-text table for the terminal."""
    with_fbeta = result.settings.beta != 1
    head = _header(result)
    body = [[_type_name(name), *_percent_cells(s, with_fbeta)] for name, s in _rows(result)]
    width = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(width[0])
        rest = (c.rjust(w) for c, w in zip(cells[1:], width[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    n_types = len(result.per_type)
    out = [result.signature, "", line(head)]
    out += [line(r) for r in body[:n_types]]
    out.append("")
    out += [line(r) for r in body[n_types:]]
    out.append("")
    if result.muc is not None:
        out += [*_aligned(*_muc_rows(result)), ""]
    return "\n".join(out) + "\n" + _footer(result)


def render_markdown(result: Result) -> str:
    """A GitHub-flavoured Markdown table, scores in percent."""
    with_fbeta = result.settings.beta != 1
    head = _header(result)
    out = [f"`{result.signature}`", "", "| " + " | ".join(head) + " |"]
    out.append("|" + "|".join([":---", *["---:"] * (len(head) - 1)]) + "|")
    for name, s in _rows(result):
        cells = [_type_name(name).replace("|", "\\|"), *_percent_cells(s, with_fbeta)]
        if name.endswith(" avg") and name[:-4] in _ROWS:
            cells[0] = f"**{cells[0]}**"
        out.append("| " + " | ".join(cells) + " |")
    if result.muc is not None:
        out += ["", *_markdown_table(*_muc_rows(result))]
    return "\n".join(out) + "\n\n" + _footer(result)


def render_csv(result: Result) -> str:
    """CSV with one row per type and per average; fractions at full precision.

    The first line is the signature as a ``#`` comment. With the muc metrics a second table
    follows after a blank line and a ``# muc`` comment: one row per mode and type, with counts.
    """
    buf = io.StringIO()
    buf.write(f"# {result.signature}\n")
    writer = csv.writer(buf, lineterminator="\n")
    keys = list(next(iter(_rows(result)))[1].to_dict())
    writer.writerow(["type", *keys])
    for name, s in _rows(result):
        d = s.to_dict()
        writer.writerow([name, *(repr(d[k]) if isinstance(d[k], float) else d[k] for k in keys)])
    if result.muc is not None:
        # A second table, after a blank line and a comment: one row per mode and type.
        buf.write("\n# muc\n")
        fields = ["cor", "inc", "par", "mis", "spu", "pos", "act", "precision", "recall", "f1"]
        writer.writerow(["mode", "type", *fields])
        for mode in MODES:
            scores = result.muc.modes[mode]
            for name, c in [("overall", scores.overall), *scores.per_type.items()]:
                d = c.to_dict()
                writer.writerow(
                    [mode, name, *(repr(d[k]) if isinstance(d[k], float) else d[k] for k in fields)]
                )
    return buf.getvalue()


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def _latex_escape(text: str) -> str:
    return "".join(_LATEX.get(c, c) for c in text)


def render_latex(result: Result) -> str:
    """A LaTeX ``tabular``, scores in percent; the signature as a comment above it.

    With the muc metrics a second ``tabular`` shows the four modes side by side.
    """
    with_fbeta = result.settings.beta != 1
    head = _header(result)
    out = [f"% {result.signature}", "\\begin{tabular}{l" + "r" * (len(head) - 1) + "}", "\\hline"]
    out.append(" & ".join(h.capitalize() for h in head) + " \\\\")
    out.append("\\hline")
    n_types = len(result.per_type)
    for i, (name, s) in enumerate(_rows(result)):
        if i == n_types:
            out.append("\\hline")
        out.append(" & ".join([_latex_escape(_type_name(name)), *_percent_cells(s, with_fbeta)]) + " \\\\")
    out += ["\\hline", "\\end{tabular}"]
    if result.muc is not None:
        head, body = _muc_rows(result)
        out += ["", "\\begin{tabular}{l" + "r" * (len(head) - 1) + "}", "\\hline"]
        out.append(" & ".join(_latex_escape(h) for h in head) + " \\\\")
        out.append("\\hline")
        for i, row in enumerate(body):
            out.append(" & ".join([_latex_escape(row[0]), *row[1:]]) + " \\\\")
            if i == 0:
                out.append("\\hline")
        out += ["\\hline", "\\end{tabular}"]
    return "\n".join(out) + "\n"


def render_json(result: Result) -> str:
    """One JSON object (see `Result.to_dict`), fractions in 0..1."""
    return json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n"


RENDERERS: dict[str, Callable[[Result], str]] = {
    "table": render_table,
    "json": render_json,
    "markdown": render_markdown,
    "csv": render_csv,
    "latex": render_latex,
}


def render(result: Result, output: str = "table") -> str:
    """Render ``result`` in one of `RENDERERS`' formats."""
    try:
        return RENDERERS[output](result)
    except KeyError:
        msg = f"Expected an output format among {', '.join(RENDERERS)}, but got {output!r}"
        raise ValueError(msg) from None


# --------------------------------------------------------------------------- text-level metrics

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
    "ie-all": ["BoW-F1 (%)", "BoTW-F1 (%)", "BoE-F1 (%)", "ECER (%)", "EWER (%)", "Nerval-F1 (%)"],
    "ecer-ewer": ["ECER (%)", "EWER (%)"],
    "nerval": ["Precision (%)", "Recall (%)", "F1 (%)"],
    "bags": ["bWER (%)", "Precision (%)", "Recall (%)", "F1 (%)"],
}


def _text_cells(command: str, pick: dict[str, ErrorRow | NervalRow | BagRow]) -> list[str]:
    """The cells of one row of a text-metric command, after the category."""
    row = pick["ecer-ewer" if command == "ie-all" else command]
    if isinstance(row, ErrorRow):
        rates = [_rate_pct(row.char_errors, row.gold), _rate_pct(row.word_errors, row.gold)]
        if command == "ie-all":
            f1 = [_f1_pct(pick[m]) for m in ("bow", "botw", "boe")]
            return [*f1, *rates, _f1_pct(pick["nerval"]), str(row.gold), str(row.documents)]
        return [*rates, str(row.gold), str(row.documents)]
    scores = [_pct(100 * row.precision), _pct(100 * row.recall), _f1_pct(row)]
    if isinstance(row, BagRow):
        scores.insert(0, _rate_pct(row.errors, row.gold))
    return [*scores, str(row.gold), str(row.predicted), str(row.documents)]


def _text_head(command: str) -> list[str]:
    """The header of a text-metric command's table, as ie-eval names the columns."""
    if command in ("ie-all", "ecer-ewer"):
        return ["Category", *_TEXT_HEADS[command], "N entities", "N documents"]
    if command == "nerval":
        return ["Category", *_TEXT_HEADS[command], "N entities", "N predicted", "N documents"]
    unit = "entities" if command == "boe" else "words"
    return ["Category", *_TEXT_HEADS["bags"], f"N {unit}", f"N predicted {unit}", "N documents"]


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
        return scores.signature + "\n\n" + "\n".join(_aligned(head, body)) + "\n"
    return "\n".join([f"`{scores.signature}`", "", *_markdown_table(head, body)]) + "\n"
