"""Discontinuous entities: overlap by shared positions, MUC and errors against a naive reference."""

from __future__ import annotations

import shutil
from collections import Counter
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from hand_made import ints
from nerve.analysis.errors import categorise, error_counts
from nerve.api.pipeline import score_spans
from nerve.matching.overlap import in_order, overlap_edges
from nerve.metrics.discontinuous import DiscontinuousScores, discontinuous_scores, is_discontinuous
from nerve.metrics.muc import MODES, MucOptions
from nerve.model.counts import Counts
from nerve.model.spans import Fragments, SpanArray
from nerve.report.renderers import render

Entity = tuple[int, tuple[tuple[int, int], ...], str]  # document, pieces, type


def spans_of(entities: list[Entity], n_docs: int) -> SpanArray:
    """The columns of entities of ``n_docs`` documents, with fragments."""
    counts = [len(e[1]) for e in entities]
    flat = [piece for e in entities for piece in e[1]]
    n = len(entities)
    col = np.asarray
    return SpanArray(
        col([e[0] for e in entities], dtype=np.int64).reshape(n),
        col([e[1][0][0] for e in entities], dtype=np.int64).reshape(n),
        col([e[1][-1][1] for e in entities], dtype=np.int64).reshape(n),
        col(["AB".index(e[2]) for e in entities], dtype=np.int64).reshape(n),
        ("A", "B"),
        n_docs,
        fragments=Fragments(
            np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
            col([s for s, _ in flat], dtype=np.int64).reshape(len(flat)),
            col([e for _, e in flat], dtype=np.int64).reshape(len(flat)),
        ),
    )


@st.composite
def entity(draw: st.DrawFn, n_docs: int) -> Entity:
    pieces = []
    at = draw(st.integers(0, 5))
    for _ in range(draw(st.integers(1, 3))):
        length = draw(st.integers(1, 3))
        pieces.append((at, at + length))
        at += length + draw(st.integers(1, 3))
    return draw(st.integers(0, n_docs - 1)), tuple(pieces), draw(st.sampled_from("AB"))


@st.composite
def corpora(draw: st.DrawFn, most: int = 6) -> tuple[list[Entity], list[Entity], int]:
    n_docs = draw(st.integers(1, 3))
    gold = draw(st.lists(entity(n_docs), max_size=most))
    pred = draw(st.lists(entity(n_docs), max_size=most))
    return gold, pred, n_docs


def positions(e: Entity) -> set[int]:
    return {i for s, t in e[1] for i in range(s, t)}


def naive_edges(
    gold: list[Entity], pred: list[Entity], iou: float | None, share: float | None
) -> dict[tuple[int, int], int]:
    out = {}
    for i, g in enumerate(gold):
        for j, p in enumerate(pred):
            a, b = positions(g), positions(p)
            common = len(a & b)
            if g[0] != p[0] or not common:
                continue
            if iou is not None and common / len(a | b) < iou:
                continue
            if share is not None and common / len(a) < share:
                continue
            out[i, j] = common
    return out


thresholds = st.one_of(st.none(), st.sampled_from([0.2, 0.25, 0.5, 0.75, 1.0]))


@settings(max_examples=300, deadline=None)
@given(corpora(), thresholds, thresholds)
def test_overlap_counts_shared_positions(
    corpus: tuple[list[Entity], list[Entity], int], iou: float | None, share: float | None
) -> None:
    gold, pred, n_docs = corpus
    gs, g_order = in_order(spans_of(gold, n_docs))
    ps, p_order = in_order(spans_of(pred, n_docs))
    g, p, overlap = overlap_edges(gs, ps, iou, share)
    got = {(int(g_order[a]), int(p_order[b])): int(k) for a, b, k in zip(g, p, overlap, strict=True)}
    assert got == naive_edges(gold, pred, iou, share)
    assert list(zip(g.tolist(), p.tolist(), strict=True)) == sorted(zip(g.tolist(), p.tolist(), strict=True))


def naive_muc(
    gold: list[Entity], pred: list[Entity], iou: float | None
) -> dict[str, tuple[int, int, int, int, int]]:
    """COR, INC, PAR, MIS, SPU per mode from the best matching found by trying them all."""
    edges = naive_edges(gold, pred, iou, None)
    best: tuple[int, ...] = (0, 0, 0, 0, 0)
    for order in permutations(range(max(len(gold), len(pred)))):
        tiers = [0, 0, 0, 0]  # same span and type, same span, same type, overlap
        total = 0
        for i, j in zip(range(len(gold)), order, strict=False):  # indices past the lists: unpaired
            if (i, j) in edges:
                same_span = gold[i][1] == pred[j][1]
                tiers[(0 if same_span else 2) + (0 if gold[i][2] == pred[j][2] else 1)] += 1
                total += edges[i, j]
        best = max(best, (*tiers, total))
    st_, sp, ty, ov = best[:4]
    pairs = st_ + sp + ty + ov
    mis, spu = len(gold) - pairs, len(pred) - pairs
    return {
        "strict": (st_, sp + ty + ov, 0, mis, spu),
        "exact": (st_ + sp, ty + ov, 0, mis, spu),
        "partial": (st_ + sp, 0, ty + ov, mis, spu),
        "type": (st_ + ty, sp + ov, 0, mis, spu),
    }


@settings(max_examples=200, deadline=None)
@given(corpora(most=4), thresholds)
def test_muc_modes_match_a_naive_reference(
    corpus: tuple[list[Entity], list[Entity], int], iou: float | None
) -> None:
    gold, pred, n_docs = corpus
    result = score_spans(spans_of(gold, n_docs), spans_of(pred, n_docs), overlap=MucOptions(min_iou=iou))
    assert result.muc is not None
    want = naive_muc(gold, pred, iou)
    for mode in MODES:
        o = result.muc.modes[mode].overall
        assert (o.cor, o.inc, o.par, o.mis, o.spu) == want[mode], mode


def test_crossing_extents_without_shared_positions_do_not_overlap() -> None:
    gold = spans_of([(0, ((0, 2), (6, 8)), "A")], 1)
    pred = spans_of([(0, ((3, 5),), "A")], 1)
    result = score_spans(gold, pred, overlap=MucOptions())
    assert result.muc is not None
    partial = result.muc.modes["partial"].overall
    assert (partial.par, partial.mis, partial.spu) == (0, 1, 1)
    cats = categorise(gold, pred)
    assert not cats.gold_overlapping.any()
    # IoU by piece lengths: 2 shared positions of 4 + 2 - 2 is 1/2, where the extents give 2/8.
    inner = spans_of([(0, ((0, 2),), "A")], 1)
    assert score_spans(gold, inner, overlap=MucOptions(min_iou=0.5)).muc.modes["partial"].overall.par == 1  # type: ignore[union-attr]


@settings(max_examples=200, deadline=None)
@given(corpora())
def test_error_categories_add_up_to_exact_and_muc(corpus: tuple[list[Entity], list[Entity], int]) -> None:
    gold, pred, n_docs = corpus
    g, p = spans_of(gold, n_docs), spans_of(pred, n_docs)
    cats = categorise(g, p)
    total, by_type = error_counts(g, p, cats)
    result = score_spans(g, p, overlap=MucOptions())
    for name, c in by_type.items():
        exact = result.exact.counts[name]
        assert c.correct == exact.tp
        assert c.type + c.boundary + c.boundary_type + c.missed == exact.fn
        assert c.pred_type + c.pred_boundary + c.pred_boundary_type + c.spurious == exact.fp
    assert result.muc is not None
    partial = result.muc.modes["partial"].overall
    assert partial.par == total.boundary + total.boundary_type
    assert partial.cor == total.correct + total.type
    assert (partial.mis, partial.spu) == (total.missed, total.spurious)
    strict = result.muc.modes["strict"].overall
    assert strict.inc == total.type + total.boundary + total.boundary_type
    # An entity is flagged overlapping exactly when it shares a position with one of the other side.
    edges = naive_edges(gold, pred, None, None)
    assert cats.gold_overlapping.tolist() == [
        any((i, j) in edges for j in range(len(pred))) for i in range(len(gold))
    ]
    assert cats.pred_overlapping.tolist() == [
        any((i, j) in edges for i in range(len(gold))) for j in range(len(pred))
    ]


# --- exact scores over discontinuous entities only ------------------------------------------------


def naive_discontinuous(gold: list[Entity], pred: list[Entity]) -> tuple[int, int, int] | None:
    """TP, FP, FN over entities of more than one piece: a multiset intersection."""
    g = Counter(e for e in gold if len(e[1]) > 1)
    p = Counter(e for e in pred if len(e[1]) > 1)
    if not g and not p:
        return None
    tp = sum((g & p).values())
    return tp, sum(p.values()) - tp, sum(g.values()) - tp


@settings(max_examples=300, deadline=None)
@given(corpora())
def test_discontinuous_scores_match_a_naive_reference(corpus: tuple[list[Entity], list[Entity], int]) -> None:
    gold, pred, n_docs = corpus
    result = score_spans(spans_of(gold, n_docs), spans_of(pred, n_docs))
    # All entities: a multiset of (document, pieces, type), every piece equal for a match.
    tp = sum((Counter(gold) & Counter(pred)).values())
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (tp, len(pred) - tp, len(gold) - tp)
    want = naive_discontinuous(gold, pred)
    if want is None:
        assert result.discontinuous is None
        assert "discontinuous" not in result.to_dict()
        return
    assert result.discontinuous is not None
    s = result.discontinuous.score
    assert (s.tp, s.fp, s.fn) == want
    assert s.precision == (want[0] / (want[0] + want[1]) if want[0] + want[1] else 0.0)
    assert s.recall == (want[0] / (want[0] + want[2]) if want[0] + want[2] else 0.0)
    assert result.to_dict()["discontinuous"]["tp"] == want[0]


def test_merged_results_add_their_discontinuous_counts() -> None:
    both = spans_of([(0, ((0, 1), (2, 3)), "A")], 1)
    flat = spans_of([(0, ((0, 1),), "A")], 1)
    a, b = score_spans(both, both), score_spans(flat, flat)
    assert b.discontinuous is None
    merged = a + b + a
    assert merged.discontinuous is not None
    assert (merged.discontinuous.score.tp, merged.discontinuous.score.fn) == (2, 0)


def _dkpro_pred(tmp_path: Path) -> Path:
    """The dkpro sample with one discontinuous entity's second piece moved: ``is n`` becomes ``is an``."""
    pred = tmp_path / "pred"
    shutil.copytree(DKPRO, pred)
    ann = pred / "document0d.ann"
    text = ann.read_text(encoding="utf-8")
    assert "T2\tToken 5 7;9 10\tis n\n" in text
    ann.write_text(
        text.replace("T2\tToken 5 7;9 10\tis n\n", "T2\tToken 5 7;8 10\tis an\n"), encoding="utf-8"
    )
    return pred


DKPRO = Path(__file__).parents[1] / "data" / "formats" / "brat" / "dkpro"


def test_dkpro_discontinuous_scores(tmp_path: Path) -> None:
    same = nerve.score(str(DKPRO), str(DKPRO))
    assert same.discontinuous is not None
    assert (same.discontinuous.score.tp, same.discontinuous.score.gold) == (2, 2)
    result = nerve.score(str(DKPRO), str(_dkpro_pred(tmp_path)), metrics="exact,muc")
    assert result.discontinuous is not None
    s = result.discontinuous.score
    assert (s.tp, s.fp, s.fn, s.precision, s.recall) == (1, 1, 1, 0.5, 0.5)
    assert (result.micro.tp, result.micro.gold) == (13, 14)
    # The moved piece still shares positions 5, 6 and 9 with the gold: a partial match in MUC.
    assert result.muc is not None
    assert result.muc.modes["partial"].overall.par == 1


@pytest.mark.parametrize("output", ["table", "json", "markdown", "csv", "latex"])
def test_every_renderer_shows_discontinuous_scores(output: str, tmp_path: Path) -> None:
    result = nerve.score(str(DKPRO), str(_dkpro_pred(tmp_path)))
    text = render(result, output)
    assert "discontinuous" in text.lower()
    assert ("0.5" if output in ("json", "csv") else "50.00") in text
    flat = score_spans([[(0, 2, "A")]], [[(0, 2, "A")]])
    assert "discontinuous" not in render(flat, output).lower()


# Discontinuous spans against contiguous ones, by hand (cases the mutation run found unchecked)


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


def test_discontinuous_gold_does_not_overlap_a_span_between_its_pieces() -> None:
    # Gold X has pieces 0-2 and 5-7; the prediction 3-4 lies inside its extent, in no piece.
    gold = SpanArray(
        ints([0]),
        ints([0]),
        ints([7]),
        ints([0]),
        ("X",),
        1,
        fragments=Fragments(ints([0, 2]), ints([0, 5]), ints([2, 7])),
    )
    pred = SpanArray(ints([0]), ints([3]), ints([4]), ints([0]), ("X",), 1)
    result = score_spans(gold, pred, overlap=MucOptions())
    muc = result.muc
    assert muc is not None
    assert muc.pairs == []
    for mode in MODES:
        overall = muc.modes[mode].overall
        assert (overall.cor, overall.inc, overall.par, overall.mis, overall.spu) == (0, 0, 0, 1, 1)


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


def test_discontinuous_scores_keep_beta_when_added() -> None:
    total = DiscontinuousScores(Counts(1, 1, 0), beta=2.0) + DiscontinuousScores(Counts(1, 0, 2), beta=2.0)
    assert total.counts == Counts(2, 1, 2)
    assert total.beta == 2.0
    # tp 2, fp 1, fn 2: P 2/3, R 1/2; F2 = 5PR / (4P + R) = (5/3) / (8/3 + 1/2) = 10/19.
    assert total.score.fbeta == pytest.approx(10 / 19)
    assert total.score.f1 == pytest.approx(4 / 7)  # 2PR / (P + R) = (2/3) / (7/6)
