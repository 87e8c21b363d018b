"""Metric behaviour the mutation run found unchecked: accumulator merges, messages, merged fields.

Small hand-made inputs only, so these run inside mutmut's ``mutants/`` tree too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from nerve.errors import InputError, NerveError, SchemeError
from nerve.metrics.discontinuous import DiscontinuousScores
from nerve.metrics.exact import ExactAccumulator, TransitionTable
from nerve.metrics.muc import MODES, MucOptions, match_document, muc_score
from nerve.metrics.text import TextScores
from nerve.model.blocks import TagBlock
from nerve.model.counts import Counts
from nerve.model.labels import LabelMap
from nerve.model.schemes import TagFormat, get_scheme
from nerve.model.vocab import TagVocab

IOB2 = get_scheme("IOB2")


def vocab(order: list[str], scheme: str = "IOB2") -> TagVocab:
    v = TagVocab(TagFormat(), get_scheme(scheme))
    v.add(order)
    return v


def block(
    v: TagVocab, gold: list[str], pred: list[str], sentences: list[int], docs: Sequence[int] = ()
) -> TagBlock:
    """A block of one vocabulary's ids; ``sentences`` and ``docs`` list the positions that start one."""
    n = len(gold)
    starts = np.zeros(n, dtype=np.bool_)
    starts[sentences] = True
    doc_starts = np.zeros(n, dtype=np.bool_)
    doc_starts[list(docs)] = True
    line = np.arange(1, n + 1, dtype=np.int64)
    return TagBlock(v.add(gold), v.add(pred), starts, doc_starts, line, line)


GOLD_A, PRED_A = ["B-PER", "I-PER", "O"], ["B-PER", "O", "O"]
GOLD_B, PRED_B = ["B-LOC", "I-LOC", "B-PER"], ["B-LOC", "I-LOC", "I-PER"]


def tag_counts(table: TransitionTable, v: TagVocab) -> dict[str, int]:
    return {tag: int(table.tags[i]) if i < table.tags.shape[0] else 0 for i, tag in enumerate(v.tags)}


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


def test_match_document_applies_min_iou() -> None:
    gold, pred = [(0, 4, "X")], [(3, 5, "X")]  # overlap 1, union 5: IoU 0.2
    assert match_document(gold, pred) == [(0, 0)]
    assert match_document(gold, pred, min_iou=0.5) == []
    assert match_document(gold, pred, min_iou=0.2) == [(0, 0)]


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


def test_discontinuous_scores_keep_beta_when_added() -> None:
    total = DiscontinuousScores(Counts(1, 1, 0), beta=2.0) + DiscontinuousScores(Counts(1, 0, 2), beta=2.0)
    assert total.counts == Counts(2, 1, 2)
    assert total.beta == 2.0
    # tp 2, fp 1, fn 2: P 2/3, R 1/2; F2 = 5PR / (4P + R) = (5/3) / (8/3 + 1/2) = 10/19.
    assert total.score.fbeta == pytest.approx(10 / 19)
    assert total.score.f1 == pytest.approx(4 / 7)  # 2PR / (P + R) = (2/3) / (7/6)


def test_text_scores_merge_keeps_settings_and_adds_repairs() -> None:
    a = TextScores(2, scheme="IOBES", repair="discard", repairs=3, notes=("n1",))
    b = TextScores(1, scheme="IOBES", repair="discard", repairs=4, notes=("n2", "n1"))
    merged = a.merge(b)
    assert (merged.documents, merged.scheme, merged.repair, merged.repairs) == (3, "IOBES", "discard", 7)
    assert merged.notes == ("n1", "n2")


def test_text_scores_merge_refusals_say_why() -> None:
    a = TextScores(1, scheme="IOB2", repair="begin")
    with pytest.raises(  # NerveError (was ValueError), as Result.merge's, since issue 25
        NerveError, match=r"^cannot merge scores of different settings: '.*IOB2.*' vs '.*IOBES.*'$"
    ):
        a.merge(TextScores(1, scheme="IOBES", repair="begin"))
    from nerve.metrics.text import TextTable

    with_bow = TextScores(1, bow=TextTable(None, {}), scheme="IOB2", repair="begin")  # type: ignore[arg-type]
    with pytest.raises(NerveError, match=r"^cannot merge scores with and without bow$"):
        a.merge(with_bow)


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


def test_error_row_json_names_every_count() -> None:
    from nerve.metrics.text import ErrorRow

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
