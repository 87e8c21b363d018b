"""`nerve.metrics.exact`'s accumulator: merging accumulators, the settings it refuses, and the MUC
counts it keeps by document.

Small hand-made inputs only, so these run inside mutmut's ``mutants/`` tree too.
"""

from __future__ import annotations

import numpy as np
import pytest

import nerve
from hand_made import IOB2, block, vocab
from nerve.errors import InvalidSequenceError, OptionError, SchemeError
from nerve.metrics.exact import ExactAccumulator, TransitionTable
from nerve.metrics.muc import MODES, MucOptions, muc_score
from nerve.model.blocks import TagBlock
from nerve.model.counts import Counts
from nerve.model.labels import LabelMap
from nerve.model.schemes import get_scheme
from nerve.model.vocab import TagVocab

GOLD_A, PRED_A = ["B-PER", "I-PER", "O"], ["B-PER", "O", "O"]
GOLD_B, PRED_B = ["B-LOC", "I-LOC", "B-PER"], ["B-LOC", "I-LOC", "I-PER"]


def tag_counts(table: TransitionTable, v: TagVocab) -> dict[str, int]:
    return {tag: int(table.tags[i]) if i < table.tags.shape[0] else 0 for i, tag in enumerate(v.tags)}


# Merging accumulators


def test_absorbing_an_accumulator_numbered_differently_equals_reading_both() -> None:
    va = vocab(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"])
    vb = vocab(["O", "I-LOC", "B-LOC", "I-PER", "B-PER"])
    a = ExactAccumulator(va, "begin", IOB2, ("g", "p"))
    a.update(block(va, GOLD_A, PRED_A, [0]))
    b = ExactAccumulator(vb, "begin", IOB2, ("g", "p"))
    b.update(block(vb, GOLD_B, PRED_B, [0]))
    a.absorb(b)
    vc = vocab(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"])
    both = ExactAccumulator(vc, "begin", IOB2, ("g", "p"))
    both.update(block(vc, GOLD_A, PRED_A, [0]))
    both.update(block(vc, GOLD_B, PRED_B, [0]))
    assert tag_counts(a.gold_table, va) == tag_counts(both.gold_table, vc)
    assert tag_counts(a.pred_table, va) == tag_counts(both.pred_table, vc)
    # Worked by hand: gold B-PER twice, I-PER and B-LOC and I-LOC once each.
    assert {t: c for t, c in tag_counts(a.gold_table, va).items() if t != "O"} == {
        "B-PER": 2,
        "I-PER": 1,
        "B-LOC": 1,
        "I-LOC": 1,
    }
    totals = a.finish()
    assert totals.counts == both.finish().counts
    # PER: gold 0-2 and 2-3, predicted 0-1 and 2-3 (I-PER after I-LOC begins one): one exact
    # match; LOC: one of one.
    assert totals.counts == {"LOC": Counts(1, 0, 0), "PER": Counts(1, 1, 1)}


def test_absorbing_a_type_new_to_a_label_mapped_accumulator() -> None:
    labels = LabelMap(rename=(("PER", "PERSON"),))
    va, vb = vocab(["O", "B-PER"]), vocab(["O", "B-LOC"])
    a = ExactAccumulator(va, "begin", IOB2, ("g", "p"), labels=labels)
    a.update(block(va, ["B-PER"], ["B-PER"], [0]))
    b = ExactAccumulator(vb, "begin", IOB2, ("g", "p"), labels=labels)
    b.update(block(vb, ["B-LOC"], ["O"], [0]))
    a.absorb(b)
    assert a.finish().counts == {"PERSON": Counts(1, 0, 0), "LOC": Counts(0, 0, 1)}


def test_conlleval_accumulators_refuse_outside_counts() -> None:
    v = vocab(["O", "B-PER"])
    a = ExactAccumulator(v, "conlleval", None, ("g", "p"))
    other = ExactAccumulator(vocab(["O", "B-PER"]), "conlleval", None, ("g", "p"))
    message = r"^conlleval counting carries state from one sentence to the next$"
    with pytest.raises(ValueError, match=message):
        a.absorb(other)
    zeros = np.zeros(0, dtype=np.int64)
    with pytest.raises(ValueError, match=message):
        a.add_counts(zeros, zeros, zeros, zeros, zeros, 0, 0, 0)


def test_absorbing_a_tag_this_scheme_refuses_names_it() -> None:
    a = ExactAccumulator(vocab(["O", "B-PER"]), "begin", IOB2, ("g", "p"))
    vb = vocab(["O", "B-PER", "S-LOC"], "IOBES")
    b = ExactAccumulator(vb, "begin", get_scheme("IOBES"), ("g", "p"))
    with pytest.raises(SchemeError, match="'S-LOC'"):
        a.absorb(b)


# Settings refused


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


# MUC counts by document, and MUC results of an accumulator


def _doc_macro_by_accumulator() -> dict[str, tuple[float, float, float, int]]:
    v = vocab(["O", "B-PER", "I-PER", "B-LOC"])
    acc = ExactAccumulator(v, "begin", IOB2, ("g", "p"), overlap=MucOptions(document_average=True))
    # Two documents; the second is the block's last token, a one-token LOC found exactly.
    acc.update(block(v, ["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "O", "O", "B-LOC"], [0, 3], [0, 3]))
    muc = acc.finish().muc
    assert muc is not None
    out = {}
    for m in MODES:
        d = muc.modes[m].document_macro
        assert d is not None
        out[m] = (d.precision, d.recall, d.f1, d.documents)
    return out


def test_document_average_of_a_block_ending_with_a_new_document() -> None:
    found = _doc_macro_by_accumulator()
    direct = muc_score(
        [[(0, 2, "PER")], [(0, 1, "LOC")]], [[(0, 1, "PER")], [(0, 1, "LOC")]], document_average=True
    )
    for m in MODES:
        d = direct.modes[m].document_macro
        assert d is not None
        assert found[m] == (d.precision, d.recall, d.f1, d.documents)
    # By hand, strict: the PER boundary differs (0 of 1 in document 1), LOC is right (1 of 1).
    assert found["strict"] == (0.5, 0.5, 0.5, 2)


def test_an_empty_block_counts_nothing_with_the_document_average() -> None:
    # A block of no tokens (a range of a file holding none) leaves the document average alone.
    v = vocab(["O", "B-PER"])
    acc = ExactAccumulator(v, "begin", IOB2, ("g", "p"), overlap=MucOptions(document_average=True))
    acc.update(block(v, [], [], []))
    acc.update(block(v, ["B-PER", "O"], ["B-PER", "B-PER"], [0], [0]))
    muc = acc.finish().muc
    assert muc is not None
    strict = muc.modes["strict"]
    assert (strict.overall.cor, strict.overall.spu, strict.overall.pos) == (1, 1, 1)
    d = strict.document_macro
    assert d is not None
    # One document with entities: precision 1/2, recall 1/1.
    assert (d.precision, d.recall, d.documents) == (0.5, 1.0, 1)


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


def test_greedy_muc_on_tags() -> None:
    gold = [["B-X", "I-X", "B-X", "O"]]
    pred = [["B-X", "I-X", "I-X", "O"]]  # one prediction across both gold entities
    result = nerve.score(gold, pred, metrics="exact,muc", matching="greedy")
    muc = result.muc
    assert muc is not None
    strict = muc.modes["strict"].overall
    # Greedy: the prediction 0-3 pairs with the first gold 0-2 (INC); the second gold is missed.
    assert (strict.cor, strict.inc, strict.mis, strict.spu) == (0, 1, 1, 0)
