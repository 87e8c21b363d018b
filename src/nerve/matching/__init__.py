"""Matching: predicted spans against gold spans, in, pairs out.

In: span columns of both sides (`SpanArray`). Out: which predicted span is paired with which gold
span: exactly (`matching.exact`), by overlap with one optimal one-to-one assignment
(`matching.overlap`, solved by `matching.assignment`, the one assignment every metric uses), or
as nervaluate 1.2.1 pairs them (`matching.greedy`).
"""

from .exact import exact_match_aligned, exact_match_types

__all__ = ["exact_match_aligned", "exact_match_types"]
