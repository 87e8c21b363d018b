"""The renderings of a `Result`: every format carries the same information."""

from __future__ import annotations

import json

import nerve
from nerve.api import score_spans
from nerve.metrics.muc import MucOptions


def test_span_results_have_no_tokens() -> None:
    """Span input has no tokens: JSON says null, and the table has no token line."""
    result = score_spans([[(0, 2, "PER")]], [[(0, 2, "PER"), (3, 4, "LOC")]], overlap=MucOptions())
    d = json.loads(nerve.render(result, "json"))
    assert d["tokens"] is None
    assert "tokens" not in nerve.render(result, "table")
    # Tag input with no tokens at all still has its token count.
    assert json.loads(nerve.render(nerve.score([], []), "json"))["tokens"] == {"count": 0, "accuracy": 0.0}
