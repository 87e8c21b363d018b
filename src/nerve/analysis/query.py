"""What an instance list asks for: `InstanceQuery`, checked when made, and the names it uses.

In: the categories, types, cap, order and context a caller wants. Out: a checked `InstanceQuery`
(`nerve.analysis.instances` lists the rows). Kept apart, with no numpy, so that the API and the
command line can name these options without loading the analysis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import options
from ..errors import OptionError

__all__ = ["CATEGORIES", "ERRORS", "INSTANCE_FORMATS", "SORTS", "InstanceQuery", "check_query"]

CATEGORIES = ("correct", "type", "boundary", "boundary_type", "missed", "spurious")
ERRORS = CATEGORIES[1:]
SORTS = ("position", "frequency")
INSTANCE_FORMATS = ("jsonl", "csv", "table")


def check_query(
    categories: Sequence[str] | None, sort: str, per_category: int | None, context: int
) -> tuple[str, ...]:
    """The categories asked for (every error category by default); each option checked."""
    wanted = tuple(categories) if categories else ERRORS
    for c in wanted:
        options.one_of(c, CATEGORIES, "categories")
    options.one_of(sort, SORTS, "sort")
    if per_category is not None and per_category < 1:
        raise OptionError(
            options.flag("per_category"), f"Expected at least 1 row per category, but got {per_category}"
        )
    if context < 0:
        raise OptionError(options.flag("context"), f"Expected 0 or more tokens of context, but got {context}")
    return wanted


@dataclass(frozen=True)
class InstanceQuery:
    """Which instances to list: see `nerve.analysis.instances.instances` (checked when made)."""

    categories: tuple[str, ...] | None = None
    types: tuple[str, ...] | None = None
    per_category: int | None = None
    sort: str = "position"
    context: int = 5

    def __post_init__(self) -> None:
        check_query(self.categories, self.sort, self.per_category, self.context)
