"""Adapters for training frameworks and for Dask; each imports its framework only when it is used.

In: the framework's batches (Hugging Face `EvalPrediction`, torchmetrics updates), or a Dask client
with files, a bag or a dataframe (`integrations.dask`). Out: the framework's metric shapes,
computed by `nerve.streaming.StreamingMetric`, or the `Result` of `nerve.score`.
"""
