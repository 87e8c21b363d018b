"""Matching: predicted spans against gold spans, in, pairs out.

In: span columns of both sides. Out: which predicted span matches which gold span, exactly
(`matching.exact`).
"""

from .exact import exact_match_aligned, exact_match_types

__all__ = ["exact_match_aligned", "exact_match_types"]
