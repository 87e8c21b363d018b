"""`nerve.tagging.torch_decode` on CPU tensors: the count vector's layout, bad input, invalid transitions."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from conftest import need
from nerve.errors import NerveError
from nerve.model.pairs import N_CODES
from nerve.model.schemes import get_scheme
from nerve.model.vocab import TagVocab
from nerve.tagging.decode import DecodeRules, decode_block
from nerve.tagging.torch_decode import (
    CORRECT,
    FIXED,
    HOLES,
    INVALID,
    DeviceTables,
    batch_counts,
    has_bad_input,
    import_torch,
    split_counts,
)

torch = need("torch")

BAD_LENGTHS, BAD_GOLD, BAD_PRED = 0, 1, 2  # the fixed scalars before HOLES


def tables(labels: list[str | None], scheme: str = "IOB2") -> DeviceTables:
    fixed = get_scheme(scheme)
    vocab = TagVocab(scheme=fixed)
    ids = vocab.add([t for t in labels if t is not None])
    lookup = np.full(len(labels), -1, dtype=np.int64)
    lookup[[i for i, t in enumerate(labels) if t is not None]] = ids
    return DeviceTables.build(vocab, DecodeRules.of(vocab, fixed), lookup, "cpu")


def counts(t: DeviceTables, gold: list[list[int]], pred: list[list[int]], policy: str = "begin", **kw: Any):  # type: ignore[no-untyped-def]
    g, p = torch.tensor(gold), torch.tensor(pred)
    lengths = kw.get("lengths")
    out = batch_counts(g, p, None if lengths is None else torch.tensor(lengths), kw.get("ignore"), t, policy)
    return out.numpy()


LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def test_the_vector_has_one_length_whatever_the_batch() -> None:
    t = tables(LABELS)
    size = FIXED + 3 * t.n_types + 2 * (N_CODES + t.size)
    assert counts(t, [[0, 1]], [[0, 1]]).shape == (size,)
    # Every token starts a PER entity: no position falls outside the types.
    assert counts(t, [[1, 1, 1]], [[1, 1, 1]]).shape == (size,)
    # One counted token per row: no key falls outside the transition tables.
    assert counts(t, [[1], [0]], [[1], [0]]).shape == (size,)
    empty = batch_counts(
        torch.zeros((0, 4), dtype=torch.int64), torch.zeros((0, 4), dtype=torch.int64), None, None, t, "begin"
    )
    assert empty.shape == (size,)
    assert not empty.any()


def test_tables_give_the_outside_tag_the_type_after_the_last() -> None:
    t = tables(LABELS)
    assert t.n_types == 2
    assert t.types.tolist() == [2, 0, 0, 1, 1]
    assert t.inside.tolist() == [False, True, True, True, True]


def test_without_torch_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(NerveError) as info:
        import_torch()
    assert str(info.value) == "torch tensors need torch: pip install torch torchmetrics"


def test_ids_out_of_range_are_counted_not_looked_up() -> None:
    t = tables(LABELS)
    n = len(LABELS)
    c = counts(t, [[0, n, 1]], [[0, 1, -1]])
    assert (c[BAD_GOLD], c[BAD_PRED], c[HOLES]) == (1, 1, 0)
    assert has_bad_input(c)
    only_o = tables(["O"])
    c = counts(only_o, [[0, 3]], [[0, 0]])
    assert (c[BAD_GOLD], c[BAD_PRED]) == (1, 0)
    c = counts(t, [[0, 1]], [[0, 1]], lengths=[3])
    assert c[BAD_LENGTHS] == 1


def test_a_hole_on_either_side_is_counted() -> None:
    t = tables(["O", None, "B-PER"])
    assert counts(t, [[0, 2]], [[0, 1]])[HOLES] == 1
    assert counts(t, [[0, 1]], [[0, 2]])[HOLES] == 1
    assert counts(t, [[0, 2]], [[0, 2]])[HOLES] == 0


def test_invalid_transitions_are_counted_on_both_sides_under_error() -> None:
    t = tables(["O", "B-PER", "I-PER", "E-PER", "S-PER"], scheme="IOBES")
    valid = [[4, 0, 1, 2, 3]]
    c = counts(t, valid, valid, policy="error")
    assert c[INVALID] == 0
    assert not has_bad_input(c)
    # gold: O -> I-PER enters invalidly; pred: B-PER is left invalidly at the row's end.
    c = counts(t, [[0, 2, 3, 0]], [[0, 0, 0, 1]], policy="error")
    assert c[INVALID] == 2
    c = counts(t, [[0, 2, 3, 1]], [[0, 0, 0, 0]], policy="error")
    assert c[INVALID] == 2
    assert counts(t, [[0, 2, 3, 1]], [[0, 0, 0, 0]], policy="begin")[INVALID] == 0


def test_split_counts_reads_the_layout() -> None:
    t = tables(LABELS)
    c = counts(t, [[1, 2, 0, 3]], [[1, 2, 0, 0]])
    parts = split_counts(c, t)
    assert parts["tokens"] == 4
    assert parts["correct"] == int(c[CORRECT]) == 3
    assert parts["sentences"] == 1
    assert parts["gold"].tolist() == [1, 1]
    assert parts["pred"].tolist() == [1, 0]
    assert parts["matched"].tolist() == [1, 0]
    # The transitions as the host decoder counts them: by pair code, then by tag id.
    vocab = TagVocab(scheme=get_scheme("IOB2"))
    vocab.add(LABELS)
    rules = DecodeRules.of(vocab, get_scheme("IOB2"))
    start = np.array([True, False, False, False])
    for side, row in (("gold_transitions", [1, 2, 0, 3]), ("pred_transitions", [1, 2, 0, 0])):
        ids = t.lookup.numpy()[row].astype(np.int32)
        host = decode_block(ids, start, vocab, rules, "begin", chunks=False, transitions=True).transitions
        assert host is not None
        assert parts[side].tolist() == host.tolist()
    assert parts["gold_transitions"][N_CODES:].sum() == 5  # four tags and the outside tag after them


# Ids at the edges of the label list


def test_torch_counts_a_predicted_id_one_past_the_labels() -> None:
    t = tables(["O", "B-PER", "I-PER"])
    c = counts(t, [[0, 1, 2]], [[0, 1, 3]])
    assert c[BAD_PRED] == 1


@pytest.mark.parametrize("bad", [-100, -4])
def test_torch_counts_a_far_negative_predicted_id(bad: int) -> None:
    t = tables(["O", "B-PER", "I-PER"])
    c = counts(t, [[0, 1, 2]], [[bad, 1, 2]])
    assert c[BAD_PRED] == 1


def test_torch_counts_a_bad_prediction_with_a_single_label() -> None:
    only_o = tables(["O"])
    c = counts(only_o, [[0, 0]], [[0, 1]])
    parts = split_counts(c, only_o)
    assert c[BAD_PRED] == 1
    assert parts["tokens"] == 2


def test_torch_skips_positions_past_the_lengths_with_a_single_label() -> None:
    only_o = tables(["O"])
    parts = split_counts(
        counts(only_o, [[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]], lengths=[1, 3]), only_o
    )
    assert (parts["tokens"], parts["correct"], parts["sentences"]) == (4, 4, 2)
    c = counts(only_o, [[0, -100], [0, 0]], [[0, 0], [0, 0]], ignore=-100)
    parts = split_counts(c, only_o)
    assert (parts["tokens"], parts["correct"]) == (3, 3)
