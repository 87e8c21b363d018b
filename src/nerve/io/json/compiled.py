"""The compiled span reader (`nerve._speedups`): nervaluate's JSON and nerve's JSONL, read in C.

In: a file's bytes (JSONL: pieces of whole lines) and the offset units. Out: each side's columns
as the compiled engine gives them (`Columns`: int64 bytearrays, the label names in order of first
appearance, the number of documents), made a `SpanArray` by `as_span_array`; or ``None`` where the
engine is off or hands over. It hands over on anything it is not sure of (a malformed value,
escapes in keys, duplicate or unknown keys, offsets that are not plain integers in range, JSONL
spans that carry a ``"text"``, documents of different sides, a file without documents), and the
Python reader then reads the input and says what is wrong. Needs no numpy until `as_span_array`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..._engine import speedups

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (3 ms)
if TYPE_CHECKING:
    from ...model.arrays import Int
    from ...model.spans import SpanArray

__all__ = ["FORMATS", "UNITS", "Columns", "as_span_array", "read_columns"]

#: The columns of one side: document, start, end and label id (int64 bytearrays), the label names,
#: and the number of documents.
Columns = tuple[bytearray, bytearray, bytearray, bytearray, list[str], int]
#: The formats the compiled reader reads, by their number in `nerve._speedups.read_spans`.
FORMATS = {"nervaluate": 0, "jsonl": 1}
#: The JSONL offset units it takes (``None``: each document says), by their number there.
UNITS = {None: 0, "char": 1, "token": 2}


def read_columns(
    pieces: Iterable[bytes], fmt: str, units: str | None = None
) -> tuple[Columns, Columns | None] | None:
    """The gold (or only) side's columns and the predicted side's (``None`` for a file of one side).

    ``None`` when the compiled engine is off, or hands the input over to the Python reader.
    """
    engine = speedups()
    if engine is None or fmt not in FORMATS or units not in UNITS:
        return None
    out = engine.read_spans(pieces, FORMATS[fmt], UNITS[units])
    if isinstance(out, str):
        return None
    _, gold, pred = out
    return gold, pred


def as_span_array(columns: Columns) -> SpanArray:
    """The `SpanArray` of one side's columns (sharing their memory)."""
    import numpy as np

    from ...model.spans import SpanArray

    doc, start, end, label, names, n_docs = columns

    def array(column: bytearray) -> Int:
        return np.frombuffer(column, dtype=np.int64)

    return SpanArray(array(doc), array(start), array(end), array(label), tuple(names), n_docs)
