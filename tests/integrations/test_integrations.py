"""Hugging Face compute_metrics and the torchmetrics metric, with a two-process DDP run on gloo."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nerve
from conftest import need
from nerve.errors import OptionError
from nerve.integrations.transformers import compute_metrics

torch = need("torch")  # the tensor path
need("torchmetrics")  # the torchmetrics metric

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]


@dataclass
class FakeEvalPrediction:
    """What transformers' EvalPrediction holds."""

    predictions: Any
    label_ids: Any


def fake_batch(seed: int, rows: int = 6, width: int = 12) -> tuple[Any, Any]:
    """Logits and labels with -100 on padding and on sub-word positions."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(LABELS), (rows, width))
    labels[rng.random((rows, width)) < 0.2] = -100
    labels[:, -3:] = -100
    logits = rng.normal(size=(rows, width, len(LABELS)))
    keep = rng.random((rows, width)) < 0.6
    rows_i, cols_i = np.nonzero(keep & (labels >= 0))
    logits[rows_i, cols_i, labels[rows_i, cols_i]] += 10.0  # these predictions are right
    return logits, labels


def strings(logits: Any, labels: Any) -> tuple[list[list[str]], list[list[str]]]:
    preds = logits.argmax(-1)
    g = [
        [LABELS[x] for x, y in zip(lr, pr, strict=True) if x != -100]
        for lr, pr in zip(labels, preds, strict=True)
    ]
    p = [
        [LABELS[y] for x, y in zip(lr, pr, strict=True) if x != -100]
        for lr, pr in zip(labels, preds, strict=True)
    ]
    return g, p


def test_hf_compute_metrics_on_logits_with_ignored_positions() -> None:
    logits, labels = fake_batch(1)
    out = compute_metrics(LABELS)(FakeEvalPrediction(logits, labels))
    g, p = strings(logits, labels)
    # The keys and values of evaluate's seqeval metric, computed here with seqeval itself.
    from seqeval.metrics import accuracy_score, classification_report

    report = classification_report(g, p, output_dict=True, zero_division=0)
    for name in ("PER", "LOC", "MISC"):
        if name in report:
            want = report[name]
            assert out[name] == pytest.approx(
                {
                    "precision": want["precision"],
                    "recall": want["recall"],
                    "f1": want["f1-score"],
                    "number": want["support"],
                }
            )
    assert out["overall_precision"] == pytest.approx(report["micro avg"]["precision"])
    assert out["overall_recall"] == pytest.approx(report["micro avg"]["recall"])
    assert out["overall_f1"] == pytest.approx(report["micro avg"]["f1-score"])
    assert out["overall_accuracy"] == pytest.approx(accuracy_score(g, p))
    assert out["macro_f1"] == pytest.approx(report["macro avg"]["f1-score"])
    assert out["weighted_f1"] == pytest.approx(report["weighted avg"]["f1-score"])
    flat = compute_metrics(LABELS, flatten=True)((logits, labels))
    assert flat["PER_f1"] == out["PER"]["f1"]
    assert all(not isinstance(v, dict) for v in flat.values())


def test_hf_batch_eval_metrics_accumulates() -> None:
    # TrainingArguments(batch_eval_metrics=True): called per batch, with tensors, result at the end.
    f = compute_metrics(LABELS)
    batches = [fake_batch(s) for s in range(4)]
    for i, (logits, labels) in enumerate(batches):
        out = f(FakeEvalPrediction(torch.as_tensor(logits), torch.as_tensor(labels)), compute_result=i == 3)
        assert (out == {}) == (i < 3)
    logits = np.concatenate([b[0] for b in batches])
    labels = np.concatenate([b[1] for b in batches])
    assert out == f(FakeEvalPrediction((logits, None), labels))  # a model's tuple: logits first
    g, p = strings(logits, labels)
    assert out["overall_f1"] == nerve.score(g, p).micro.f1


def test_hf_compute_metrics_refuses_a_single_array() -> None:
    logits, labels = fake_batch(2, rows=2)
    f = compute_metrics(LABELS)
    preds = logits.argmax(-1)
    for single in (preds, labels, torch.as_tensor(preds), [preds, labels], (preds,), (preds, labels, labels)):
        with pytest.raises(nerve.NerveError, match=r"a \(predictions, labels\) tuple"):
            f(single)
    with pytest.raises(nerve.NerveError, match=r"got ndarray of shape \(2, 12\)"):
        f(labels)
    assert f((logits, labels)) == f(FakeEvalPrediction(logits, labels))


def test_torchmetrics_metric_matches_the_stream() -> None:
    from nerve.integrations.torchmetrics import EntityScore

    metric = EntityScore(LABELS)
    stream = nerve.StreamingMetric(LABELS)
    for s in range(3):
        logits, labels = fake_batch(s)
        preds = torch.as_tensor(logits).argmax(-1)
        metric.update(preds, torch.as_tensor(labels))
        stream.update(labels, preds.numpy())
    values = metric.compute()
    assert float(values["f1"]) == pytest.approx(stream.compute().micro.f1)
    assert metric.result() == stream.compute()
    with pytest.raises(nerve.InputError, match="predicted id 9"):
        metric.update(torch.tensor([[9, 0]]), torch.tensor([[1, 0]]))
    lax = EntityScore(LABELS, validate=False)
    lax.update(torch.tensor([[9, 0]]), torch.tensor([[1, 0]]))
    with pytest.raises(nerve.NerveError, match="validate=False"):
        lax.compute()


@pytest.mark.filterwarnings("ignore:The ``compute`` method:UserWarning")  # compute before update
def test_scalar_metrics_in_a_metric_collection_as_lightning_logs_them() -> None:
    from torchmetrics import Metric, MetricCollection

    from nerve.integrations.torchmetrics import (
        KEYS,
        EntityF1,
        EntityPrecision,
        EntityRecall,
        EntityScore,
        TokenAccuracy,
    )

    def collection() -> MetricCollection:
        return MetricCollection(
            {
                "precision": EntityPrecision(LABELS),
                "recall": EntityRecall(LABELS),
                "f1": EntityF1(LABELS),
                "accuracy": TokenAccuracy(LABELS),
            }
        )

    metrics, whole = collection(), EntityScore(LABELS)
    stream = nerve.StreamingMetric(LABELS)
    for s in range(4):
        logits, labels = fake_batch(s)
        preds, target = torch.as_tensor(logits).argmax(-1), torch.as_tensor(labels)
        metrics.update(preds, target)
        whole.update(preds, target)
        stream.update(labels, logits.argmax(-1))
    assert len(metrics.compute_groups) == 1  # equal states: one update per batch for the four
    values = metrics.compute()
    # Lightning's self.log takes a Metric whose compute() is a scalar tensor; log_dict a collection.
    for name, metric in metrics.items():
        assert isinstance(metric, Metric)
        assert metric.compute().ndim == 0
        assert values[name].ndim == 0
    assert {k: float(v) for k, v in values.items()} == {k: float(v) for k, v in whole.compute().items()}
    assert float(values["f1"]) == stream.compute().micro.f1 > 0
    assert float(EntityScore(LABELS, key="recall").compute()) == 0.0
    # reset() (which Lightning calls at the end of an epoch) clears the counts.
    metrics.reset()
    assert all(float(v) == 0.0 for v in metrics.compute().values())
    logits, labels = fake_batch(9)
    metrics.update(torch.as_tensor(logits).argmax(-1), torch.as_tensor(labels))
    one = nerve.StreamingMetric(LABELS)
    one.update(labels, logits.argmax(-1))
    assert float(metrics.compute()["f1"]) == one.compute().micro.f1
    # forward (Lightning's `self.metric(preds, target)` in a step) gives the batch's value and keeps counts.
    f1 = EntityF1(LABELS)
    assert float(f1(torch.as_tensor(logits).argmax(-1), torch.as_tensor(labels))) == one.compute().micro.f1
    assert float(f1.compute()) == one.compute().micro.f1
    with pytest.raises(OptionError, match="f1"):
        EntityScore(LABELS, key="f2")
    assert KEYS == ("precision", "recall", "f1", "accuracy")


def _ddp_worker(rank: int, world: int, init_file: str, out_dir: str) -> None:
    import torch.distributed as dist

    from nerve.integrations.torchmetrics import EntityScore

    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=world)
    try:
        metric = EntityScore(LABELS)
        for s in range(rank, 8, world):  # each process sees its own batches
            logits, labels = fake_batch(s)
            metric.update(torch.as_tensor(logits).argmax(-1), torch.as_tensor(labels))
        result = metric.result()
        values = metric.compute()
        Path(out_dir, f"{rank}.txt").write_text(
            f"{result.micro.tp} {result.micro.fp} {result.micro.fn} {float(values['f1'])!r}"
        )
    finally:
        dist.destroy_process_group()


@pytest.mark.slow
def test_ddp_two_gloo_processes_equal_one_process(tmp_path: Path) -> None:
    import torch.multiprocessing as mp

    mp.spawn(_ddp_worker, args=(2, str(tmp_path / "init"), str(tmp_path)), nprocs=2, join=True)
    stream = nerve.StreamingMetric(LABELS)
    for s in range(8):
        logits, labels = fake_batch(s)
        stream.update(labels, logits.argmax(-1))
    r = stream.compute()
    want = f"{r.micro.tp} {r.micro.fp} {r.micro.fn} {r.micro.f1!r}"
    assert (tmp_path / "0.txt").read_text() == want
    assert (tmp_path / "1.txt").read_text() == want


def test_random_hf_batches_equal_score() -> None:
    rnd = random.Random(3)
    f = compute_metrics({i: t for i, t in enumerate(LABELS)})
    for _ in range(20):
        logits, labels = fake_batch(rnd.randrange(10**6), rows=rnd.randint(1, 5), width=rnd.randint(4, 9))
        g, p = strings(logits, labels)
        assert f(FakeEvalPrediction(logits, labels))["overall_f1"] == nerve.score(g, p).micro.f1
