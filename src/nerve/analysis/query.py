"""What an instance list asks for: `InstanceQuery`, checked when made, and the names it uses.

In: the categories, types, cap, order and context a caller wants. Out: a checked `InstanceQuery`
(`nerve.analysis.instances` lists the rows). It is an option value of the run's `nerve.plan.Plan`,
and lives there (no numpy: the API and the command line name it without loading the analysis).
"""

from __future__ import annotations

from ..plan import CATEGORIES, ERRORS, INSTANCE_FORMATS, SORTS, InstanceQuery, check_query

__all__ = ["CATEGORIES", "ERRORS", "INSTANCE_FORMATS", "SORTS", "InstanceQuery", "check_query"]
