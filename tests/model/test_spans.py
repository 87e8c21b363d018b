"""The span model: half-open offsets, and the columnar form round trip."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nerve
from nerve import Span, SpanArray
from nerve.model.spans import Fragments


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


span_lists = st.lists(
    st.lists(
        st.tuples(st.integers(0, 20), st.integers(1, 5), st.sampled_from(["PER", "LOC", "ORG"])).map(
            lambda t: (t[0], t[0] + t[1], t[2])
        ),
        max_size=6,
    ),
    max_size=5,
)


@given(span_lists, st.lists(st.sampled_from(["LOC", "MISC", "PER"]), unique=True))
def test_documents_round_trip_and_relabel(docs: list[list[tuple[int, int, str]]], vocab: list[str]) -> None:
    """Nested and overlapping spans survive the columns; relabelling keeps every name."""
    columns = SpanArray.from_documents(docs)
    assert columns.n_docs == len(docs)
    assert columns.documents() == docs
    moved = columns.relabel(vocab)
    assert moved.labels[: len(vocab)] == tuple(vocab)
    assert moved.documents() == docs


@given(span_lists)
def test_order_sorts_by_document_position_and_type_name(docs: list[list[tuple[int, int, str]]]) -> None:
    columns = SpanArray.from_documents(docs, labels=["ORG", "PER", "LOC"])  # not alphabetical
    ordered = columns.select(columns.order())
    rows = [(d, s, e, t) for d, spans in enumerate(ordered.documents()) for s, e, t in spans]
    assert rows == sorted((d, s, e, t) for d, spans in enumerate(docs) for s, e, t in spans)


def test_select_keeps_fragments_with_their_spans() -> None:
    columns = SpanArray.from_documents([[(0, 5, "LOC"), (2, 3, "PER"), (7, 9, "ORG")]])
    pieces = Fragments(np.array([0, 2, 3, 4]), np.array([0, 4, 2, 7]), np.array([2, 5, 3, 9]))
    columns = replace(columns, fragments=pieces)
    picked = columns.select(np.array([True, False, True]))
    assert picked.documents() == [[(0, 5, "LOC"), (7, 9, "ORG")]]
    assert picked.fragments is not None
    assert picked.fragments.offsets.tolist() == [0, 2, 3]
    assert picked.fragments.start.tolist() == [0, 4, 7]
    assert picked.fragments.end.tolist() == [2, 5, 9]
    assert len(SpanArray.empty(3)) == 0
    assert SpanArray.empty(3).documents() == [[], [], []]
