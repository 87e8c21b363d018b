"""The drop-in modules nerve.compat.eval4ner and nerve.compat.nereval.

They must reproduce the README examples of eval4ner 0.1.0 and nereval 0.2.5, agree with the
installed tools where those are right, and be right where they are not (one-to-one matching,
order independence, entities located at their own occurrence).
"""

from __future__ import annotations

import copy
import importlib
import json
import pprint
import random
from pathlib import Path

import pytest

import nerve.compat.eval4ner as muc
from nerve.compat import nereval as ner
from nerve.errors import InputError
from nerve.metrics.muc import muc_score

# The peers are test dependencies: without them these tests fail rather than skip.
eval4ner_muc = importlib.import_module("eval4ner.muc")
nereval = importlib.import_module("nereval")

COUNTS = ("correct", "incorrect", "partial", "missed", "spurius")
TEXT = "John Jones and Peter Peters came to York"
GOLD = [("PER", "John Jones"), ("PER", "Peter Peters"), ("LOC", "York")]


def counts(result: dict) -> dict[str, tuple[int, ...]]:
    return {mode: tuple(result[mode][k] for k in COUNTS) for mode in result}


# ---------------------------------------------------------------------------------------------
# eval4ner: README examples
# ---------------------------------------------------------------------------------------------

# "1. Evaluate single prediction", output as printed in the README.
README_ONE = """\
{'exact': {'actual': 1,
           'correct': 0,
           'f1_score': 0,
           'incorrect': 1,
           'missed': 2,
           'partial': 0,
           'possible': 3,
           'precision': 0.0,
           'recall': 0.0,
           'spurius': 0},
 'partial': {'actual': 1,
             'correct': 0,
             'f1_score': 0.25,
             'incorrect': 0,
             'missed': 2,
             'partial': 1,
             'possible': 3,
             'precision': 0.5,
             'recall': 0.16666666666666666,
             'spurius': 0},
 'strict': {'actual': 1,
            'correct': 0,
            'f1_score': 0,
            'incorrect': 1,
            'missed': 2,
            'partial': 0,
            'possible': 3,
            'precision': 0.0,
            'recall': 0.0,
            'spurius': 0},
 'type': {'actual': 1,
          'correct': 1,
          'f1_score': 0.5,
          'incorrect': 0,
          'missed': 2,
          'partial': 0,
          'possible': 3,
          'precision': 1.0,
          'recall': 0.3333333333333333,
          'spurius': 0}}"""

README_PREDICTIONS = [
    [("PER", "John Jones and Peter Peters came to York")],
    [("LOC", "John Jones"), ("PER", "Peters"), ("LOC", "York")],
    [("PER", "John Jones"), ("PER", "Peter Peters"), ("LOC", "York")],
]

# "2. Evaluate all predictions": mode, precision, recall, F1 as printed (4 decimals).
README_ALL = {
    "strict": (0.4444, 0.4444, 0.4444),
    "exact": (0.5556, 0.5556, 0.5556),
    "partial": (0.7778, 0.6667, 0.6944),
    "type": (0.8889, 0.6667, 0.7222),
}


def test_eval4ner_readme_evaluate_one() -> None:
    prediction = [("PER", "John Jones and Peter Peters came to York")]
    result = muc.evaluate_one(prediction, GOLD, TEXT)
    assert pprint.pformat(result) == README_ONE
    assert result == eval4ner_muc.evaluate_one(prediction, GOLD, TEXT)


def test_eval4ner_readme_evaluate_all(capsys: pytest.CaptureFixture[str]) -> None:
    result = muc.evaluate_all(README_PREDICTIONS, [GOLD] * 3, [TEXT] * 3, verbose=True)
    assert capsys.readouterr().out == ""  # eval4ner prints; the drop-in never does
    for mode, (p, r, f) in README_ALL.items():
        got = result[mode]
        assert (round(got["precision"], 4), round(got["recall"], 4), round(got["f1_score"], 4)) == (p, r, f)
        assert got["count"] == 3
    # The same floats as eval4ner itself (which prints them).
    theirs = eval4ner_muc.evaluate_all(README_PREDICTIONS, [GOLD] * 3, [TEXT] * 3)
    capsys.readouterr()
    plain = muc.evaluate_all(README_PREDICTIONS, [GOLD] * 3, [TEXT] * 3)
    assert plain == theirs
    assert capsys.readouterr().out == ""


def test_eval4ner_readme_micro() -> None:
    # The summed counts of the README example: POS 9, ACT 7 in every mode.
    result = muc.evaluate_all(README_PREDICTIONS, [GOLD] * 3, [TEXT] * 3, average="micro")
    expected = {
        "strict": (0.5714, 0.4444, 0.5000),
        "exact": (0.7143, 0.5556, 0.6250),
        "partial": (0.8571, 0.6667, 0.7500),
        "type": (0.8571, 0.6667, 0.7500),
    }
    for mode, scores in expected.items():
        got = result[mode]
        assert (got["possible"], got["actual"], got["count"]) == (9, 7, 3)
        assert tuple(round(got[k], 4) for k in ("precision", "recall", "f1_score")) == scores
    assert counts(result)["strict"] == (4, 3, 0, 2, 0)
    assert counts(result)["partial"] == (5, 0, 2, 2, 0)


def test_eval4ner_micro_equals_nerve_muc() -> None:
    gold_docs = [[(0, 10, "PER"), (15, 27, "PER"), (36, 40, "LOC")]] * 3
    pred_docs = [[(0, 40, "PER")], [(0, 10, "LOC"), (21, 27, "PER"), (36, 40, "LOC")], gold_docs[0]]
    nerve_result = muc_score(gold_docs, pred_docs)
    result = muc.evaluate_all(README_PREDICTIONS, [GOLD] * 3, [TEXT] * 3, average="micro")
    for mode, scores in nerve_result.modes.items():
        c = scores.overall
        got = result[mode]
        assert (got["precision"], got["recall"], got["f1_score"]) == (c.precision, c.recall, c.f1)
        assert (got["possible"], got["actual"]) == (c.pos, c.act)


def test_eval4ner_readme_muc_table() -> None:
    # The six scenarios of the README's table, one gold 告白气球 each (but II), in one text.
    comma = "\uff0c"  # a full-width comma: not a letter, so a word boundary
    text = comma.join(["年轮", "一首告白气球", "告白气球", "告白气球", "一首告白气球", "告白气球"])
    gold = [("MUSIC_NAME", "告白气球")] * 5  # V, IV, I, VI and III (missed)
    pred = [
        ("MUSIC_NAME", "年轮"),  # II: spurious
        ("MUSIC_NAME", "一首告白气球"),  # V
        ("SINGER", "告白气球"),  # IV
        ("MUSIC_NAME", "告白气球"),  # I
        ("SINGER", "一首告白气球"),  # VI
    ]
    result = muc.evaluate_one(pred, gold, text)
    assert counts(result) == {
        "strict": (1, 3, 0, 1, 1),
        "exact": (2, 2, 0, 1, 1),
        "partial": (2, 0, 2, 1, 1),
        "type": (2, 2, 0, 1, 1),
    }
    scores = {mode: result[mode]["precision"] for mode in result}
    assert scores == pytest.approx({"type": 0.4, "partial": 0.6, "exact": 0.4, "strict": 0.2})
    assert all(result[m]["recall"] == pytest.approx(scores[m]) for m in result)
    assert all(result[m]["f1_score"] == pytest.approx(scores[m]) for m in result)


# ---------------------------------------------------------------------------------------------
# eval4ner: agreement where eval4ner is right, the right answer where it is not
# ---------------------------------------------------------------------------------------------

TOKENS = TEXT.split()
BANK = ["Peter", "works", "at", "Bank", "of", "York", "today"]


def ent(tag: str, s: int, e: int, tokens: list[str] = TOKENS) -> tuple[str, str]:
    return tag, " ".join(tokens[s : e + 1])


# Cases of peers-muc.md §6 on which eval4ner's counts are optimal: (gold, pred, text).
AGREE = {
    "C01": ([ent("PER", 0, 1), ent("PER", 3, 4), ent("LOC", 7, 7)], GOLD, TEXT),
    "C02": ([ent("PER", 0, 1)], [ent("PER", 0, 0), ent("PER", 1, 1)], TEXT),
    "C03": ([ent("PER", 0, 1), ent("PER", 3, 4)], [ent("PER", 0, 4)], TEXT),
    "C04": ([ent("PER", 0, 1), ent("ORG", 3, 4)], [ent("ORG", 0, 4)], TEXT),
    "C05": ([ent("PER", 0, 1)], [ent("LOC", 0, 1)], TEXT),
    "C06": ([ent("LOC", 7, 7)], [ent("LOC", 6, 7)], TEXT),
    "C07": ([ent("PER", 3, 4)], [ent("ORG", 2, 4)], TEXT),
    "C08": ([ent("PER", 0, 1)], [ent("LOC", 7, 7)], TEXT),
    "C09": ([], [ent("PER", 0, 1)], TEXT),
    "C10": ([ent("PER", 0, 1)], [], TEXT),
    "C12": ([ent("PER", 0, 1)], [ent("PER", 0, 1)] * 2, TEXT),
    "C13": ([ent("ORG", 3, 5, BANK), ent("LOC", 5, 5, BANK)], [ent("LOC", 5, 5, BANK)], " ".join(BANK)),
    "C14b": ([ent("PER", 3, 4)], [ent("PER", 3, 4), ent("PER", 2, 3)], TEXT),
    "C20": (
        [ent("PER", 0, 1), ent("LOC", 7, 7)],
        [ent("PER", 0, 1), ent("ORG", 5, 5), ent("LOC", 7, 7)],
        TEXT,
    ),
}


@pytest.mark.parametrize("case", sorted(AGREE))
def test_eval4ner_agrees_where_eval4ner_is_right(case: str) -> None:
    gold, pred, text = AGREE[case]
    assert muc.evaluate_one(pred, gold, text) == eval4ner_muc.evaluate_one(pred, gold, text)


def test_eval4ner_agrees_on_evaluate_all(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [AGREE[k] for k in sorted(AGREE)]
    gold, pred, texts = ([c[i] for c in cases] for i in range(3))
    theirs = eval4ner_muc.evaluate_all(pred, gold, texts)
    capsys.readouterr()
    assert muc.evaluate_all(pred, gold, texts) == theirs


def test_eval4ner_substring_inside_a_word() -> None:
    # eval4ner finds 'York' inside 'Yorkshire' and calls the prediction INC / PAR.
    text = "Yorkshire Bank is in York"
    gold, pred = [("LOC", "York")], [("ORG", "Yorkshire Bank")]
    assert counts(eval4ner_muc.evaluate_one(pred, gold, text))["strict"] == (0, 1, 0, 0, 0)
    assert counts(muc.evaluate_one(pred, gold, text)) == dict.fromkeys(muc.MODES, (0, 0, 0, 1, 1))
    assert muc.locate(gold, text) == [(21, 25)]
    # "Pi" is a word of its own, not the start of "Pijke".
    text = "Pijke met Pi"
    gold, pred = [("PER", "Pi")], [("PER", "Pijke")]
    assert counts(eval4ner_muc.evaluate_one(pred, gold, text))["type"] == (1, 0, 0, 0, 0)
    assert counts(muc.evaluate_one(pred, gold, text))["type"] == (0, 0, 0, 1, 1)


def test_eval4ner_repeated_surface() -> None:
    # eval4ner compares only the first 'York': the second predicted York overlaps nothing.
    text = "York is not New York"
    gold = [("LOC", "York"), ("LOC", "New York")]
    pred = [("LOC", "York"), ("LOC", "York")]
    assert counts(eval4ner_muc.evaluate_one(pred, gold, text))["strict"] == (1, 0, 0, 1, 1)
    assert muc.locate(pred, text) == [(0, 4), (16, 20)]
    assert counts(muc.evaluate_one(pred, gold, text)) == {
        "strict": (1, 1, 0, 0, 0),
        "exact": (1, 1, 0, 0, 0),
        "partial": (1, 0, 1, 0, 0),
        "type": (2, 0, 0, 0, 0),
    }


def test_eval4ner_possible_is_the_number_of_gold_entities() -> None:
    # C16: eval4ner's independent MIS pass makes POS 3 for 2 gold entities.
    gold = [ent("PER", 0, 1), ent("ORG", 3, 4)]
    pred = [ent("ORG", 1, 3), ent("PER", 0, 1)]
    theirs = eval4ner_muc.evaluate_one(pred, gold, TEXT)
    assert theirs["strict"]["possible"] == 3
    ours = muc.evaluate_one(pred, gold, TEXT)
    assert counts(ours)["strict"] == (1, 1, 0, 0, 0)
    assert all(ours[m]["possible"] == 2 and ours[m]["actual"] == 2 for m in ours)


def test_eval4ner_exact_prediction_listed_second() -> None:
    # C14a: the exact prediction is COR although a worse one is listed first.
    gold = [ent("PER", 3, 4)]
    pred = [ent("PER", 2, 3), ent("PER", 3, 4)]
    assert counts(eval4ner_muc.evaluate_one(pred, gold, TEXT))["strict"] == (0, 1, 0, 0, 1)
    assert counts(muc.evaluate_one(pred, gold, TEXT))["strict"] == (1, 0, 0, 0, 1)


def test_eval4ner_order_of_the_lists_does_not_matter() -> None:
    a, b, ab = ent("PER", 0, 1), ent("PER", 3, 4), ent("PER", 0, 4)
    # eval4ner: gold listed [B, A] gives 0/1/0/1/1, listed [A, B] gives 1/1/0/0/0.
    assert counts(eval4ner_muc.evaluate_one([ab, b], [b, a], TEXT))["strict"] == (0, 1, 0, 1, 1)
    assert counts(eval4ner_muc.evaluate_one([ab, b], [a, b], TEXT))["strict"] == (1, 1, 0, 0, 0)
    for gold in ([a, b], [b, a]):
        for pred in ([ab, b], [b, ab]):
            assert counts(muc.evaluate_one(pred, gold, TEXT))["strict"] == (1, 1, 0, 0, 0)


def test_eval4ner_shuffling_does_not_change_scores() -> None:
    rng = random.Random(7)
    words = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]
    text = " ".join(words)
    tags = ["PER", "LOC", "ORG"]
    for _ in range(200):
        surfaces = {" ".join(words[s : s + rng.randint(1, 3)]) for s in rng.sample(range(10), 5)}
        gold = [(rng.choice(tags), s) for s in sorted(surfaces)[:3]]
        pred = [(rng.choice(tags), s) for s in sorted(surfaces)[1:]]
        expected = muc.evaluate_one(pred, gold, text)
        rng.shuffle(pred)
        rng.shuffle(gold)
        assert muc.evaluate_one(pred, gold, text) == expected


def test_eval4ner_does_not_mutate_or_print(capsys: pytest.CaptureFixture[str]) -> None:
    preds = [list(p) for p in README_PREDICTIONS]
    golds = [list(GOLD) for _ in range(3)]
    texts = [TEXT] * 3
    before = copy.deepcopy((preds, golds, texts))
    muc.evaluate_one(preds[0], golds[0], TEXT)
    muc.evaluate_all(preds, golds, texts, verbose=True)
    muc.evaluate_all(preds, golds, texts, average="micro")
    assert (preds, golds, texts) == before
    assert capsys.readouterr() == ("", "")


def test_eval4ner_empty_sentences(capsys: pytest.CaptureFixture[str]) -> None:
    result = muc.evaluate_one([], [], "nothing here")
    for mode in muc.MODES:
        assert counts(result)[mode] == (0, 0, 0, 0, 0)
        assert (result[mode]["possible"], result[mode]["actual"]) == (0, 0)
        assert [result[mode][k] for k in ("precision", "recall", "f1_score")] == [1.0, 1.0, 1.0]
    # The sentence average counts an empty sentence as 1.0, as eval4ner does ...
    preds, golds, texts = [[], [("PER", "Ann")]], [[], [("PER", "Ann")]], ["x", "Ann"]
    theirs = eval4ner_muc.evaluate_all(preds, golds, texts)
    capsys.readouterr()
    assert muc.evaluate_all(preds, golds, texts) == theirs
    # ... while the micro scores only see the counts.
    preds, golds, texts = [[], [("PER", "Bob")]], [[], [("PER", "Ann")]], ["x", "Ann Bob"]
    micro = muc.evaluate_all(preds, golds, texts, average="micro")
    assert micro["strict"]["precision"] == 0.0
    assert micro["strict"]["count"] == 2
    nothing = muc.evaluate_all([[]], [[]], ["x"], average="micro")
    assert nothing["strict"]["f1_score"] == 0.0
    zero = {"precision": 0.0, "recall": 0.0, "f1_score": 0.0, "count": 0}
    assert muc.evaluate_all([], [], []) == {mode: zero for mode in muc.MODES}


def test_eval4ner_verbose_returns_sentences() -> None:
    result = muc.evaluate_all(README_PREDICTIONS, [GOLD] * 3, [TEXT] * 3, verbose=True)
    for mode in muc.MODES:
        rows = result[mode]["per_sentence"]
        assert rows == [muc.evaluate_one(p, GOLD, TEXT)[mode] for p in README_PREDICTIONS]


def test_eval4ner_bad_input() -> None:
    with pytest.raises(ValueError, match="not equal"):
        muc.evaluate_all([[]], [], [])
    with pytest.raises(ValueError, match="average"):
        muc.evaluate_all([], [], [], average="macro")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sentence 1: gold entity 0"):
        muc.evaluate_all([[], []], [[], [("PER", "Zed")]], ["a", "b"])
    # A predicted surface that is not in the text is spurious, as in eval4ner.
    result = muc.evaluate_one([("PER", "Jon Jones")], [("PER", "John Jones")], TEXT)
    assert counts(result)["partial"] == (0, 0, 0, 1, 1)
    assert result == eval4ner_muc.evaluate_one([("PER", "Jon Jones")], [("PER", "John Jones")], TEXT)


def test_locate_rule() -> None:
    text = "York is not New York"
    # k-th entity, k-th occurrence; more entities than occurrences start again from the first.
    assert muc.locate([("A", "York")] * 3, text) == [(0, 4), (16, 20), (0, 4)]
    assert muc.locate([("A", "New York"), ("B", "is"), ("C", "absent"), ("D", "")], text) == [
        (12, 20),
        (5, 7),
        None,
        None,
    ]
    # Whole words first, then occurrences inside words.
    assert muc.locate([("A", "York"), ("A", "York")], "Yorkshire and York") == [(14, 18), (0, 4)]
    # An overlapping occurrence only when no other is free.
    assert muc.locate([("A", "aa")] * 3, "aaaa") == [(0, 2), (2, 4), (1, 3)]


# ---------------------------------------------------------------------------------------------
# nereval
# ---------------------------------------------------------------------------------------------

README_JSON = [
    {
        "text": "CILINDRISCHE PLUG",
        "true": [{"text": "CILINDRISCHE PLUG", "type": "Productname", "start": 0}],
        "predicted": [
            {"text": "CILINDRISCHE", "type": "Productname", "start": 0},
            {"text": "PLUG", "type": "Productname", "start": 13},
        ],
    }
]


def test_nereval_readme_python() -> None:
    y_true = [ner.Entity("CILINDRISCHE PLUG", "Productname", 0)]
    y_pred = [ner.Entity("CILINDRISCHE", "Productname", 0), ner.Entity("PLUG", "Productname", 13)]
    score = ner.evaluate([y_true], [y_pred])
    assert f"F1-score: {score:.2f}" == "F1-score: 0.33"
    assert score == nereval.evaluate([y_true], [y_pred])


def test_nereval_readme_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(README_JSON))
    assert f"{ner.evaluate_json(str(path)):.2f}" == "0.33"
    assert ner.evaluate_json(str(path)) == nereval.evaluate_json(str(path))
    assert ner.main([str(path)]) == 0
    assert capsys.readouterr().out == "F1-score: 0.33\n"


def test_nereval_docstring_example() -> None:
    y_true = [[ner.Entity("a", "b", 0), ner.Entity("b", "b", 2)]]
    y_pred = [[ner.Entity("b", "b", 2)]]
    assert ner.evaluate(y_true, y_pred) == 0.6666666666666666


def test_nereval_readme_symmetry_note() -> None:
    text = "CILINDRISCHE PLUG DIN908 M10X1 Foo"

    def e(s: str, t: str) -> ner.Entity:
        return ner.Entity(s, t, text.index(s))

    truth = [e("CILINDRISCHE PLUG", "PROD"), e("DIN908", "PROD"), e("M10X1", "DIM")]
    singles = [e(w, "PROD") for w in text.split()]
    # Example 1: Correct Text 2, Correct Type 2, as in the README.
    assert ner.count_correct(truth, singles) == nereval.count_correct(truth, singles) == (2, 2)
    # Example 2: nereval's Correct Type 3 fills two slots with one prediction; one-to-one gives 2.
    assert nereval.count_correct(singles, truth) == (2, 3)
    assert ner.count_correct(singles, truth) == (2, 2)


def test_nereval_precision_never_exceeds_one() -> None:
    gold = [ner.Entity("A", "PER", 0), ner.Entity("B", "PER", 2), ner.Entity("C", "PER", 4)]
    pred = [ner.Entity("A B C", "PER", 0)]
    assert nereval.count_correct(gold, pred) == (0, 3)  # COR 3 for ACT 2: precision 1.5
    assert ner.count_correct(gold, pred) == (0, 1)
    assert ner.precision_recall_f1([gold], [pred]) == (0.5, 1 / 6, 0.25)


def test_nereval_order_of_predictions_does_not_matter() -> None:
    gold = [ner.Entity("New York", "LOC", 0)]
    first, second = ner.Entity("New", "LOC", 0), ner.Entity("New York", "LOC", 0)
    assert nereval.evaluate([gold], [[first, second]]) == pytest.approx(1 / 3)
    assert nereval.evaluate([gold], [[second, first]]) == pytest.approx(2 / 3)
    assert ner.evaluate([gold], [[first, second]]) == ner.evaluate([gold], [[second, first]]) == 2 / 3


def random_entities(rng: random.Random, n: int, text_len: int = 30) -> list[ner.Entity]:
    out = []
    for _ in range(n):
        start = rng.randrange(text_len)
        length = rng.randint(1, 6)
        out.append(ner.Entity("x" * length, rng.choice("AB"), start))
    return out


def test_nereval_random_one_to_one_and_order_free() -> None:
    rng = random.Random(11)
    for _ in range(300):
        docs_true = [random_entities(rng, rng.randint(0, 6)) for _ in range(3)]
        docs_pred = [random_entities(rng, rng.randint(0, 6)) for _ in range(3)]
        p, r, f = ner.precision_recall_f1(docs_true, docs_pred)
        assert 0 <= p <= 1
        assert 0 <= r <= 1
        for true, pred in zip(docs_true, docs_pred, strict=True):
            text, typ = ner.count_correct(true, pred)
            assert text <= min(len(true), len(pred))
            assert typ <= min(len(true), len(pred))
            assert ner.count_correct(rng.sample(true, len(true)), rng.sample(pred, len(pred))) == (text, typ)
        shuffled = [rng.sample(doc, len(doc)) for doc in docs_pred]
        assert ner.evaluate(docs_true, shuffled) == f


def test_nereval_agrees_when_pairs_are_unambiguous() -> None:
    # Entities in separate slots of 10 characters, at most one gold and one prediction per slot:
    # every gold has at most one candidate, where nereval is right.
    rng = random.Random(3)
    for _ in range(300):
        docs_true, docs_pred = [], []
        for _ in range(rng.randint(1, 4)):
            true, pred = [], []
            for slot in range(rng.randint(0, 6)):
                for side in (true, pred):
                    if rng.random() < 0.8:
                        start = slot * 10 + rng.randint(0, 4)
                        side.append(ner.Entity("x" * rng.randint(1, 5), rng.choice("AB"), start))
            docs_true.append(true)
            docs_pred.append(pred)
        for true, pred in zip(docs_true, docs_pred, strict=True):
            assert ner.count_correct(true, pred) == nereval.count_correct(true, pred)
        assert ner.evaluate(docs_true, docs_pred) == nereval.evaluate(docs_true, docs_pred)


def test_nereval_accepts_nereval_entities_and_does_not_mutate() -> None:
    true = [[nereval.Entity("New York", "LOC", 0), nereval.Entity("Ann", "PER", 12)]]
    pred = [[nereval.Entity("New", "LOC", 0), nereval.Entity("New York", "LOC", 0)]]
    before = copy.deepcopy((true, pred))
    assert ner.evaluate(true, pred) == 0.5  # COR 2 of ACT 4 and POS 4
    assert (true, pred) == before
    assert ner.Entity("a", "b", 0) == nereval.Entity("a", "b", 0)
    assert ner.Entity._fields == nereval.Entity._fields


def test_nereval_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="Bad input shape"):
        ner.evaluate([[]], [])
    bad = copy.deepcopy(README_JSON)
    bad[0]["predicted"][1]["start"] = 12
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(InputError, match="document 0"):
        ner.evaluate_json(str(path))
    assert ner.main([str(path)]) == 2
    assert "document 0" in capsys.readouterr().err


def test_nereval_empty_texts() -> None:
    assert ner.evaluate([], []) == 0
    assert ner.evaluate([[]], [[]]) == 0
    # Empty entity texts: the same empty text at the same start fills the TEXT slot only.
    true = [[ner.Entity("", "A", 3), ner.Entity("abc", "A", 0)]]
    pred = [[ner.Entity("", "A", 3), ner.Entity("", "A", 1)]]
    assert ner.count_correct(true[0], pred[0]) == nereval.count_correct(true[0], pred[0]) == (1, 1)


def test_locate_many_equals_locate_sentence_by_sentence() -> None:
    rnd = random.Random(8)
    words = ["York", "New", "New York", "Yorkshire", "a", "", "b c", "Paris"]
    texts, lists = [], []
    for _ in range(400):
        texts.append(
            " ".join(rnd.choice(["York", "New", "Yorkshire", "a", "b", "c", "is"]) for _ in range(8))
        )
        lists.append([(rnd.choice("PL"), rnd.choice(words)) for _ in range(rnd.randint(0, 5))])
    sentence, starts, ends, tags = muc.locate_many(lists, texts)
    expected = [
        (i, *(span if span is not None else (-1, -1)), tag)
        for i, (entities, text) in enumerate(zip(lists, texts, strict=True))
        for span, (tag, _) in zip(muc.locate(entities, text), entities, strict=True)
    ]
    assert list(zip(sentence, starts, ends, tags, strict=True)) == expected
