"""A drop-in for PaddleNLP's ``ChunkEvaluator``, counting with nerve's decoder.

PaddleNLP's evaluator turns ids into tag strings in Python and calls seqeval per batch; an
unknown predicted id silently becomes ``O``. This one decodes the ids directly (on the
tensors' device for torch), and an id outside the label list is an error on either side.
Entities are decoded as `nerve.score` does with ``repair="begin"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import NerveError, OptionError
from ..streaming.metric import StreamingMetric

__all__ = ["ChunkEvaluator"]


def _number(x: Any) -> int | float:
    """An int, float, numpy array or tensor of counts as one Python number (summed)."""
    if hasattr(x, "detach"):  # a torch tensor
        x = x.detach().cpu().numpy()
    if isinstance(x, np.ndarray | np.generic):
        total = x.sum()
        return int(total) if np.issubdtype(total.dtype, np.integer) else float(total)
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise NerveError(f"counts must be numbers, numpy arrays or tensors, got {type(x).__name__}")
    return x


class ChunkEvaluator:
    """Chunk precision, recall and F1 over batches, with PaddleNLP's interface.

    Args:
        label_list: the tag of each id (``B-PER``, or ``PER-B`` with ``suffix=True``).
        suffix: whether the letter comes after the type.

    >>> evaluator = ChunkEvaluator(["O", "B-PER", "I-PER"])
    >>> evaluator.update(*evaluator.compute([3], [[1, 2, 0]], [[1, 2, 0]]))
    >>> evaluator.accumulate()
    (1.0, 1.0, 1.0)
    """

    def __init__(self, label_list: Sequence[Any], suffix: bool = False):
        if isinstance(label_list, str | bytes) or not isinstance(label_list, Sequence | np.ndarray):
            raise OptionError("label_list", f"expected a list of tags, got {type(label_list).__name__}")
        self.label_list = list(label_list)
        self.suffix = suffix
        self.num_infer_chunks: int | float = 0
        self.num_label_chunks: int | float = 0
        self.num_correct_chunks: int | float = 0
        self._metric: StreamingMetric | None = None  # built at the first compute

    def _stream(self) -> StreamingMetric:
        if self._metric is None:
            self._metric = StreamingMetric(
                labels=self.label_list, tag_format="X-B" if self.suffix else "B-X", ignore_index=None
            )
        return self._metric

    def compute(self, lengths: Any, predictions: Any, labels: Any, dummy: Any = None) -> tuple[Any, Any, Any]:
        """Count the chunks of one batch: ``(num_infer_chunks, num_label_chunks, num_correct_chunks)``.

        Each row is cut to its length. The counts come back as the inputs came: tensors of
        shape ``[1]`` on the predictions' device for torch, numpy arrays of shape ``(1,)``
        otherwise. ``dummy`` takes PaddleNLP's old argument order ``(inputs, lengths,
        predictions, labels)``.
        """
        if dummy is not None:
            lengths, predictions, labels = predictions, labels, dummy
        metric = self._stream()
        metric.reset()
        metric.update(labels, predictions, lengths)
        acc = metric.accumulator
        counts = (int(acc.pred.sum()), int(acc.gold.sum()), int(acc.matched.sum()))
        if hasattr(predictions, "device") and hasattr(predictions, "detach"):
            import torch

            return tuple(torch.tensor([c], device=predictions.device) for c in counts)  # type: ignore[return-value]
        return tuple(np.array([c], dtype=np.int64) for c in counts)  # type: ignore[return-value]

    def update(self, num_infer_chunks: Any, num_label_chunks: Any, num_correct_chunks: Any) -> None:
        """Add the counts of a batch (ints, floats, numpy arrays or tensors)."""
        self.num_infer_chunks += _number(num_infer_chunks)
        self.num_label_chunks += _number(num_label_chunks)
        self.num_correct_chunks += _number(num_correct_chunks)

    def accumulate(self) -> tuple[float, float, float]:
        """``(precision, recall, f1)`` over every batch added; F1 is 0 when nothing matched."""
        precision = float(self.num_correct_chunks / self.num_infer_chunks) if self.num_infer_chunks else 0.0
        recall = float(self.num_correct_chunks / self.num_label_chunks) if self.num_label_chunks else 0.0
        f1 = float(2 * precision * recall / (precision + recall)) if self.num_correct_chunks else 0.0
        return precision, recall, f1

    def reset(self) -> None:
        """Zero the counts."""
        self.num_infer_chunks = 0
        self.num_label_chunks = 0
        self.num_correct_chunks = 0

    def name(self) -> tuple[str, str, str]:
        """The names of what `accumulate` returns."""
        return "precision", "recall", "f1"
