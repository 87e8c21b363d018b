"""Renderers: result objects in, text out (table, JSON, Markdown, CSV, LaTeX, and an HTML page).

`renderers` renders a `Result`, `text` the text-level metrics' `TextScores`, and `tables` holds
the table layouts they share. Results hold fractions; only the renderers format percentages.
The HTML report is `html` (the page, from ``templates/``), `html_data` (what it shows),
`browser` (the instance browser's data) and `charts` (matplotlib SVG); it needs the ``report``
extra (jinja2, matplotlib), imported only when a report is written.
"""

from .renderers import RENDERERS, render

__all__ = ["RENDERERS", "render"]
