"""The HTML report: one self-contained page, rendered by jinja2 with autoescaping.

In: `SystemReport` s (`nerve.report.html_data`). Out: the page's text. Everything is inline: the
style sheet and the script (``templates/report.css``, ``templates/report.js``, read as package
data), the charts (SVG), and each system's instances (JSON in a ``<script type="application/json">``
element), so the page works offline and asks for nothing.

Entity text is hostile input. Every string the template prints is escaped (``autoescape``); the
script reads the instances with ``JSON.parse`` and writes them with ``textContent`` only; the JSON
escapes ``<``, ``>`` and ``&`` (`html_data.safe_json`); the SVG charts escape their text
(`nerve.report.charts`); and each token is a bidi-isolated element, so a right-to-left override
in one token does not reorder the others. jinja2 and matplotlib are imported on first use.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

from .._version import __version__
from ..analysis.errors import CATEGORIES
from ..errors import NerveError, plural
from . import charts
from .html_data import SystemReport, page_data

if TYPE_CHECKING:
    import jinja2

__all__ = ["PAGE_SIZE", "page_asset", "page_environment", "render_html", "require"]

PAGE_SIZE = 50  # instances on one page of the browser


def _percent(value: Any, digits: int = 2) -> str:
    """A fraction as a percentage without the sign (``0.5`` is ``50.00``); ``-`` for no number."""
    if not isinstance(value, (int, float)):
        return "-"
    return f"{100 * value:.{digits}f}"


def _count(n: Any, noun: str, nouns: str | None = None) -> str:
    """``n`` with thousands separators and ``noun``, in the plural unless ``n`` is 1 (`plural`)."""
    if not isinstance(n, int):
        return f"- {nouns or noun + 's'}"
    return f"{n:,} {plural(n, noun, nouns).split(' ', 1)[1]}"


def _breakable(name: str) -> Any:
    """A type name, escaped, that may wrap after ``_``, ``.``, ``/`` and ``:`` as after a hyphen.

    A long ``snake_case`` name then wraps between its words, not anywhere in them.
    """
    from markupsafe import Markup, escape

    text = str(escape(name)) if name else '""'
    return Markup(re.sub(r"([_./:])(?=.)", r"\1<wbr>", text))


def _interval(value: Any) -> str:
    """``[low, high]`` in percent; ``n/a`` for ``None`` (an interval that cannot be computed)."""
    if value is None:
        return "n/a"
    if not value:
        return ""
    return f"[{_percent(value[0])}, {_percent(value[1])}]"


@functools.lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("nerve.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pct"] = _percent
    env.filters["ci"] = _interval
    env.filters["thousands"] = lambda n: f"{n:,}" if isinstance(n, int) else "-"
    env.filters["count"] = _count
    env.filters["breakable"] = _breakable
    return env


def _asset(name: str) -> str:
    return resources.files("nerve.report").joinpath("templates").joinpath(name).read_text(encoding="utf-8")


def require() -> None:
    """Raise a `NerveError` saying what to install when jinja2 or matplotlib is missing."""
    import importlib.util

    missing = [m for m in ("jinja2", "markupsafe", "matplotlib") if importlib.util.find_spec(m) is None]
    if missing:
        need = f"the HTML report needs {' and '.join(missing)}"
        raise NerveError(f"{need}: pip install {' '.join(missing)}")


def render_html(systems: Sequence[SystemReport], *, title: str | None = None, cap: int = 1000) -> str:
    """The report page of ``systems``, with at most ``cap`` instances of each error category."""
    require()
    from markupsafe import Markup

    data = page_data(systems, cap)
    for system in data:  # trusted text: escaped by matplotlib's SVG writer and by safe_json
        for view in system["confusion"]:
            view["svg"] = Markup(view["svg"])
        if system["errors"] is not None and system["errors"]["svg"] is not None:
            system["errors"]["svg"] = Markup(system["errors"]["svg"])
        for part in system["slices"]:
            if part.get("svg") is not None:
                part["svg"] = Markup(part["svg"])
        if system["instances"] is not None:
            system["instances"] = Markup(system["instances"])
        if system["sweep"] is not None and system["sweep"]["svg"] is not None:
            system["sweep"]["svg"] = Markup(system["sweep"]["svg"])
    template = _environment().get_template("report.html.j2")
    colours = "".join(f"--{name}:{colour};" for name, colour in charts.COLOURS.items())
    return template.render(
        title=title or "nerve report",
        version=__version__,
        systems=data,
        categories=[c for c in CATEGORIES if c != "correct"],
        colours=colours,
        page_size=PAGE_SIZE,
        cap=cap,
        style=Markup(_asset("report.css")),
        script=Markup(_asset("report.js")),
    )


def page_environment() -> jinja2.Environment:
    """The jinja2 environment of nerve's pages, with their filters, for pages beside the report."""
    return _environment()


def page_asset(name: str) -> str:
    """A file of the templates folder (``report.css``...), as text."""
    return _asset(name)
