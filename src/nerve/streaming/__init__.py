"""Scoring inside training loops: batches of ids, arrays or tensors in, the same `Result` as `score` out.

`StreamingMetric` keeps additive counts only, so it merges across processes and pickles.
"""

from .metric import StreamingMetric

__all__ = ["StreamingMetric"]
