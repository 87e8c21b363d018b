"""Exact scores: hand-computed fractions, averages, zero denominators, merging and renderings."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import nerve
from nerve import Counts, ExactScores, NerveError

# The example of peers-chunk.md section 1, as sentences (without its -DOCSTART- line).
GOLD = [
    ["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "O"],
    ["O", "B-ORG", "O", "B-PER", "I-PER", "O"],
]
PRED = [
    ["B-PER", "I-PER", "O", "B-LOC", "B-LOC", "O"],
    ["O", "B-MISC", "O", "I-PER", "I-PER", "O"],
]


def test_example_counts_and_scores() -> None:
    r = nerve.score(GOLD, PRED)
    # gold: PER PER LOC ORG; pred: PER, LOC, LOC, MISC, PER (I-PER after O begins) -> 2 correct.
    assert (r.micro.tp, r.micro.fp, r.micro.fn) == (2, 3, 2)
    assert r.micro.precision == pytest.approx(2 / 5)
    assert r.micro.recall == pytest.approx(2 / 4)
    assert r.micro.f1 == pytest.approx(2 * (2 / 5) * (2 / 4) / (2 / 5 + 2 / 4))
    assert r.per_type["PER"].f1 == 1.0
    assert r.per_type["LOC"].predicted == 2
    assert r.per_type["MISC"].gold == 0
    assert r.per_type["ORG"].predicted == 0
    # macro: mean of per-type scores; LOC, MISC, ORG score 0, PER scores 1.
    assert (r.macro.precision, r.macro.recall, r.macro.f1) == (0.25, 0.25, 0.25)
    # weighted by gold support: PER has 2 of 4 gold entities.
    assert (r.weighted.precision, r.weighted.recall, r.weighted.f1) == (0.5, 0.5, 0.5)
    assert r.tokens.count == 12
    assert r.tokens.accuracy == pytest.approx(9 / 12)
    assert r.repairs.pred == 1  # O -> I-PER
    assert r.repairs.by_kind == {"O -> I": 1}


def test_zero_denominators_give_zero() -> None:
    none = nerve.score([["O", "O"]], [["O", "O"]])
    assert (none.micro.precision, none.micro.recall, none.micro.f1) == (0.0, 0.0, 0.0)
    assert dict(none.per_type) == {}
    assert (none.macro.f1, none.weighted.f1) == (0.0, 0.0)
    missed = nerve.score([["B-PER", "O"]], [["O", "O"]])
    assert (missed.micro.precision, missed.micro.recall) == (0.0, 0.0)
    spurious = nerve.score([["O", "O"]], [["B-PER", "O"]])
    assert (spurious.micro.precision, spurious.micro.recall, spurious.micro.f1) == (0.0, 0.0, 0.0)
    assert spurious.weighted.f1 == 0.0  # no gold support at all


def test_empty_input_scores_zero() -> None:
    r = nerve.score([], [])
    assert r.micro.f1 == 0.0
    assert r.tokens.count == 0
    assert r.tokens.accuracy == 0.0


def test_fbeta() -> None:
    r = nerve.score(GOLD, PRED, beta=0.5)
    p, rec = 2 / 5, 2 / 4
    assert r.micro.fbeta == pytest.approx((1 + 0.25) * p * rec / (0.25 * p + rec))
    assert r.micro.f1 == pytest.approx(2 * p * rec / (p + rec))
    assert "beta 0.5" in r.signature
    assert "fbeta" in r.to_dict()["exact"]["micro"]
    assert "fbeta" not in nerve.score(GOLD, PRED).to_dict()["exact"]["micro"]
    with pytest.raises(NerveError):
        nerve.score(GOLD, PRED, beta=0)


def test_counts_add_up_and_merge() -> None:
    a = ExactScores({"PER": Counts(1, 2, 3)})
    b = ExactScores({"PER": Counts(1, 0, 0), "LOC": Counts(0, 1, 0)})
    merged = a + b
    assert merged.counts == {"PER": Counts(2, 2, 3), "LOC": Counts(0, 1, 0)}
    assert merged.micro.tp == 2
    first = nerve.score(GOLD[:1], PRED[:1], scheme="IOB2")
    second = nerve.score(GOLD[1:], PRED[1:], scheme="IOB2")
    whole = nerve.score(GOLD, PRED, scheme="IOB2")
    # Tag lists have no -DOCSTART-: each scored input is one document, so two merged inputs are two.
    assert first.merge(second) == replace(whole, documents=2)
    assert (first + second).sentences == whole.sentences == 2


def test_merge_refuses_different_settings() -> None:
    a = nerve.score(GOLD, PRED, scheme="IOB2")
    b = nerve.score(GOLD, PRED, scheme="IOB2", repair="conlleval")
    with pytest.raises(NerveError, match="different settings"):
        a.merge(b)


def test_signature_names_what_changes_the_number() -> None:
    r = nerve.score(GOLD, PRED)
    assert r.signature == (
        f"nerve {nerve.__version__} | scheme IOB2 (auto) | tags B-X O | repair begin (1 repair) "
        "| match exact | avg micro"
    )
    explicit = nerve.score(GOLD, PRED, scheme="BIO", repair="discard")
    assert "scheme IOB2 |" in explicit.signature
    assert "repair discard (1 repair)" in explicit.signature


def test_discard_and_conlleval_policies_on_the_example() -> None:
    discard = nerve.score(GOLD, PRED, repair="discard")
    assert (discard.micro.tp, discard.micro.predicted) == (1, 4)  # the I-PER entity is dropped
    conll = nerve.score(GOLD, PRED, repair="conlleval")
    assert (conll.micro.tp, conll.micro.predicted, conll.micro.gold) == (2, 5, 4)


def test_error_policy_lists_every_invalid_transition() -> None:
    with pytest.raises(nerve.InvalidSequenceError) as info:
        nerve.score(GOLD, [["I-PER", "I-PER", "O", "B-LOC", "I-LOC", "I-LOC"], PRED[1]], repair="error")
    problems = info.value.problems
    assert [(p.side, p.previous, p.tag) for p in problems] == [
        ("pred", None, "I-PER"),
        ("pred", "O", "I-PER"),
    ]


@pytest.mark.parametrize("output", ["table", "json", "markdown", "csv", "latex"])
def test_every_rendering_carries_the_signature(output: str) -> None:
    r = nerve.score(GOLD, PRED)
    assert r.signature in nerve.render(r, output)


def test_json_shape() -> None:
    d = json.loads(nerve.render(nerve.score(GOLD, PRED), "json"))
    assert set(d) == {"signature", "tokens", "sentences", "documents", "exact", "repairs"}
    assert set(d["tokens"]) == {"count", "accuracy"}
    assert set(d["exact"]) == {"micro", "macro", "weighted", "per_type"}
    keys = {"precision", "recall", "f1", "tp", "fp", "fn", "gold", "predicted"}
    for m in [
        d["exact"]["micro"],
        d["exact"]["macro"],
        d["exact"]["weighted"],
        *d["exact"]["per_type"].values(),
    ]:
        assert set(m) == keys
        assert 0.0 <= m["f1"] <= 1.0
    assert d["exact"]["per_type"]["PER"]["f1"] == 1.0


def test_csv_is_machine_readable() -> None:
    import csv
    import io

    text = nerve.render(nerve.score(GOLD, PRED), "csv")
    rows = list(csv.DictReader(io.StringIO(text.split("\n", 1)[1].split("\n\n")[0])))
    assert [r["type"] for r in rows] == [
        "LOC",
        "MISC",
        "ORG",
        "PER",
        "micro avg",
        "macro avg",
        "weighted avg",
    ]
    assert float(rows[-3]["f1"]) == pytest.approx(4 / 9)


def test_latex_escapes_type_names() -> None:
    r = nerve.score([["B-A_B", "O"]], [["B-A_B", "O"]])
    assert r"A\_B" in nerve.render(r, "latex")
