"""Nesting roles and flattening policies against a naive reading of their definitions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerve.model.nesting import POLICIES, ROLES, flatten, flatten_mask, roles
from nerve.model.spans import SpanArray

Doc = list[tuple[int, int, str]]

span = st.tuples(st.integers(0, 12), st.integers(1, 5), st.sampled_from("ABC")).map(
    lambda t: (t[0], t[0] + t[1], t[2])
)
docs = st.lists(st.lists(span, max_size=7), min_size=1, max_size=4)


def _overlap(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _inside(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    return b[0] <= a[0] and a[1] <= b[1] and (a[0], a[1]) != (b[0], b[1])


def naive_roles(doc: Doc) -> list[str]:
    out = []
    for i, a in enumerate(doc):
        others = [b for j, b in enumerate(doc) if j != i]
        if any(_inside(a, b) for b in others):
            out.append("inner")
        elif any(_overlap(a, b) for b in others):
            out.append("outermost")
        else:
            out.append("flat")
    return out


def naive_keep(doc: Doc, policy: str) -> list[bool]:
    def key(i: int) -> tuple[int, ...]:
        s, e, t = doc[i]
        containers = sum(_inside(doc[i], b) for b in doc)
        contained = sum(_inside(b, doc[i]) for b in doc)
        rank = ord(t)
        return {
            "outermost": (containers, s, -(e - s), rank, i),
            "innermost": (contained, s, e - s, rank, i),
            "longest": (-(e - s), s, rank, i),
            "first": (s, -(e - s), rank, i),
        }[policy]

    kept: list[int] = []
    for i in sorted(range(len(doc)), key=key):
        if not any(_overlap(doc[i], doc[k]) for k in kept):
            kept.append(i)
    return [i in kept for i in range(len(doc))]


@settings(max_examples=300, deadline=None)
@given(docs)
def test_roles_match_their_definition(documents: list[Doc]) -> None:
    spans = SpanArray.from_documents(documents)
    got = [ROLES[r] for r in roles(spans).tolist()]
    assert got == [role for doc in documents for role in naive_roles(doc)]


@settings(max_examples=300, deadline=None)
@given(docs, st.sampled_from(POLICIES))
def test_flattening_matches_a_greedy_reference(documents: list[Doc], policy: str) -> None:
    spans = SpanArray.from_documents(documents, labels=("A", "B", "C"))
    keep = flatten_mask(spans, policy).tolist()
    assert keep == [k for doc in documents for k in naive_keep(doc, policy)]
    kept, dropped = flatten(spans, policy)
    assert dropped == keep.count(False)
    assert (roles(kept) == 0).all()  # nothing kept overlaps anything else kept


@settings(max_examples=100, deadline=None)
@given(docs, st.sampled_from(POLICIES), st.randoms(use_true_random=False))
def test_flattening_ignores_input_order(documents: list[Doc], policy: str, rnd: object) -> None:
    # Spans that differ in some field are kept or dropped alike whatever order they come in.
    unique = [sorted(set(doc)) for doc in documents]
    shuffled = [rnd.sample(doc, len(doc)) for doc in unique]  # type: ignore[attr-defined]
    a, _ = flatten(SpanArray.from_documents(unique, labels=("A", "B", "C")), policy)
    b, _ = flatten(SpanArray.from_documents(shuffled, labels=("A", "B", "C")), policy)
    assert sorted(map(sorted, a.documents())) == sorted(map(sorted, b.documents()))


def test_policies_on_one_nest() -> None:
    # "Bank of [England]" inside an ORG, with a crossing span.
    doc = [(0, 3, "ORG"), (2, 3, "LOC"), (2, 6, "MISC")]
    spans = SpanArray.from_documents([doc])
    assert [ROLES[r] for r in roles(spans).tolist()] == ["outermost", "inner", "outermost"]
    assert flatten(spans, "outermost")[0].documents() == [[(0, 3, "ORG")]]
    assert flatten(spans, "innermost")[0].documents() == [[(2, 3, "LOC")]]
    assert flatten(spans, "longest")[0].documents() == [[(2, 6, "MISC")]]
    assert flatten(spans, "first")[0].documents() == [[(0, 3, "ORG")]]


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="expected one of outermost, innermost, longest, first"):
        flatten_mask(SpanArray.empty(1), "widest")


def test_empty_and_single() -> None:
    assert roles(SpanArray.empty(2)).shape == (0,)
    one = SpanArray.from_documents([[(1, 2, "A")]])
    assert flatten(one, "first")[1] == 0
    assert np.array_equal(roles(one), [0])
