"""nerve.ChunkEvaluator: PaddleNLP's documented example, random batches against nerve.score and seqeval."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from conftest import need
from nerve import ChunkEvaluator, InputError

torch = need("torch")  # the tensor path

LABELS = {
    "IOB2": ["B-PER", "I-PER", "B-LOC", "I-LOC", "O"],
    "IOBES": ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC"],
    "suffix": ["PER-B", "PER-I", "LOC-B", "LOC-I", "O"],
}


def test_documented_example() -> None:
    # PaddleNLP's docstring, verbatim: the label list is never used by update and accumulate.
    num_infer_chunks = 10
    num_label_chunks = 9
    num_correct_chunks = 8
    label_list = [1, 1, 0, 0, 1, 0, 1]
    evaluator = ChunkEvaluator(label_list)
    evaluator.update(num_infer_chunks, num_label_chunks, num_correct_chunks)
    precision, recall, f1 = evaluator.accumulate()
    assert (precision, recall, f1) == (0.8, 0.8888888888888888, 0.8421052631578948)
    assert evaluator.name() == ("precision", "recall", "f1")
    evaluator.reset()
    assert evaluator.accumulate() == (0.0, 0.0, 0.0)


def test_update_takes_numbers_arrays_and_tensors() -> None:
    e = ChunkEvaluator(LABELS["IOB2"])
    e.update(np.array([4]), torch.tensor([4]), np.int64(2))
    e.update(1.0, 0, torch.tensor(0))
    assert (e.num_infer_chunks, e.num_label_chunks, e.num_correct_chunks) == (5.0, 4, 2)
    with pytest.raises(nerve.NerveError, match="counts must be numbers"):
        e.update("3", 1, 1)


def batch(rnd: random.Random, labels: list[str]) -> tuple[Any, Any, Any]:
    rows, width = rnd.randint(1, 8), rnd.randint(1, 10)
    lengths = np.array([rnd.randint(0, width) for _ in range(rows)])
    labels_ids = np.array([[rnd.randrange(len(labels)) for _ in range(width)] for _ in range(rows)])
    preds = np.where(np.random.default_rng(rnd.randrange(1000)).random((rows, width)) < 0.5, labels_ids, 0)
    return lengths, preds, labels_ids


def seqeval_counts(
    lengths: Any, preds: Any, labels: Any, label_list: list[str], suffix: bool
) -> tuple[int, int, int]:
    """What PaddleNLP's compute does: seqeval's get_entities on the cut rows, set intersection per type."""
    from seqeval.metrics.sequence_labeling import get_entities

    def entities(ids: Any) -> set[tuple[str, int, int]]:
        rows = [[label_list[i] for i in row[:n]] for row, n in zip(ids, lengths, strict=True)]
        return set(get_entities(rows, suffix))

    g, p = entities(labels), entities(preds)
    return len(p), len(g), len(g & p)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(LABELS)), st.integers(0, 10**6), st.booleans())
def test_compute_equals_score_on_decoded_strings(kind: str, seed: int, tensors: bool) -> None:
    rnd = random.Random(seed)
    label_list = LABELS[kind]
    suffix = kind == "suffix"
    lengths, preds, labels = batch(rnd, label_list)
    e = ChunkEvaluator(label_list, suffix=suffix)
    if tensors:
        out = e.compute(torch.as_tensor(lengths), torch.as_tensor(preds), torch.as_tensor(labels))
        assert all(isinstance(x, torch.Tensor) and x.shape == (1,) for x in out)
    else:
        out = e.compute(lengths, preds, labels)
        assert all(isinstance(x, np.ndarray) and x.shape == (1,) for x in out)
    infer, label, correct = (int(x[0]) for x in out)
    g = [[label_list[i] for i in row[:n]] for row, n in zip(labels, lengths, strict=True)]
    p = [[label_list[i] for i in row[:n]] for row, n in zip(preds, lengths, strict=True)]
    r = nerve.score(g, p, tag_format="X-B" if suffix else "B-X")
    assert (infer, label, correct) == (r.micro.predicted, r.micro.gold, r.micro.tp)
    if kind != "IOBES":  # seqeval's default mode reads IOB2 as nerve's begin policy does
        assert (infer, label, correct) == seqeval_counts(lengths, preds, labels, label_list, suffix)
    e.update(*out)
    assert e.num_correct_chunks == correct


def test_old_argument_order_and_unknown_ids() -> None:
    e = ChunkEvaluator(LABELS["IOB2"])
    lengths, preds, labels = np.array([2]), np.array([[0, 1]]), np.array([[0, 1]])
    assert [int(x[0]) for x in e.compute(None, lengths, preds, labels)] == [1, 1, 1]
    # PaddleNLP reads an unknown predicted id as O; here either side is an error.
    with pytest.raises(InputError, match="predicted id 7 is not in the label list"):
        e.compute(lengths, np.array([[0, 7]]), labels)
    with pytest.raises(InputError, match="gold id 5 is not in the label list"):
        e.compute(lengths, preds, np.array([[5, 1]]))
