"""The lines of a HIPE or CoNLL-U file from the compiled engine (`nerve._speedups`, csrc/columns.c).

In: the bytes of a file and its format. Out: `ScannedLines`, the lines located in the bytes with
the kind and the number of cells of each, which the readers (`hipe`, `conllu`) take where they
take `ByteLines`; or ``None``, where the engine is not built (or ``NERVE_NO_SPEEDUPS=1``) or the
file holds what the compiled scan does not handle: bytes that are not UTF-8, a CoNLL-U ID that is
none. The reader then reads the file with numpy, and raises its usual error.

Kinds: `ROW` (a HIPE row, a CoNLL-U word), `MARKER` (a document marker: ``# hipe2022:document_id =``
or ``# document_id =`` in HIPE, ``# newdoc`` in CoNLL-U), `COMMENT`, `BLANK` (only spaces, as
``str.isspace`` has them), `SKIPPED` (a CoNLL-U multiword token or empty node). Offsets are in the
bytes as read: a byte order mark and the CR of CR LF are outside every line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..._engine import speedups
from ..._frozen import frozen
from .tag_columns import sorted_strings

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Bytes, Int

__all__ = ["BLANK", "COMMENT", "CONLLU", "HIPE", "MARKER", "ROW", "SKIPPED", "ScannedLines", "scan_lines"]

HIPE, CONLLU = 0, 1
ROW, MARKER, COMMENT, BLANK, SKIPPED = 0, 1, 2, 3, 4


@frozen
class ScannedLines:
    """The lines of a file as the compiled engine found them (see the module); cells and strings in C too."""

    data: bytes
    buf: Bytes
    start: Int
    end: Int
    kind: npt.NDArray[np.int8]
    width: npt.NDArray[np.int32]

    def __len__(self) -> int:
        return int(self.start.shape[0])

    def text(self, i: int) -> str:
        """Line ``i`` decoded."""
        return self.data[int(self.start[i]) : int(self.end[i])].decode("utf-8")

    def widths(self, rows: Int) -> Int:
        """The number of tab-separated cells of each line in ``rows``."""
        return self.width[rows].astype(np.int64)

    def cells(self, rows: Int, k: int, width: int) -> tuple[Int, Int]:
        """Where cell ``k`` of each line in ``rows`` is (each has ``width`` cells)."""
        engine = speedups()
        assert engine is not None  # made by `scan_lines`, which needs it
        start, end = engine.cells(self.data, self.start[rows].tobytes(), self.end[rows].tobytes(), k, width)
        return np.frombuffer(start, dtype=np.int64), np.frombuffer(end, dtype=np.int64)

    def strings(self, start: Int, end: Int, rename: dict[str, str] | None) -> tuple[list[str], Int]:
        """The distinct strings ``data[start[i]:end[i]]`` sorted (renamed first), and the index of each."""
        engine = speedups()
        assert engine is not None
        start64, end64 = np.ascontiguousarray(start, np.int64), np.ascontiguousarray(end, np.int64)
        values, ids = engine.intern(self.data, start64.tobytes(), end64.tobytes(), 0, 1)
        return sorted_strings(np.frombuffer(ids, dtype=np.int64), values, rename)


def scan_lines(data: bytes, mode: int) -> ScannedLines | None:
    """The lines of ``data``, a HIPE (`HIPE`) or CoNLL-U (`CONLLU`) file; ``None`` to read it with numpy."""
    engine = speedups()
    if engine is None:
        return None
    found = engine.scan_columns(data, mode)
    if isinstance(found, int):
        return None
    start, end, kind, width = found
    return ScannedLines(
        data,
        np.frombuffer(data, dtype=np.uint8),
        np.frombuffer(start, dtype=np.int64),
        np.frombuffer(end, dtype=np.int64),
        np.frombuffer(kind, dtype=np.int8),
        np.frombuffer(width, dtype=np.int32),
    )
