"""Scoring inside training loops: batches of ids, arrays or tensors in, the same `Result` as `score` out.

`StreamingMetric` (`streaming.metric`) keeps additive counts only, so it merges across processes
and pickles. `streaming.batches` checks batches and lays their rows end to end; `streaming.tensors`
buffers torch tensors on their device for the tensor decoder (`nerve.tagging.torch_decode`).
"""

from .metric import StreamingMetric

__all__ = ["StreamingMetric"]
