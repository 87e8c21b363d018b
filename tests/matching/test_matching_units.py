"""The matching layer's building blocks against brute force: exact keys, overlap candidates, thresholds."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from hand_made import ints
from nerve.api import score_spans
from nerve.matching.exact import exact_match_types
from nerve.matching.overlap import candidates, in_order, overlap_edges
from nerve.model.spans import SpanArray

Span = tuple[int, int, int]  # start, end, type id

spans = st.lists(
    st.tuples(st.integers(0, 30), st.integers(1, 6), st.integers(0, 3)).map(
        lambda t: (t[0], t[0] + t[1], t[2])
    ),
    max_size=12,
)


def _cols(side: list[Span]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = np.asarray(side, dtype=np.int64).reshape(-1, 3)
    return a[:, 0].copy(), a[:, 1].copy(), a[:, 2].copy()


@settings(max_examples=300, deadline=None)
@given(spans, spans, st.integers(0, 3))
def test_exact_match_types_is_the_multiset_intersection(gold: list[Span], pred: list[Span], dup: int) -> None:
    gold = gold + gold[:dup]  # duplicates on both sides, in different numbers
    pred = pred + pred[: dup // 2] + gold[:1] * dup
    got = exact_match_types(_cols(gold), _cols(pred), 4)  # type: ignore[arg-type]
    common = Counter(gold) & Counter(pred)
    want = [sum(n for (_, _, t), n in common.items() if t == k) for k in range(4)]
    assert got.dtype == np.int64
    assert got.tolist() == want


def test_exact_match_types_with_one_empty_side() -> None:
    one = _cols([(0, 2, 1)])
    none = _cols([])
    for g, p in ((one, none), (none, one), (none, none)):
        got = exact_match_types(g, p, 3)  # type: ignore[arg-type]
        assert got.tolist() == [0, 0, 0]
        assert got.dtype == np.int64


def _array(docs: list[list[Span]]) -> SpanArray:
    return SpanArray.from_documents(
        [[(s, e, "ABCD"[t]) for s, e, t in d] for d in docs], labels=("A", "B", "C", "D")
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(spans, min_size=1, max_size=3), st.lists(spans, min_size=1, max_size=3))
def test_candidates_are_every_overlapping_pair(
    gold_docs: list[list[Span]], pred_docs: list[list[Span]]
) -> None:
    n = max(len(gold_docs), len(pred_docs))
    gold_docs += [[]] * (n - len(gold_docs))
    pred_docs += [[]] * (n - len(pred_docs))
    g, _ = in_order(_array(gold_docs))
    p, _ = in_order(_array(pred_docs))
    got = sorted(zip(*(x.tolist() for x in candidates(g, p)), strict=True))
    want = sorted(
        (i, j)
        for i in range(len(g))
        for j in range(len(p))
        if g.doc[i] == p.doc[j] and p.start[j] < g.end[i] and p.end[j] > g.start[i]
    )
    assert got == want


@settings(max_examples=300, deadline=None)
@given(spans, spans, st.sampled_from([None, 0.2, 0.5, 1.0]), st.sampled_from([None, 0.25, 0.5, 1.0]))
def test_thresholds_are_applied_as_fractions(
    gold: list[Span], pred: list[Span], iou: float | None, share: float | None
) -> None:
    from fractions import Fraction

    g, _ = in_order(_array([gold]))
    p, _ = in_order(_array([pred]))
    gi, pi, overlap = overlap_edges(g, p, iou, share)
    got = sorted(zip(gi.tolist(), pi.tolist(), overlap.tolist(), strict=True))
    want = []
    for i in range(len(g)):
        for j in range(len(p)):
            ov = min(g.end[i], p.end[j]) - max(g.start[i], p.start[j])
            if ov <= 0:
                continue
            union = max(g.end[i], p.end[j]) - min(g.start[i], p.start[j])
            if iou is not None and Fraction(int(ov), int(union)) < Fraction(str(iou)):
                continue
            if share is not None and Fraction(int(ov), int(g.end[i] - g.start[i])) < Fraction(str(share)):
                continue
            want.append((i, j, int(ov)))
    assert got == sorted(want)


def test_word_symbols_skip_the_surrogates_and_keep_word_distances() -> None:
    from rapidfuzz.distance import Levenshtein

    from nerve.matching.text import as_symbols

    words = [f"w{i}" for i in range(0xD800 - 0x100 + 10)]  # past the surrogate block
    a, b = as_symbols([" ".join(words[-6:])], [" ".join([*words[-6:-3], "w0", "zz", *words[-2:]])])
    assert all(not 0xD800 <= ord(c) < 0xE000 for c in a[0] + b[0])
    assert len(set(a[0] + b[0])) == 8  # one symbol per distinct word
    want = Levenshtein.distance(words[-6:], [*words[-6:-3], "w0", "zz", *words[-2:]])
    assert Levenshtein.distance(a[0], b[0]) == want == 2
    nl = as_symbols(["a b\nc"], ["a b"])  # a text with its own newline takes the other path
    assert len(nl[0][0]) == 2
    assert nl[0][0][0] == nl[1][0][0]


def test_pair_costs_are_capped_at_one() -> None:
    from nerve.matching.text import costs

    got = costs(["ab", ""], ["abcdefgh", "x"], np.asarray([0, 1]), np.asarray([0, 1]))
    assert got.tolist() == [1.0, 1.0]
    assert costs(["abcd"], ["abce"], np.asarray([0]), np.asarray([0])).tolist() == [0.25]


def test_word_symbols_past_the_surrogates_stay_distinct() -> None:
    """A word numbered past the surrogate block must not take the symbol of one 0x800 before it."""
    from rapidfuzz.distance import Levenshtein

    from nerve.matching.text import as_symbols

    words = [f"w{i}" for i in range(0xD800 - 0x100 + 0x10)]
    j = len(words) - 1  # its symbol is past the surrogates
    changed = [*words[:j], words[j - 0x800]]
    swapped = [*words[: j - 1], words[j], words[j - 1]]  # two words past the surrogates trade places
    a, b = as_symbols([" ".join(words)], [" ".join(changed)])
    assert Levenshtein.distance(a[0], b[0]) == 1
    a, b = as_symbols([" ".join(words)], [" ".join(swapped)])
    assert Levenshtein.distance(a[0], b[0]) == 2


# The 64-bit bound of the span keys


def test_exact_match_types_just_inside_the_key_bound() -> None:
    # Start 2**61 - 2, length 1, one type: (start + 1) * (length + 1) = 2**62 - 2 keys fit.
    start = 2**61 - 2
    side = (ints([start]), ints([start + 1]), ints([0]))
    assert exact_match_types(side, side, 1).tolist() == [1]


@pytest.mark.parametrize(("start", "n_types"), [(2**61 - 1, 1), (2**60 - 1, 2)])
def test_exact_match_types_refuses_keys_past_the_bound(start: int, n_types: int) -> None:
    # (start + 1) * (length + 1) * n_types reaches 2**62.
    side = (ints([start]), ints([start + 1]), ints([0]))
    with pytest.raises(OverflowError, match=r"^span keys do not fit 64 bits$"):
        exact_match_types(side, side, n_types)


@pytest.mark.parametrize("typ", [0, 1, 2])
def test_exact_match_types_keeps_the_type_of_empty_spans_far_out(typ: int) -> None:
    # Empty spans at 2**60 with three types: the keys stay below 2**63, so each keeps its type.
    start = 2**60 + 12345
    side = (ints([start, 5]), ints([start, 5]), ints([typ, 1]))
    expected = [0, 1, 0]
    expected[typ] += 1
    assert exact_match_types(side, side, 3).tolist() == expected


def test_exact_match_of_spans_far_into_many_documents() -> None:
    # 2**21 documents of up to 2**40 positions: the last span's key, (document * (2**40 + 1)
    # + start) * 2 + length, still fits 64 bits, so it is matched rather than refused.
    n_docs = 2**21
    spans = SpanArray(
        ints([0, n_docs - 1]), ints([2**40 - 1, 5]), ints([2**40, 6]), ints([0, 0]), ("X",), n_docs
    )
    result = score_spans(spans, spans)
    assert result.exact.counts["X"] == nerve.Counts(2, 0, 0)
    assert result.micro.f1 == 1.0
