"""The error taxonomy: the decision table case by case, sums against exact and MUC, the confusion matrix."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.analysis.confusion import MISSED, SPURIOUS, confusion
from nerve.analysis.errors import BOUNDARY, CATEGORIES, categorise, error_counts
from nerve.api import score_aligned, score_spans
from nerve.metrics.muc import MucOptions
from nerve.model.spans import SpanArray

Doc = list[tuple[int, int, str]]


def _sides(gold: list[Doc], pred: list[Doc]) -> tuple[SpanArray, SpanArray]:
    g = SpanArray.from_documents(gold)
    p = SpanArray.from_documents(pred, labels=g.labels)
    return SpanArray.from_documents(gold, labels=p.labels), p


def _named(
    gold: list[Doc], pred: list[Doc]
) -> tuple[list[str], list[str], list[str], list[bool], list[bool]]:
    g, p = _sides(gold, pred)
    c = categorise(g, p)
    kinds = [BOUNDARY[k] if k >= 0 else "-" for k in c.boundary.tolist()]
    return (
        [CATEGORIES[k] for k in c.gold.tolist()],
        [CATEGORIES[k] for k in c.pred.tolist()],
        kinds,
        c.gold_overlapping.tolist(),
        c.pred_overlapping.tolist(),
    )


# (gold, pred) of one document -> gold categories, pred categories, boundary subtypes of the gold.
DECISIONS: dict[str, tuple[Doc, Doc, list[str], list[str], list[str]]] = {
    "correct": ([(0, 2, "PER")], [(0, 2, "PER")], ["correct"], ["correct"], ["-"]),
    "type": ([(0, 2, "PER")], [(0, 2, "LOC")], ["type"], ["type"], ["-"]),
    "left": ([(1, 3, "PER")], [(0, 3, "PER")], ["boundary"], ["boundary"], ["left"]),
    "left, shorter": ([(1, 3, "PER")], [(2, 3, "PER")], ["boundary"], ["boundary"], ["left"]),
    "right": ([(0, 2, "PER")], [(0, 3, "PER")], ["boundary"], ["boundary"], ["right"]),
    "too long": ([(1, 2, "PER")], [(0, 3, "PER")], ["boundary"], ["boundary"], ["too_long"]),
    "too short": ([(0, 3, "PER")], [(1, 2, "PER")], ["boundary"], ["boundary"], ["too_short"]),
    "shifted right": ([(0, 2, "PER")], [(1, 3, "PER")], ["boundary"], ["boundary"], ["shifted"]),
    "shifted left": ([(1, 3, "PER")], [(0, 2, "PER")], ["boundary"], ["boundary"], ["shifted"]),
    "boundary and type": ([(0, 2, "PER")], [(0, 3, "LOC")], ["boundary_type"], ["boundary_type"], ["right"]),
    "missed": ([(0, 2, "PER")], [], ["missed"], [], ["-"]),
    "spurious": ([], [(0, 2, "PER")], [], ["spurious"], []),
    "touching is no overlap": ([(0, 2, "PER")], [(2, 4, "PER")], ["missed"], ["spurious"], ["-"]),
    # One prediction over two gold entities: the first (equal overlap, sorted order) is paired.
    "one pred, two gold": (
        [(0, 2, "PER"), (3, 5, "PER")],
        [(0, 5, "PER")],
        ["boundary", "missed"],
        ["boundary"],
        ["right", "-"],
    ),
    # The larger overlap wins the pair.
    "one pred, two gold, larger overlap": (
        [(0, 1, "PER"), (2, 5, "PER")],
        [(0, 5, "PER")],
        ["missed", "boundary"],
        ["boundary"],
        ["-", "left"],
    ),
    "one gold, two preds": (
        [(0, 5, "PER")],
        [(0, 2, "PER"), (3, 5, "PER")],
        ["boundary"],
        ["boundary", "spurious"],
        ["right"],
    ),
    "nested gold": (
        [(0, 5, "LOC"), (0, 2, "PER")],
        [(0, 5, "LOC")],
        ["correct", "missed"],
        ["correct"],
        ["-", "-"],
    ),
    "nested prediction": (
        [(0, 5, "ORG")],
        [(0, 5, "ORG"), (3, 5, "PER")],
        ["correct"],
        ["correct", "spurious"],
        ["-"],
    ),
    # The same span with another type is preferred to an overlap with the same type.
    "same span first": (
        [(0, 2, "PER")],
        [(0, 2, "LOC"), (0, 3, "PER")],
        ["type"],
        ["type", "spurious"],
        ["-"],
    ),
    # An overlap with the same type is preferred to one with another type.
    "same type next": (
        [(1, 3, "PER")],
        [(0, 2, "LOC"), (2, 4, "PER")],
        ["boundary"],
        ["spurious", "boundary"],
        ["shifted"],
    ),
    "duplicates": (
        [(0, 2, "PER")],
        [(0, 2, "PER"), (0, 2, "PER")],
        ["correct"],
        ["correct", "spurious"],
        ["-"],
    ),
}


@pytest.mark.parametrize("case", sorted(DECISIONS))
def test_decision_table(case: str) -> None:
    gold, pred, want_gold, want_pred, want_kind = DECISIONS[case]
    got_gold, got_pred, kinds, _, _ = _named([gold], [pred])
    assert (got_gold, got_pred, kinds) == (want_gold, want_pred, want_kind)


def test_overlapping_flags() -> None:
    _, _, _, g_over, p_over = _named(
        [[(0, 2, "PER"), (3, 5, "PER"), (8, 9, "LOC")]], [[(0, 5, "PER"), (10, 11, "X")]]
    )
    assert g_over == [True, True, False]  # the missed (3, 5) overlaps the prediction paired with (0, 2)
    assert p_over == [True, False]


def test_documents_never_meet() -> None:
    got = _named([[(0, 2, "PER")], []], [[], [(0, 2, "PER")]])
    assert got[:2] == (["missed"], ["spurious"])
    assert got[3:] == ([False], [False])


def test_thresholds_keep_pairs_out() -> None:
    g, p = _sides([[(0, 4, "PER")]], [[(3, 5, "PER")]])
    assert CATEGORIES[int(categorise(g, p).gold[0])] == "boundary"
    c = categorise(g, p, min_iou=0.5)
    assert [CATEGORIES[k] for k in (int(c.gold[0]), int(c.pred[0]))] == ["missed", "spurious"]
    assert bool(c.gold_overlapping[0])
    assert bool(c.pred_overlapping[0])


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[Doc], list[Doc]]:
    n_docs = draw(st.integers(1, 3))
    span = st.tuples(st.integers(0, 8), st.integers(1, 3), st.sampled_from("ABC")).map(
        lambda t: (t[0], t[0] + t[1], t[2])
    )
    gold = [draw(st.lists(span, max_size=5)) for _ in range(n_docs)]
    pred = [draw(st.lists(span, max_size=5)) for _ in range(n_docs)]
    return gold, pred


@settings(max_examples=300, deadline=None)
@given(corpora())
def test_categories_add_up_to_exact_and_muc(corpus: tuple[list[Doc], list[Doc]]) -> None:
    gold, pred = corpus
    g, p = _sides(gold, pred)
    total, by_type = error_counts(g, p, categorise(g, p))
    result = score_spans(gold, pred, overlap=MucOptions())
    assert total.gold == len(g)
    assert total.predicted == len(p)
    for name, c in by_type.items():
        exact = result.exact.counts[name]
        assert c.correct == exact.tp
        assert c.type + c.boundary + c.boundary_type + c.missed == exact.fn
        assert c.pred_type + c.pred_boundary + c.pred_boundary_type + c.spurious == exact.fp
    assert set(by_type) == set(result.exact.counts)
    assert result.muc is not None
    pairs = total.type + total.boundary + total.boundary_type
    assert sum(k for _, k in total.boundary_detail) == total.boundary + total.boundary_type
    # The mapping onto MUC's modes, in total and for each type (gold and predicted sides).
    for name, c in [("", total), *by_type.items()]:
        modes = {m: (s.per_type.get(name) if name else s.overall) for m, s in result.muc.modes.items()}
        want = {
            "strict": (c.correct, c.type + c.boundary + c.boundary_type, 0),
            "exact": (c.correct + c.type, c.boundary + c.boundary_type, 0),
            "partial": (c.correct + c.type, 0, c.boundary + c.boundary_type),
            "type": (c.correct + c.boundary, c.type + c.boundary_type, 0),
        }
        pred_want = {
            "strict": (c.correct, c.pred_type + c.pred_boundary + c.pred_boundary_type, 0),
            "exact": (c.correct + c.pred_type, c.pred_boundary + c.pred_boundary_type, 0),
            "partial": (c.correct + c.pred_type, 0, c.pred_boundary + c.pred_boundary_type),
            "type": (c.correct + c.pred_boundary, c.pred_type + c.pred_boundary_type, 0),
        }
        for mode, m in modes.items():
            if m is None:  # no row: a type without entities in this mode's table
                assert c.gold == 0
                assert c.predicted == 0
                continue
            assert (m.cor, m.inc, m.par, m.mis) == (*want[mode], c.missed), (mode, name)
            assert (m.pred_cor, m.pred_inc, m.pred_par, m.spu) == (*pred_want[mode], c.spurious), (mode, name)
    assert pairs + total.correct == int((categorise(g, p).gold_partner >= 0).sum())


@settings(max_examples=200, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_counts_do_not_depend_on_order(corpus: tuple[list[Doc], list[Doc]], rnd: random.Random) -> None:
    gold, pred = corpus
    g, p = _sides(gold, pred)
    before = error_counts(g, p, categorise(g, p))
    for doc in (*gold, *pred):
        rnd.shuffle(doc)
    g2, p2 = _sides(gold, pred)
    after = error_counts(g2, p2, categorise(g2, p2))
    assert before[0] == after[0]
    assert before[1] == after[1]


@settings(max_examples=200, deadline=None)
@given(corpora())
def test_confusion_sums_are_the_type_counts(corpus: tuple[list[Doc], list[Doc]]) -> None:
    gold, pred = corpus
    g, p = _sides(gold, pred)
    cats = categorise(g, p)
    result = score_spans(gold, pred)
    n = len(p.labels)
    for view in ("exact", "overlap"):
        c = confusion(g, p, cats, view)
        m = c.matrix
        assert m.shape == (n + 1, n + 1)
        assert sorted(c.types) == list(c.types) == sorted(p.labels)
        g_count = [int((g.label == p.labels.index(t)).sum()) for t in c.types]
        p_count = [int((p.label == p.labels.index(t)).sum()) for t in c.types]
        assert m[:n].sum(axis=1).tolist() == g_count  # gold rows
        assert m[:, :n].sum(axis=0).tolist() == p_count  # predicted columns
        assert m[n, n] == 0
    exact = confusion(g, p, cats, "exact")
    for i, name in enumerate(exact.types):
        tp = result.exact.counts[name].tp if name in result.exact.counts else 0
        assert exact.matrix[i, i] == tp


def test_confusion_views_place_boundary_errors() -> None:
    g, p = _sides(
        [[(0, 2, "PER"), (4, 6, "LOC"), (8, 9, "ORG")]], [[(0, 3, "PER"), (4, 6, "PER"), (10, 11, "ORG")]]
    )
    cats = categorise(g, p)
    exact, overlap = confusion(g, p, cats, "exact"), confusion(g, p, cats, "overlap")
    assert exact.to_dict() == {
        "PER": {MISSED: 1},
        "LOC": {"PER": 1},
        "ORG": {MISSED: 1},
        SPURIOUS: {"PER": 1, "ORG": 1},
    }
    assert overlap.to_dict() == {
        "PER": {"PER": 1},
        "LOC": {"PER": 1},
        "ORG": {MISSED: 1},
        SPURIOUS: {"ORG": 1},
    }
    assert "MISSED" in exact.placement
    assert "diagonal" in overlap.placement
    with pytest.raises(ValueError, match="view"):
        confusion(g, p, cats, "fuzzy")


def test_score_with_errors_on_the_example() -> None:
    result = nerve.score("examples/news.conll", errors=True, confusion=True)
    assert result.analysis is not None
    assert result.analysis.errors is not None
    total = result.analysis.errors.total
    micro = sum(result.exact.counts.values(), nerve.Counts())
    assert (total.false_negatives, total.false_positives, total.correct) == (micro.fn, micro.fp, micro.tp)
    d = result.to_dict()
    assert set(d["errors"]) >= {*CATEGORIES, "boundary_detail", "by_type"}
    assert set(d["errors"]["boundary_detail"]) == set(BOUNDARY)
    assert d["confusion"] == result.analysis.confusion["exact"].to_dict()  # type: ignore[index]
    plain = nerve.score("examples/news.conll")
    assert plain.analysis is None
    assert "errors" not in plain.to_dict()
    assert plain.signature == result.signature


def test_aligned_tokens_of_a_file(tmp_path: object) -> None:
    result, aligned = score_aligned("examples/news.conll")
    tokens = aligned.tokens
    assert tokens is not None
    assert tokens.words is not None
    with open("examples/news.conll", encoding="utf-8") as f:
        lines = [ln.split() for ln in f]
    for i, line_no in enumerate(tokens.line.tolist()):
        assert tokens.vocabulary[tokens.words[i]] == lines[line_no - 1][0]
    assert tokens.n_sentences == result.sentences
    assert aligned.n_docs == max(result.documents, 1)
    gold_tags = [ln[-2] for ln in lines if ln and not ln[0].startswith("-DOCSTART-")]
    spans = nerve.decode(gold_tags)
    assert [(s.start, s.end, s.label) for s in spans] == [
        (s, e, aligned.labels[k])
        for s, e, k in zip(
            aligned.gold.start.tolist(), aligned.gold.end.tolist(), aligned.gold.label.tolist(), strict=True
        )
    ]


def test_aligned_is_the_same_read_in_threads(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "big.conll"
    rnd = random.Random(7)
    tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    with path.open("w", encoding="utf-8") as f:
        for _d in range(40):
            f.write("-DOCSTART- -X- O O\n\n")
            for _ in range(30):
                for _t in range(rnd.randint(1, 12)):
                    f.write(f"w{rnd.randint(0, 50)} {rnd.choice(tags)} {rnd.choice(tags)}\n")
                f.write("\n")
    one = score_aligned(path, workers=1)[1]
    four = score_aligned(path, workers=4)[1]
    assert one.tokens is not None
    assert four.tokens is not None
    for a, b in ((one.gold, four.gold), (one.pred, four.pred)):
        names_a = [a.labels[k] for k in a.label.tolist()]
        names_b = [b.labels[k] for k in b.label.tolist()]
        assert (a.doc.tolist(), a.start.tolist(), a.end.tolist(), names_a) == (
            b.doc.tolist(),
            b.start.tolist(),
            b.end.tolist(),
            names_b,
        )
    for name in ("sentence", "document", "line"):
        assert getattr(one.tokens, name).tolist() == getattr(four.tokens, name).tolist()
    assert one.tokens.words is not None
    assert four.tokens.words is not None
    words_one = [one.tokens.vocabulary[i] for i in one.tokens.words.tolist()]
    words_four = [four.tokens.vocabulary[i] for i in four.tokens.words.tolist()]
    assert words_one == words_four
    assert one.n_docs == 40


def test_analysis_needs_entity_repair() -> None:
    with pytest.raises(nerve.OptionError, match="repair"):
        nerve.score("examples/news.conll", repair="conlleval", errors=True)


@pytest.mark.parametrize("output", ["table", "markdown", "csv", "latex", "json"])
def test_every_output_carries_the_analysis(output: str, capsys: pytest.CaptureFixture[str]) -> None:
    from nerve.cli import main

    assert main(["score", "examples/news.conll", "--errors", "--confusion", "--output", output]) == 0
    out = capsys.readouterr().out
    result = nerve.score("examples/news.conll", errors=True, confusion=True)
    assert result.analysis is not None
    assert result.analysis.errors is not None
    if output == "json":
        import json

        d = json.loads(out)
        assert d["errors"] == result.analysis.errors.to_dict()
        assert d["confusion"] == result.analysis.confusion["exact"].to_dict()  # type: ignore[index]
        assert d["confusion_overlap"] == result.analysis.confusion["overlap"].to_dict()  # type: ignore[index]
        return
    if output == "latex":
        assert r"too\_long" in out
        out = out.replace("\\_", "_")
    for title in ("errors", "error details", "confusion (exact)", "confusion (overlap)"):
        assert title in out
    for word in ("boundary", "too_long", "SPURIOUS", "MISSED", "boundary errors count as MISSED"):
        assert word in out
    sep = {"table": r"\s+", "markdown": r"\s*\|\s*", "csv": ",", "latex": r"\s*&\s*"}[output]
    import re

    t = result.analysis.errors.total
    cells = [t.gold, t.correct, t.type, t.boundary, t.boundary_type, t.missed, t.predicted, t.spurious]
    assert re.search("total" + "".join(sep + str(c) for c in cells), out), out
    matrix = result.analysis.confusion["exact"].matrix  # type: ignore[index]
    assert re.search("SPURIOUS" + "".join(sep + str(c) for c in matrix[-1].tolist()), out), out


def test_confusion_rows_are_sorted_by_type() -> None:
    g, p = _sides([[(0, 1, "ZED"), (2, 3, "ALPHA")]], [[(0, 1, "ALPHA")]])
    c = confusion(g, p, categorise(g, p))
    assert c.types == ("ALPHA", "ZED")
    assert c.cell("ZED", "ALPHA") == 1
    assert c.cell("ALPHA", MISSED) == 1
    assert c.cell(SPURIOUS, "ZED") == 0


def test_merged_results_add_their_analyses() -> None:
    a = nerve.score("examples/news.conll", errors=True, confusion=True)
    both = a.merge(a)
    assert both.analysis is not None
    assert both.analysis.errors is not None
    assert a.analysis is not None
    assert both.analysis.errors.total.correct == 2 * a.analysis.errors.total.correct  # type: ignore[union-attr]
    assert (both.analysis.confusion["overlap"].matrix == 2 * a.analysis.confusion["overlap"].matrix).all()  # type: ignore[index]
    with pytest.raises(nerve.NerveError, match="analysis"):
        a.merge(nerve.score("examples/news.conll"))


def test_documented_analysis_commands_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shlex

    from nerve.cli import main

    page = Path(__file__).resolve().parents[2] / "docs" / "metrics" / "errors.md"
    text = page.read_text(encoding="utf-8")
    block = text.split("## The options in detail", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [ln.split("#", 1)[0].strip() for ln in block.strip().splitlines()]
    assert len(commands) == 2
    for command in commands:
        argv = [a.replace("errors.jsonl", str(tmp_path / "errors.jsonl")) for a in shlex.split(command)[1:]]
        assert main(argv) == 0, command
    assert "confusion (overlap)" in capsys.readouterr().out
    assert (tmp_path / "errors.jsonl").read_text(encoding="utf-8").startswith('{"totals"')


@st.composite
def discontinuous(draw: st.DrawFn) -> tuple[SpanArray, SpanArray]:
    """One document per side of entities of one or two pieces, some sharing an extent."""
    from nerve.model.spans import Fragments

    def side(n: int) -> SpanArray:
        pieces: list[list[tuple[int, int]]] = []
        labels = []
        for _ in range(n):
            a = draw(st.integers(0, 6))
            b = a + draw(st.integers(1, 2))
            if draw(st.booleans()):
                c = b + draw(st.integers(1, 2))
                pieces.append([(a, b), (c, c + draw(st.integers(1, 2)))])
            else:
                pieces.append([(a, b)])
            labels.append(draw(st.sampled_from("AB")))
        counts = [len(x) for x in pieces]
        offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        flat = [piece for x in pieces for piece in x]
        start = np.asarray([x[0][0] for x in pieces], dtype=np.int64)
        end = np.asarray([x[-1][1] for x in pieces], dtype=np.int64)
        frags = Fragments(
            offsets,
            np.asarray([s for s, _ in flat], dtype=np.int64),
            np.asarray([e for _, e in flat], dtype=np.int64),
        )
        label = np.asarray(["AB".index(t) for t in labels], dtype=np.int64)
        return SpanArray(np.zeros(n, dtype=np.int64), start, end, label, ("A", "B"), 1, fragments=frags)

    return side(draw(st.integers(0, 4))), side(draw(st.integers(0, 4)))


@settings(max_examples=300, deadline=None)
@given(discontinuous())
def test_discontinuous_categories_add_up_to_exact_counts(sides: tuple[SpanArray, SpanArray]) -> None:
    g, p = sides
    cats = categorise(g, p)
    total, by_type = error_counts(g, p, cats)
    result = score_spans(g, p)
    for name, c in by_type.items():
        exact = result.exact.counts[name]
        assert c.correct == exact.tp
        assert c.type + c.boundary + c.boundary_type + c.missed == exact.fn
        assert c.pred_type + c.pred_boundary + c.pred_boundary_type + c.spurious == exact.fp
    assert sum(k for _, k in total.boundary_detail) == total.boundary + total.boundary_type


def test_same_extent_other_pieces_is_a_boundary_error() -> None:
    from nerve.model.spans import Fragments

    def one(pieces: list[tuple[int, int]]) -> SpanArray:
        f = Fragments(
            np.asarray([0, len(pieces)]),
            np.asarray([a for a, _ in pieces]),
            np.asarray([b for _, b in pieces]),
        )
        one_span = np.asarray([pieces[0][0]]), np.asarray([pieces[-1][1]])
        return SpanArray(
            np.zeros(1, dtype=np.int64), *one_span, np.zeros(1, dtype=np.int64), ("A",), 1, fragments=f
        )

    c = categorise(one([(0, 2), (4, 6)]), one([(0, 3), (5, 6)]))
    assert (CATEGORIES[int(c.gold[0])], BOUNDARY[int(c.boundary[0])]) == ("boundary", "pieces")
    same = categorise(one([(0, 2), (4, 6)]), one([(0, 2), (4, 6)]))
    assert CATEGORIES[int(same.gold[0])] == "correct"


def test_error_analysis_gold_share_at_the_threshold_exactly() -> None:
    # 29 of 100 gold tokens is a share of 0.29 exactly: the pair is kept (not 28.999... %).
    gold = [["B-X"] + ["I-X"] * 99]
    pred = [["B-X"] + ["I-X"] * 28 + ["O"] * 71]
    result = nerve.score(gold, pred, errors=True, metrics="exact,muc", min_gold_share=0.29)
    assert result.analysis is not None
    assert result.analysis.errors is not None
    total = result.analysis.errors.total
    assert (total.boundary, total.missed, total.spurious) == (1, 0, 0)
    muc = result.muc
    assert muc is not None
    assert muc.modes["partial"].overall.par == 1
