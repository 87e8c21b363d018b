"""`nerve.matching.text` on small hand-made inputs, against brute force written here.

The corpus tests reach these functions only through ../shared/data; these need no data: key
pairs, Levenshtein distances, word symbols (both the symbol path and the word-list path past
`_SYMBOLS` distinct words), pair costs and bag items.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hand_made import ints
from nerve.matching import text
from nerve.matching.text import as_symbols, costs, distances, pair_texts, same_key_pairs
from nerve.matching.text_cells import cell_results
from nerve.model.texts import EntityTexts
from text_reference import levenshtein


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=12), st.lists(st.integers(0, 4), max_size=12))
def test_same_key_pairs_are_every_pair_with_equal_keys(g_key: list[int], p_key: list[int]) -> None:
    g, p = same_key_pairs(ints(g_key), ints(p_key))
    assert g.dtype == np.int64
    assert p.dtype == np.int64
    want = sorted((i, j) for i, a in enumerate(g_key) for j, b in enumerate(p_key) if a == b)
    assert sorted(zip(g.tolist(), p.tolist(), strict=True)) == want


def test_same_key_pairs_by_hand() -> None:
    g, p = same_key_pairs(ints([7, 3, 7, 5]), ints([3, 7, 7, 9, 3]))
    got = sorted(zip(g.tolist(), p.tolist(), strict=True))
    assert got == [(0, 1), (0, 2), (1, 0), (1, 4), (2, 1), (2, 2)]
    assert [x.shape for x in same_key_pairs(ints([]), ints([1]))] == [(0,), (0,)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.text("abc ", max_size=6), st.text("abc ", max_size=6)), max_size=6))
def test_distances_are_levenshtein_distances(pairs: list[tuple[str, str]]) -> None:
    got = distances([a for a, _ in pairs], [b for _, b in pairs])
    assert got.dtype == np.int64
    assert got.shape == (len(pairs),)
    assert got.tolist() == [levenshtein(a, b) for a, b in pairs]


def test_distances_of_no_pairs_and_of_word_lists() -> None:
    none = distances([], [])
    assert (none.shape, none.dtype) == ((0,), np.dtype(np.int64))
    words = distances([["a", "b", "c"], ["x"]], [["a", "c"], ["y", "x", "z"]])
    assert (words.tolist(), words.dtype) == ([1, 2], np.dtype(np.int64))


WORD = st.sampled_from(["a", "b", "ab", "a\tb", "ü", ""])
TEXT = st.lists(WORD, min_size=1, max_size=4).map(" ".join)


def _check_symbols(texts_a: list[str], texts_b: list[str]) -> None:
    """Word distances survive, one symbol per distinct word on both sides."""
    a, b = as_symbols(texts_a, texts_b)
    assert (len(a), len(b)) == (len(texts_a), len(texts_b))
    words = [t.split(" ") for t in texts_a + texts_b]
    symbols = list(a) + list(b)
    code: dict[str, Any] = {}
    for ws, s in zip(words, symbols, strict=True):
        assert len(s) == len(ws)
        for w, c in zip(ws, s, strict=True):
            assert code.setdefault(w, c) == c  # a word has one symbol
    assert len(set(code.values())) == len(code)  # distinct words, distinct symbols
    for x, wx in zip(symbols, words, strict=True):
        for y, wy in zip(symbols, words, strict=True):
            assert levenshtein(x, y) == levenshtein(wx, wy)


@settings(max_examples=150, deadline=None)
@given(st.lists(TEXT, max_size=4), st.lists(TEXT, max_size=4))
def test_symbols_keep_word_distances(texts_a: list[str], texts_b: list[str]) -> None:
    _check_symbols(texts_a, texts_b)
    a, b = as_symbols(texts_a, texts_b)
    assert all(isinstance(s, str) and "\n" not in s for s in a + b)


def test_a_text_with_its_own_newline_keeps_its_words() -> None:
    texts_a, texts_b = ["a b\nc d", "d"], ["a b\nc", "b\nc d"]
    _check_symbols(texts_a, texts_b)
    a, b = as_symbols(texts_a, texts_b)
    assert [len(s) for s in a + b] == [3, 1, 2, 2]


def test_past_the_symbols_the_words_themselves_come_back() -> None:
    """Words are split on single spaces on either path: a tab stays inside its word."""
    texts_a, texts_b = ["a\tb c", "d  e"], ["c a\tb", "e"]
    with mock.patch.object(text, "_SYMBOLS", 3):
        a, b = as_symbols(texts_a, texts_b)
    assert a == [["a\tb", "c"], ["d", "", "e"]]
    assert b == [["c", "a\tb"], ["e"]]
    s_a, s_b = as_symbols(texts_a, texts_b)  # the symbol path: the same words, the same distances
    assert [len(s) for s in s_a + s_b] == [len(w) for w in a + b]
    assert levenshtein(s_a[0], s_b[0]) == levenshtein(a[0], b[0]) == 2


@pytest.mark.parametrize("texts", [(["a b", "c"], ["a d"]), (["a b c", "d"], [])])
def test_as_many_distinct_words_as_symbols_still_get_symbols(texts: tuple[list[str], list[str]]) -> None:
    texts_a, texts_b = texts
    with mock.patch.object(text, "_SYMBOLS", 4):  # exactly four distinct words: symbols
        a, b = as_symbols(texts_a, texts_b)
        assert all(isinstance(s, str) for s in a + b)
    with mock.patch.object(text, "_SYMBOLS", 3):  # one word too many: the word lists
        a, b = as_symbols(texts_a, texts_b)
        assert a == [t.split(" ") for t in texts_a]
        assert b == [t.split(" ") for t in texts_b]


def test_costs_are_distances_over_gold_length_capped() -> None:
    gold, pred = ["abcd", "a", "xyz"], ["abce", "bcd", "xy"]
    got = costs(gold, pred, ints([0, 0, 1, 2, 2]), ints([0, 2, 1, 2, 0]))
    assert got.dtype == np.float64
    assert got.tolist() == pytest.approx([1 / 4, 4 / 4, 1.0, 1 / 3, 1.0])
    none = costs(gold, pred, ints([]), ints([]))
    assert (none.shape, none.dtype) == ((0,), np.dtype(np.float64))


def test_costs_of_word_lists_of_different_lengths() -> None:
    gold = [["a", "b", "c"], ["d"], ["e", "f"]]
    pred = [["a", "c"], ["d", "e", "f", "g"], ["x"]]
    got = costs(gold, pred, ints([0, 1, 2, 2]), ints([0, 1, 1, 2]))
    assert got.tolist() == pytest.approx([1 / 3, 1.0, 1.0, 1.0])
    got = costs(gold, pred, ints([0, 2]), ints([1, 1]))
    assert got.tolist() == pytest.approx([1.0, 2 / 2])
    got = costs([["a", "b", "c", "d"]], [["a", "b"], ["b", "c", "d"]], ints([0, 0]), ints([0, 1]))
    assert got.tolist() == pytest.approx([2 / 4, 1 / 4])


def test_bag_words_are_split_on_single_spaces() -> None:
    gold = EntityTexts(ints([0, 1]), ["A", "B"], ["x\ty z", "z"], 2)
    pred = EntityTexts(ints([1]), ["A"], ["x\ty"], 2)
    pairs = pair_texts(gold, pred)
    (g_items, g_doc, g_cat), (p_items, p_doc, p_cat) = pairs.bag_items(words=True)
    assert g_items.tolist() == [0, 1, 1]
    assert p_items.tolist() == [0]
    assert (g_doc.tolist(), g_cat.tolist(), p_doc.tolist(), p_cat.tolist()) == (
        [0, 0, 1],
        [0, 0, 1],
        [1],
        [0],
    )
    (g_items, _, _), (p_items, _, _) = pairs.bag_items(words=False)
    assert (g_items.tolist(), p_items.tolist()) == ([0, 1], [2])


def test_cell_results_count_matches_as_integers() -> None:
    gold = EntityTexts.from_documents([[("A", "abc"), ("B", "x")], [("A", "q")]])
    pred = EntityTexts.from_documents([[("A", "abd"), ("A", "zzz")], [("B", "q")]])
    pairs = pair_texts(gold, pred)
    for threshold, want in ((0.3, [0, 0, 0, 0]), (0.4, [1, 0, 0, 0]), (1.0, [1, 0, 0, 0])):
        got = cell_results(pairs, errors=False, threshold=threshold)
        assert got.nerval_tp.dtype == np.int64
        assert got.nerval_tp.tolist() == want
    got = cell_results(pairs, errors=True, threshold=None)
    assert got.char_saving.tolist() == pytest.approx([2 / 3, 0, 0, 0])
    assert got.word_saving.tolist() == pytest.approx([0, 0, 0, 0])


def test_word_symbols_start_at_u0100_and_skip_the_surrogates() -> None:
    """`as_symbols` numbers distinct words in order of appearance, from U+0100, past U+D7FF to U+E000."""
    a, b = as_symbols(["a b", "b c"], ["c"])
    assert (a, b) == (["\u0100\u0101", "\u0101\u0102"], ["\u0102"])
    n = 0xD800 - 0x100  # words 0 .. n-1 take U+0100 .. U+D7FF
    words = [f"w{i}" for i in range(n + 2)]
    a, b = as_symbols([" ".join(words)], [])
    assert a[0][n - 1] == "\ud7ff"
    assert a[0][n:] == "\ue000\ue001"
    assert b == []
