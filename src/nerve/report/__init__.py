"""Renderers: result objects in, text out (table, JSON, Markdown, CSV, LaTeX).

Results hold fractions; only the renderers format percentages.
"""

from .renderers import RENDERERS, render

__all__ = ["RENDERERS", "render"]
