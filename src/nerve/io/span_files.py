"""The span readers' former home, kept so that existing imports work: see `nerve.io.spans`."""

from __future__ import annotations

from .spans import SPAN_FORMATS, Documents, read_span_columns, read_spans, sniff_format

__all__ = ["SPAN_FORMATS", "Documents", "read_span_columns", "read_spans", "sniff_format"]
