"""Table layouts shared by the renderers: aligned text, Markdown and LaTeX.

In: a header and rows of cells (strings), and how many leading columns are labels (left-aligned);
out: the lines of the table. Nothing here knows what the cells mean. `by_format` names a result's
renderers by the output formats they write (`FORMATS`).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["FORMATS", "aligned", "by_format", "latex_escape", "latex_tabular", "markdown_table"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from typing import TypeVar

    R = TypeVar("R")  # the result a renderer takes

#: The formats every result renders to, in the order of ``--output``'s choices.
FORMATS = ("table", "json", "markdown", "csv", "latex")


def by_format(*renderers: Callable[[R], str]) -> dict[str, Callable[[R], str]]:
    """The renderers of one result, given in the order of `FORMATS`, by format name."""
    return dict(zip(FORMATS, renderers, strict=True))


def aligned(head: list[str], body: list[list[str]], labels: int = 1) -> list[str]:
    """A plain-text table: the ``labels`` first columns left-aligned, the others right-aligned."""
    width = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        out = [
            c.ljust(w) if i < labels else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, width, strict=True))
        ]
        return "  ".join(out).rstrip()

    return [line(head), *(line(r) for r in body)]


def markdown_table(head: list[str], body: list[list[str]], labels: int = 1) -> list[str]:
    """A Markdown table: the ``labels`` first columns left-aligned (``|`` escaped), the others right."""
    rule = [":---"] * labels + ["---:"] * (len(head) - labels)
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(rule) + "|"]
    for r in body:
        cells = [c.replace("|", "\\|") for c in r[:labels]] + r[labels:]
        out.append("| " + " | ".join(cells) + " |")
    return out


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


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(_LATEX.get(c, c) for c in text)


def latex_tabular(
    head: list[str], body: list[list[str]], labels: int = 1, rules: tuple[int, ...] = ()
) -> list[str]:
    """A LaTeX ``tabular``: label columns escaped and left-aligned.

    A rule goes before each row numbered in ``rules`` (``len(body)``: after the last row).
    """
    out = ["\\begin{tabular}{" + "l" * labels + "r" * (len(head) - labels) + "}", "\\hline"]
    out += [" & ".join(latex_escape(h) for h in head) + " \\\\", "\\hline"]
    for i, row in enumerate(body):
        if i in rules:
            out.append("\\hline")
        out.append(" & ".join([*(latex_escape(c) for c in row[:labels]), *row[labels:]]) + " \\\\")
    if len(body) in rules:
        out.append("\\hline")
    return [*out, "\\hline", "\\end{tabular}"]
