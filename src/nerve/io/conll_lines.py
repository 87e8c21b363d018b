"""The lines of a CoNLL block, classified, and the checks on them.

In: complete UTF-8 lines as bytes (from `io.bytes.LineSource`). Out: `Lines`, each line's kind
(blank, token, ``-DOCSTART-`` or comment) with its fields; `ColumnCheck`, which raises an
`InputError` when a token line's column count differs from the file's first token line; and
`check_aligned`, which raises one where a gold and a prediction file do not align line by line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError, plural
from .bytes import BOM, DOCSTART, FieldTable, equal_ranges, split_fields, starts_with

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]
    Bytes = npt.NDArray[np.uint8]

__all__ = [
    "BLANK",
    "COMMENT",
    "DOC",
    "TOKEN",
    "ColumnCheck",
    "Lines",
    "check_aligned",
    "classify",
    "first_token_columns",
]


@dataclass
class Lines:
    """The lines of one block of one file, classified."""

    buf: Bytes
    fields: FieldTable
    first_line: int  # 1-based number of the block's first line
    kind: npt.NDArray[np.int8]  # 0 blank, 1 token, 2 -DOCSTART-, 3 comment

    def __len__(self) -> int:
        return int(self.kind.shape[0])

    def text(self, i: int) -> str:
        """Line ``i`` as text, without its newline, for error messages."""
        s, e = self.fields.line_start(i), self.fields.line_end(i)
        return self.buf[s:e].tobytes().decode("utf-8", "replace")


BLANK, TOKEN, DOC, COMMENT = 0, 1, 2, 3


def classify(data: bytes, first_line: int, comments: bool) -> Lines:
    """Split ``data`` (whole lines) into fields and tell blank, token, ``-DOCSTART-`` and comment lines.

    ``#`` lines are comments only when ``comments`` is true; ``first_line`` is ``data``'s first line.
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    fields = split_fields(buf)
    kind = (fields.count > 0).astype(np.int8)  # BLANK 0 or TOKEN 1
    kind[starts_with(data, DOCSTART, fields, whole_field=True)] = DOC
    if comments:
        kind[starts_with(data, b"#", fields, whole_field=False)] = COMMENT
    return Lines(buf, fields, first_line, kind)


class ColumnCheck:
    """Every token line of a file must have as many columns as its first one."""

    def __init__(self, name: str, minimum: int, what: str):
        self.name = name
        self.minimum = minimum
        self.what = what
        self.expected: int | None = None
        self.expected_line = 0

    def preset(self, first: tuple[int, int] | None) -> None:
        """Expect the column count of a token line read elsewhere: ``(count, line)``."""
        if first is not None:
            self.expected, self.expected_line = first

    def check(self, lines: Lines, rows: Int) -> None:
        """Raise an `InputError` at the first of ``rows`` (token lines) with another column count."""
        counts = lines.fields.count[rows]
        if counts.shape[0] == 0:
            return
        if self.expected is None:
            self.expected = int(counts[0])
            self.expected_line = lines.first_line + int(rows[0])
            if self.expected < self.minimum:
                raise InputError(
                    self.name,
                    self.expected_line,
                    f"expected at least {plural(self.minimum, 'column')} ({self.what}), "
                    f"found {self.expected}: {lines.text(int(rows[0]))!r}",
                )
        bad = np.flatnonzero(counts != self.expected)
        if bad.shape[0]:
            i = int(rows[bad[0]])
            raise InputError(
                self.name,
                lines.first_line + i,
                f"expected {plural(self.expected, 'column')} as on line {self.expected_line}, "
                f"found {int(lines.fields.count[i])}: {lines.text(i)!r}",
            )


def check_aligned(
    g: Lines, gr: Int, p: Lines, pr: Int, names: tuple[str, str], *, check_tokens: bool
) -> None:
    """Rows ``gr`` of the gold and ``pr`` of the prediction lines must be of the same kinds.

    With ``check_tokens``, token lines must also agree on their first field (the token) unless
    either has one column. ``names`` are the gold and the prediction file's names.
    """
    gk, pk = g.kind[gr], p.kind[pr]
    differ = np.flatnonzero(gk != pk)
    tok = np.flatnonzero((gk == TOKEN) & (pk == TOKEN))
    if differ.shape[0] == 0 and check_tokens and tok.shape[0]:
        gt, pt = gr[tok], pr[tok]
        one_column = (g.fields.count[gt] == 1) | (p.fields.count[pt] == 1)
        gf, pf = g.fields.first[gt], p.fields.first[pt]
        same = equal_ranges(
            g.buf, g.fields.start[gf], g.fields.end[gf], p.buf, p.fields.start[pf], p.fields.end[pf]
        )
        differ = tok[~(same | one_column)]
    if differ.shape[0]:
        i = int(differ[0])
        gi, pi = int(gr[i]), int(pr[i])
        raise InputError(
            names[0],
            g.first_line + gi,
            f"does not match {names[1]}:{p.first_line + pi}: "
            f"{g.text(gi)!r} vs {p.text(pi)!r}; the files must align line by line",
        )


def first_token_columns(path: str) -> tuple[int, int] | None:
    """The number of columns of the first token line of a file, and its line number.

    ``None`` when no token line is in the first MiB.
    """
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    if data.startswith(BOM):
        data = data[len(BOM) :]
    data = data[: data.rfind(b"\n") + 1].replace(b"\r\n", b"\n")
    if not data:
        return None
    lines = classify(data, 1, comments=False)
    tokens = np.flatnonzero(lines.kind == TOKEN)
    if not tokens.shape[0]:
        return None
    return int(lines.fields.count[tokens[0]]), int(tokens[0]) + 1
