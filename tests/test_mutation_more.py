"""More behaviour the mutation run found unchecked: MUC options and sums, thresholds at their edges,
scheme inference, repair messages and BIO directories.

Small hand-made inputs only, so these run inside mutmut's ``mutants/`` tree too.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import nerve
from nerve.api import score_spans
from nerve.errors import InputError, InvalidSequenceError, OptionError, SchemeError
from nerve.metrics.exact import ExactAccumulator
from nerve.metrics.muc import MODES, MucOptions, muc_score
from nerve.metrics.muc_counts import MucCounts
from nerve.model.blocks import TagBlock
from nerve.model.schemes import TagFormat, get_scheme
from nerve.model.spans import Fragments, SpanArray
from nerve.model.vocab import TagVocab
from nerve.tagging.texts import read_bio_dirs, read_text_files

IOB2 = get_scheme("IOB2")


def ints(values: list[int]) -> np.ndarray:  # type: ignore[type-arg]
    return np.asarray(values, dtype=np.int64)


def vocab(order: list[str]) -> TagVocab:
    v = TagVocab(TagFormat(), IOB2)
    v.add(order)
    return v


def block(v: TagVocab, gold: list[str], pred: list[str], sentences: list[int], docs: list[int]) -> TagBlock:
    """A block of one vocabulary's ids; ``sentences`` and ``docs`` list the positions that start one."""
    n = len(gold)
    starts = np.zeros(n, dtype=np.bool_)
    starts[sentences] = True
    doc_starts = np.zeros(n, dtype=np.bool_)
    doc_starts[docs] = True
    line = np.arange(1, n + 1, dtype=np.int64)
    return TagBlock(v.add(gold), v.add(pred), starts, doc_starts, line, line)


# MucOptions: validation and the signature text


@pytest.mark.parametrize("share", [0, 0.0, 2, -0.5])
def test_muc_options_refuse_a_gold_share_outside_zero_to_one(share: float) -> None:
    with pytest.raises(OptionError) as info:
        MucOptions(min_gold_share=share)
    assert str(info.value) == f"min_gold_share: expected a fraction in (0, 1], but got {share}"


def test_muc_options_accept_a_whole_gold_share() -> None:
    assert MucOptions(min_gold_share=1).min_gold_share == 1


def test_muc_options_describe_joins_thresholds_and_the_document_average() -> None:
    options = MucOptions(min_iou=0.5, min_gold_share=0.25, document_average=True)
    assert options.describe() == "overlap iou>=0.5,gold-share>=0.25, document average"
    assert MucOptions().describe() == "overlap any"


# MucResult and MucCounts sums


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


def test_adding_muc_counts_of_two_modes_names_both() -> None:
    with pytest.raises(ValueError, match=r"^cannot add counts of modes strict and exact$"):
        MucCounts("strict", cor=1) + MucCounts("exact", cor=1)


def test_greedy_muc_reports_no_pairs() -> None:
    result = muc_score([[(0, 2, "X")]], [[(0, 2, "X")]], matching="greedy")
    assert result.pairs == []
    assert result.modes["strict"].overall.cor == 1


# Thresholds at their edges


def test_greedy_gold_share_compares_percentages_unrounded() -> None:
    # 5 of 9 gold positions is 55.56 %, above 55.5 % (nervaluate compares in percent).
    result = muc_score([[(0, 9, "X")]], [[(0, 5, "X")]], matching="greedy", min_gold_share=0.555)
    partial = result.modes["partial"].overall
    assert (partial.par, partial.mis, partial.spu) == (1, 0, 0)
    # 5 of 9 is below 56 %.
    result = muc_score([[(0, 9, "X")]], [[(0, 5, "X")]], matching="greedy", min_gold_share=0.56)
    partial = result.modes["partial"].overall
    assert (partial.par, partial.mis, partial.spu) == (0, 1, 1)


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


def test_exact_match_of_spans_far_into_many_documents() -> None:
    # 2**21 documents of up to 2**40 positions: the last span's key, (document * (2**40 + 1)
    # + start) * 2 + length, still fits 64 bits, so it is matched rather than refused.
    n_docs = 2**21
    spans = SpanArray(
        ints([0, n_docs - 1]), ints([2**40 - 1, 5]), ints([2**40, 6]), ints([0, 0]), ("X",), n_docs
    )
    result = score_spans(spans, spans)
    assert result.exact.counts["X"] == nerve.Counts(2, 0, 0)
    assert result.micro.f1 == 1.0


# Scheme inference from transitions


def test_scheme_inferred_from_a_b_after_an_i_of_the_same_type_in_another_sentence() -> None:
    # B-PER starts the second sentence: after the outside tag, not after the I-PER before it.
    result = nerve.score([["I-PER"], ["B-PER"]], [["I-PER"], ["B-PER"]], repair="discard")
    assert result.settings.scheme == "IOB2"


def test_scheme_inferred_from_b_then_i() -> None:
    result = nerve.score([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]], repair="discard")
    assert result.settings.scheme == "IOB2"
    assert result.micro.f1 == 1.0


def test_streaming_scheme_of_a_label_list_with_i_before_b() -> None:
    metric = nerve.StreamingMetric(labels=["O", "I-PER", "B-PER"], repair="discard")
    assert metric.scheme is not None
    assert metric.scheme.name == "IOB2"


# ExactAccumulator: settings refused, MUC by document


def test_conlleval_with_a_label_map_is_refused_with_the_reason() -> None:
    with pytest.raises(OptionError) as info:
        nerve.score([["B-PER"]], [["B-PER"]], repair="conlleval", types="PER")
    assert str(info.value) == (
        "repair: conlleval's rules count chunks of the tags as read, in one scheme: with a label map, "
        "a type filter or two schemes use begin, discard or error"
    )


@pytest.mark.parametrize("policy", ["discard", "error"])
def test_accumulator_needs_the_scheme_for_discard_and_error(policy: str) -> None:
    with pytest.raises(ValueError, match=rf"^the {policy} policy needs the scheme before reading$"):
        ExactAccumulator(vocab(["O", "B-PER"]), policy, None, ("g", "p"))


def test_invalid_gold_transition_names_the_gold_side() -> None:
    with pytest.raises(InvalidSequenceError) as info:
        nerve.score([["O", "I-PER"]], [["O", "O"]], repair="error", scheme="IOB2")
    assert [(p.side, p.line, p.tag) for p in info.value.problems] == [("gold", 2, "I-PER")]


def test_document_average_with_nothing_read() -> None:
    acc = ExactAccumulator(vocab(["O"]), "begin", IOB2, ("g", "p"), overlap=MucOptions(document_average=True))
    muc = acc.finish().muc
    assert muc is not None
    for mode in MODES:
        macro = muc.modes[mode].document_macro
        assert macro is not None
        assert macro.documents == 0
        assert muc.modes[mode].overall.pos == 0


def test_document_columns_have_one_entry_per_document_read() -> None:
    # Entry 0 stands for the document a range of a file began in; the block's two documents are 1, 2.
    v = vocab(["O", "B-PER"])
    acc = ExactAccumulator(v, "begin", IOB2, ("g", "p"), overlap=MucOptions(document_average=True))
    acc.update(block(v, ["B-PER", "O", "B-PER"], ["B-PER", "O", "O"], [0, 2], [0, 2]))
    acc.update(block(v, [], [], [], []))
    muc = acc.finish().muc
    assert muc is not None
    assert muc.per_document is not None
    strict = muc.per_document["strict"]
    assert strict["cor"].tolist() == [0, 1, 0]
    assert strict["mis"].tolist() == [0, 0, 1]
    assert all(column.shape == (3,) for column in strict.values())


def test_greedy_muc_on_tags() -> None:
    gold = [["B-X", "I-X", "B-X", "O"]]
    pred = [["B-X", "I-X", "I-X", "O"]]  # one prediction across both gold entities
    result = nerve.score(gold, pred, metrics="exact,muc", matching="greedy")
    muc = result.muc
    assert muc is not None
    strict = muc.modes["strict"].overall
    # Greedy: the prediction 0-3 pairs with the first gold 0-2 (INC); the second gold is missed.
    assert (strict.cor, strict.inc, strict.mis, strict.spu) == (0, 1, 1, 0)


# Repair policies and BIO directories


def test_an_unknown_repair_policy_lists_the_policies(tmp_path: Path) -> None:
    message = r"^Expected a repair policy among begin, conlleval, discard, error, but got 'bogus'$"
    with pytest.raises(SchemeError, match=message):
        read_bio_dirs(tmp_path, tmp_path, repair="bogus")
    with pytest.raises(SchemeError, match=message):
        read_text_files(tmp_path / "x.conll", repair="bogus")


def bio_dirs(tmp_path: Path, gold: str, pred: str) -> tuple[Path, Path]:
    label_dir, pred_dir = tmp_path / "labels", tmp_path / "preds"
    label_dir.mkdir()
    pred_dir.mkdir()
    (label_dir / "a.bio").write_text(gold, encoding="utf-8")
    (pred_dir / "a.bio").write_text(pred, encoding="utf-8")
    return label_dir, pred_dir


def test_bio_dirs_report_their_scheme(tmp_path: Path) -> None:
    label_dir, pred_dir = bio_dirs(tmp_path, "John B-PER\nSmith I-PER\n", "John B-PER\nSmith O\n")
    corpus = read_bio_dirs(label_dir, pred_dir, scheme="iob2")
    assert (corpus.scheme, corpus.repair) == ("IOB2", "begin")
    assert corpus.gold.text == ["John Smith"]
    assert corpus.pred.text == ["John"]


def test_a_missing_prediction_directory_is_named(tmp_path: Path) -> None:
    label_dir, _ = bio_dirs(tmp_path, "John B-PER\n", "John B-PER\n")
    missing = tmp_path / "nowhere"
    with pytest.raises(InputError) as info:
        read_bio_dirs(label_dir, missing)
    assert (info.value.source, info.value.detail) == (str(missing), "no such directory")


def test_bio_dirs_error_policy_names_the_gold_side(tmp_path: Path) -> None:
    label_dir, pred_dir = bio_dirs(tmp_path, "a O\nb I-PER\n", "a O\nb O\n")
    with pytest.raises(InvalidSequenceError) as info:
        read_bio_dirs(label_dir, pred_dir, repair="error")
    assert [(p.side, p.line, p.tag) for p in info.value.problems] == [("gold", 2, "I-PER")]


def test_bio_dirs_read_tags_spelled_b_dash_x_only(tmp_path: Path) -> None:
    label_dir, pred_dir = bio_dirs(tmp_path, "John B_PER\nSmith I_PER\n", "John B_PER\nSmith I_PER\n")
    with pytest.raises(InputError):
        read_bio_dirs(label_dir, pred_dir)
