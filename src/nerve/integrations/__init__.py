"""Adapters for training frameworks; each imports its framework only when it is imported."""
