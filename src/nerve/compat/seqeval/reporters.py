"""seqeval's two report writers: the text table and the dictionary of ``output_dict=True``.

In: one row at a time (name, precision, recall, F1, support). Out: `StringReporter.report`, the
table byte for byte as seqeval 1.2.2 prints it, or `DictReporter.report`,
``{row: {"precision", "recall", "f1-score", "support"}}``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DictReporter", "StringReporter"]


class DictReporter:
    """Rows as ``{name: {"precision", "recall", "f1-score", "support"}}``, values as given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.report_dict: dict[str, dict[str, Any]] = {}

    def report(self) -> dict[str, dict[str, Any]]:
        """The rows written so far."""
        return self.report_dict

    def write(self, row_name: str, precision: Any, recall: Any, f1: Any, support: Any) -> None:
        """Add a row."""
        row = {"precision": precision, "recall": recall, "f1-score": f1, "support": support}
        self.report_dict[row_name] = row

    def write_blank(self) -> None:
        """Nothing: a dictionary has no blank lines."""


class StringReporter:
    """seqeval's table: names right-aligned to ``width``, scores with ``digits`` decimals."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.buffer: list[str] = []
        self.width: int = kwargs.get("width", 10)
        self.digits: int = kwargs.get("digits", 4)

    def report(self) -> str:
        """The header, a blank line, then the rows written so far, one per line."""
        return self.write_header() + "\n".join(self.buffer)

    def write(self, row_name: str, precision: Any, recall: Any, f1: Any, support: Any) -> None:
        """Add a row."""
        w, d = self.width, self.digits
        scores = f"{precision:>9.{d}f} {recall:>9.{d}f} {f1:>9.{d}f}"
        self.buffer.append(f"{row_name:>{w}s}  {scores} {support:>9}")

    def write_header(self) -> str:
        """The column titles and a blank line."""
        titles = "".join(f" {h:>9}" for h in ("precision", "recall", "f1-score", "support"))
        return f"{'':>{self.width}s} {titles}\n\n"

    def write_blank(self) -> None:
        """A blank line between the type rows and the averages, and at the end."""
        self.buffer.append("")
