"""Renderers: result objects in, text out (table, JSON, Markdown, CSV, LaTeX).

`renderers` renders a `Result`, `text` the text-level metrics' `TextScores`, and `tables` holds
the table layouts they share. Results hold fractions; only the renderers format percentages.
"""

from .renderers import RENDERERS, render

__all__ = ["RENDERERS", "render"]
