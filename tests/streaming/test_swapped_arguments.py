"""Gold and predictions swapped (issue 25): ``update(gold, pred)``, torchmetrics' ``update(preds, target)``.

Each keeps its ecosystem's order. Hugging Face labels carry ``-100`` (the ``ignore_index``) on
padding and sub-words; a model's argmax never does. Predictions that carry it where the gold ids
do not are refused (as any id outside the label list is), and the message asks whether the
arguments are swapped, naming both orders. It is an error rather than a warning: those ids
cannot be scored either way.
"""

from __future__ import annotations

import numpy as np
import pytest

from nerve.errors import InputError
from nerve.streaming import StreamingMetric

LABELS = ["O", "B-X", "I-X"]
GOLD = np.array([[1, 2, 0, -100], [0, 1, -100, -100]])  # labels: -100 where nothing counts
PRED = np.array([[1, 2, 0, 0], [0, 1, 2, 0]])  # argmax ids: never -100
HINT = (
    "arguments swapped? (StreamingMetric.update takes gold, pred; "
    "the torchmetrics metrics' update takes preds, target)"
)


def test_stream_in_its_order_scores_and_swapped_asks() -> None:
    metric = StreamingMetric(labels=LABELS)
    metric.update(GOLD, PRED)
    assert metric.compute().micro.f1 == 1.0
    with pytest.raises(InputError) as info:
        metric.update(PRED, GOLD)
    message = str(info.value)
    assert message.startswith("batch 1: row 0, position 3: predicted id -100 is not in the label list (0..2)")
    assert message.endswith(HINT)
    assert isinstance(info.value, ValueError)


def test_other_bad_ids_and_padding_on_both_sides_do_not_ask() -> None:
    metric = StreamingMetric(labels=LABELS)
    metric.update(GOLD, np.where(GOLD == -100, -100, PRED))  # both padded alike: fine
    assert metric.compute().micro.f1 == 1.0
    with pytest.raises(InputError) as info:
        metric.update(GOLD, np.where(PRED == 2, 7, PRED))
    assert "swapped" not in str(info.value)
    with pytest.raises(InputError, match="gold id -100") as info:  # another ignore_index: -100 is bad
        StreamingMetric(labels=LABELS, ignore_index=-1).update(GOLD, PRED)
    assert "swapped" not in str(info.value)


def test_torch_tensors_swapped_ask_too() -> None:
    torch = pytest.importorskip("torch")
    gold, pred = torch.tensor(GOLD), torch.tensor(PRED)
    metric = StreamingMetric(labels=LABELS)
    with pytest.raises(InputError, match="swapped"):  # CPU tensors are read through numpy at once
        metric.update(pred, gold)
    pytest.importorskip("torchmetrics")
    from nerve.integrations.torchmetrics import EntityScore

    score = EntityScore(LABELS)
    score.update(pred, gold)  # torchmetrics' order: preds, target
    assert float(score.compute()["f1"]) == 1.0
    with pytest.raises(InputError) as info:
        score.update(gold, pred)
    assert str(info.value).endswith(HINT)
