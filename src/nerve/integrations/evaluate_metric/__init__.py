"""Metric scripts for Hugging Face ``evaluate``, shipped as package data and loaded by path.

In: a path given to ``evaluate.load`` (`nerve.integrations.hf_evaluate.metric_path`). Out: the
metric module evaluate copies and imports; nothing here is imported by ``import nerve``.
"""
