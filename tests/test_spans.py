"""The span model: half-open offsets, and the columnar form round trip."""

from __future__ import annotations

import pytest

import nerve
from nerve import Span, SpanArray


def test_spans_are_half_open_and_checked() -> None:
    span = Span(0, 2, 5, "PER", source="a.conll", line=3)
    assert len(span) == 3
    assert span == Span(0, 2, 5, "PER")  # provenance is not part of equality
    assert repr(span) == "Span(seq=0, start=2, end=5, label='PER')"
    with pytest.raises(ValueError, match="start < end"):
        Span(0, 3, 3, "PER")


def test_columnar_round_trip() -> None:
    spans = nerve.decode([["B-PER", "I-PER", "O", "B-LOC"], ["O", "I-ORG"]], scheme="IOB2")
    columns = SpanArray.from_spans(reversed(spans), labels=["ORG"])
    assert columns.labels == ("ORG", "PER", "LOC")
    assert columns.start.tolist() == [0, 3, 1]
    assert columns.seq.tolist() == [0, 0, 1]
    assert columns.to_list() == sorted(spans)
    assert len(columns) == 3
