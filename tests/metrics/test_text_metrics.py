"""Text-level metrics: hand-computed cases, brute force, ie-eval 0.2.0's scorers, and merging."""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerve.errors import NerveError, OptionError
from nerve.matching.text import as_symbols
from nerve.metrics.text import BagRow, EntityTexts, ErrorRow, NervalRow, TextScores, TextTable, score_texts
from text_reference import GOLD, PRED, Doc, approx_dict, brute_errors, levenshtein

S = ["John", "Jones", "and", "Peter", "Peters", "came", "to", "York"]


def ent(label: str, start: int, end: int) -> tuple[str, str]:
    """An entity of peers-muc.md's sentence S, tokens start..end inclusive."""
    return label, " ".join(S[start : end + 1])


# peers-muc.md §6, the text-level table: (gold, pred), OI ECER and EWER errors, OI-Nerval (t=0)
# TP/FP/FN, BoE TP/FP/FN, as ie-eval 0.2.0 computed them.
CASES = {
    "C02": ([ent("PER", 0, 1)], [ent("PER", 0, 0), ent("PER", 1, 1)], 1.5, 1.5, (0, 2, 1), (0, 2, 1)),
    "C03": ([ent("PER", 0, 1), ent("PER", 3, 4)], [ent("PER", 0, 4)], 2.0, 2.0, (0, 1, 2), (0, 1, 2)),
    "C05": ([ent("PER", 0, 1)], [ent("LOC", 0, 1)], 1.0, 1.0, (0, 1, 1), (0, 1, 1)),
    "C06": ([ent("LOC", 7, 7)], [ent("LOC", 6, 7)], 0.75, 1.0, (0, 1, 1), (0, 1, 1)),
    "C11": ([], [], 0.0, 0.0, (0, 0, 0), (0, 0, 0)),
    "C17": ([("LOC", "York")], [("LOC", "York")], 0.0, 0.0, (1, 0, 0), (1, 0, 0)),
    "C18": ([("LOC", "New York")], [("LOC", "York")], 0.5, 0.5, (0, 1, 1), (0, 1, 1)),
    "C19": ([ent("PER", 0, 1)], [ent("PER", 1, 2)], 0.7, 1.0, (0, 1, 1), (0, 1, 1)),
    "C20": (
        [ent("PER", 0, 1), ent("LOC", 7, 7)],
        [ent("PER", 0, 1), ent("ORG", 5, 5), ent("LOC", 7, 7)],
        1.0,
        1.0,
        (2, 1, 0),
        (2, 1, 0),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_peers_cases(case: str) -> None:
    gold, pred, ecer, ewer, nerval, boe = CASES[case]
    r = score_texts([gold], [pred], threshold=0.0)
    assert r.ecer_ewer is not None
    assert r.nerval is not None
    assert r.boe is not None
    assert r.ecer_ewer.total.char_errors == pytest.approx(ecer)
    assert r.ecer_ewer.total.word_errors == pytest.approx(ewer)
    t = r.nerval.total
    assert (t.tp, t.fp, t.fn) == nerval
    b = r.boe.total
    assert (b.tp, b.fp, b.fn) == boe


def test_hand_computed_scores() -> None:
    # Two documents. d1: 'Georges Washington' read as 'Georges Woshington' (1 character of 18),
    # and a date missed. d2: reading order changed, and a spurious PER.
    gold = [
        [("PER", "Georges Washington"), ("DATE", "1789")],
        [("LOC", "Paris"), ("PER", "Marie Curie")],
    ]
    pred = [
        [("PER", "Georges Woshington")],
        [("PER", "Marie Curie"), ("LOC", "Paris"), ("PER", "1895")],
    ]
    r = score_texts(gold, pred, threshold=0.1)
    assert r.ecer_ewer is not None
    e = r.ecer_ewer.total
    # ECER errors: 1/18 + 1 (missed date) + 0 + 0 + 1 (spurious) over 4 gold entities.
    assert e.char_errors == pytest.approx(1 / 18 + 2)
    assert e.ecer == pytest.approx((1 / 18 + 2) / 4)
    # EWER: one word of two wrong in the name.
    assert e.ewer == pytest.approx((0.5 + 2) / 4)
    per = r.ecer_ewer.per_category
    assert per["PER"].char_errors == pytest.approx(1 / 18 + 1)
    assert (per["PER"].gold, per["PER"].predicted, per["PER"].documents) == (2, 3, 2)
    assert per["DATE"].ecer == 1.0
    assert r.nerval is not None
    n = r.nerval.total
    assert (n.tp, n.fp, n.fn) == (3, 1, 1)  # the misread name is within 10 %
    assert n.precision == pytest.approx(0.75)
    assert n.recall == pytest.approx(0.75)
    assert score_texts(gold, pred, threshold=0.05).nerval.total.tp == 2  # type: ignore[union-attr]
    assert r.boe is not None
    b = r.boe.total
    assert (b.tp, b.fp, b.fn) == (2, 2, 2)
    # d1: L = {PER GW, DATE 1789}, P = {PER GWo}: |L|-|P| = 1, L1 = 3, so 1 substitution + 1 deletion.
    # d2: L = {LOC Paris, PER MC}, P = {PER MC, LOC Paris, PER 1895}: 0 substitutions + 1 insertion.
    assert b.errors == pytest.approx(3.0)
    assert b.bwer == pytest.approx(0.75)
    assert r.bow is not None
    w = r.bow.total  # words: Georges Washington 1789 Paris Marie Curie vs Georges Woshington ...
    assert (w.tp, w.fp, w.fn) == (4, 2, 2)
    assert r.botw is not None
    assert r.botw.per_category["PER"].fp == 2  # Woshington, 1895
    assert r.botw.per_category["LOC"].tp == 1


def test_categories_only_in_predictions_have_rows() -> None:
    r = score_texts([[("PER", "Ann")]], [[("PER", "Ann"), ("ORG", "ACME")]])
    for table in (r.ecer_ewer, r.nerval, r.bow, r.botw, r.boe):
        assert table is not None
        assert set(table.per_category) == {"ORG", "PER"}
    assert r.boe is not None
    org = r.boe.per_category["ORG"]
    assert (org.tp, org.fp, org.fn, org.precision) == (0, 1, 0, 0.0)
    assert r.boe.per_category["PER"].precision == 1.0
    assert r.boe.total.precision == pytest.approx(0.5)


def test_a_category_named_total_stays_apart() -> None:
    r = score_texts([[("total", "x"), ("PER", "y")]], [[("total", "x")]])
    assert r.boe is not None
    assert (r.boe.total.tp, r.boe.total.fn) == (1, 1)
    assert r.boe.per_category["total"].fn == 0
    assert r.to_dict()["boe"]["per_category"]["total"]["gold"] == 1


def test_empty_datasets_are_defined() -> None:
    r = score_texts([[], []], [[], []])
    d = r.to_dict()
    assert d["ecer-ewer"]["total"]["ecer"] == 0.0
    assert d["nerval"]["total"]["f1"] == 0.0
    assert d["bow"]["total"]["bwer"] == 0.0
    only_pred = score_texts([[]], [[("PER", "Ann")]])
    assert only_pred.ecer_ewer is not None
    assert only_pred.ecer_ewer.total.ecer == 1.0
    assert score_texts([], []).documents == 0


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="fraction"):
        score_texts([[]], [[]], threshold=30)
    with pytest.raises(ValueError, match="metrics among"):
        score_texts([[]], [[]], metrics=["cer"])
    with pytest.raises(ValueError, match="as many predicted documents"):
        score_texts([[]], [[], []])
    with pytest.raises(ValueError, match="with a word"):
        EntityTexts.from_documents([[("PER", "  ")]])


# --- brute force and properties ----------------------------------------------------------------


entity = st.tuples(st.sampled_from("AB"), st.sampled_from(["ab", "abc", "b c", "ab c", "xyz", "a"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(entity, max_size=4), st.lists(entity, max_size=3))
def test_assignment_equals_brute_force(gold: Doc, pred: Doc) -> None:
    r = score_texts([gold], [pred], metrics=["ecer-ewer"])
    assert r.ecer_ewer is not None
    assert r.ecer_ewer.total.char_errors == pytest.approx(brute_errors(gold, pred, words=False))
    assert r.ecer_ewer.total.word_errors == pytest.approx(brute_errors(gold, pred, words=True))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.lists(entity, max_size=4), st.lists(entity, max_size=4)), max_size=5),
    st.randoms(),
    st.integers(0, 5),
)
def test_order_invariance_and_merging(docs: list[tuple[Doc, Doc]], rnd: random.Random, cut: int) -> None:
    gold = [g for g, _ in docs]
    pred = [p for _, p in docs]
    whole = score_texts(gold, pred)
    shuffled = score_texts([rnd.sample(g, len(g)) for g in gold], [rnd.sample(p, len(p)) for p in pred])
    assert approx_dict(shuffled.to_dict()) == approx_dict(whole.to_dict())
    cut = min(cut, len(docs))
    merged = score_texts(gold[:cut], pred[:cut]).merge(score_texts(gold[cut:], pred[cut:]))
    assert approx_dict(merged.to_dict()) == approx_dict(whole.to_dict())


# --- ie-eval 0.2.0 -----------------------------------------------------------------------------

needs_ie_eval = pytest.mark.skipif(sys.version_info < (3, 11), reason="ie-eval needs Python 3.11")

WORDS = ["Paris", "Marie", "Curie", "York", "New", "de", "la", "Rue", "1895", "Jean-Paul"]


def noisy(rnd: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rnd.choice([0, 0, 1, 2])):
        i = rnd.randrange(len(chars))
        chars[i] = rnd.choice("aeiouxyz ") if chars[i] != " " else chars[i]
    return " ".join("".join(chars).split()) or text


def random_dataset(seed: int, docs: int, size: int) -> tuple[list[Doc], list[Doc]]:
    rnd = random.Random(seed)
    gold, pred = [], []
    for _ in range(docs):
        g = [
            (rnd.choice(["PER", "LOC", "DATE"]), " ".join(rnd.choices(WORDS, k=rnd.randint(1, 3))))
            for _ in range(rnd.randint(0, size))
        ]
        p = [(c if rnd.random() < 0.9 else "LOC", noisy(rnd, t)) for c, t in g if rnd.random() < 0.85]
        p += [(rnd.choice(["PER", "ORG"]), rnd.choice(WORDS)) for _ in range(rnd.randint(0, 2))]
        rnd.shuffle(p)
        gold.append(g)
        pred.append(p)
    return gold, pred


@needs_ie_eval
@pytest.mark.parametrize(("seed", "size"), [(1, 3), (2, 8), (3, 15)])
def test_agrees_with_ie_eval_scorers(seed: int, size: int) -> None:
    from ie_eval.scorer import BagOfWords, OiEcerEwer, OiNerval

    gold, pred = random_dataset(seed, 40, size)
    r = score_texts(gold, pred, threshold=0.3)
    assert r.ecer_ewer is not None
    assert r.nerval is not None
    char = sum(OiEcerEwer(g, p, compute_ecer=True).errors for g, p in zip(gold, pred, strict=True))
    word = sum(OiEcerEwer(g, p, compute_ecer=False).errors for g, p in zip(gold, pred, strict=True))
    assert r.ecer_ewer.total.char_errors == pytest.approx(char)
    assert r.ecer_ewer.total.word_errors == pytest.approx(word)
    nervals = [OiNerval(g, p, nerval_threshold=30.0) for g, p in zip(gold, pred, strict=True)]
    t = r.nerval.total
    assert (t.tp, t.fp, t.fn) == (
        sum(n.true_positives for n in nervals),
        sum(n.false_positives for n in nervals),
        sum(n.false_negatives for n in nervals),
    )

    def words(doc: Doc, tagged: bool) -> list[object]:
        return [(c, w) if tagged else w for c, t in doc for w in t.split()]

    bags = {
        "bow": lambda d: words(d, False),
        "botw": lambda d: words(d, True),
        "boe": lambda d: list(d),
    }
    for name, items in bags.items():
        table = getattr(r, name)
        scores = [BagOfWords(items(g), items(p)) for g, p in zip(gold, pred, strict=True)]
        assert (table.total.tp, table.total.fp, table.total.fn) == (
            sum(s.true_positives for s in scores),
            sum(s.false_positives for s in scores),
            sum(s.false_negatives for s in scores),
        ), name
        assert table.total.errors == pytest.approx(sum(float(s.errors) for s in scores)), name
        # Per category, ie-eval's scorer on each category's entities of every document.
        for category, row in table.per_category.items():
            per = [
                BagOfWords(
                    items([e for e in g if e[0] == category]), items([e for e in p if e[0] == category])
                )
                for g, p in zip(gold, pred, strict=True)
            ]
            assert (row.tp, row.fp, row.fn) == (
                sum(s.true_positives for s in per),
                sum(s.false_positives for s in per),
                sum(s.false_negatives for s in per),
            ), (name, category)
            assert row.errors == pytest.approx(sum(float(s.errors) for s in per)), (name, category)
    for category, row in r.ecer_ewer.per_category.items():
        char = sum(
            OiEcerEwer([e for e in g if e[0] == category], [e for e in p if e[0] == category], True).errors
            for g, p in zip(gold, pred, strict=True)
        )
        assert row.char_errors == pytest.approx(char), category


@pytest.mark.parametrize(("n_gold", "n_pred"), [(6, 6), (7, 6), (8, 5)])
def test_large_components_equal_brute_force(n_gold: int, n_pred: int) -> None:
    # Components with more than 5 on each side (or 8 on one) go to scipy's assignment.
    rnd = random.Random(n_gold * 10 + n_pred)
    pool = ["Marie", "Mario", "Maria", "Marius", "Mark", "Mar", "Maré", "Moria"]
    gold = [("PER", rnd.choice(pool)) for _ in range(n_gold)]
    pred = [("PER", rnd.choice(pool)) for _ in range(n_pred)]
    r = score_texts([gold], [pred], metrics=["ecer-ewer"])
    assert r.ecer_ewer is not None
    assert r.ecer_ewer.total.char_errors == pytest.approx(brute_errors(gold, pred, words=False))


text = st.lists(st.sampled_from(["a", "b", "ab", "", "é", "x\ny", "\n"]), max_size=4).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(text, max_size=5), st.lists(text, max_size=5))
def test_word_symbols_keep_word_distances(texts_a: list[str], texts_b: list[str]) -> None:
    # Texts with empty words, newlines of their own and the batched split all give word distances.
    a, b = as_symbols(texts_a, texts_b)
    assert len(a) == len(texts_a)
    assert len(b) == len(texts_b)
    from rapidfuzz.distance import Levenshtein

    for x, sx in zip(texts_a, a, strict=True):
        for y, sy in zip(texts_b, b, strict=True):
            assert Levenshtein.distance(sx, sy) == levenshtein(x.split(" "), y.split(" "))


# --- pins: the 100 % cap, whitespace, per-category document counts ----------------------------


def test_error_rates_are_capped_at_one() -> None:
    # One gold entity against three predictions of its category: 3 errors over 1 gold entity.
    r = score_texts(
        [[("PER", "Ada")]], [[("PER", "Bob"), ("PER", "Cy"), ("PER", "Dee")]], metrics=["ecer-ewer"]
    )
    assert r.ecer_ewer is not None
    for row in (r.ecer_ewer.total, r.ecer_ewer.per_category["PER"]):
        assert (row.char_errors, row.word_errors) == (3.0, 3.0)
        assert (row.ecer, row.ewer) == (1.0, 1.0)
    # A pair's own rate is capped too: "Ann" -> "Annabelle Smith" is 12 edits over 3 characters.
    r = score_texts([[("PER", "Ann"), ("PER", "Bo")]], [[("PER", "Annabelle Smith"), ("PER", "Bo")]])
    assert r.ecer_ewer is not None
    assert r.ecer_ewer.total.char_errors == 1.0
    assert r.ecer_ewer.total.ecer == 0.5


def test_runs_of_whitespace_compare_equal_to_single_spaces() -> None:
    gold = [[("PER", "John  \t Smith"), ("LOC", " New\tYork ")]]
    pred = [[("PER", "John Smith"), ("LOC", "New   York")]]
    r = score_texts(gold, pred, threshold=0.0)
    assert r.ecer_ewer is not None
    assert r.nerval is not None
    assert (r.ecer_ewer.total.char_errors, r.ecer_ewer.total.word_errors) == (0.0, 0.0)
    assert (r.nerval.total.tp, r.nerval.total.fp, r.nerval.total.fn) == (2, 0, 0)
    for table, tp in ((r.bow, 4), (r.botw, 4), (r.boe, 2)):
        assert table is not None
        assert (table.total.tp, table.total.fp, table.total.fn, table.total.errors) == (tp, 0, 0, 0.0)


def test_per_category_documents_count_either_side() -> None:
    # PER: gold only in d0, prediction only in d1; LOC in d2 on both sides; d3 has nothing.
    gold = [[("PER", "Ada")], [], [("LOC", "Rome")], []]
    pred = [[], [("PER", "Bob")], [("LOC", "Rome")], []]
    r = score_texts(gold, pred)
    for table in (r.ecer_ewer, r.nerval, r.bow, r.botw, r.boe):
        assert table is not None
        assert table.total.documents == 4
        assert {c: row.documents for c, row in table.per_category.items()} == {"LOC": 1, "PER": 2}
    merged = score_texts(gold[:2], pred[:2]).merge(score_texts(gold[2:], pred[2:]))
    assert merged.boe is not None
    assert {c: row.documents for c, row in merged.boe.per_category.items()} == {"LOC": 1, "PER": 2}


# JSON keys, metric selection and merges (cases the mutation run found unchecked)


def test_row_json_keys() -> None:
    assert ErrorRow(1.5, 2.0, 3, 4, 5).to_dict() == {
        "ecer": 0.5,
        "ewer": 2.0 / 3,
        "char_errors": 1.5,
        "word_errors": 2.0,
        "gold": 3,
        "predicted": 4,
        "documents": 5,
    }
    row = ErrorRow(char_errors=3.0, word_errors=2.0, gold=4, predicted=5, documents=2)
    # Rates over the 4 gold entities: 3/4 and 2/4.
    assert row.to_dict() == {
        "ecer": 0.75,
        "ewer": 0.5,
        "char_errors": 3.0,
        "word_errors": 2.0,
        "gold": 4,
        "predicted": 5,
        "documents": 2,
    }
    nerval = NervalRow(1, 2, 3, 4).to_dict()
    assert nerval["documents"] == 4
    assert "DOCUMENTS" not in nerval
    bag = BagRow(1, 1, 0, 2, 0.5).to_dict()
    assert (bag["errors"], bag["documents"], bag["bwer"]) == (0.5, 2, 0.5)
    assert set(bag) == set(nerval) | {"bwer", "errors"}


def test_scores_json_has_the_threshold_only_when_nerval_was_asked_for() -> None:
    d = TextScores(1, threshold=0.3).to_dict()
    assert d["threshold"] == 0.3
    assert "threshold" not in TextScores(1).to_dict()
    r = score_texts(GOLD, PRED, threshold=0.25)
    assert r.to_dict()["threshold"] == 0.25
    assert r.to_dict()["nerval"]["total"]["documents"] == 1


@pytest.mark.parametrize("metric", ["ecer-ewer", "nerval", "bow", "botw", "boe"])
def test_only_the_metrics_asked_for_are_computed(metric: str) -> None:
    r = score_texts(GOLD, PRED, metrics=[metric])
    names = {"ecer-ewer": "ecer_ewer", "nerval": "nerval", "bow": "bow", "botw": "botw", "boe": "boe"}
    for option, field in names.items():
        assert (getattr(r, field) is not None) == (option == metric), field
    assert set(r.to_dict()) - {"signature", "documents", "threshold"} == {metric}
    assert (r.threshold is not None) == (metric == "nerval")
    assert ("threshold" in r.to_dict()) == (metric == "nerval")
    assert ("nerval threshold" in r.signature) == (metric == "nerval")


def test_a_threshold_out_of_range_names_the_option() -> None:
    with pytest.raises(OptionError) as info:
        score_texts(GOLD, PRED, threshold=1.5)
    assert info.value.option == "threshold"
    assert str(info.value).startswith("threshold: expected a fraction in [0, 1]")


def test_nerval_per_category_counts_of_an_exact_match() -> None:
    r = score_texts([[("PER", "John")]], [[("PER", "John")]], metrics=["nerval"])
    assert r.nerval is not None
    per = r.nerval.per_category["PER"]
    assert (per.tp, per.fp, per.fn) == (1, 0, 0)
    assert (r.nerval.total.tp, r.nerval.total.fp, r.nerval.total.fn) == (1, 0, 0)


def test_bag_of_words_per_category_with_a_single_distinct_word() -> None:
    r = score_texts([[("A", "x"), ("B", "x")]], [[("B", "x")]], metrics=["bow"])
    assert r.bow is not None
    a, b = r.bow.per_category["A"], r.bow.per_category["B"]
    assert (a.tp, a.fp, a.fn) == (0, 0, 1)
    assert (b.tp, b.fp, b.fn) == (1, 0, 0)
    assert (r.bow.total.tp, r.bow.total.fp, r.bow.total.fn) == (1, 0, 1)


def test_merge_keeps_settings_and_adds_repairs() -> None:
    a = TextScores(1, 0.3, scheme="IOB2", repair="begin", repairs=1)
    b = TextScores(2, 0.3, scheme="IOB2", repair="begin", repairs=2)
    m = a.merge(b)
    assert (m.documents, m.threshold, m.scheme, m.repair, m.repairs) == (3, 0.3, "IOB2", "begin", 3)
    assert "scheme IOB2" in m.signature
    a = TextScores(2, scheme="IOBES", repair="discard", repairs=3, notes=("n1",))
    b = TextScores(1, scheme="IOBES", repair="discard", repairs=4, notes=("n2", "n1"))
    merged = a.merge(b)
    assert (merged.documents, merged.scheme, merged.repair, merged.repairs) == (3, "IOBES", "discard", 7)
    assert merged.notes == ("n1", "n2")


def test_merge_refusals_say_why() -> None:
    with pytest.raises(NerveError, match=r"cannot merge scores of different settings: .*0\.3.* vs .*0\.5"):
        TextScores(1, 0.3).merge(TextScores(1, 0.5))
    with_errors = score_texts(GOLD, PRED, metrics=["ecer-ewer"])
    without = score_texts(GOLD, PRED, metrics=["bow"])
    with pytest.raises(NerveError, match="cannot merge scores with and without ecer_ewer"):
        with_errors.merge(without)
    a = TextScores(1, scheme="IOB2", repair="begin")
    with pytest.raises(  # NerveError (was ValueError), as Result.merge's, since issue 25
        NerveError, match=r"^cannot merge scores of different settings: '.*IOB2.*' vs '.*IOBES.*'$"
    ):
        a.merge(TextScores(1, scheme="IOBES", repair="begin"))
    with_bow = TextScores(1, bow=TextTable(None, {}), scheme="IOB2", repair="begin")  # type: ignore[arg-type]
    with pytest.raises(NerveError, match=r"^cannot merge scores with and without bow$"):
        a.merge(with_bow)


def _noisy_document(seed: int) -> tuple[Doc, Doc]:
    """Some 30 entities of three interleaved categories, each predicted with one character wrong."""
    words = ["ab", "abc", "abcd", "abcde", "xy", "abcdefg", "abcdefghij"]
    gold = [
        ("ABC"[(i * 7 + seed) % 3], " ".join(words[(i * j + seed) % 7] for j in range(1 + i % 3)))
        for i in range(30 + seed)
    ]
    pred = [(c, t[:-1] + "z" if i % 3 else t + "q") for i, (c, t) in enumerate(gold)]
    return gold, pred[::-1]


def test_shards_merge_to_exactly_the_whole_corpus() -> None:
    """Each cell's pairs are taken in the entities' order, so a document scores the same alone."""
    (g1, p1), (g2, p2) = _noisy_document(0), _noisy_document(1)
    whole = score_texts([g1, g2], [p1, p2], metrics=["ecer-ewer"])
    merged = score_texts([g1], [p1], metrics=["ecer-ewer"]).merge(
        score_texts([g2], [p2], metrics=["ecer-ewer"])
    )
    assert whole.to_dict() == merged.to_dict()
