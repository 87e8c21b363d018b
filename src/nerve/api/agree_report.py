"""`write_agreement`: `nerve.agree` of several annotators, written as one HTML page.

In: the annotators' sources (as `nerve.agree` takes them), the page to write, and `nerve.agree`'s
keyword arguments. Out: the page (`nerve.report.agree_html`), and the `Agreement` it shows.
"""

from __future__ import annotations

from typing import Any

from .. import options
from ..analysis.agree_result import Agreement
from ..compiled_agree import PathLike, agree
from .report import write_page

__all__ = ["write_agreement"]


def write_agreement(
    *sources: PathLike,
    output: PathLike,
    title: str | None = None,
    max_instances: int = 1000,
    **agree_kwargs: Any,
) -> Agreement:
    """Compute the agreement of ``sources`` and write its page to ``output`` (see `nerve.agree`).

    ``max_instances`` caps the disagreements listed in the page (their counts are all given).

    Raises:
        OptionError: a bad option, or an ``output`` that cannot be written.
        NerveError: jinja2 or matplotlib is not installed (the ``report`` extra).
    """
    from ..report.agree_html import render_agree_html
    from ..report.html import require

    require()
    cap = options.positive_int(max_instances, "max_instances")
    result = agree(*sources, **agree_kwargs)
    write_page(output, render_agree_html(result, title=title, cap=cap))
    return result
