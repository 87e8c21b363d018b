"""Text-metric behaviour the mutation run found unchecked: JSON keys, metric selection, merges, progress.

Small hand-made inputs only (the largest is one 512 x 512 cell), so these run inside mutmut's
``mutants/`` tree too; the refused-block case never pairs anything.
"""

from __future__ import annotations

import pytest

from nerve.errors import NerveError, OptionError
from nerve.matching.text import as_symbols
from nerve.matching.text_cells import BIG
from nerve.metrics.text import BagRow, ErrorRow, NervalRow, TextScores, score_texts

Doc = list[tuple[str, str]]

GOLD: list[Doc] = [[("PER", "John Smith"), ("LOC", "York")]]
PRED: list[Doc] = [[("PER", "John Smyth"), ("LOC", "New York")]]


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


def test_merge_keeps_scheme_and_repair_and_adds_repairs() -> None:
    a = TextScores(1, 0.3, scheme="IOB2", repair="begin", repairs=1)
    b = TextScores(2, 0.3, scheme="IOB2", repair="begin", repairs=2)
    m = a.merge(b)
    assert (m.documents, m.threshold, m.scheme, m.repair, m.repairs) == (3, 0.3, "IOB2", "begin", 3)
    assert "scheme IOB2" in m.signature


def test_merge_refusals_say_why() -> None:
    with pytest.raises(NerveError, match=r"cannot merge scores of different settings: .*0\.3.* vs .*0\.5"):
        TextScores(1, 0.3).merge(TextScores(1, 0.5))
    with_errors = score_texts(GOLD, PRED, metrics=["ecer-ewer"])
    without = score_texts(GOLD, PRED, metrics=["bow"])
    with pytest.raises(NerveError, match="cannot merge scores with and without ecer_ewer"):
        with_errors.merge(without)


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


def test_word_symbols_start_at_u0100_and_skip_the_surrogates() -> None:
    """`as_symbols` numbers distinct words in order of appearance, from U+0100, past U+D7FF to U+E000."""
    a, b = as_symbols(["a b", "b c"], ["c"])
    assert (a, b) == (["\u0100\u0101", "\u0101\u0102"], ["\u0102"])
    n = 0xD800 - 0x100  # words 0 .. n-1 take U+0100 .. U+D7FF
    words = [f"w{i}" for i in range(n + 2)]
    a, b = as_symbols([" ".join(words)], [])
    assert a[0][n - 1] == "\ud7ff"
    assert a[0][n:] == "\ue000\ue001"
    assert b == []


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
