"""`nerve.matching.exact` and `nerve.matching.overlap` helpers on hand-made discontinuous spans.

Piece rows, fragment matching, the pieces of a span, their lengths and one document's spans:
each checked field by field against what the spans say, or against a multiset count written here.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from nerve.matching.exact import exact_match_fragments, piece_rows
from nerve.matching.overlap import lengths, one_document, pieces
from nerve.model.spans import Fragments, SpanArray

LABELS = ("LOC", "PER")


def ints(values: list[int]) -> np.ndarray[Any, np.dtype[np.int64]]:
    return np.asarray(values, dtype=np.int64)


def spans(
    rows: list[tuple[int, int, list[tuple[int, int]]]], n_docs: int = 2, split: bool = True
) -> SpanArray:
    """``(doc, label, pieces)`` per span; with ``split`` the pieces are kept as fragments."""
    offsets = np.cumsum([0, *(len(p) for _, _, p in rows)])
    flat = [piece for _, _, p in rows for piece in p]
    return SpanArray(
        ints([d for d, _, _ in rows]),
        ints([p[0][0] for _, _, p in rows]),
        ints([p[-1][1] for _, _, p in rows]),
        ints([lab for _, lab, _ in rows]),
        LABELS,
        n_docs,
        fragments=Fragments(ints(offsets.tolist()), ints([s for s, _ in flat]), ints([e for _, e in flat]))
        if split
        else None,
    )


GOLD = [(0, 1, [(0, 2), (5, 7)]), (1, 0, [(3, 4)]), (1, 1, [(1, 2), (4, 5), (8, 9)])]


def test_piece_rows_pad_with_minus_one() -> None:
    rows = piece_rows(spans(GOLD), 3)
    assert rows.dtype == np.int64
    assert rows.tolist() == [
        [0, 1, 0, 2, 5, 7, -1, -1],
        [1, 0, 3, 4, -1, -1, -1, -1],
        [1, 1, 1, 2, 4, 5, 8, 9],
    ]
    contiguous = spans([(0, 0, [(2, 6)]), (1, 1, [(0, 1)])], split=False)
    assert piece_rows(contiguous, 2).tolist() == [[0, 0, 2, 6, -1, -1], [1, 1, 0, 1, -1, -1]]
    assert piece_rows(contiguous, 1).tolist() == [[0, 0, 2, 6], [1, 1, 0, 1]]


def brute_matches(gold: list[Any], pred: list[Any]) -> list[int]:
    """Per label, the spans in both sides, each duplicate matched at most once."""
    key = lambda s: (s[0], s[1], tuple(s[2]))  # noqa: E731
    both = Counter(map(key, gold)) & Counter(map(key, pred))
    out = [0] * len(LABELS)
    for (_, label, _), n in both.items():
        out[label] += n
    return out


def test_fragments_match_only_when_every_piece_does() -> None:
    pred = [
        (0, 1, [(0, 2), (5, 7)]),  # equal
        (0, 1, [(0, 2), (5, 7)]),  # a duplicate: one gold to match
        (1, 0, [(3, 4)]),  # equal
        (1, 1, [(1, 2), (8, 9)]),  # the same extent, a piece short
    ]
    got = exact_match_fragments(spans(GOLD), spans(pred), len(LABELS))
    assert got.dtype == np.int64
    assert got.tolist() == brute_matches(GOLD, pred) == [1, 1]
    only_gold = exact_match_fragments(spans(GOLD), spans([]), len(LABELS))
    assert (only_gold.tolist(), only_gold.dtype) == ([0, 0], np.dtype(np.int64))


def test_contiguous_spans_match_by_extent_and_type() -> None:
    gold = [(0, 0, [(0, 2)]), (0, 0, [(0, 2)]), (0, 1, [(3, 5)]), (1, 1, [(3, 5)])]
    pred = [(0, 0, [(0, 2)]), (0, 1, [(0, 2)]), (0, 1, [(3, 5)]), (1, 1, [(3, 4)])]
    got = exact_match_fragments(spans(gold, split=False), spans(pred, split=False), len(LABELS))
    assert got.dtype == np.int64
    assert got.tolist() == brute_matches(gold, pred) == [1, 1]
    mixed = exact_match_fragments(spans(gold, split=False), spans(pred), len(LABELS))
    assert mixed.tolist() == [1, 1]


def test_no_span_on_either_side_matches_nothing() -> None:
    got = exact_match_fragments(spans([], split=False), spans([], split=False), 3)
    assert (got.tolist(), got.dtype) == ([0, 0, 0], np.dtype(np.int64))


def test_pieces_are_rows_of_their_own() -> None:
    source = spans(GOLD, n_docs=3)
    rows, owner = pieces(source)
    assert owner.tolist() == [0, 0, 1, 2, 2, 2]
    assert rows.doc.tolist() == [0, 0, 1, 1, 1, 1]
    assert list(zip(rows.start.tolist(), rows.end.tolist(), strict=True)) == [
        (0, 2),
        (5, 7),
        (3, 4),
        (1, 2),
        (4, 5),
        (8, 9),
    ]
    assert rows.label.tolist() == [1, 1, 0, 1, 1, 1]
    assert (rows.labels, rows.n_docs, rows.fragments) == (LABELS, 3, None)
    contiguous = spans([(0, 0, [(2, 6)])], split=False)
    same, whole = pieces(contiguous)
    assert same is contiguous
    assert (whole.tolist(), whole.dtype) == ([0], np.dtype(np.int64))


def test_lengths_sum_the_pieces() -> None:
    got = lengths(spans(GOLD))
    assert (got.tolist(), got.dtype) == ([4, 1, 3], np.dtype(np.int64))
    assert lengths(spans(GOLD, split=False)).tolist() == [7, 1, 8]


def test_one_document_spans() -> None:
    got = one_document(ints([0, 4]), ints([2, 6]), ints([1, 0]), ["LOC", "PER"])
    assert (got.doc.tolist(), got.doc.dtype) == ([0, 0], np.dtype(np.int64))
    assert (got.start.tolist(), got.end.tolist(), got.label.tolist()) == ([0, 4], [2, 6], [1, 0])
    assert (got.labels, got.n_docs, len(got)) == (("LOC", "PER"), 1, 2)
    assert one_document(ints([]), ints([]), ints([]), []).n_docs == 1
