"""`fast_columns`, the vectorised path of the JSON span readers, against a plain loop.

Spans whose keys come in one order take the one-pass path over the objects' values; mixed orders,
extra keys, missing keys, non-objects and wrong types must give what the loop gives, or ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nerve.io.json.jsonl import fast_columns
from nerve.model.spans import SpanArray

REQUIRED = ("start", "end", "label")
ALLOWED = {"start", "end", "label", "text"}


def by_loop(docs: list[list[dict[str, Any]]], end_offset: int) -> SpanArray:
    return SpanArray.from_documents(
        [[(s["start"], s["end"] + end_offset, s["label"]) for s in d] for d in docs]
    )


def same(a: SpanArray, b: SpanArray) -> bool:
    columns = ("doc", "start", "end", "label")
    return all(np.array_equal(getattr(a, c), getattr(b, c)) for c in columns) and a.labels == b.labels


@st.composite
def span(draw: st.DrawFn, orders: Sequence[tuple[str, ...]]) -> dict[str, Any]:
    start = draw(st.integers(0, 50))
    values = {"start": start, "end": start + draw(st.integers(1, 5)), "label": draw(st.sampled_from("ABC"))}
    if draw(st.booleans()):
        values["text"] = "x"
    order = draw(st.sampled_from(orders))
    keys = [k for k in order if k in values] + [k for k in values if k not in order]
    return {k: values[k] for k in keys}


ONE_ORDER = [("label", "start", "end", "text")]
MIXED = [
    ("start", "end", "label", "text"),
    ("label", "end", "start", "text"),
    ("text", "end", "label", "start"),
]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([ONE_ORDER, MIXED]).flatmap(
        lambda o: st.lists(st.lists(span(o), max_size=4), max_size=6)
    ),
    st.sampled_from([0, 1]),
)
def test_fast_columns_equal_the_loop(docs: list[list[dict[str, Any]]], end_offset: int) -> None:
    fast = fast_columns(docs, REQUIRED, ALLOWED, end_offset=end_offset)
    assert fast is not None
    assert same(fast, by_loop(docs, end_offset))
    assert fast.n_docs == len(docs)


def test_fast_columns_refuse_what_the_loop_must_explain() -> None:
    good = {"label": "A", "start": 0, "end": 1}
    cases: list[Any] = [
        [[good, ["not", "an", "object"]]],
        [[good, {"label": "A", "start": 0}]],  # a key missing, keys in one order
        [[{"label": "A", "start": 0}]],
        [[good, {"start": 0, "end": 1, "label": "A", "other": 1}]],  # a key not allowed
        [[good, {"start": True, "end": 1, "label": "A"}]],  # a boolean offset
        [[{"label": "A", "start": 0, "end": 1.5}]],
        [[{"label": 3, "start": 0, "end": 1}]],
        [[{"label": "A", "start": 2, "end": 2}]],  # empty
        [good],  # a document that is not a list
    ]
    for docs in cases:
        assert fast_columns(docs, REQUIRED, ALLOWED) is None, docs
