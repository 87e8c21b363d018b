"""The last behaviour the mutation run found unchecked: how the assignment breaks ties, the 64-bit
bound of exact matching, overlap weights at huge offsets, discontinuous spans against contiguous
ones, and MUC results of accumulators and options.

Small hand-made inputs only, so these run inside mutmut's ``mutants/`` tree too.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

import nerve
from nerve.api import score_spans
from nerve.errors import OptionError, SchemeError
from nerve.matching import exact_match_types
from nerve.matching.assignment import best_edges, max_matching
from nerve.metrics.discontinuous import discontinuous_scores, is_discontinuous
from nerve.metrics.exact import ExactAccumulator
from nerve.metrics.muc import MODES, MucOptions, match_document, muc_score
from nerve.model.blocks import TagBlock
from nerve.model.spans import Fragments, SpanArray
from test_mutation_more import IOB2, ints, vocab


def first_best_map(rows: list[int], cols: list[int]) -> list[bool]:
    """The edges of the first maximum matching among the maps of rows to columns, in
    `itertools.permutations` order (one component, no more rows than columns, weights 1)."""
    edges = set(zip(rows, cols, strict=True))
    n_rows, n_cols = max(rows) + 1, max(cols) + 1
    best: tuple[int, ...] = ()
    best_size = -1
    for perm in permutations(range(n_cols), n_rows):
        size = sum((r, c) in edges for r, c in enumerate(perm))
        if size > best_size:
            best, best_size = perm, size
    return [best[r] == c for r, c in zip(rows, cols, strict=True)]


# The assignment: ties go to the first optimal map in the order of the rows


def test_a_square_component_breaks_ties_by_its_rows() -> None:
    # Rows and columns 0-2, every edge but the diagonal: two perfect matchings, 0-1 1-2 2-0 and
    # 0-2 1-0 2-1. The first in the order of the rows' maps wins (mapping columns would pick the other).
    rows, cols = [0, 0, 1, 1, 2, 2], [1, 2, 0, 2, 0, 1]
    taken = best_edges(ints(rows), ints(cols), np.ones(6)).tolist()
    assert taken == [True, False, False, True, True, False]
    assert taken == first_best_map(rows, cols)


@pytest.mark.parametrize(
    ("rows", "cols"),
    [
        # 5 rows and 5 columns: still solved map by map, as the largest small components are.
        ([0, 0, 0, 1, 2, 3, 3, 4, 4], [0, 2, 4, 3, 1, 3, 4, 1, 4]),
        # 3 rows and 7 columns, the most columns a small component has.
        ([0, 0, 0, 0, 0, 1, 1, 1, 2, 2], [1, 3, 4, 5, 6, 0, 2, 4, 0, 1]),
        # 4 rows and 7 columns.
        ([0, 0, 0, 1, 1, 1, 1, 1, 2, 3], [0, 1, 4, 0, 2, 3, 5, 6, 6, 6]),
    ],
)
def test_components_at_the_small_limit_take_the_first_optimal_map(rows: list[int], cols: list[int]) -> None:
    assert max_matching(ints(rows), ints(cols)).tolist() == first_best_map(rows, cols)


# Exact matching: the 64-bit bound of the span keys


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


# Overlap matching: the preference by tier, then total overlap


def test_a_same_type_overlap_beats_a_larger_overlap_of_another_type() -> None:
    # Gold A 0-10: prediction B 0-9 overlaps more, but prediction A 9-11 has the type.
    assert match_document([(0, 10, "A")], [(0, 9, "B"), (9, 11, "A")]) == [(0, 1)]


def test_the_larger_overlap_wins_with_spans_of_a_hundred_trillion_positions() -> None:
    # Gold A 100-(100+L) has its exact prediction; gold A 2 is overlapped by two predictions,
    # by 5 and by 6 positions: the larger overlap must win though the weights are near 2**53
    # (within the bound of the matching's weights, k (k + 1)**3 (S + 1) < 2**53).
    n = 135695708282918
    o = 100
    gold = [(0, 5, "A"), (10, 11, "A"), (o, o + n, "A"), (o + n + 10, o + n + 30, "A")]
    pred = [
        (0, 3, "A"),
        (2, 5, "A"),
        (50, 51, "A"),  # the gold 10-11 and the prediction 50-51 overlap nothing
        (o, o + n, "A"),
        (o + n - 1, o + n + 15, "A"),
        (o + n + 24, o + n + 30, "A"),
    ]
    assert match_document(gold, pred) == [(0, 0), (2, 3), (3, 5)]


# Discontinuous spans against contiguous ones


def _pieces_0_2_and_5_7() -> SpanArray:
    fragments = Fragments(ints([0, 2]), ints([0, 5]), ints([2, 7]))
    return SpanArray(ints([0]), ints([0]), ints([7]), ints([0]), ("X",), 1, fragments=fragments)


def _contiguous_0_7() -> SpanArray:
    return SpanArray(ints([0]), ints([0]), ints([7]), ints([0]), ("X",), 1)


@pytest.mark.parametrize("gold_is_discontinuous", [True, False])
def test_a_contiguous_span_over_the_extent_of_pieces_is_not_the_same_span(
    gold_is_discontinuous: bool,
) -> None:
    pieces, whole = _pieces_0_2_and_5_7(), _contiguous_0_7()
    gold, pred = (pieces, whole) if gold_is_discontinuous else (whole, pieces)
    muc = score_spans(gold, pred, overlap=MucOptions()).muc
    assert muc is not None
    strict = muc.modes["strict"].overall
    assert (strict.cor, strict.inc, strict.mis, strict.spu) == (0, 1, 0, 0)
    # They share the 4 positions of the pieces, of 7: IoU 4/7, below 0.6.
    muc = score_spans(gold, pred, overlap=MucOptions(min_iou=0.6)).muc
    assert muc is not None
    assert muc.pairs == []
    strict = muc.modes["strict"].overall
    assert (strict.cor, strict.inc, strict.mis, strict.spu) == (0, 0, 1, 1)


def test_is_discontinuous_of_contiguous_spans() -> None:
    spans = SpanArray(ints([0, 0]), ints([0, 3]), ints([2, 5]), ints([0, 0]), ("X",), 1)
    assert is_discontinuous(spans).tolist() == [False, False]
    assert is_discontinuous(_pieces_0_2_and_5_7()).tolist() == [True]


def test_discontinuous_scores_default_and_given_beta() -> None:
    scores = discontinuous_scores(_contiguous_0_7(), _pieces_0_2_and_5_7())
    assert scores is not None
    assert scores.beta == 1.0
    part = score_spans(_pieces_0_2_and_5_7(), _pieces_0_2_and_5_7(), beta=2.0).discontinuous
    assert part is not None
    assert part.beta == 2.0
    assert part.score.fbeta == 1.0


# Tags: a side's letters refused by its own scheme


def test_gold_letters_outside_the_gold_scheme_name_the_gold_side() -> None:
    with pytest.raises(SchemeError) as info:
        nerve.score([["B-PER"]], [["B-PER"]], gold_scheme="IO", pred_scheme="IOB2", repair="begin")
    assert str(info.value) == "the gold tags use B, which scheme IO does not have"


# MUC results of an accumulator, and of muc_score


def test_accumulator_muc_keeps_the_options_and_the_documents() -> None:
    options = MucOptions(min_iou=0.5, document_average=True)
    v = vocab(["O", "B-PER"])
    for read in (False, True):
        acc = ExactAccumulator(v, "begin", IOB2, ("g", "p"), overlap=options)
        if read:
            starts = np.asarray([True, False, True])
            line = np.arange(1, 4, dtype=np.int64)
            acc.update(
                TagBlock(
                    v.add(["B-PER", "O", "B-PER"]), v.add(["B-PER", "O", "O"]), starts, starts, line, line
                )
            )
        muc = acc.finish().muc
        assert muc is not None
        assert muc.overlap == options
        assert muc.per_document is not None
        assert set(muc.per_document) == set(MODES)
        cor = muc.per_document["strict"]["cor"].tolist()
        assert cor == ([0, 1, 0] if read else [])


def test_accumulator_with_types_and_nothing_read_has_no_type_rows() -> None:
    acc = ExactAccumulator(vocab(["O", "B-PER"]), "begin", IOB2, ("g", "p"), overlap=MucOptions())
    muc = acc.finish().muc
    assert muc is not None
    for mode in MODES:
        assert muc.modes[mode].per_type == {}
        assert muc.modes[mode].overall.pos == 0
        assert muc.to_dict()[mode]["per_type"] == {}


def test_document_columns_count_in_integers() -> None:
    result = muc_score([[(0, 2, "X")], [(0, 1, "Y")]], [[(0, 2, "X")], []], document_average=True)
    assert result.per_document is not None
    for columns in result.per_document.values():
        for values in columns.values():
            assert values.dtype == np.int64
    assert result.per_document["strict"]["cor"].tolist() == [1, 0]


@pytest.mark.parametrize("option", ["min_iou", "min_gold_share"])
@pytest.mark.parametrize("value", [0, 2])
def test_muc_options_refuse_thresholds_outside_zero_to_one(option: str, value: float) -> None:
    with pytest.raises(OptionError) as info:
        MucOptions(**{option: value})
    assert str(info.value) == f"{option}: expected a fraction in (0, 1], but got {value}"
