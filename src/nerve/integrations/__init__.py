"""Adapters for training frameworks; each imports its framework only when it is imported.

In: the framework's batches (Hugging Face `EvalPrediction`, torchmetrics updates). Out: the
framework's metric shapes, computed by `nerve.streaming.StreamingMetric`.
"""
