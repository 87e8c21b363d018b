"""A ``compute_metrics`` for the Hugging Face ``Trainer``, with the keys of ``evaluate``'s seqeval.

It needs neither transformers nor evaluate: it reads ``EvalPrediction``'s ``predictions`` and
``label_ids`` (or a ``(predictions, labels)`` tuple; one array is refused), takes the argmax of
logits, drops the positions whose label is -100, and scores with `nerve.StreamingMetric`. With
``TrainingArguments(batch_eval_metrics=True)`` the Trainer calls it once per batch with
``compute_result``: the counts are accumulated and the scores returned at the last batch, so no
logits are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import InputError
from ..plan import stream_plan
from ..results import Result
from ..streaming.metric import StreamingMetric

__all__ = ["compute_metrics", "to_hf_dict"]


def to_hf_dict(result: Result, flatten: bool = False) -> dict[str, Any]:
    """A result with the keys of ``evaluate``'s seqeval metric, plus macro and weighted averages.

    Per type: ``{TYPE: {"precision", "recall", "f1", "number"}}`` (``number`` is the gold count),
    or ``TYPE_precision`` and so on with ``flatten=True`` (what the Trainer's logs can hold).
    """
    out: dict[str, Any] = {}
    for name in sorted(result.per_type):
        s = result.per_type[name]
        values = {"precision": s.precision, "recall": s.recall, "f1": s.f1, "number": s.gold}
        if flatten:
            out.update({f"{name}_{k}": v for k, v in values.items()})
        else:
            out[name] = values
    for prefix, score in (("overall", result.micro), ("macro", result.macro), ("weighted", result.weighted)):
        out[f"{prefix}_precision"] = score.precision
        out[f"{prefix}_recall"] = score.recall
        out[f"{prefix}_f1"] = score.f1
    out["overall_accuracy"] = result.tokens.accuracy
    return out


def _unpack(eval_pred: Any) -> tuple[Any, Any]:
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        preds, labels = eval_pred.predictions, eval_pred.label_ids
    elif isinstance(eval_pred, tuple) and len(eval_pred) == 2:
        preds, labels = eval_pred
    else:  # unpacking an array would score its first row against its second
        shape = getattr(eval_pred, "shape", None)
        got = type(eval_pred).__name__ + (f" of shape {tuple(shape)}" if shape is not None else "")
        raise InputError(
            "compute_metrics", None, f"expected an EvalPrediction or a (predictions, labels) tuple, got {got}"
        )
    if isinstance(preds, tuple):  # a model with several outputs: the logits come first
        preds = preds[0]
    if getattr(preds, "ndim", 0) == getattr(labels, "ndim", 0) + 1:
        preds = preds.argmax(-1)
    return preds, labels


def compute_metrics(
    label_list: Sequence[str] | Mapping[int, str],
    *,
    scheme: str = "auto",
    repair: str = "begin",
    tag_format: str | None = None,
    outside: str = "O",
    ignore_index: int = -100,
    flatten: bool = False,
) -> Callable[..., dict[str, Any]]:
    """A ``compute_metrics`` function for ``Trainer`` over the tags of ``label_list``.

    >>> import numpy as np
    >>> f = compute_metrics(["O", "B-PER", "I-PER"])
    >>> f((np.array([[1, 2, 0]]), np.array([[1, 2, -100]])))["overall_f1"]
    1.0
    """
    plan = stream_plan(scheme, repair, tag_format, outside, beta=1.0)
    metric = StreamingMetric.planned(label_list, plan, ignore_index)

    def compute(eval_pred: Any, compute_result: bool | None = None) -> dict[str, Any]:
        if compute_result is None:
            metric.reset()
        preds, labels = _unpack(eval_pred)
        metric.update(labels, preds)
        if compute_result is False:
            return {}
        result = metric.compute()
        metric.reset()
        return to_hf_dict(result, flatten)

    return compute
