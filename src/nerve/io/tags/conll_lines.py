"""The lines of a CoNLL block, classified, and the checks on them.

In: complete UTF-8 lines as bytes (from `io.sources.LineSource`). Out: `Lines`, each line's kind
(blank, token, ``-DOCSTART-`` or comment) with its fields; `ColumnCheck`, which raises an
`InputError` when a token line's column count differs from the file's first token line; and
`check_aligned` and `length_error`, which raise or give one where a gold and a prediction file do not
align line by line. Each error names the option that fixes it, where one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...errors import InputError, SchemeError, plural
from ...model.quoting import quote
from ...model.schemes import TagFormat, infer_tag_format
from ..bytes import BOM, DOCSTART, FieldTable, equal_ranges, intern, split_fields, starts_with
from ..sources import read_head, unify_line_ends

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Bytes, Int

__all__ = [
    "BLANK",
    "COMMENT",
    "DOC",
    "ONE_FILE",
    "TOKEN",
    "ColumnCheck",
    "Lines",
    "MergedCheck",
    "check_aligned",
    "classify_lines",
    "first_token_columns",
    "length_error",
    "one_tag_column",
]


@dataclass
class Lines:
    """The lines of one block of one file, classified."""

    buf: Bytes
    fields: FieldTable
    first_line: int  # 1-based number of the block's first line
    kind: npt.NDArray[np.int8]  # 0 blank, 1 token, 2 -DOCSTART-, 3 comment
    delimited: bool = False  # split at each occurrence of one delimiter, not at runs of blanks

    def __len__(self) -> int:
        return int(self.kind.shape[0])

    def text(self, i: int) -> str:
        """Line ``i`` as text, without its newline, for error messages."""
        s, e = self.fields.line_start(i), self.fields.line_end(i)
        return self.buf[s:e].tobytes().decode("utf-8", "replace")

    def option_for(self, i: int) -> str | None:
        """The option that would read line ``i`` as meant, if one would.

        ``--comments`` for a line starting with ``#`` (read as a token line); ``--delimiter tab``
        for a line split at runs of blanks whose tabs leave a field empty (``token<TAB>``).
        """
        s, e = self.fields.line_start(i), self.fields.line_end(i)
        line = self.buf[s:e].tobytes()
        if line.startswith(b"#"):
            return "--comments"
        if not self.delimited and (line.startswith(b"\t") or line.endswith(b"\t") or b"\t\t" in line):
            return "--delimiter tab"
        return None


BLANK, TOKEN, DOC, COMMENT = 0, 1, 2, 3


def classify_lines(data: bytes, first_line: int, comments: bool, delimiter: int | None = None) -> Lines:
    """Split ``data`` (whole lines) into fields and tell blank, token, ``-DOCSTART-`` and comment lines.

    ``#`` lines are comments only when ``comments`` is true; ``first_line`` is ``data``'s first line.
    Fields are separated by runs of spaces and tabs, or with ``delimiter`` by each occurrence of
    that byte (empty fields kept, trailing ones too).
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    fields = split_fields(buf, delimiter, keep_trailing=True)
    kind = (fields.count > 0).astype(np.int8)  # BLANK 0 or TOKEN 1
    kind[starts_with(data, DOCSTART, fields, whole_field=True)] = DOC
    if comments:
        kind[starts_with(data, b"#", fields, whole_field=False)] = COMMENT
    return Lines(buf, fields, first_line, kind, delimiter is not None)


class ColumnCheck:
    """Every token line of a file must have as many columns as its first one.

    ``what`` names the columns a line needs at least ``minimum`` of; ``hint`` is added to the
    message when a line has fewer.
    """

    def __init__(self, name: str, minimum: int, what: str, hint: str = ""):
        self.name = name
        self.minimum = minimum
        self.what = what
        self.hint = hint
        self.expected: int | None = None
        self.expected_line = 0
        self.expected_option: str | None = None  # the option that would fix the line setting the count

    def preset(self, first: tuple[int, int, str | None] | None) -> None:
        """Expect the column count of a token line read elsewhere: ``(count, line, option)``.

        A count below ``minimum`` is not expected: the range holding that line reports it, as one pass does.
        """
        if first is not None and first[0] >= self.minimum:
            self.expected, self.expected_line, self.expected_option = first

    def check(self, lines: Lines, rows: Int) -> None:
        """Raise an `InputError` at the first of ``rows`` (token lines) with another column count."""
        counts = lines.fields.count[rows]
        if counts.shape[0] == 0:
            return
        if self.expected is None:
            first = int(rows[0])
            self.expected = int(counts[0])
            self.expected_line = lines.first_line + first
            self.expected_option = lines.option_for(first)
            if self.expected < self.minimum:
                option = self.expected_option
                raise InputError(
                    self.name,
                    self.expected_line,
                    f"expected at least {plural(self.minimum, 'column')} ({self.what}), "
                    f"found {self.expected}: {quote(lines.text(first))}{'' if option else self.hint}",
                    option=option,
                )
        bad = np.flatnonzero(counts != self.expected)
        if bad.shape[0]:
            i = int(rows[bad[0]])
            raise InputError(
                self.name,
                lines.first_line + i,
                f"expected {plural(self.expected, 'column')} as on line {self.expected_line}, "
                f"found {int(lines.fields.count[i])}: {quote(lines.text(i))}",
                option=lines.option_for(i) or self.expected_option,
            )


def check_aligned(
    g: Lines,
    gr: Int,
    p: Lines,
    pr: Int,
    names: tuple[str, str],
    *,
    check_tokens: bool,
    same_length: bool = True,
    sentences: bool = False,
) -> None:
    """Rows ``gr`` of the gold and ``pr`` of the prediction lines must be of the same kinds.

    With ``check_tokens``, token lines must also agree on their first field (the token) unless
    either has one column. ``names`` are the gold and the prediction file's names. The error names
    the first row where the files part, a missing or extra line included (not the end of its
    sentence, where the kinds of the lines first differ). It suggests ``--ignore-tokens`` only
    when the tokens differ but every line has the kind of its pair (and ``same_length``: the
    files have as many lines), so that the tags would pair as they should. With ``sentences`` the
    files pair sentence by sentence: a -DOCSTART- line pairs with a blank line.
    """
    gk, pk = g.kind[gr], p.kind[pr]
    if sentences:
        gk, pk = np.where(gk == DOC, BLANK, gk), np.where(pk == DOC, BLANK, pk)
    kinds_differ = np.flatnonzero(gk != pk)
    differ = kinds_differ
    tok = np.flatnonzero((gk == TOKEN) & (pk == TOKEN))
    if check_tokens and tok.shape[0]:
        gt, pt = gr[tok], pr[tok]
        one_column = (g.fields.count[gt] == 1) | (p.fields.count[pt] == 1)
        gf, pf = g.fields.first[gt], p.fields.first[pt]
        same = equal_ranges(
            g.buf, g.fields.start[gf], g.fields.end[gf], p.buf, p.fields.start[pf], p.fields.end[pf]
        )
        differ = np.union1d(kinds_differ, tok[~(same | one_column)])
    if differ.shape[0] == 0:
        return
    i = int(differ[0])
    gi, pi = int(gr[i]), int(pr[i])
    tokens_differ = bool(gk[i] == TOKEN and pk[i] == TOKEN)
    shifted = _shift(g, gr, p, pr, i) if tokens_differ and check_tokens else ""
    aligned = same_length and kinds_differ.shape[0] == 0 and not shifted
    raise InputError(
        names[0],
        g.first_line + gi,
        f"does not match {names[1]}:{p.first_line + pi}: "
        f"{quote(g.text(gi))} vs {quote(p.text(pi))}{shifted}; the files must align line by line",
        option=g.option_for(gi)
        or p.option_for(pi)
        or ("--ignore-tokens" if tokens_differ and aligned else None),
    )


def _shift(g: Lines, gr: Int, p: Lines, pr: Int, i: int) -> str:
    """A note when the tokens after row ``i`` tell a line missing from the prediction file, or one more.

    The next gold token is this prediction's (a line missing), or the other way round; else ``""``.
    """

    def token(lines: Lines, rows: Int, k: int) -> bytes | None:
        if k >= rows.shape[0] or lines.kind[rows[k]] != TOKEN:
            return None
        f = int(lines.fields.first[rows[k]])
        return lines.buf[int(lines.fields.start[f]) : int(lines.fields.end[f])].tobytes()

    here_g, here_p = token(g, gr, i), token(p, pr, i)
    if here_p is not None and token(g, gr, i + 1) == here_p:
        return " (the prediction file seems to lack this line)"
    if here_g is not None and token(p, pr, i + 1) == here_g:
        return " (the prediction file seems to have a line more here)"
    return ""


def length_error(
    g: Lines, g_rows: Int, p: Lines, p_rows: Int, names: tuple[str, str], sentences: bool = False
) -> InputError | None:
    """At the end of both files, rows ``g_rows`` and ``p_rows`` must pair up, but for blank lines.

    The error when they do not, else ``None``. ``names`` are the gold and the prediction file's
    names; with ``sentences`` (files paired sentence by sentence), -DOCSTART- lines count as blank.
    """
    n = min(g_rows.shape[0], p_rows.shape[0])
    gold_longer = g_rows.shape[0] > p_rows.shape[0]
    longer, rows = (g, g_rows) if gold_longer else (p, p_rows)
    extra = rows[n:]
    content = extra[(longer.kind[extra] != BLANK) & ((longer.kind[extra] != DOC) | (not sentences))]
    if content.shape[0] == 0:
        return None  # only trailing blank lines differ
    i = int(content[0])
    name, other = names if gold_longer else names[::-1]
    return InputError(
        name,
        longer.first_line + i,
        f"{other} has ended but this file goes on: {quote(longer.text(i))}; "
        "the files must align line by line",
        option=longer.option_for(i),
    )


ONE_FILE = (
    "a single FILE must hold gold and predicted tags (in its last two columns): "
    "give the prediction file too, as PRED_FILE"
)


def one_tag_column(ids: npt.NDArray[np.intp], mapped: npt.NDArray[np.int32]) -> bool:
    """Whether a merged file seems to have only one tag column (then `ONE_FILE` says what to do).

    ``ids`` are the interned gold then predicted tag columns and ``mapped`` their vocabulary ids:
    the predicted half is all tags and most distinct values of the gold half are not.
    """
    n = ids.shape[0] // 2
    if (mapped[ids[n:]] < 0).any():
        return False
    distinct = np.unique(ids[:n])
    return int(np.count_nonzero(mapped[distinct] < 0)) * 2 > distinct.shape[0]


class MergedCheck:
    """Tells a gold file that holds gold and predicted tags in its last two columns (merged).

    Both columns must be tags with a scheme letter, spelled as the vocabulary's format says (or in
    one inferred format), and agree on the type of at least half the tokens that both tag as
    entities, among the first `ENTITIES` such tokens (or the first `TOKENS` tokens, or the whole
    file). So a chunk column beside the entity tags (CoNLL-2003: ``B-NP B-ORG``), a column of
    ``O``, or a second layer of nested entities, which seldom has the type of the first, is not
    taken for predictions.
    """

    ENTITIES = 50
    TOKENS = 100_000

    def __init__(self, name: str):
        self.name = name
        self.done = False
        self.agree = self.entities = self.tokens = 0
        self.first_line = 0

    def add(self, lines: Lines, rows: Int, fmt: TagFormat | None, outside: str) -> None:
        """Count token ``rows`` of a block; raise an `InputError` once the file looks merged."""
        if self.done or rows.shape[0] == 0:
            return
        if not self.tokens:
            self.first_line = lines.first_line + int(rows[0])
        counts = _agreement(lines, rows, fmt, outside)
        if counts is None:
            self.done = True  # not two tag columns
            return
        self.agree += counts[0]
        self.entities += counts[1]
        self.tokens += int(rows.shape[0])
        if self.entities >= self.ENTITIES or self.tokens >= self.TOKENS:
            self.finish()

    def finish(self) -> None:
        """Decide on what was counted (at the end of the file, or once enough was)."""
        if self.done:
            return
        self.done = True
        if self.agree > 0 and self.agree * 2 >= self.entities:
            raise InputError(
                self.name,
                self.first_line,
                "looks like a merged file (gold and predicted tags in its last two columns); "
                f"score it alone: nerve score {self.name}",
            )


def _agreement(lines: Lines, rows: Int, fmt: TagFormat | None, outside: str) -> tuple[int, int] | None:
    """Among token ``rows`` with entity tags in both last columns: how many agree on the type.

    Returns ``(agreeing, with entity tags in both)``, or ``None`` when those columns are not both
    tags with a scheme letter.
    """
    rows = rows[lines.fields.count[rows] >= 3]
    n = rows.shape[0]
    if n == 0 or (fmt is not None and fmt.position == "bare"):
        return None
    f = lines.fields
    both = np.concatenate([f.second_last[rows], f.last[rows]])
    ids, values = intern(lines.buf, f.start[both], f.end[both])
    tags = [v.decode("utf-8", "replace") for v in values]
    try:
        fmt = fmt or infer_tag_format(tags, outside)
    except SchemeError:
        return None
    if fmt is None:
        return 0, 0  # only outside tags so far
    parts = [fmt.split(t) for t in tags]
    if any(p is None for p in parts):
        return None
    names = sorted({p[1] for p in parts if p is not None and p[0] != "O"})
    index = {name: k for k, name in enumerate(names)}
    types = np.asarray([index[p[1]] if p is not None and p[0] != "O" else -1 for p in parts])
    gold, pred = types[ids[:n]], types[ids[n:]]
    entity = (gold >= 0) & (pred >= 0)
    return int(np.count_nonzero(gold[entity] == pred[entity])), int(np.count_nonzero(entity))


def first_token_columns(
    path: str, comments: bool = False, delimiter: int | None = None
) -> tuple[int, int, str | None] | None:
    """The number of columns of the first token line of a file, its line number, and the option that fixes it.

    The option is `Lines.option_for`'s (``--comments`` for a line starting with ``#``): a reader
    of a later range of the file names it when another line's count differs, as one pass does.

    ``None`` when no token line is in the first MiB, or when the file cannot be read (the
    reader then says why).
    """
    try:
        data = read_head(path, 1 << 20)
    except InputError:
        return None
    if data.startswith(BOM):
        data = data[len(BOM) :]
    data = unify_line_ends(data[: data.rfind(b"\n") + 1])
    if not data:
        return None
    lines = classify_lines(data, 1, comments, delimiter)
    tokens = np.flatnonzero(lines.kind == TOKEN)
    if not tokens.shape[0]:
        return None
    first = int(tokens[0])
    return int(lines.fields.count[first]), first + 1, lines.option_for(first)
