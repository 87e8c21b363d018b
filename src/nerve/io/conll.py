"""Readers: CoNLL column files and Python tag lists, into blocks of tag ids.

Files are read in blocks of whole sentences and split into fields with array operations over the
raw bytes (`split_fields`), so memory does not grow with the file and no Python code runs per
token. Each block is a `TagBlock`: gold and predicted tag ids plus sentence and document starts
and the line every token came from.

Two layouts are read: one merged file whose last two columns are the gold and the predicted tag
(as conlleval.pl reads), or a gold file and a prediction file aligned line by line whose last
column is the tag. Blank lines end sentences; ``-DOCSTART-`` lines start documents and are not
tokens; fields are separated by spaces or tabs; ``#`` lines are comments only when asked.
"""

from __future__ import annotations

import codecs
import itertools
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Union

import numpy as np

from ..errors import InputError
from ..model.vocab import TagVocab

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]
    Bool = npt.NDArray[np.bool_]
    Bytes = npt.NDArray[np.uint8]

__all__ = [
    "BLOCK_BYTES",
    "FieldTable",
    "TagBlock",
    "TaggedCorpus",
    "iter_conll",
    "iter_lists",
    "read_conll",
    "split_fields",
]


BLOCK_BYTES = 1 << 20
DOCSTART = b"-DOCSTART-"
_BOM = codecs.BOM_UTF8


@dataclass(frozen=True)
class TagBlock:
    """Whole sentences of a corpus in columnar form.

    Attributes:
        gold: gold tag id of each token (ids of the reader's `TagVocab`).
        pred: predicted tag id of each token, or ``None`` when only one side was read.
        sentence_start: whether each token starts a sentence.
        document_start: whether each token is the first after a ``-DOCSTART-`` line.
        line: the 1-based line of each token in the gold (or merged) file.
        pred_line: the line of each token in the prediction file (equal to ``line`` for one file).
    """

    gold: npt.NDArray[np.int32]
    pred: npt.NDArray[np.int32] | None
    sentence_start: Bool
    document_start: Bool
    line: Int
    pred_line: Int

    def __len__(self) -> int:
        return int(self.gold.shape[0])


@dataclass(frozen=True)
class FieldTable:
    """Where the fields of each line of a byte block are.

    Fields ``k`` span bytes ``[start[k], end[k])``. For each line: the number of fields, and the
    index of its first, second-to-last and last field, meaningful only where the line has that
    many fields. ``line_cut`` and ``first_gap`` index the gaps that end and begin each line.
    """

    start: Int
    end: Int
    count: Int
    first: Int
    second_last: Int
    last: Int
    first_gap: Int
    line_cut: Int

    def __len__(self) -> int:
        return int(self.count.shape[0])

    def line_start(self, i: int) -> int:
        """The byte offset where line ``i`` starts."""
        return int(self.start[self.first_gap[i]])

    def line_end(self, i: int) -> int:
        """The byte offset of line ``i``'s newline."""
        return int(self.end[self.line_cut[i]])


def split_fields(buf: Bytes, delimiter: int | None = None) -> FieldTable:
    """Locate the fields of every line of ``buf``, which must end with a newline.

    Args:
        buf: the bytes of whole lines.
        delimiter: ``None`` to split on runs of spaces and tabs, ignoring leading and trailing
            ones; or one byte value, every occurrence of which separates two fields, keeping empty
            fields except trailing ones (how Perl's ``split`` works).

    The bytes between two consecutive separators (spaces, tabs or newlines) form a *gap*; fields
    are gaps, numbered in order, and the table's ``start``/``end`` are indexed by gap.
    """
    if delimiter is None:
        sep = buf == 32
        sep |= buf == 9
        sep |= buf == 10
    else:
        sep = buf == delimiter
        sep |= buf == 10
    cut = np.flatnonzero(sep)
    gap_start = np.empty_like(cut)
    gap_start[:1] = 0
    gap_start[1:] = cut[:-1] + 1
    line_cut = np.flatnonzero(buf[cut] == 10)  # the gap ending each line
    first_gap = np.empty_like(line_cut)
    first_gap[:1] = 0
    first_gap[1:] = line_cut[:-1] + 1
    empty = cut == gap_start
    blank = (line_cut == first_gap) & empty[line_cut]
    n_empty = int(np.count_nonzero(empty))
    if n_empty == int(np.count_nonzero(blank)):
        # Common case: the only empty gaps are blank lines.
        count = np.where(blank, 0, line_cut - first_gap + 1)
        first, last = first_gap, line_cut
    elif delimiter is not None:
        # Perl keeps empty fields but drops trailing ones.
        last = _last_nonempty(empty)[line_cut]
        count = np.where(last >= first_gap, last - first_gap + 1, 0)
        first = first_gap
    else:
        # Runs of blanks: only non-empty gaps are fields.
        last = _last_nonempty(empty)[line_cut]
        nonempty_before = np.concatenate(([0], np.cumsum(~empty)))
        count = nonempty_before[line_cut + 1] - nonempty_before[first_gap]
        after = np.where(empty, cut.shape[0], np.arange(cut.shape[0]))
        after = np.minimum.accumulate(after[::-1])[::-1]
        first = after[np.minimum(first_gap, cut.shape[0] - 1)]
        previous = _last_nonempty(empty)
        second = np.where(last > 0, previous[np.maximum(last - 1, 0)], -1)
        return FieldTable(gap_start, cut, count, first, second, last, first_gap, line_cut)
    return FieldTable(gap_start, cut, count, first, last - 1, last, first_gap, line_cut)


def _last_nonempty(empty: Bool) -> Int:
    """For each gap, the index of the last non-empty gap at or before it (-1 if none)."""
    idx = np.arange(empty.shape[0])
    return np.maximum.accumulate(np.where(empty, -1, idx))


_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


_MULTIPLIERS = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93)


def _lookup(distinct: npt.NDArray[np.uint64], key: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
    """The index of each key in the sorted ``distinct`` keys, or -1 where it is absent.

    Uses a multiplicative hash table without collisions among ``distinct`` when one of a few
    multipliers gives one, which costs two gathers per key; otherwise a binary search.
    """
    bits = max(12, int(distinct.shape[0] * 16).bit_length())
    if bits <= 16:
        shift = np.uint64(64 - bits)
        for m in _MULTIPLIERS:
            mult = np.uint64(m)
            slots = (distinct * mult) >> shift
            if np.unique(slots).shape[0] == distinct.shape[0]:
                table = np.full(1 << bits, -1, dtype=np.intp)
                table[slots] = np.arange(distinct.shape[0])
                found = table[(key * mult) >> shift]
                found[distinct[np.maximum(found, 0)] != key] = -1
                return found
    pos = np.searchsorted(distinct, key)
    np.minimum(pos, distinct.shape[0] - 1, out=pos)
    pos[distinct[pos] != key] = -1
    return pos


def intern(buf: Bytes, starts: Int, ends: Int) -> tuple[npt.NDArray[np.intp], list[bytes]]:
    """Map the byte strings ``buf[starts[i]:ends[i]]`` to ids of their distinct values.

    Returns ``(ids, values)`` with ``values[ids[i]]`` equal to the i-th string. Each string is
    read as 64-bit words at its byte offset. Strings of up to 7 bytes, with their length in the
    top byte, are their own key; longer ones are hashed, and then every string is compared with
    its representative so that a collision falls back to exact comparison. Keys are looked up
    among the distinct keys of a sample, extended by those the sample missed.
    """
    n = starts.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.intp), []
    lengths = ends - starts
    width = int(lengths.max())
    padded = np.zeros(buf.shape[0] + 8, dtype=np.uint8)
    padded[: buf.shape[0]] = buf
    words: npt.NDArray[np.uint64] = np.ndarray(
        shape=(buf.shape[0] + 1,), dtype="<u8", buffer=padded.data, strides=(1,)
    )
    parts = []
    if width <= 7:
        key = (words[starts] & _MASKS[lengths]) | (lengths.astype(np.uint64) << np.uint64(56))
    else:
        for offset in range(0, width, 8):
            at = np.minimum(starts + offset, buf.shape[0])
            parts.append(words[at] & _MASKS[np.clip(lengths - offset, 0, 8)])
        key = lengths.astype(np.uint64)
        for w in parts:
            key = (key ^ w) * np.uint64(0x100000001B3)
    step = max(1, n // 256)
    distinct, first = np.unique(key[::step], return_index=True)
    reps = first * step
    pos = _lookup(distinct, key)
    missing = np.flatnonzero(pos < 0)
    if missing.shape[0]:
        extra, extra_first = np.unique(key[missing], return_index=True)
        keys = np.concatenate([distinct, extra])
        order = np.argsort(keys)
        distinct, reps = keys[order], np.concatenate([reps, missing[extra_first]])[order]
        pos = _lookup(distinct, key)
    if parts:  # hashed keys: compare every string with its representative
        rep = reps[pos]
        same = lengths == lengths[rep]
        for w in parts:
            same &= w == w[rep]
        if not same.all():
            table: dict[bytes, int] = {}
            ids = np.empty(n, dtype=np.intp)
            for i in range(n):
                ids[i] = table.setdefault(buf[starts[i] : ends[i]].tobytes(), len(table))
            return ids, list(table)
    return pos, [buf[starts[r] : ends[r]].tobytes() for r in reps.tolist()]


@dataclass(frozen=True)
class FileRange:
    """Bytes ``[start, stop)`` of a UTF-8 file, which begin after ``line`` whole lines."""

    path: str
    start: int
    stop: int
    line: int


Readable = Union[str, "os.PathLike[str]", BinaryIO, FileRange]


def split_files(gold: str, pred: str | None, parts: int) -> list[tuple[FileRange, FileRange | None]] | None:
    """Cut a merged file, or aligned gold and prediction files, into ranges of whole sentences.

    The ranges can be read independently; ``None`` when no blank line is near a cut. Cuts
    follow a blank line of the gold file, at the same line of the prediction file.
    """
    size = os.path.getsize(gold)
    cuts_gold, lines = [0], [0]
    with open(gold, "rb") as f:
        for k in range(1, parts):
            f.seek(max(size * k // parts, cuts_gold[-1]))
            window = f.read(1 << 20)
            after = _after_blank_line(window)
            if after is None:
                return None
            cuts_gold.append(f.tell() - len(window) + after)
        cuts_gold.append(size)
        f.seek(0)
        done = 0
        for cut in cuts_gold[1:-1]:
            lines.append(lines[-1] + f.read(cut - done).count(b"\n"))
            done = cut
    golds = [FileRange(gold, a, b, n) for a, b, n in zip(cuts_gold[:-1], cuts_gold[1:], lines, strict=True)]
    if pred is None:
        return [(g, None) for g in golds]
    cuts_pred = [0]
    with open(pred, "rb") as f:
        seen = 0
        for target in lines[1:]:
            while True:
                piece = f.read(1 << 20)
                if not piece:
                    return None
                n = piece.count(b"\n")
                if seen + n >= target:
                    at = np.flatnonzero(np.frombuffer(piece, dtype=np.uint8) == 10)[target - seen - 1]
                    cuts_pred.append(f.tell() - len(piece) + int(at) + 1)
                    f.seek(cuts_pred[-1])
                    seen = target
                    break
                seen += n
        cuts_pred.append(os.path.getsize(pred))
    preds = [FileRange(pred, a, b, n) for a, b, n in zip(cuts_pred[:-1], cuts_pred[1:], lines, strict=True)]
    return list(zip(golds, preds, strict=True))


def _after_blank_line(window: bytes) -> int | None:
    """The offset just after the first suitable blank line of ``window``.

    The line before it must lie wholly in the window and not be a ``-DOCSTART-`` line, so that
    a document's start stays with its sentences.
    """
    for match in re.finditer(rb"\n\r?\n", window):
        previous = window.rfind(b"\n", 0, match.start())
        if previous >= 0 and not window.startswith(DOCSTART, previous + 1):
            return match.end()
    return None


def first_token_columns(path: str) -> tuple[int, int] | None:
    """The number of columns of the first token line of a file, and its line number.

    ``None`` when no token line is in the first MiB.
    """
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    data = data[: data.rfind(b"\n") + 1].replace(b"\r\n", b"\n")
    if not data:
        return None
    lines = _classify(data, 1, comments=False)
    tokens = np.flatnonzero(lines.kind == TOKEN)
    if not tokens.shape[0]:
        return None
    return int(lines.fields.count[tokens[0]]), int(tokens[0]) + 1


def _chunks(path: Readable, encoding: str, size: int) -> Iterator[bytes]:
    """Yield the file's content as UTF-8 bytes, in pieces of about ``size`` bytes."""
    if isinstance(path, FileRange):
        with open(path.path, "rb") as f:
            f.seek(path.start)
            left = path.stop - path.start
            while left > 0 and (piece := f.read(min(size, left))):
                left -= len(piece)
                yield piece
        return
    if not isinstance(path, (str, os.PathLike)):
        while piece := path.read(size):
            yield piece
        return
    if codecs.lookup(encoding).name == "utf-8":
        with open(path, "rb") as f:
            while piece := f.read(size):
                yield piece
    else:
        with open(path, encoding=encoding, newline="") as t:
            while text := t.read(size):
                yield text.encode("utf-8")


def _name(path: Readable) -> str:
    if isinstance(path, FileRange):
        return path.path
    if isinstance(path, (str, os.PathLike)):
        return os.fspath(path)
    return str(getattr(path, "name", "<stdin>"))


def _check_path(path: Readable) -> None:
    if not isinstance(path, (str, os.PathLike)):
        return
    p = Path(path)
    if p.is_dir():
        raise InputError(os.fspath(path), None, "is a directory, expected a CoNLL file")
    if not p.exists():
        raise InputError(os.fspath(path), None, "no such file")


class _LineSource:
    """Complete lines of one file as UTF-8 bytes, with CRLF and a leading BOM removed."""

    def __init__(self, path: Readable, encoding: str, size: int):
        _check_path(path)
        self.name = _name(path)
        self.encoding = encoding
        self._pieces = _chunks(path, encoding, size)
        self._carry = b""
        self._at_start = not isinstance(path, FileRange) or path.start == 0
        self.done = False
        self.line = path.line if isinstance(path, FileRange) else 0  # lines of the blocks made so far
        self._returned = self.line  # lines returned by `more`

    def more(self) -> bytes:
        """Return the next complete lines (possibly none), reading one more piece."""
        try:
            piece = next(self._pieces)
        except StopIteration:
            self.done = True
            piece = b""
        except UnicodeError as err:
            reason = getattr(err, "reason", str(err))
            raise InputError(self.name, None, f"cannot be decoded as {self.encoding}: {reason}") from None
        except OSError as err:
            raise InputError(self.name, None, f"cannot be read: {err.strerror or err}") from None
        data = self._carry + piece
        if self._at_start:
            if len(data) < len(_BOM) and not self.done:
                self._carry = data
                return b""
            self._at_start = False
            if data.startswith(_BOM):
                data = data[len(_BOM) :]
        if self.done:
            cut = len(data)
            if data and not data.endswith(b"\n"):
                data += b"\n"
                cut += 1
        else:
            cut = data.rfind(b"\n") + 1
        self._carry = data[cut:]
        return self._clean(data[:cut])

    def _clean(self, data: bytes) -> bytes:
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = self._returned + data.count(b"\n", 0, err.start) + 1
            column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
            hint = "; pass --encoding if the file uses another encoding"
            detail = f"byte 0x{data[err.start]:02x} at column {column} is not valid UTF-8{hint}"
            raise InputError(self.name, line, detail) from None
        self._returned += data.count(b"\n")
        return data


@dataclass
class _Lines:
    """The lines of one block of one file, classified."""

    buf: Bytes
    fields: FieldTable
    first_line: int  # 1-based number of the block's first line
    kind: npt.NDArray[np.int8]  # 0 blank, 1 token, 2 -DOCSTART-, 3 comment

    def __len__(self) -> int:
        return int(self.kind.shape[0])

    def text(self, i: int) -> str:
        s, e = self.fields.line_start(i), self.fields.line_end(i)
        return self.buf[s:e].tobytes().decode("utf-8", "replace")


BLANK, TOKEN, DOC, COMMENT = 0, 1, 2, 3


def _line_of(fields: FieldTable, offsets: list[int]) -> Int:
    """The index of the line each byte offset falls on."""
    ends = fields.end[fields.line_cut]
    return np.searchsorted(ends, np.asarray(offsets, dtype=np.int64))


def _starts_with(data: bytes, prefix: bytes, fields: FieldTable, whole_field: bool) -> Int:
    """Lines whose first byte starts ``prefix`` (as their whole first field if asked).

    Found with ``bytes.find``, which skips through the block in C: such lines are rare.
    """
    offsets = []
    i = data.find(prefix)
    while i >= 0:
        offsets.append(i)
        i = data.find(prefix, i + 1)
    if not offsets:
        return np.zeros(0, dtype=np.int64)
    lines = _line_of(fields, offsets)
    at = np.asarray(offsets, dtype=np.int64)
    ok = fields.start[fields.first_gap[lines]] == at  # at the start of the line
    if whole_field:
        ok &= fields.end[fields.first[lines]] == at + len(prefix)
    return lines[ok]


def _classify(data: bytes, first_line: int, comments: bool) -> _Lines:
    buf = np.frombuffer(data, dtype=np.uint8)
    fields = split_fields(buf)
    kind = (fields.count > 0).astype(np.int8)  # BLANK 0 or TOKEN 1
    kind[_starts_with(data, DOCSTART, fields, whole_field=True)] = DOC
    if comments:
        kind[_starts_with(data, b"#", fields, whole_field=False)] = COMMENT
    return _Lines(buf, fields, first_line, kind)


class _ColumnCheck:
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

    def check(self, lines: _Lines, rows: Int) -> None:
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
                    f"expected at least {self.minimum} columns ({self.what}), "
                    f"found {self.expected}: {lines.text(int(rows[0]))!r}",
                )
        bad = np.flatnonzero(counts != self.expected)
        if bad.shape[0]:
            i = int(rows[bad[0]])
            raise InputError(
                self.name,
                lines.first_line + i,
                f"expected {self.expected} columns as on line {self.expected_line}, "
                f"found {int(lines.fields.count[i])}: {lines.text(i)!r}",
            )


def _equal_ranges(a: Bytes, sa: Int, ea: Int, b: Bytes, sb: Int, eb: Int) -> Bool:
    """Whether ``a[sa[i]:ea[i]] == b[sb[i]:eb[i]]`` for every i, without a Python loop."""
    la, lb = ea - sa, eb - sb
    equal = la == lb
    rows = np.flatnonzero(equal)
    lengths = la[rows]
    total = int(lengths.sum())
    if total:
        offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
        within = np.arange(total) - offsets
        pa = np.repeat(sa[rows], lengths) + within
        pb = np.repeat(sb[rows], lengths) + within
        differ = a[pa] != b[pb]
        if differ.any():
            owner = np.repeat(rows, lengths)
            equal[owner[differ]] = False
    return equal


class ConllReader:
    """Reads one merged file, or a gold and a prediction file, into `TagBlock`s.

    Args:
        gold: the merged file (last two columns gold and predicted tag), or the gold file.
        pred: the prediction file (tag in the last column), or ``None`` for a merged file.
        vocab: the vocabulary that tags are added to.
        comments: treat lines starting with ``#`` as comments.
        encoding: the files' encoding.
        check_tokens: require the first column (the token) of both files to agree.
        single: read ``gold`` alone (one tag in the last column), for validation.
        block_bytes: about how many bytes to read at a time.
    """

    def __init__(
        self,
        gold: Readable,
        pred: Readable | None,
        vocab: TagVocab,
        *,
        comments: bool = False,
        encoding: str = "utf-8",
        check_tokens: bool = True,
        single: bool = False,
        block_bytes: int = BLOCK_BYTES,
    ):
        self.vocab = vocab
        self.comments = comments
        self.check_tokens = check_tokens
        self.single = single
        self.gold = _LineSource(gold, encoding, block_bytes)
        self.pred = _LineSource(pred, encoding, block_bytes) if pred is not None else None
        if self.pred is not None:
            self.gold_columns = _ColumnCheck(self.gold.name, 1, "the tag")
            self.pred_columns = _ColumnCheck(self.pred.name, 1, "the tag")
        elif single:
            self.gold_columns = _ColumnCheck(self.gold.name, 1, "the tag")
        else:
            self.gold_columns = _ColumnCheck(self.gold.name, 2, "gold tag, predicted tag")
        self._after_doc = self.gold.line == 0  # a document starts at the start of the file

    @property
    def names(self) -> tuple[str, str]:
        """The gold (or merged) and prediction file names."""
        return self.gold.name, self.pred.name if self.pred is not None else self.gold.name

    def __iter__(self) -> Iterator[TagBlock]:
        gbuf, pbuf = b"", b""
        while True:
            # Read at least one more piece of each file, then take the whole sentences.
            if not self.gold.done:
                gbuf += self.gold.more()
            if self.pred is not None:
                while not self.pred.done and (pbuf.count(b"\n") < gbuf.count(b"\n") or self.gold.done):
                    pbuf += self.pred.more()
            at_end = self.gold.done and (self.pred is None or self.pred.done)
            if not gbuf and not pbuf and at_end:
                return
            block, gbuf, pbuf = self._block(gbuf, pbuf, at_end)
            if block is not None and len(block):
                yield block
            if at_end and not gbuf and not pbuf:
                return

    def _block(self, gbuf: bytes, pbuf: bytes, at_end: bool) -> tuple[TagBlock | None, bytes, bytes]:
        """Read the whole sentences at the start of the buffers; return what is left over."""
        g = _classify(gbuf, self.gold.line + 1, self.comments)
        p = _classify(pbuf, self.pred.line + 1, self.comments) if self.pred is not None else None
        g_rows = np.flatnonzero(g.kind != COMMENT)
        p_rows = np.flatnonzero(p.kind != COMMENT) if p is not None else g_rows
        n = min(g_rows.shape[0], p_rows.shape[0])
        if at_end:
            take = n
            if p is not None and g_rows.shape[0] != p_rows.shape[0]:
                self._length_mismatch(g, g_rows, p, p_rows, n)
        else:
            # Cut after the last blank line both sides have.
            blanks = np.flatnonzero(g.kind[g_rows[:n]] == BLANK)
            if blanks.shape[0] == 0:
                return None, gbuf, pbuf
            take = int(blanks[-1]) + 1
        gr, pr = g_rows[:take], p_rows[:take]
        if at_end:
            g_lines, p_lines = len(g), len(p) if p is not None else 0
        else:  # comment lines after the cut stay for the next block
            g_lines = int(g_rows[take - 1]) + 1
            p_lines = int(p_rows[take - 1]) + 1 if p is not None else 0
        block = self._tags(g, gr, p, pr)
        g_end = g.fields.line_end(g_lines - 1) + 1 if g_lines else 0
        self.gold.line += g_lines
        if p is not None and self.pred is not None:
            p_end = p.fields.line_end(p_lines - 1) + 1 if p_lines else 0
            self.pred.line += p_lines
            return block, gbuf[g_end:], pbuf[p_end:]
        return block, gbuf[g_end:], pbuf

    def _length_mismatch(self, g: _Lines, g_rows: Int, p: _Lines, p_rows: Int, n: int) -> None:
        longer, rows, other = (
            (g, g_rows, self.pred) if g_rows.shape[0] > p_rows.shape[0] else (p, p_rows, self.gold)
        )
        extra = rows[n:]
        content = extra[longer.kind[extra] != BLANK]
        if content.shape[0] == 0:
            return  # only trailing blank lines differ
        i = int(content[0])
        src = self.gold if longer is g else self.pred
        assert src is not None
        assert other is not None
        raise InputError(
            src.name,
            longer.first_line + i,
            f"{other.name} has ended but this file goes on: {longer.text(i)!r}; "
            "the files must align line by line",
        )

    def _tags(self, g: _Lines, gr: Int, p: _Lines | None, pr: Int) -> TagBlock:
        gk = g.kind[gr]
        if p is not None:
            pk = p.kind[pr]
            differ = np.flatnonzero(gk != pk)
            tok = np.flatnonzero((gk == TOKEN) & (pk == TOKEN))
            if differ.shape[0] == 0 and self.check_tokens and tok.shape[0]:
                gt, pt = gr[tok], pr[tok]
                one_column = (g.fields.count[gt] == 1) | (p.fields.count[pt] == 1)
                gf, pf = g.fields.first[gt], p.fields.first[pt]
                same = _equal_ranges(
                    g.buf, g.fields.start[gf], g.fields.end[gf], p.buf, p.fields.start[pf], p.fields.end[pf]
                )
                differ = tok[~(same | one_column)]
            if differ.shape[0]:
                i = int(differ[0])
                gi, pi = int(gr[i]), int(pr[i])
                raise InputError(
                    self.gold.name,
                    g.first_line + gi,
                    f"does not match {self.pred.name if self.pred else ''}:{p.first_line + pi}: "
                    f"{g.text(gi)!r} vs {p.text(pi)!r}; the files must align line by line",
                )
        tokens = gr[gk == TOKEN]
        self.gold_columns.check(g, tokens)
        if p is not None:
            p_tokens = pr[gk == TOKEN]
            self.pred_columns.check(p, p_tokens)
            gold_field = g.fields.last[tokens]
            pred_field = p.fields.last[p_tokens]
            gold_ids = self._ids(g, gold_field, tokens, self.gold.name)
            pred_ids = self._ids(p, pred_field, p_tokens, self.pred.name if self.pred else "")
            pred_line = p.first_line + p_tokens
        elif self.single:
            gold_ids = self._ids(g, g.fields.last[tokens], tokens, self.gold.name)
            pred_ids = None
        else:
            both = np.concatenate([g.fields.second_last[tokens], g.fields.last[tokens]])
            ids = self._ids(g, both, np.concatenate([tokens, tokens]), self.gold.name)
            gold_ids, pred_ids = ids[: tokens.shape[0]], ids[tokens.shape[0] :]
        line = g.first_line + tokens
        # Sentence and document starts: a token starts a sentence when the content line before it
        # is not a token line, and a document when a -DOCSTART- line came since the last token.
        is_token = gk == TOKEN
        before = np.zeros(is_token.shape[0], dtype=np.bool_)
        before[1:] = is_token[:-1]
        sentence_start = ~before[is_token]
        docs = np.cumsum(gk == DOC)
        at_token = docs[is_token]
        document_start = np.empty(tokens.shape[0], dtype=np.bool_)
        if tokens.shape[0]:
            document_start[0] = bool(at_token[0] > 0) or self._after_doc
            document_start[1:] = at_token[1:] != at_token[:-1]
            self._after_doc = bool(docs[-1] > at_token[-1])
        elif docs.shape[0] and docs[-1] > 0:
            self._after_doc = True
        return TagBlock(
            gold=gold_ids,
            pred=pred_ids,
            sentence_start=sentence_start,
            document_start=document_start,
            line=line,
            pred_line=pred_line if p is not None else line,
        )

    def _ids(self, lines: _Lines, fields: Int, rows: Int, name: str) -> npt.NDArray[np.int32]:
        ids, values = intern(lines.buf, lines.fields.start[fields], lines.fields.end[fields])
        tags = [v.decode("utf-8") for v in values]
        mapped = self.vocab.add(tags)
        if (mapped < 0).any():  # report the first line with a tag that does not fit
            bad = np.flatnonzero(mapped[ids] < 0)
            where = int(bad[np.argmin(rows[bad])])
            raise InputError(name, lines.first_line + int(rows[where]), self.vocab.explain(tags[ids[where]]))
        return mapped[ids]


def iter_conll(
    gold: str | os.PathLike[str] | BinaryIO,
    pred: str | os.PathLike[str] | BinaryIO | None = None,
    *,
    vocab: TagVocab | None = None,
    comments: bool = False,
    encoding: str = "utf-8",
    check_tokens: bool = True,
    block_bytes: int = BLOCK_BYTES,
) -> ConllReader:
    """Stream a merged CoNLL file, or a gold and a prediction file, as `TagBlock`s."""
    return ConllReader(
        gold,
        pred,
        vocab if vocab is not None else TagVocab(),
        comments=comments,
        encoding=encoding,
        check_tokens=check_tokens,
        block_bytes=block_bytes,
    )


def iter_lists(
    gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]] | None, vocab: TagVocab
) -> Iterator[TagBlock]:
    """Turn Python lists of tag lists (one list per sentence) into one `TagBlock`."""
    if isinstance(gold, str) or (gold and isinstance(gold[0], str)):
        raise InputError(
            "<gold>", None, "expected a list of tag lists (one per sentence), got a flat sequence"
        )
    lengths = np.fromiter((len(s) for s in gold), dtype=np.int64, count=len(gold))
    if pred is not None:
        if isinstance(pred, str) or (pred and isinstance(pred[0], str)):
            raise InputError(
                "<pred>", None, "expected a list of tag lists (one per sentence), got a flat sequence"
            )
        if len(pred) != len(gold):
            raise InputError("<pred>", None, f"has {len(pred)} sentences, but the gold has {len(gold)}")
        p_lengths = np.fromiter((len(s) for s in pred), dtype=np.int64, count=len(pred))
        bad = np.flatnonzero(p_lengths != lengths)
        if bad.shape[0]:
            i = int(bad[0])
            raise InputError(
                "<pred>",
                None,
                f"sentence {i} has {p_lengths[i]} tags, but the gold sentence has {lengths[i]}",
            )
    gold_ids = _list_ids(gold, vocab, "<gold>", lengths)
    pred_ids = _list_ids(pred, vocab, "<pred>", lengths) if pred is not None else None
    n = int(lengths.sum())
    sentence_start = np.zeros(n, dtype=np.bool_)
    offsets = np.cumsum(lengths) - lengths
    sentence_start[offsets[lengths > 0]] = True
    document_start = np.zeros(n, dtype=np.bool_)
    if n:
        document_start[0] = True
    line = np.arange(1, n + 1, dtype=np.int64)
    yield TagBlock(gold_ids, pred_ids, sentence_start, document_start, line, line)


def _list_ids(
    seqs: Iterable[Sequence[str]], vocab: TagVocab, name: str, lengths: Int
) -> npt.NDArray[np.int32]:
    flat = [t for s in seqs for t in s]
    if not flat:
        return np.zeros(0, dtype=np.int32)
    bad_type = next((t for t in flat if not isinstance(t, str)), None)
    if bad_type is not None:
        raise InputError(
            name,
            None,
            f"expected tag strings, got {type(bad_type).__name__} {bad_type!r}; map ids to tags first",
        )
    values, inverse = np.unique(np.asarray(flat, dtype=object).astype(str), return_inverse=True)
    tags = values.tolist()
    mapped = vocab.add(tags)
    if (mapped < 0).any():
        where = int(np.flatnonzero(mapped[inverse.reshape(-1)] < 0)[0])
        bad = int(inverse.reshape(-1)[where])
        sentence = int(np.searchsorted(np.cumsum(lengths), where, side="right"))
        offset = where - int((np.cumsum(lengths) - lengths)[sentence])
        raise InputError(name, None, f"sentence {sentence}, token {offset}: {vocab.explain(tags[bad])}")
    return mapped[inverse.reshape(-1)].astype(np.int32)


@dataclass(frozen=True)
class TaggedCorpus:
    """A whole corpus read into memory: gold and predicted tag ids with sentence structure.

    Attributes:
        blocks: the blocks as read; score with `nerve.score(corpus)`.
        vocab: the tag vocabulary of the ids.
        source: the file(s) it came from.
    """

    blocks: tuple[TagBlock, ...]
    vocab: TagVocab
    source: str

    def _side(self, pred: bool) -> list[list[str]]:
        out: list[list[str]] = []
        tags = self.vocab.tags
        for b in self.blocks:
            ids = b.pred if pred else b.gold
            if ids is None:
                return []
            starts = [*np.flatnonzero(b.sentence_start).tolist(), len(b)]
            names = [tags[i] for i in ids.tolist()]
            out.extend(names[s:e] for s, e in itertools.pairwise(starts))
        return out

    @property
    def gold(self) -> list[list[str]]:
        """The gold tags, one list per sentence."""
        return self._side(False)

    @property
    def pred(self) -> list[list[str]]:
        """The predicted tags, one list per sentence (empty if none were read)."""
        return self._side(True)


def read_conll(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    comments: bool = False,
    encoding: str = "utf-8",
    check_tokens: bool = True,
    outside: str = "O",
) -> TaggedCorpus:
    """Read a merged CoNLL file, or a gold and a prediction file, into memory.

    Raises:
        InputError: for a missing file, a malformed line or misaligned files.
    """
    vocab = TagVocab(outside=outside)
    reader = iter_conll(
        gold, pred, vocab=vocab, comments=comments, encoding=encoding, check_tokens=check_tokens
    )
    blocks = tuple(reader)
    source = os.fspath(gold) + (f" + {os.fspath(pred)}" if pred is not None else "")
    return TaggedCorpus(blocks, vocab, source)
