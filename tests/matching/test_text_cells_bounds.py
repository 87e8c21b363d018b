"""What `nerve.matching.text_cells` promises besides the scores: the work it does and its memory.

Small cells are compared in batches of `CHUNK` pairs and only the pairs that can save something
reach the assignment; a dense block is filled a band of gold rows at a time, with a distance
cutoff; OI-Nerval at threshold 1 compares no pair. Each test records the calls made to
rapidfuzz and to the assignment, on hand-made cells, and checks the scores against costs worked
out here.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import permutations
from typing import Any
from unittest import mock

import numpy as np
import pytest
import rapidfuzz.process

from nerve.errors import NerveError
from nerve.matching import text_cells
from nerve.matching.text import pair_texts
from nerve.matching.text_cells import BIG, cell_results
from nerve.metrics.text import score_texts
from nerve.model.texts import EntityTexts
from text_reference import GOLD, PRED, levenshtein

Doc = list[tuple[str, str]]


def pairs_of(gold: list[Doc], pred: list[Doc]) -> Any:
    return pair_texts(EntityTexts.from_documents(gold), EntityTexts.from_documents(pred))


@contextmanager
def recorded(name: str, calls: list[tuple[Any, ...]]) -> Iterator[None]:
    """``text_cells.<name>`` still works, and each call's arguments are kept in ``calls``."""
    real = getattr(text_cells, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    with mock.patch.object(text_cells, name, spy):
        yield


def cost(g: str, p: str) -> float:
    return min(levenshtein(g, p) / max(len(g), 1), 1.0)


def test_small_cells_are_compared_in_batches_of_chunk_pairs() -> None:
    # Ten cells of one gold and one prediction each: ten pairs, batched four by four.
    gold = [[(f"C{i}", "abcd"[: 1 + i % 4]) for i in range(10)]]
    pred = [[(f"C{i}", "abxd"[: 1 + i % 3]) for i in range(10)]]
    calls: list[tuple[Any, ...]] = []
    with mock.patch.object(text_cells, "CHUNK", 4), recorded("distances", calls):
        got = cell_results(pairs_of(gold, pred), errors=False, threshold=0.5)
    sizes = [len(a) for a, _ in calls]
    assert sum(sizes) == 10  # every pair once
    assert max(sizes) <= 4
    assert len(sizes) == math.ceil(10 / 4)  # in the fewest batches
    want = [int(cost(g, p) <= 0.5) for (_, g), (_, p) in zip(gold[0], pred[0], strict=True)]
    assert got.nerval_tp.tolist() == want


def test_a_single_batch_when_the_pairs_fit() -> None:
    gold = [[("A", "ab"), ("A", "cd"), ("B", "x")]]
    pred = [[("A", "ab"), ("B", "y"), ("B", "x")]]
    calls: list[tuple[Any, ...]] = []
    with mock.patch.object(text_cells, "CHUNK", 4), recorded("distances", calls):
        got = cell_results(pairs_of(gold, pred), errors=False, threshold=0.0)
    assert [len(a) for a, _ in calls] == [4]
    assert got.nerval_tp.tolist() == [1, 1]


def test_only_pairs_that_save_something_reach_the_assignment() -> None:
    # One cell: "abc"/"abd" saves characters but not words; "ab"/"xyz" saves nothing.
    gold = [[("A", "abc"), ("A", "ab"), ("A", "u v")]]
    pred = [[("A", "abd"), ("A", "xyz"), ("A", "u w")]]
    edges: list[tuple[Any, ...]] = []
    with recorded("best_edges", edges):
        got = cell_results(pairs_of(gold, pred), errors=True, threshold=None)
    (r, c, w), (wr, wc, ww) = edges  # characters, then words
    g_texts, p_texts = [t for _, t in gold[0]], [t for _, t in pred[0]]
    want = sorted((i, j) for i, g in enumerate(g_texts) for j, p in enumerate(p_texts) if cost(g, p) < 1.0)
    assert sorted(zip(r.tolist(), c.tolist(), strict=True)) == want
    assert np.all(w > 0)
    assert sorted(zip(wr.tolist(), wc.tolist(), strict=True)) == [(2, 2)]  # "u v"/"u w": half the words
    assert ww.tolist() == pytest.approx([0.5])
    assert got.char_saving.tolist() == pytest.approx([(1 - 1 / 3) + (1 - 1 / 3)])
    assert got.word_saving.tolist() == pytest.approx([0.5])


def test_nerval_keeps_only_the_pairs_within_the_threshold() -> None:
    gold = [[("A", "abcd"), ("A", "wxyz")]]
    pred = [[("A", "abce"), ("A", "abzz"), ("A", "wxyz")]]
    matched: list[tuple[Any, ...]] = []
    with recorded("max_matching", matched):
        got = cell_results(pairs_of(gold, pred), errors=False, threshold=0.25)
    ((r, c),) = matched
    assert sorted(zip(r.tolist(), c.tolist(), strict=True)) == [(0, 0), (1, 2)]
    assert got.nerval_tp.tolist() == [2]


def test_equal_texts_are_not_compared_word_by_word() -> None:
    gold = [[("A", "a b"), ("A", "c d")]]
    pred = [[("A", "a b"), ("A", "c e")]]
    calls: list[tuple[Any, ...]] = []
    with recorded("distances", calls):
        got = cell_results(pairs_of(gold, pred), errors=True, threshold=None)
    (chars, _), (words, _) = calls
    assert len(chars) == 4  # the four pairs of the cell
    assert len(words) == 3  # all but "a b"/"a b"
    assert got.word_saving.tolist() == pytest.approx([1 + 0.5])


@pytest.mark.parametrize("big", [1, 1 << 60])
def test_nerval_at_threshold_one_compares_no_pair(big: int) -> None:
    gold = [[("A", "abc"), ("A", "x"), ("B", "y")], [("B", "q")]]
    pred = [[("A", "zzzz"), ("B", "q"), ("B", "r")], []]
    refuse = mock.Mock(side_effect=AssertionError("a pair was compared"))
    with (
        mock.patch.object(text_cells, "BIG", big),
        mock.patch.object(text_cells, "distances", refuse),
        mock.patch.object(rapidfuzz.process, "cdist", refuse),
    ):
        got = cell_results(pairs_of(gold, pred), errors=False, threshold=1.0)
    assert got.nerval_tp.tolist() == [1, 1, 0, 0]  # min(gold, predicted) per cell


def _bands(gold: list[Doc], pred: list[Doc]) -> tuple[list[tuple[list[str], int, int]], Any]:
    """Each band's gold texts, number of predictions and cutoff, with every cell dense."""
    bands: list[tuple[list[str], int, int]] = []
    real = rapidfuzz.process.cdist

    def spy(queries: list[str], choices: list[str], **kwargs: Any) -> Any:
        bands.append((list(queries), len(choices), kwargs.get("score_cutoff", -1)))
        return real(queries, choices, **kwargs)

    with (
        mock.patch.object(text_cells, "BIG", 1),
        mock.patch.object(text_cells, "CHUNK", 2),
        mock.patch.object(rapidfuzz.process, "cdist", spy),
    ):
        got = cell_results(pairs_of(gold, pred), errors=False, threshold=0.5)
    return bands, got


def test_dense_blocks_are_filled_a_band_of_rows_at_a_time() -> None:
    # Cell A: three predictions, so bands of max(1, 2 // 3) = 1 gold row.
    # Cell B: one prediction, so bands of 2 // 1 = 2 gold rows.
    a_gold = ["x", "abcd", "ab", "a", "abcde"]
    b_gold = ["q", "qq", "qqq", "r", "rr"]
    gold = [[("A", t) for t in a_gold] + [("B", t) for t in b_gold]]
    pred = [[("A", "ab"), ("A", "x"), ("A", "abce"), ("B", "qq")]]
    bands, got = _bands(gold, pred)
    assert [b[0] for b in bands] == [[t] for t in a_gold] + [b_gold[0:2], b_gold[2:4], b_gold[4:]]
    assert [b[1] for b in bands] == [3] * 5 + [1] * 3
    # The cutoff: the band's longest gold length less one (pairs past it cost 1 anyway).
    assert [b[2] for b in bands] == [max(max(map(len, b[0])) - 1, 0) for b in bands]
    assert bands[0][2] == 0
    # The most one-to-one matches, trying every gold for each prediction.
    a_pred = ("ab", "x", "abce")
    want_a = max(
        sum(cost(a_gold[g], p) <= 0.5 for g, p in zip(take, a_pred, strict=True))
        for take in permutations(range(len(a_gold)), len(a_pred))
    )
    assert want_a == 3
    assert got.nerval_tp.tolist() == [want_a, 1]


def test_a_band_holds_at_least_one_gold_row() -> None:
    """However many predictions, a band holds at least one gold row and at most CHUNK pairs."""
    gold = [[("A", t) for t in ("ab", "cd", "ef")]]
    pred = [[("A", t) for t in ("ab", "cd")]]
    bands, got = _bands(gold, pred)
    assert [len(b[0]) for b in bands] == [1, 1, 1]
    assert all(len(b[0]) * b[1] <= 2 for b in bands)
    assert got.nerval_tp.tolist() == [2]
    assert math.isclose(got.char_saving.sum(), 0.0)


def test_each_batch_of_whole_cells_is_solved_before_the_next() -> None:
    # Forty documents of one cell each (three golds, three predictions: 9 pairs a cell). With
    # batches cut after 20 pairs, no cell is split between two assignments, and no assignment
    # holds the pairs of more than one batch: memory is one batch, not every document's pairs.
    words = ["alpha", "alpine", "alps", "bravo", "brave"]
    gold = [[("X", words[(d + k) % 5]) for k in range(3)] for d in range(40)]
    pred = [[("X", words[(d + 2 * k) % 5]) for k in range(3)] for d in range(40)]
    calls: list[tuple[Any, ...]] = []
    with mock.patch.object(text_cells, "CHUNK", 20), recorded("best_edges", calls):
        got = cell_results(pairs_of(gold, pred), errors=True, threshold=None)
    assert len(calls) >= 2 * math.ceil(40 * 9 / (20 + 9))  # char and word, per batch
    seen: set[int] = set()
    for rows, _cols, _w in calls[::2]:
        docs = {int(r) // 3 for r in rows.tolist()}  # three golds a document, in order
        assert len(docs) <= 3  # at most 20 pairs and the rest of the cell the cut fell in
        assert not docs & seen  # a cell is never split
        seen |= docs
    for d in range(40):  # the exact assignment of each cell, by brute force
        best = max(
            sum(1 - cost(g, p) for (_, g), (_, p) in zip(gold[d], perm, strict=True))
            for perm in permutations(pred[d])
        )
        assert got.char_saving[d] == pytest.approx(best)


def test_a_cell_too_large_for_one_block_is_refused_with_the_fix() -> None:
    gold = [[("X", f"g{i}") for i in range(5)], [("Y", "a")]]
    pred = [[("X", f"p{i}") for i in range(4)], [("Y", "a")]]
    with mock.patch.object(text_cells, "MAX_BLOCK", 19), pytest.raises(NerveError) as caught:
        cell_results(pairs_of(gold, pred), errors=True, threshold=0.3)
    message = str(caught.value)
    assert message.startswith("document 1, category X: 5 gold and 4 predicted entities")
    assert message.endswith("score shorter documents (documents='sentence', or smaller files in a directory)")
    with mock.patch.object(text_cells, "MAX_BLOCK", 20):
        assert cell_results(pairs_of(gold, pred), errors=True, threshold=0.3).nerval_tp.tolist() == [
            0,
            0,
            0,
            1,
        ]


# Progress, and a cell too big to assign


def test_progress_of_small_cells_reports_every_pair_done() -> None:
    calls: list[tuple[int, int]] = []
    score_texts(GOLD, PRED, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(2, 2)]


def test_progress_is_not_called_when_nothing_is_paired() -> None:
    calls: list[tuple[int, int]] = []
    r = score_texts(GOLD, PRED, metrics=["bow", "boe"], progress=lambda d, t: calls.append((d, t)))
    assert calls == []
    assert r.threshold is None


def test_progress_of_a_big_cell_comes_after_the_small_ones() -> None:
    """A cell of exactly `BIG` pairs is solved as a dense block, with its own progress call."""
    side = 512
    assert side * side == BIG
    gold = [[("PER", "Ann")], [("PER", f"name {i}") for i in range(side)]]
    pred = [[("PER", "Anne")], [("PER", f"name {i + 1}") for i in range(side)]]
    calls: list[tuple[int, int]] = []
    r = score_texts(gold, pred, progress=lambda done, total: calls.append((done, total)))
    total = 1 + BIG
    assert calls == [(1, total), (total, total)]
    assert r.nerval is not None
    assert r.nerval.total.tp == side  # "name i" against "name i+1"; "Ann" against "Anne" costs 1/3


def test_a_cell_too_big_to_assign_is_refused_naming_document_category_and_size() -> None:
    n = 12_000  # 144,000,000 pairs: 1.07 GiB of float64
    gold = [[("X", "a")], [("X", "g")] * n]
    pred = [[("X", "a")], [("X", "p")] * n]
    with pytest.raises(NerveError) as info:
        score_texts(gold, pred, metrics=["ecer-ewer"])
    message = str(info.value)
    assert message.startswith("document 2, category X: 12,000 gold and 12,000 predicted entities;")
    assert "needs a 1.1 GiB cost block (at most 1 GiB)" in message
    assert "documents='sentence'" in message
