"""HIPE TSV files (the CLEF HIPE 2020 and 2022 shared tasks): entities of one or more tag columns.

In: a file whose first row is the header ``TOKEN NE-COARSE-LIT NE-COARSE-METO NE-FINE-LIT
NE-FINE-METO NE-FINE-COMP NE-NESTED NEL-LIT NEL-METO MISC`` (tab-separated; any columns, as long as
``TOKEN`` is first), then one token a row. Comment lines give the markers:
``# hipe2022:document_id = X`` (or ``# document_id = X`` in HIPE 2020) starts a document, and every
other comment (``# segment_iiif_link = ...``, dates, languages...) is metadata and is skipped. A
blank line ends a sentence. ``EndOfLine``, ``NoSpaceAfter`` and ``EndOfSentence`` in ``MISC`` describe
the layout of the text, not its entities: they are not used, as the HIPE scorer does not use them.

Out: one `SpanArray`, offsets in tokens from the start of each HIPE document (tokens before the
first marker form a document of their own). ``column`` picks the tag column (``NE-COARSE-LIT`` by
default); several, comma-separated (``NE-COARSE-LIT,NE-NESTED``), are decoded one by one and
their entities kept together, nested and overlapping. Tags are decoded with nerve's shared rule
(`nerve.io.tags.tag_columns`), any scheme; ``_`` in a tag column (not annotated) reads as ``O``.

Problems raise `InputError` naming the file and line: no header, an unknown column (the fix:
``--column`` with one of the header's names), a row with a number of columns other than the
header's, a tag that is not ``B-X`` like the others, a prediction file whose tokens, sentences or
documents part from the gold file's (`read_hipe_pair`).
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..._frozen import frozen
from ...errors import InputError, plural
from ...model.quoting import quote
from ...model.spans import SpanArray
from ..json.jsonl import Problems, collect
from ..sources import read_bytes
from .column_pairs import TokenColumn, read_or_none, read_sides
from .column_scan import HIPE, scan_lines
from .tag_columns import ColumnLines, cells, decode_tag_ids, merge_layers, strings, text_bytes

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Int

__all__ = ["DEFAULT_COLUMN", "Table", "hipe_texts", "read_hipe", "read_hipe_pair", "read_table"]

#: The column read when none is given.
DEFAULT_COLUMN = "NE-COARSE-LIT"
_KEYS = ("document_id", "hipe2022:document_id")


@frozen
class Table:
    """The token rows of a HIPE file: where they are, document, sentence starts and lines of each row."""

    path: str
    header: list[str]
    header_line: int
    text: ColumnLines | None
    rows: Int  # the index in ``text`` of each token row
    doc: Int
    sentence_start: npt.NDArray[np.bool_]
    lines: Int
    n_docs: int

    def column(self, name: str) -> tuple[list[str], Int]:
        """The cells of column ``name``, ``_`` read as ``O``: the distinct ones sorted, and the index of each.

        Raises:
            InputError: at the header, when it has no such column.
        """
        if name not in self.header[1:]:
            detail = (
                f"has no column {quote(name)}; pick one of {', '.join(self.header[1:])} "
                "with --column (comma-separated for nested layers)"
            )
            raise InputError(self.path, self.header_line, detail, option="--column")
        return self.strings(self.header.index(name), {"_": "O"})

    def tokens(self) -> TokenColumn:
        """The tokens (the first column), to pair a prediction file with the gold file."""
        if self.text is None:
            empty = np.zeros(0, dtype=np.int64)
            return TokenColumn(
                self.path, np.zeros(0, np.uint8), empty, empty, empty, self.sentence_start, empty
            )
        start, end = cells(self.text, self.rows, 0, len(self.header))
        return TokenColumn(self.path, self.text.buf, start, end, self.doc, self.sentence_start, self.lines)

    def strings(self, k: int, rename: dict[str, str] | None = None) -> tuple[list[str], Int]:
        """The cells of column ``k``: the distinct ones sorted (renamed first), the index of each."""
        if self.text is None:
            return [], np.zeros(0, dtype=np.int64)
        start, end = cells(self.text, self.rows, k, len(self.header))
        return strings(self.text, start, end, rename)


def _marker(line: str) -> bool:
    """Whether the comment ``line`` starts a document."""
    key = line[1:].split("=", 1)[0].strip()
    return "=" in line and key in _KEYS


def read_table(path: str) -> Table:
    """The rows of the HIPE file ``path``, checked against its header.

    The lines are found by the compiled engine where it is built and takes the file
    (`scan_lines`), else with numpy; the rest is the same code.

    Raises:
        InputError: a first row that is not the ``TOKEN ...`` header, a row with another number
            of columns than the header.
    """
    data = read_bytes(path)
    scanned = scan_lines(data, HIPE)
    if scanned is not None:
        return _table(path, scanned, scanned.kind)
    lines = text_bytes(path, data)
    kind = np.zeros(len(lines), dtype=np.int8)  # 0 row, 1 document marker, 2 comment, 3 blank
    kind[lines.first_byte(ord("#"))] = 2
    kind[lines.blank()] = 3
    for i in np.flatnonzero(kind == 2).tolist():
        if _marker(lines.text(i)):
            kind[i] = 1
    return _table(path, lines, kind)


def _table(path: str, lines: ColumnLines, kind: npt.NDArray[np.int8]) -> Table:
    """The rows of a HIPE file from its lines and the kind of each (0 row, 1 marker, 2 comment, 3 blank)."""
    rows_at = np.flatnonzero(kind == 0)
    if not rows_at.shape[0]:
        return Table(path, ["TOKEN"], 0, None, rows_at, np.zeros(0, np.int64), np.zeros(0, bool), rows_at, 0)
    h = int(rows_at[0])
    first = lines.text(h)
    header = first.split("\t")
    if header[0] != "TOKEN":
        detail = f"expected the HIPE header TOKEN<TAB>NE-COARSE-LIT<TAB>..., got {quote(first)}"
        raise InputError(path, h + 1, detail)
    rows_at = rows_at[1:]
    length = lines.end - lines.start
    again = rows_at[length[rows_at] == length[h]]  # a header repeated, as where files are concatenated
    again = again[[lines.text(i) == first for i in again.tolist()]]
    if again.shape[0]:
        rows_at = np.setdiff1d(rows_at, again)
    widths = lines.widths(rows_at)
    if (widths != len(header)).any():
        k = int(np.argmax(widths != len(header)))
        detail = (
            f"row has {plural(int(widths[k]), 'column')}, expected {len(header)} as in the header "
            f"(line {h + 1}; columns are separated by tabs)"
        )
        raise InputError(path, int(rows_at[k]) + 1, detail)
    markers = np.cumsum(kind == 1)
    breaks = np.cumsum((kind == 1) | (kind == 3))
    doc = markers[rows_at].astype(np.int64)
    n_markers = int(markers[-1])
    leading = bool(doc.shape[0]) and int(doc[0]) == 0  # rows before the first marker
    if not leading:
        doc -= 1
    start = np.ones(rows_at.shape[0], dtype=bool)
    start[1:] = breaks[rows_at][1:] != breaks[rows_at][:-1]
    n_docs = n_markers + int(leading)
    at = rows_at.astype(np.int64)
    return Table(path, header, h + 1, lines, at, doc, start, at + 1, n_docs)


def read_hipe(
    path: str, units: str | None = None, problems: Problems = None, column: str | None = None
) -> tuple[SpanArray, None]:
    """The entities of the HIPE file ``path`` in ``column`` (see the module): one side.

    ``units`` is not used (offsets count tokens). A problem is raised, or collected (validation)
    and the file read as having no documents.
    """
    del units
    return _spans(path, read_or_none(read_table, path, problems), column, problems), None


def read_hipe_pair(
    gold: str,
    pred: str | None,
    units: str | None = None,
    problems: Problems = None,
    column: str | None = None,
) -> tuple[SpanArray, SpanArray | None]:
    """The entities of a gold and a prediction HIPE file, which must hold the same tokens.

    Offsets count tokens, so the files are checked token by token first (`check_paired`): a
    token missing from the prediction file would shift every entity after it.
    """
    del units
    return read_sides(
        gold, pred, problems, read_table, lambda path, t: _spans(path, t, column, problems), _tokens
    )


def _tokens(path: str, table: Table) -> TokenColumn:
    """The tokens of ``table``, to pair a prediction file with the gold file."""
    del path
    return table.tokens()


def _spans(path: str, table: Table | None, column: str | None, problems: Problems) -> SpanArray:
    """The entities of ``table`` in ``column``; none when it is ``None`` or a problem is collected."""
    names = [c.strip() for c in (column or DEFAULT_COLUMN).split(",") if c.strip()]
    if table is None or table.n_docs == 0:
        return replace(SpanArray.empty(0), source=path)
    try:
        layers = [
            decode_tag_ids(
                *table.column(name), table.doc, table.sentence_start, table.n_docs, (path, table.lines)
            )
            for name in names
        ]
    except InputError as err:
        collect(problems, err)
        return replace(SpanArray.empty(0), source=path)
    return replace(merge_layers(layers), source=path)


def hipe_texts(path: str) -> list[tuple[str, ...]]:
    """The tokens of each document of the HIPE file ``path``."""
    table = read_table(path)
    names, ids = table.strings(0)
    tokens = [names[i] for i in ids.tolist()]
    bounds = np.searchsorted(table.doc, np.arange(table.n_docs + 1)).tolist()
    return [tuple(tokens[a:b]) for a, b in itertools.pairwise(bounds)]
