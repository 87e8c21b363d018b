"""The disagreements `nerve.agree` lists: its instance query, checked (numpy-free, for both engines).

In: the ``--instances``-like query given, or none. Out: the query with every category where none
is named; `OptionError` for a category agreement does not have.
"""

from __future__ import annotations

from .. import options
from ..errors import OptionError
from ..plan import InstanceQuery
from .agree_result import AGREE_CATEGORIES

__all__ = ["check_agree_query"]


def check_agree_query(query: InstanceQuery | None) -> InstanceQuery:
    """The query (every category by default); categories other than `AGREE_CATEGORIES` refused."""
    if query is None:
        return InstanceQuery(categories=AGREE_CATEGORIES)
    wanted = query.categories or AGREE_CATEGORIES
    for c in wanted:
        if c not in AGREE_CATEGORIES:
            detail = f"agreement lists the categories {', '.join(AGREE_CATEGORIES)}, got {c!r}"
            raise OptionError(options.flag("categories"), detail)
    return InstanceQuery(tuple(wanted), query.types, query.per_category, query.sort, query.context)
