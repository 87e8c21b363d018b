r"""MkDocs hook: every formula of the site becomes MathML when the site is built.

pymdownx.arithmatex (generic mode) leaves a formula as TeX, ``<span class="arithmatex">\(...\)</span>``
inline or ``<div class="arithmatex">\[...\]</div>`` on its own lines. This hook replaces each with
the ``<math>`` element that latex2mathml writes, which browsers lay out themselves: the site loads
no script and no font for its formulas, and reads the same offline. A formula that cannot be
converted stops the build, naming the page and the formula.
"""

from __future__ import annotations

import html
import re
from typing import Any

from latex2mathml.converter import convert
from mkdocs.exceptions import PluginError

FORMULA = re.compile(r'<(?P<tag>span|div) class="arithmatex">(?P<tex>.*?)</(?P=tag)>', re.S)
DELIMITERS = {"span": ("\\(", "\\)", "inline"), "div": ("\\[", "\\]", "block")}
TEXT = re.compile(r"<mtext>(.*?)</mtext>", re.S)
TEXT_ESCAPE = re.compile(r"\\([_%&#$])")  # \_ in \text{...}: latex2mathml keeps the backslash


def to_mathml(tag: str, source: str) -> str:
    """The ``<math>`` element of one arithmatex formula (its HTML-escaped TeX, with delimiters)."""
    start, end, display = DELIMITERS[tag]
    tex = html.unescape(source).strip()
    if not (tex.startswith(start) and tex.endswith(end)):
        raise ValueError(f"expected {start} ... {end}")
    out = convert(tex[len(start) : -len(end)].strip(), display=display)
    out = TEXT.sub(lambda m: "<mtext>" + TEXT_ESCAPE.sub(r"\1", m.group(1)) + "</mtext>", out)
    if "\\" in out:
        raise ValueError("TeX left in the MathML: " + out)
    return out


def on_page_content(html_text: str, page: Any, **_: Any) -> str:
    """Replace the page's TeX formulas with MathML."""

    def replace(match: re.Match[str]) -> str:
        try:
            return to_mathml(match.group("tag"), match.group("tex"))
        except Exception as err:  # latex2mathml raises its own errors, and ValueError above
            where = page.file.src_uri
            raise PluginError(f"{where}: cannot write {match.group('tex')!r} as MathML: {err}") from err

    return FORMULA.sub(replace, html_text)
