"""The MUC-5 / SemEval-2013 modes: the tricky cases, brute force, order, and greedy vs nervaluate."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from conftest import peer
from nerve.errors import InputError, OptionError
from nerve.metrics.muc import MODES, MucCounts, MucOptions, match_document, muc_columns, muc_score
from nerve.model.spans import SpanArray

Spans = list[tuple[int, int, str]]


def inclusive(*spans: tuple[str, int, int]) -> Spans:
    """``(label, start, end)`` with an inclusive end, as peers-muc.md writes them, half-open."""
    return [(s, e + 1, label) for label, s, e in spans]


# peers-muc.md §6: (gold, pred), both with inclusive ends.
CASES: dict[str, tuple[Spans, Spans]] = {
    "C01": (
        inclusive(("PER", 0, 1), ("PER", 3, 4), ("LOC", 7, 7)),
        inclusive(("PER", 0, 1), ("PER", 3, 4), ("LOC", 7, 7)),
    ),
    "C02": (inclusive(("PER", 0, 1)), inclusive(("PER", 0, 0), ("PER", 1, 1))),
    "C03": (inclusive(("PER", 0, 1), ("PER", 3, 4)), inclusive(("PER", 0, 4))),
    "C04": (inclusive(("PER", 0, 1), ("ORG", 3, 4)), inclusive(("ORG", 0, 4))),
    "C05": (inclusive(("PER", 0, 1)), inclusive(("LOC", 0, 1))),
    "C06": (inclusive(("LOC", 7, 7)), inclusive(("LOC", 6, 7))),
    "C07": (inclusive(("PER", 3, 4)), inclusive(("ORG", 2, 4))),
    "C08": (inclusive(("PER", 0, 1)), inclusive(("LOC", 7, 7))),
    "C09": ([], inclusive(("PER", 0, 1))),
    "C10": (inclusive(("PER", 0, 1)), []),
    "C11": ([], []),
    "C12": (inclusive(("PER", 0, 1)), inclusive(("PER", 0, 1), ("PER", 0, 1))),
    "C13": (inclusive(("ORG", 3, 5), ("LOC", 5, 5)), inclusive(("LOC", 5, 5))),
    "C14a": (inclusive(("PER", 3, 4)), inclusive(("PER", 2, 3), ("PER", 3, 4))),
    "C14b": (inclusive(("PER", 3, 4)), inclusive(("PER", 3, 4), ("PER", 2, 3))),
    "C15": (inclusive(("PER", 3, 4), ("PER", 0, 1)), inclusive(("PER", 0, 4), ("PER", 3, 4))),
    "C16": (inclusive(("PER", 0, 1), ("ORG", 3, 4)), inclusive(("ORG", 1, 3), ("PER", 0, 1))),
    "C17": (inclusive(("LOC", 0, 0)), inclusive(("LOC", 4, 4))),
    "C18": (inclusive(("LOC", 3, 4)), inclusive(("LOC", 4, 4))),
    "C19": (inclusive(("PER", 0, 1)), inclusive(("PER", 1, 2))),
    "C20": (
        inclusive(("PER", 0, 1), ("LOC", 7, 7)),
        inclusive(("PER", 0, 1), ("ORG", 5, 5), ("LOC", 7, 7)),
    ),
}

# The "opt." column of the strict table: COR/INC/PAR/MIS/SPU.
OPTIMAL_STRICT = {
    "C01": "3/0/0/0/0",
    "C02": "0/1/0/0/1",
    "C03": "0/1/0/1/0",
    "C04": "0/1/0/1/0",
    "C05": "0/1/0/0/0",
    "C06": "0/1/0/0/0",
    "C07": "0/1/0/0/0",
    "C08": "0/0/0/1/1",
    "C09": "0/0/0/0/1",
    "C10": "0/0/0/1/0",
    "C11": "0/0/0/0/0",
    "C12": "1/0/0/0/1",
    "C13": "1/0/0/1/0",
    "C14a": "1/0/0/0/1",
    "C14b": "1/0/0/0/1",
    "C15": "1/1/0/0/0",
    "C16": "1/1/0/0/0",
    "C17": "0/0/0/1/1",
    "C18": "0/1/0/0/0",
    "C19": "0/1/0/0/0",
    "C20": "2/0/0/0/1",
}

# The "nv 1.2.0-1.2.1" column, where it differs from the optimal one.
NERVALUATE_STRICT = {**OPTIMAL_STRICT, "C14a": "0/1/0/0/1", "C15": "0/1/0/1/1", "C16": "0/1/0/1/1"}


def counts(c: MucCounts) -> str:
    return f"{c.cor}/{c.inc}/{c.par}/{c.mis}/{c.spu}"


def test_the_cases_are_all_there() -> None:
    assert len(CASES) == 21 == len(OPTIMAL_STRICT)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_optimal_strict(case: str) -> None:
    gold, pred = CASES[case]
    result = muc_score([gold], [pred])
    assert counts(result.modes["strict"].overall) == OPTIMAL_STRICT[case]
    for mode in MODES:
        c = result.modes[mode].overall
        assert c.pos == len(gold)
        assert c.act == len(pred)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_greedy_strict_is_nervaluate(case: str) -> None:
    gold, pred = CASES[case]
    assert (
        counts(muc_score([gold], [pred], matching="greedy").modes["strict"].overall)
        == NERVALUATE_STRICT[case]
    )


def test_cases_in_the_other_modes() -> None:
    def mode(case: str, name: str, matching: str = "optimal") -> str:
        gold, pred = CASES[case]
        return counts(muc_score([gold], [pred], matching=matching).modes[name].overall)

    # peers-muc.md: C15 partial is 1/0/1/0/0 at the optimum, 0/0/1/1/1 in nervaluate 1.x.
    assert mode("C15", "partial") == "1/0/1/0/0"
    assert mode("C15", "partial", "greedy") == "0/0/1/1/1"
    assert mode("C16", "partial", "greedy") == "0/0/1/1/1"
    assert mode("C16", "type", "greedy") == "2/0/0/0/0"  # 1.2.x: 2 COR
    assert mode("C04", "type") == "1/0/0/1/0"  # COR + MIS
    assert mode("C04", "type", "greedy") == "1/0/0/1/0"
    assert mode("C05", "exact") == "1/0/0/0/0"
    assert mode("C06", "partial") == "0/0/1/0/0"
    assert mode("C07", "type") == "0/1/0/0/0"
    assert mode("C18", "partial") == "0/0/1/0/0"


def test_touching_spans_do_not_overlap() -> None:
    # C19 read as half-open offsets: [0, 1) and [1, 2) share nothing.
    result = muc_score([[(0, 1, "PER")]], [[(1, 2, "PER")]])
    assert counts(result.modes["strict"].overall) == "0/0/0/1/1"
    assert counts(result.modes["type"].overall) == "0/0/0/1/1"


def test_error_rates() -> None:
    gold, pred = CASES["C16"]
    c = muc_score([gold, CASES["C09"][0]], [pred, CASES["C09"][1]]).modes["strict"].overall
    assert (c.cor, c.inc, c.mis, c.spu) == (1, 1, 0, 1)
    assert c.und == 0.0
    assert c.ovg == pytest.approx(1 / 3)
    assert c.sub == 0.5


def test_per_type_rows_add_up_to_the_totals() -> None:
    gold = [g for g, _ in CASES.values()]
    pred = [p for _, p in CASES.values()]
    result = muc_score(gold, pred)
    for mode in MODES:
        scores = result.modes[mode]
        assert sum(c.pos for c in scores.per_type.values()) == scores.overall.pos
        assert sum(c.act for c in scores.per_type.values()) == scores.overall.act


# --- brute force ------------------------------------------------------------------------------


def objective(gold: Spans, pred: Spans, pairs: list[tuple[int, int]]) -> tuple[int, ...]:
    """What the matching maximises, lexicographically."""
    tiers = [0, 0, 0, 0]
    total = 0
    for gi, pi in pairs:
        (gs, ge, gl), (ps, pe, pl) = gold[gi], pred[pi]
        same_span = (gs, ge) == (ps, pe)
        tiers[(0 if same_span else 2) + (0 if gl == pl else 1)] += 1
        total += min(ge, pe) - max(gs, ps)
    return (*tiers, total)


def all_matchings(gold: Spans, pred: Spans) -> list[list[tuple[int, int]]]:
    """Every one-to-one set of pairs of overlapping spans."""
    out: list[list[tuple[int, int]]] = []

    def extend(gi: int, used: frozenset[int], pairs: list[tuple[int, int]]) -> None:
        if gi == len(gold):
            out.append(pairs)
            return
        extend(gi + 1, used, pairs)
        gs, ge, _ = gold[gi]
        for pi, (ps, pe, _) in enumerate(pred):
            if pi not in used and ps < ge and pe > gs:
                extend(gi + 1, used | {pi}, [*pairs, (gi, pi)])

    extend(0, frozenset(), [])
    return out


span = st.tuples(st.integers(0, 7), st.integers(1, 3), st.sampled_from("AB")).map(
    lambda t: (t[0], t[0] + t[1], t[2])
)


@settings(max_examples=300, deadline=None)
@given(st.lists(span, max_size=4), st.lists(span, max_size=3))
def test_optimal_equals_brute_force(gold: Spans, pred: Spans) -> None:
    pairs = match_document(gold, pred)
    assert len({g for g, _ in pairs}) == len(pairs) == len({p for _, p in pairs})
    best = max(objective(gold, pred, m) for m in all_matchings(gold, pred))
    assert objective(gold, pred, pairs) == best


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.lists(span, max_size=5), st.lists(span, max_size=5)), max_size=3), st.randoms())
def test_shuffling_the_lists_does_not_change_scores(
    docs: list[tuple[Spans, Spans]], rnd: random.Random
) -> None:
    gold = [g for g, _ in docs]
    pred = [p for _, p in docs]
    g_order = [rnd.sample(range(len(g)), len(g)) for g in gold]
    p_order = [rnd.sample(range(len(p)), len(p)) for p in pred]
    shuffled_gold = [[g[i] for i in o] for g, o in zip(gold, g_order, strict=True)]
    shuffled_pred = [[p[i] for i in o] for p, o in zip(pred, p_order, strict=True)]
    a = muc_score(gold, pred)
    b = muc_score(shuffled_gold, shuffled_pred)
    # Pairs name list positions: read as the spans they pair, they are the same pairs (two equal
    # spans of one side are interchangeable).
    assert sorted((d, gold[d][i], pred[d][j]) for d, i, j in a.pairs) == sorted(
        (d, shuffled_gold[d][i], shuffled_pred[d][j]) for d, i, j in b.pairs
    )
    assert replace(b, pairs=[]) == replace(a, pairs=[])


def test_a_big_component_goes_to_scipy() -> None:
    # 40 staggered golds and predictions make one component of more than 32 spans.
    gold = [(2 * i, 2 * i + 3, "A") for i in range(40)]
    pred = [(2 * i + 1, 2 * i + 4, "A" if i % 3 else "B") for i in range(40)]
    pairs = match_document(gold, pred)
    assert len(pairs) == 40
    for order in (list(range(40)), list(range(39, -1, -1))):
        again = muc_score([[gold[i] for i in order]], [pred]).modes
        assert again["type"].overall == muc_score([gold], [pred]).modes["type"].overall


def test_small_components_agree_with_permutation_brute_force() -> None:
    rnd = random.Random(5)
    for _ in range(200):
        gold = [(s, s + rnd.randint(1, 3), rnd.choice("AB")) for s in rnd.sample(range(8), 3)]
        pred = [(s, s + rnd.randint(1, 3), rnd.choice("AB")) for s in rnd.sample(range(8), 3)]
        best = max(
            objective(
                gold,
                pred,
                [(g, p) for g, p in zip(range(3), perm, strict=True) if overlaps(gold[g], pred[p])],
            )
            for perm in permutations(range(3))
        )
        assert objective(gold, pred, match_document(gold, pred)) == best


def overlaps(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


# --- greedy against nervaluate 1.2.1 ----------------------------------------------------------

STRATEGY = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}


def run_nervaluate(gold: list[Spans], pred: list[Spans], percent: float) -> dict:  # type: ignore[type-arg]
    Evaluator = peer("nervaluate").Evaluator

    def dicts(docs: list[Spans]) -> list[list[dict[str, object]]]:
        return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in doc] for doc in docs]

    tags = sorted({lab for docs in (gold, pred) for doc in docs for _, _, lab in doc})
    return Evaluator(
        dicts(gold), dicts(pred), tags=tags, loader="dict", min_overlap_percentage=percent
    ).evaluate()


def nv_counts(r: object) -> str:
    return "/".join(str(getattr(r, f)) for f in ("correct", "incorrect", "partial", "missed", "spurious"))


def assert_same_as_nervaluate(gold: list[Spans], pred: list[Spans], percent: float) -> None:
    expected = run_nervaluate(gold, pred, percent)
    share = None if percent == 1.0 else percent / 100
    result = muc_score(gold, pred, matching="greedy", min_gold_share=share)
    for mode, strategy in STRATEGY.items():
        scores = result.modes[mode]
        nv = expected["overall"][strategy]
        assert counts(scores.overall) == nv_counts(nv), (mode, "overall")
        assert scores.overall.precision == pytest.approx(nv.precision)
        assert scores.overall.recall == pytest.approx(nv.recall)
        assert scores.overall.f1 == pytest.approx(nv.f1)
        rows = {tag: nv_counts(r[strategy]) for tag, r in expected["entities"].items()}
        assert {tag: counts(c) for tag, c in scores.per_type.items()} == rows, mode


doc_span = st.tuples(st.integers(0, 11), st.integers(1, 4), st.sampled_from(["PER", "LOC", "ORG"])).map(
    lambda t: (t[0], t[0] + t[1], t[2])
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(doc_span, max_size=6), st.lists(doc_span, max_size=6)), min_size=1, max_size=4
    ),
    st.sampled_from([1.0, 1.0, 10.0, 29.0, 50.0, 66.67, 100.0]),
)
def test_greedy_equals_nervaluate(docs: list[tuple[Spans, Spans]], percent: float) -> None:
    assert_same_as_nervaluate([g for g, _ in docs], [p for _, p in docs], percent)


def test_greedy_equals_nervaluate_on_long_entities() -> None:
    # nervaluate's default needs the overlap to reach 1 % of the gold entity.
    gold = [[(0, 200, "PER"), (300, 450, "LOC")]]
    pred = [[(199, 201, "PER"), (300, 302, "LOC"), (449, 460, "ORG")]]
    assert_same_as_nervaluate(gold, pred, 1.0)
    assert counts(muc_score(gold, pred, matching="greedy").modes["type"].overall) == "1/0/0/1/2"
    assert counts(muc_score(gold, pred).modes["type"].overall) == "2/0/0/0/1"


def test_greedy_equals_nervaluate_on_a_random_corpus() -> None:
    rnd = random.Random(11)
    gold: list[Spans] = []
    pred: list[Spans] = []
    for _ in range(300):
        g = [(s, s + rnd.randint(1, 5), rnd.choice(["PER", "LOC", "ORG", "MISC"])) for s in range(0, 60, 6)]
        g = [x for x in g if rnd.random() < 0.7]
        p = [
            (max(0, s + rnd.randint(-2, 2)), e + rnd.randint(-1, 3), lab)
            for s, e, lab in g
            if rnd.random() < 0.9
        ]
        p += [(s, s + rnd.randint(1, 8), rnd.choice(["PER", "LOC"])) for s in rnd.sample(range(60), 3)]
        rnd.shuffle(p)
        gold.append(g)
        pred.append([(s, e, lab) for s, e, lab in p if s < e])
    assert_same_as_nervaluate(gold, pred, 1.0)
    assert_same_as_nervaluate(gold, pred, 50.0)


@pytest.mark.parametrize("percent", [29.0, 57.0, 58.0, 14.0])
def test_greedy_overlap_threshold_rounds_as_nervaluate(percent: float) -> None:
    # (29 / 100) * 100 is 28.999999999999996 in floating point: nervaluate finds no overlap.
    gold = [[(0, 100, "PER"), (200, 300, "LOC")]]
    pred = [[(71, 110, "PER"), (258, 330, "LOC")]]
    assert_same_as_nervaluate(gold, pred, percent)


# --- thresholds, touching spans and empty rows ------------------------------------------------


def test_min_iou_is_inclusive_at_the_threshold() -> None:
    # The README: overlap needs *at least* --min-iou. [0, 2) and [0, 4): IoU 2/4, exactly 0.5.
    gold, pred = [[(0, 2, "PER")]], [[(0, 4, "PER")]]
    assert counts(muc_score(gold, pred, min_iou=0.5).modes["partial"].overall) == "0/0/1/0/0"
    assert counts(muc_score(gold, pred, min_iou=0.51).modes["partial"].overall) == "0/0/0/1/1"
    # IoU 7/25 is exactly 0.28, though 0.28 * 25 is 7.000000000000001 in floating point.
    gold, pred = [[(0, 7, "PER")]], [[(0, 25, "PER")]]
    assert counts(muc_score(gold, pred, min_iou=0.28).modes["partial"].overall) == "0/0/1/0/0"
    assert counts(muc_score(gold, pred, min_iou=0.29).modes["partial"].overall) == "0/0/0/1/1"


def test_min_gold_share_is_inclusive_at_the_threshold() -> None:
    # Optimal matching: the overlap must cover at least this share of the gold span.
    gold = [[(0, 4, "PER"), (10, 110, "LOC")]]
    pred = [[(2, 9, "PER"), (103, 120, "LOC")]]  # covers 2/4 of PER, 7/100 of LOC
    at = muc_score(gold, pred, min_gold_share=0.5).modes["type"]
    assert (at.per_type["PER"].cor, at.per_type["LOC"].cor) == (1, 0)
    assert counts(muc_score(gold, pred, min_gold_share=0.07).modes["type"].overall) == "2/0/0/0/0"
    assert counts(muc_score(gold, pred, min_gold_share=0.08).modes["type"].overall) == "1/0/0/1/1"
    assert counts(muc_score(gold, pred, min_gold_share=0.51).modes["type"].overall) == "0/0/0/2/2"
    # The threshold picks the partner: the wider overlap passes 0.5, the first one in order not.
    gold = [[(0, 10, "PER")]]
    pred = [[(0, 4, "PER"), (5, 10, "PER")]]
    assert match_document(gold[0], pred[0], min_gold_share=0.5) == [(0, 1)]
    assert match_document(gold[0], pred[0], min_gold_share=0.51) == []


def test_document_average_does_not_depend_on_document_order() -> None:
    # F1s of 1/3, 1 and 1/3 (and an empty document) sum to different floats in different orders.
    a = (0, 1, "A")
    docs = [([], []), ([a], [a] * 5), ([a], [a]), ([a], [a] * 5)]
    values = set()
    for order in permutations(range(len(docs))):
        result = muc_score([docs[i][0] for i in order], [docs[i][1] for i in order], document_average=True)
        macros = [m.document_macro for m in result.modes.values()]
        values.add(tuple((m.precision, m.recall, m.f1) for m in macros if m is not None))
    assert len(values) == 1


@pytest.mark.parametrize("matching", ["optimal", "greedy"])
def test_touching_half_open_spans_do_not_overlap(matching: str) -> None:
    # [0, 2) and [2, 4) share no position, whichever side comes first.
    for gold, pred in (((0, 2, "PER"), (2, 4, "PER")), ((2, 4, "PER"), (0, 2, "PER"))):
        result = muc_score([[gold]], [[pred]], matching=matching)
        for mode in MODES:
            assert counts(result.modes[mode].overall) == "0/0/0/1/1", (gold, mode)
    assert match_document([(0, 2, "PER")], [(2, 4, "PER"), (1, 3, "LOC")]) == [(0, 1)]
    assert match_document([(2, 4, "PER")], [(0, 2, "PER"), (4, 6, "PER")]) == []


@pytest.mark.parametrize("matching", ["optimal", "greedy"])
def test_per_type_rows_of_types_on_one_side_only(matching: str) -> None:
    # DATE only in gold, ORG only in predictions; LOC only in a pair's other side.
    gold = [[(0, 2, "PER"), (5, 6, "DATE")], [(0, 1, "LOC")]]
    pred = [[(0, 2, "PER"), (8, 9, "ORG")], [(0, 1, "PER")]]
    result = muc_score(gold, pred, matching=matching)
    for mode in MODES:
        rows = result.modes[mode].per_type
        assert list(rows) == ["DATE", "LOC", "ORG", "PER"]
        date, org = rows["DATE"], rows["ORG"]
        assert (date.pos, date.act, date.mis, date.spu) == (1, 0, 1, 0)
        assert (org.pos, org.act, org.mis, org.spu) == (0, 1, 0, 1)
        for row in (date, org):
            assert (row.cor, row.inc, row.par) == (0, 0, 0)
            assert (row.precision, row.recall, row.f1) == (0.0, 0.0, 0.0)


def test_types_without_entities_have_no_row() -> None:
    # A type known to the vocabulary (here from a discarded, invalid entity) but with no entity
    # on either side has no all-zero row; a type with entities keeps its row even if all else is 0.
    gold = [["B-PER", "I-PER", "O", "O"]]
    pred = [["B-PER", "I-PER", "O", "I-LOC"]]
    result = nerve.score(gold, pred, scheme="IOB2", repair="discard", metrics="muc")
    assert result.muc is not None
    for mode in MODES:
        assert list(result.muc.modes[mode].per_type) == ["PER"]
    assert muc_score([[], []], [[], []]).modes["strict"].per_type == {}
    empty = muc_score([[(0, 1, "A")]], [[]]).modes["strict"].per_type["A"]
    assert (empty.pos, empty.act, empty.cor, empty.mis) == (1, 0, 0, 1)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.lists(span, max_size=5), st.lists(span, max_size=5)), min_size=1, max_size=4),
    st.randoms(),
)
def test_rows_and_pairs_do_not_depend_on_input_order(
    docs: list[tuple[Spans, Spans]], rnd: random.Random
) -> None:
    """Shuffling entities within documents, and the documents, changes no row and no pair.

    Neither the per-type rows, the totals and the document average, nor the pairs mapped back.
    """
    gold = [g for g, _ in docs]
    pred = [p for _, p in docs]
    doc_order = rnd.sample(range(len(docs)), len(docs))
    g_order = [rnd.sample(range(len(gold[d])), len(gold[d])) for d in doc_order]
    p_order = [rnd.sample(range(len(pred[d])), len(pred[d])) for d in doc_order]
    gold2 = [[gold[d][i] for i in order] for d, order in zip(doc_order, g_order, strict=True)]
    pred2 = [[pred[d][i] for i in order] for d, order in zip(doc_order, p_order, strict=True)]
    a = muc_score(gold, pred, document_average=True)
    b = muc_score(gold2, pred2, document_average=True)
    assert a.to_dict() == b.to_dict()
    for mode in MODES:
        assert a.modes[mode].per_type == b.modes[mode].per_type
    # The same pairs of spans (equal spans are interchangeable, so compared by value).
    back = sorted((doc_order[d], gold2[d][gi], pred2[d][pi]) for d, gi, pi in b.pairs)
    assert back == sorted((d, gold[d][gi], pred[d][pi]) for d, gi, pi in a.pairs)
    assert len({(d, g) for d, g, _ in b.pairs}) == len(b.pairs) == len({(d, p) for d, _, p in b.pairs})


def test_the_overlap_tie_break_holds_in_a_large_corpus() -> None:
    # B = [2, 12) can pair with D = [3, 5) or E = [5, 12), both of tier "overlap": the larger
    # overlap, E, must win, next to the exact pair A - C in the same component. With one weight
    # base for the whole corpus, 10,000 other pairs made base**4 ~ 1e16 and the overlap term
    # vanished in rounding.
    gold = [(0, 4, "X"), (2, 12, "Y")]
    pred = [(0, 4, "X"), (3, 5, "Z"), (5, 12, "Z")]
    assert match_document(gold, pred) == [(0, 0), (1, 2)]
    filler = [[(0, 1, "X")]] * 10_000
    result = muc_score([gold, *filler], [pred, *filler])
    assert [pair for pair in result.pairs if pair[0] == 0] == [(0, 0, 0), (0, 1, 2)]
    assert len(result.pairs) == 10_002


def test_a_pair_is_not_lost_in_a_large_corpus() -> None:
    # B = [2, 12) can pair only with E = [5, 12), next to the exact pair A - C. With one weight
    # base for the whole corpus, 300,000 other pairs made base**4 absorb base in rounding, and
    # the first map tried (A - C alone, B left over) weighed as much as A - C with B - E.
    import numpy as np

    names = ["X", "Z"]
    fill = 300_000

    def side(spans: Spans) -> SpanArray:
        doc = np.r_[np.zeros(len(spans), dtype=np.int64), np.arange(1, fill + 1)]
        start = np.r_[[s for s, _, _ in spans], np.zeros(fill, dtype=np.int64)].astype(np.int64)
        end = np.r_[[e for _, e, _ in spans], np.ones(fill, dtype=np.int64)].astype(np.int64)
        label = np.r_[[names.index(t) for _, _, t in spans], np.zeros(fill, dtype=np.int64)].astype(np.int64)
        return SpanArray(doc, start, end, label, tuple(names), fill + 1)

    gold = [(0, 4, "X"), (2, 12, "X")]
    pred = [(0, 4, "X"), (1, 2, "Z"), (5, 12, "Z")]
    assert match_document(gold, pred) == [(0, 0), (1, 2)]
    result = muc_columns(side(gold), side(pred), MucOptions())
    assert [pair for pair in result.pairs if pair[0] == 0] == [(0, 0, 0), (0, 1, 2)]
    assert counts(result.modes["strict"].overall) == f"{fill + 1}/1/0/0/1"


def test_muc_columns_takes_span_arrays_and_matches_types_by_name() -> None:
    """Like every other metric, `muc_columns` takes `SpanArray`s (issue 26), each in its own vocabulary."""
    gold = SpanArray.from_documents([[(0, 2, "A"), (3, 5, "B")]])
    pred = SpanArray.from_documents([[(3, 5, "B"), (0, 2, "A")]], labels=("B", "A"))
    result = muc_columns(gold, pred, MucOptions())
    assert counts(result.modes["strict"].overall) == "2/0/0/0/0"
    assert result.pairs == [(0, 0, 1), (0, 1, 0)]
    assert result.to_dict() == muc_score(gold.documents(), pred.documents()).to_dict()


# Options, sums, thresholds at their edges and messages (cases the mutation run found unchecked)


@pytest.mark.parametrize("share", [0, 0.0, 2, -0.5])
def test_muc_options_refuse_a_gold_share_outside_zero_to_one(share: float) -> None:
    with pytest.raises(OptionError) as info:
        MucOptions(min_gold_share=share)
    assert str(info.value) == f"min_gold_share: expected a fraction in (0, 1], but got {share}"


def test_muc_options_accept_a_whole_gold_share() -> None:
    assert MucOptions(min_gold_share=1).min_gold_share == 1


@pytest.mark.parametrize("option", ["min_iou", "min_gold_share"])
@pytest.mark.parametrize("value", [0, 2])
def test_muc_options_refuse_thresholds_outside_zero_to_one(option: str, value: float) -> None:
    with pytest.raises(OptionError) as info:
        MucOptions(**{option: value})
    assert str(info.value) == f"{option}: expected a fraction in (0, 1], but got {value}"


def test_muc_options_describe_joins_thresholds_and_the_document_average() -> None:
    options = MucOptions(min_iou=0.5, min_gold_share=0.25, document_average=True)
    assert options.describe() == "overlap iou>=0.5,gold-share>=0.25, document average"
    assert MucOptions().describe() == "overlap any"


def test_adding_muc_results_keeps_the_options_and_no_pairs() -> None:
    options = MucOptions(min_iou=0.5)
    a = muc_score([[(0, 2, "X")]], [[(0, 2, "X")]], min_iou=0.5)
    b = muc_score([[(0, 2, "X")]], [[(0, 1, "X")]], min_iou=0.5)
    assert a.pairs == [(0, 0, 0)]
    total = a + b
    assert total.pairs == []
    assert total.overlap == options
    strict = total.modes["strict"].overall
    # a: one COR; b: IoU 1/2 pairs them, a boundary error, INC in strict mode.
    assert (strict.cor, strict.inc, strict.pos, strict.act) == (1, 1, 2, 2)


def test_adding_a_document_averaged_result_to_a_plain_one_drops_the_average() -> None:
    a = muc_score([[(0, 2, "X")]], [[(0, 2, "X")]], document_average=True)
    b = muc_score([[(0, 2, "X")]], [[(0, 1, "X")]])
    for total in (a + b, b + a):
        assert total.per_document is None
        for mode in MODES:
            assert total.modes[mode].document_macro is None
            assert "document_macro" not in total.modes[mode].to_dict()
    # Both averaged: the documents of both, one each, are averaged.
    c = muc_score([[(0, 2, "X")]], [[(5, 6, "X")]], document_average=True)
    macro = (a + c).modes["strict"].document_macro
    assert macro is not None
    assert (macro.precision, macro.recall, macro.documents) == (0.5, 0.5, 2)


def test_document_macro_in_json() -> None:
    result = muc_score([[(0, 2, "X")], [(0, 1, "Y")]], [[(0, 2, "X")], []], document_average=True)
    d = result.to_dict()["strict"]
    # Document 1: P 1, R 1; document 2: nothing predicted, P 0, R 0.
    assert d["document_macro"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "documents": 2}


def test_document_columns_count_in_integers() -> None:
    result = muc_score([[(0, 2, "X")], [(0, 1, "Y")]], [[(0, 2, "X")], []], document_average=True)
    assert result.per_document is not None
    for columns in result.per_document.values():
        for values in columns.values():
            assert values.dtype == np.int64
    assert result.per_document["strict"]["cor"].tolist() == [1, 0]


def test_adding_muc_counts_of_two_modes_names_both() -> None:
    with pytest.raises(ValueError, match=r"^cannot add counts of modes strict and exact$"):
        MucCounts("strict", cor=1) + MucCounts("exact", cor=1)


def test_greedy_muc_reports_no_pairs() -> None:
    result = muc_score([[(0, 2, "X")]], [[(0, 2, "X")]], matching="greedy")
    assert result.pairs == []
    assert result.modes["strict"].overall.cor == 1


def test_greedy_gold_share_compares_percentages_unrounded() -> None:
    # 5 of 9 gold positions is 55.56 %, above 55.5 % (nervaluate compares in percent).
    result = muc_score([[(0, 9, "X")]], [[(0, 5, "X")]], matching="greedy", min_gold_share=0.555)
    partial = result.modes["partial"].overall
    assert (partial.par, partial.mis, partial.spu) == (1, 0, 0)
    # 5 of 9 is below 56 %.
    result = muc_score([[(0, 9, "X")]], [[(0, 5, "X")]], matching="greedy", min_gold_share=0.56)
    partial = result.modes["partial"].overall
    assert (partial.par, partial.mis, partial.spu) == (0, 1, 1)


def test_match_document_applies_min_iou() -> None:
    gold, pred = [(0, 4, "X")], [(3, 5, "X")]  # overlap 1, union 5: IoU 0.2
    assert match_document(gold, pred) == [(0, 0)]
    assert match_document(gold, pred, min_iou=0.5) == []
    assert match_document(gold, pred, min_iou=0.2) == [(0, 0)]


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


@pytest.mark.parametrize("span", [(3, 3, "X"), (4, 2, "X"), (-1, 2, "X")])
def test_muc_names_an_empty_or_reversed_span(span: tuple[int, int, str]) -> None:
    with pytest.raises(InputError) as info:
        muc_score([[], [(0, 1, "X"), span]], [[], []])
    assert info.value.source == "gold: document 1, span 1"
    assert info.value.line is None
    assert info.value.detail == f"expected 0 <= start < end, but got ({span[0]}, {span[1]})"


def test_muc_names_both_document_counts() -> None:
    message = r"^pred: has 1 document, but the gold has 2$"  # a NerveError since issue 25
    with pytest.raises(InputError, match=message):
        muc_score([[], []], [[]])


def test_muc_scores_a_type_only_predicted() -> None:
    result = muc_score([[(0, 1, "A")]], [[(0, 1, "A"), (2, 3, "B")]])
    strict = result.modes["strict"]
    assert sorted(strict.per_type) == ["A", "B"]
    assert (strict.per_type["B"].act, strict.per_type["B"].pos) == (1, 0)
    assert (strict.overall.act, strict.overall.pos, strict.overall.cor) == (2, 1, 1)
