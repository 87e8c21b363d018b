"""nerve.compat.nervaluate: nervaluate 1.2.1's README, its greedy counts exactly, and optimal by default."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import peer
from nerve.compat.nervaluate import Evaluator

nervaluate = peer("nervaluate")

TAGS = ["PER", "ORG", "LOC", "DATE"]
# nervaluate's README example.
TRUE = [
    ["O", "B-PER", "I-PER", "O", "O", "O", "B-ORG", "I-ORG"],
    ["O", "B-LOC", "B-PER", "I-PER", "O", "O", "B-DATE"],
]
PRED = [
    ["O", "O", "B-PER", "I-PER", "O", "O", "B-ORG", "I-ORG"],
    ["O", "B-LOC", "I-LOC", "B-PER", "O", "O", "B-DATE"],
]
README_OVERALL = """\
ent_type            5           0           0           0           0        1.00        1.00        1.00
   exact            2           3           0           0           0        0.40        0.40        0.40
 partial            2           0           3           0           0        0.70        0.70        0.70
  strict            2           3           0           0           0        0.40        0.40        0.40
"""
README_STRICT = """\
   DATE            1           0           0           0           0        1.00        1.00        1.00
    LOC            0           1           0           0           0        0.00        0.00        0.00
    ORG            1           0           0           0           0        1.00        1.00        1.00
    PER            0           2           0           0           0        0.00        0.00        0.00
"""


@pytest.mark.parametrize("matching", ["optimal", "greedy"])
def test_readme_example(matching: str) -> None:
    ours = Evaluator(TRUE, PRED, tags=TAGS, loader="list", matching=matching)
    theirs = nervaluate.Evaluator(TRUE, PRED, tags=TAGS, loader="list")
    report = ours.summary_report()
    assert report.endswith(README_OVERALL)
    assert report == theirs.summary_report()
    by_tag = ours.summary_report(mode="entities")
    assert by_tag.startswith("Scenario: strict\n")
    assert by_tag.endswith(README_STRICT)
    assert by_tag == theirs.summary_report(mode="entities")
    assert ours.results_to_csv() == theirs.results_to_csv()
    assert ours.results_to_csv("entities", "partial").splitlines()[0].startswith("Entity,Correct")


def as_plain(results: dict[str, Any]) -> dict[str, Any]:
    """nervaluate's or nerve's result structure as plain values, with the floats rounded."""

    def result(r: Any) -> tuple[Any, ...]:
        counts = (r.correct, r.incorrect, r.partial, r.missed, r.spurious, r.actual, r.possible)
        return (*counts, round(r.precision, 9), round(r.recall, 9), round(r.f1, 9))

    def indices(i: Any) -> tuple[Any, ...]:
        return tuple(
            sorted(getattr(i, f"{k}_indices"))
            for k in ("correct", "incorrect", "partial", "missed", "spurious")
        )

    return {
        "overall": {s: result(r) for s, r in results["overall"].items()},
        "entities": {t: {s: result(r) for s, r in rs.items()} for t, rs in results["entities"].items()},
        "overall_indices": {s: indices(i) for s, i in results["overall_indices"].items()},
        "entity_indices": {
            t: {s: indices(i) for s, i in rs.items()} for t, rs in results["entity_indices"].items()
        },
    }


entity = st.tuples(st.integers(0, 11), st.integers(0, 3), st.sampled_from(["PER", "LOC", "ORG", "MISC"])).map(
    lambda t: {"label": t[2], "start": t[0], "end": t[0] + t[1]}
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.lists(entity, max_size=6), st.lists(entity, max_size=6)), min_size=1, max_size=4),
    st.sampled_from([["PER", "LOC", "ORG", "MISC"], ["PER", "LOC"], ["ORG"]]),
    st.sampled_from([1.0, 30.0, 50.0, 100.0]),
)
def test_greedy_is_nervaluate(
    docs: list[tuple[list[Any], list[Any]]], tags: list[str], percent: float
) -> None:
    true = [t for t, _ in docs]
    pred = [p for _, p in docs]
    if not any(true):  # nervaluate's "default" loader cannot tell an all-empty input's format
        true = [*true, [{"label": "PER", "start": 20, "end": 20}]]
        pred = [*pred, []]
    args = (true, pred, tags, "dict", percent)
    theirs = nervaluate.Evaluator(*args).evaluate()
    ours = Evaluator(*args, matching="greedy").evaluate()
    assert as_plain(ours) == as_plain(theirs)


def random_tags(rnd: random.Random, n: int) -> list[str]:
    return [rnd.choice(["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"]) for _ in range(n)]


def test_greedy_is_nervaluate_with_tag_lists_and_conll() -> None:
    rnd = random.Random(3)
    true = [random_tags(rnd, rnd.randint(0, 15)) for _ in range(60)]
    pred = [[t if rnd.random() < 0.7 else rnd.choice(["O", "B-PER", "I-LOC"]) for t in doc] for doc in true]
    expected = as_plain(nervaluate.Evaluator(true, pred, ["PER", "LOC", "ORG"], loader="list").evaluate())
    assert (
        as_plain(Evaluator(true, pred, ["PER", "LOC", "ORG"], loader="list", matching="greedy").evaluate())
        == expected
    )

    def conll(docs: list[list[str]]) -> str:
        return "\n\n".join("\n".join(f"w{i}\t{t}" for i, t in enumerate(doc)) for doc in docs if doc)

    kept = [i for i, doc in enumerate(true) if doc]
    t_text, p_text = conll([true[i] for i in kept]), conll([pred[i] for i in kept])
    expected = as_plain(nervaluate.Evaluator(t_text, p_text, ["PER", "LOC"], loader="conll").evaluate())
    assert as_plain(Evaluator(t_text, p_text, ["PER", "LOC"], matching="greedy").evaluate()) == expected


def test_optimal_by_default() -> None:
    # peers-muc.md C15: nervaluate scores the exact prediction spurious.
    true = [[{"label": "PER", "start": 3, "end": 4}, {"label": "PER", "start": 0, "end": 1}]]
    pred = [[{"label": "PER", "start": 0, "end": 4}, {"label": "PER", "start": 3, "end": 4}]]
    strict = Evaluator(true, pred, ["PER"]).evaluate()["overall"]["strict"]
    assert (strict.correct, strict.incorrect, strict.missed, strict.spurious) == (1, 1, 0, 0)
    greedy = Evaluator(true, pred, ["PER"], matching="greedy").evaluate()["overall"]["strict"]
    assert (greedy.correct, greedy.incorrect, greedy.missed, greedy.spurious) == (0, 1, 1, 1)
    reversed_pred = [pred[0][::-1]]
    again = Evaluator(true, reversed_pred, ["PER"]).evaluate()["overall"]["strict"]
    assert again == strict


def test_optimal_tag_rows_add_up_and_indices_agree() -> None:
    true = [[{"label": "PER", "start": 0, "end": 1}, {"label": "ORG", "start": 5, "end": 6}]]
    pred = [
        [
            {"label": "LOC", "start": 0, "end": 1},
            {"label": "ORG", "start": 5, "end": 7},
            {"label": "X", "start": 9, "end": 9},
        ]
    ]
    results = Evaluator(true, pred, ["PER", "ORG", "LOC"]).evaluate()
    exact = {tag: r["exact"] for tag, r in results["entities"].items()}
    # The type confusion is correct in exact mode, in the tag rows too.
    assert (exact["PER"].correct, exact["PER"].possible, exact["PER"].actual) == (1, 1, 0)
    assert (exact["LOC"].correct, exact["LOC"].possible, exact["LOC"].actual) == (0, 0, 1)
    for strategy, overall in results["overall"].items():
        rows = [r[strategy] for r in results["entities"].values()]
        assert sum(r.possible for r in rows) == overall.possible == 2
        assert sum(r.actual for r in rows) == overall.actual == 2  # X is not among the tags
        idx = results["entity_indices"]["PER"][strategy]
        assert len(idx.correct_indices) == results["entities"]["PER"][strategy].correct
    # Indices are positions in the caller's lists.
    assert results["overall_indices"]["partial"].partial_indices == [(0, 1)]
    assert results["overall_indices"]["strict"].incorrect_indices == [(0, 0), (0, 1)]


def test_loader_errors_are_nervaluates() -> None:
    with pytest.raises(ValueError, match="Document 0 has different lengths"):
        Evaluator([["O"]], [["O", "O"]], ["PER"], loader="list")
    with pytest.raises(ValueError, match="Invalid tag format: S-PER"):
        Evaluator([["S-PER"]], [["O"]], ["PER"], loader="list")
    with pytest.raises(ValueError, match="min_overlap_percentage"):
        Evaluator([["O"]], [["O"]], ["PER"], min_overlap_percentage=0)
    with pytest.raises(ValueError, match="tab separator"):
        Evaluator("a B-PER", "a\tO", ["PER"])
    with pytest.raises(ValueError, match="Unknown loader"):
        Evaluator([["O"]], [["O"]], ["PER"], loader="csv")
    with pytest.raises(ValueError, match="missing required keys"):
        Evaluator([[{"label": "PER", "start": 0}]], [[]], ["PER"], loader="dict")


def test_nothing_to_score() -> None:
    results = Evaluator([[], []], [[], []], ["PER"], loader="dict").evaluate()
    assert results["overall"]["strict"].f1 == 0.0
    assert results["entities"] == {}


def test_the_import_paths_of_nervaluates_readme() -> None:
    import nerve.compat.nervaluate as package
    from nerve.compat.nervaluate.entities import EvaluationIndices, EvaluationResult
    from nerve.compat.nervaluate.evaluator import Evaluator as FromEvaluator

    assert FromEvaluator is Evaluator is package.Evaluator
    assert (package.EvaluationResult, package.EvaluationIndices) == (EvaluationResult, EvaluationIndices)
    assert set(package.__all__) <= set(dir(package))


count = st.integers(0, 4)


@settings(max_examples=200, deadline=None)
@given(st.tuples(count, count, count, count, count), st.booleans(), st.integers(0, 9), st.integers(0, 9))
def test_compute_metrics_is_nervaluates(
    counts: tuple[int, int, int, int, int], partial_or_type: bool, actual: int, possible: int
) -> None:
    """The same fields, of the same types, from any counts (``actual``/``possible`` are recomputed)."""
    from nerve.compat.nervaluate import EvaluationResult

    ours = EvaluationResult(*counts, actual=actual, possible=possible)
    theirs = nervaluate.evaluator.EvaluationResult(*counts, actual=actual, possible=possible)
    ours.compute_metrics(partial_or_type=partial_or_type)
    theirs.compute_metrics(partial_or_type=partial_or_type)
    fields = (
        "correct",
        "incorrect",
        "partial",
        "missed",
        "spurious",
        "precision",
        "recall",
        "f1",
        "actual",
        "possible",
    )
    assert [getattr(ours, f) for f in fields] == [getattr(theirs, f) for f in fields]
    assert [type(getattr(ours, f)) for f in fields] == [type(getattr(theirs, f)) for f in fields]
    ours.compute_metrics()
    theirs.compute_metrics()
    assert [getattr(ours, f) for f in fields] == [getattr(theirs, f) for f in fields]


@pytest.mark.parametrize("matching", ["optimal", "greedy"])
def test_compute_metrics_keeps_the_overall_rows(matching: str) -> None:
    results = Evaluator(TRUE, PRED, tags=TAGS, loader="list", matching=matching).evaluate()["overall"]
    for strategy, r in results.items():
        before = (r.actual, r.possible, r.precision, r.recall, r.f1)
        r.compute_metrics(partial_or_type=strategy in ("partial", "ent_type"))
        assert (r.actual, r.possible, r.precision, r.recall, r.f1) == pytest.approx(before)
