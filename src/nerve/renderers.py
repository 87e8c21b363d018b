"""Renderers: a `Result` as a text table, JSON, Markdown, CSV or LaTeX.

Every rendering carries the signature. Tables show scores as percentages with two decimals; JSON
and CSV give full-precision fractions in 0..1.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

from .muc import MODES
from .results import Result, Score

__all__ = ["RENDERERS", "render"]

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
        head, body = _muc_rows(result)
        out += [
            "",
            "| " + " | ".join(head) + " |",
            "|" + "|".join([":---", *["---:"] * (len(head) - 1)]) + "|",
        ]
        out += ["| " + " | ".join([r[0].replace("|", "\\|"), *r[1:]]) + " |" for r in body]
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
