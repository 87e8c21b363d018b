"""Locating listed entities in their text: properties, and every rule against a naive reference."""

from __future__ import annotations

import string

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from nerve.io.json.locating import locate_listed, normalised
from nerve.io.outputs import NORMALIZE

NAMES = ["Paris", "New York", "York", "Ann", "Annie", "UN"]
FILLER = st.text(alphabet=" ,.xq\n", min_size=1, max_size=6)
STEPS = st.lists(st.sampled_from(NORMALIZE), unique=True).map(lambda s: tuple(n for n in NORMALIZE if n in s))


def naive(text: str, entities: list[str], rule: str) -> list[list[tuple[int, int]]]:
    """The rules as a paper's script would write them: str.find from the last place, per entity text."""
    out, after = [], {}
    for e in entities:
        places, at = [], text.find(e) if e else -1
        while at >= 0:
            places.append((at, at + len(e)))
            at = text.find(e, at + len(e))
        if rule == "first":
            out.append(places[:1])
        elif rule == "all":
            out.append(places)
        else:
            k = after.get(e, 0)
            after[e] = k + 1
            out.append(places[k : k + 1])
    return out


@st.composite
def cut_documents(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """A text of fillers and entity names, with the names' offsets, left to right."""
    text, cuts = draw(FILLER), []
    for name in draw(st.lists(st.sampled_from(NAMES), max_size=8)):
        cuts.append((len(text), len(text) + len(name)))
        text += name + draw(FILLER)
    return text, cuts


@given(cut_documents())
@settings(max_examples=150, deadline=None)
def test_in_order_recovers_entities_cut_from_their_text(doc: tuple[str, list[tuple[int, int]]]) -> None:
    text, cuts = doc
    listed = [text[s:e] for s, e in cuts]
    for name in set(listed):  # the k-th listing is the k-th occurrence: no name inside another here
        occurrences = naive(text, [name], "all")[0]
        assume(occurrences == [c for c, n in zip(cuts, listed, strict=True) if n == name])
    assert locate_listed(text, listed, "in-order", ()) == [[c] for c in cuts]


@given(
    st.text(alphabet="ab c", max_size=30),
    st.lists(st.text(alphabet="ab c", max_size=3), max_size=6),
    st.sampled_from(["in-order", "first", "all"]),
)
@settings(max_examples=300, deadline=None)
def test_every_rule_is_the_naive_reference(text: str, entities: list[str], rule: str) -> None:
    assert locate_listed(text, entities, rule, ()) == naive(text, entities, rule)


@given(
    st.text(alphabet=string.ascii_letters + " ", max_size=30),
    st.lists(st.text(alphabet="abAB ", max_size=4), max_size=5),
)
@settings(max_examples=200, deadline=None)
def test_case_folding_is_the_naive_reference_on_folded_text(text: str, entities: list[str]) -> None:
    assert locate_listed(text, entities, "all", ("case",)) == naive(
        text.casefold(), [e.casefold() for e in entities], "all"
    )


@given(st.text(max_size=40), STEPS)
@settings(max_examples=400, deadline=None)
def test_normalisation_is_idempotent_and_maps_back(text: str, steps: tuple[str, ...]) -> None:
    once, where = normalised(text, steps)
    assert normalised(once, steps)[0] == once
    assert len(where) == len(once)
    assert where == sorted(where)
    assert all(0 <= i < len(text) for i in where)


@given(cut_documents(), STEPS)
@settings(max_examples=200, deadline=None)
def test_located_offsets_cover_what_was_listed(
    doc: tuple[str, list[tuple[int, int]]], steps: tuple[str, ...]
) -> None:
    text, cuts = doc
    listed = [text[s:e] for s, e in cuts]
    for name, places in zip(listed, locate_listed(text, listed, "all", steps), strict=True):
        assert places  # a text cut from the text is always found
        for s, e in places:
            assert normalised(text[s:e], steps)[0].strip() == normalised(name, steps)[0].strip()
