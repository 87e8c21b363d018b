"""Matching: predicted spans against gold spans, in, pairs out.

In: span columns of both sides (`SpanArray`), or entity texts for the text metrics. Out: which
predicted span is paired with which gold span: exactly (`matching.exact`), by overlap with one
optimal one-to-one assignment (`matching.overlap`, solved by `matching.assignment`, the one
assignment every metric uses), as nervaluate 1.2.1 pairs them (`matching.greedy`), or by category
with the edit costs of each pair (`matching.text`), assigned one (document, category) cell at a
time in bounded memory (`matching.text_cells`).
"""

from .exact import exact_match_aligned, exact_match_types

__all__ = ["exact_match_aligned", "exact_match_types"]
