"""Byte-level helpers shared by the column readers: fields, interning, and lines of files.

In: raw bytes (numpy ``uint8`` arrays) and files, paths or binary streams. Out: `FieldTable`
(where each line's fields are, found with array operations so no Python code runs per token),
ids of distinct byte strings (`intern`), lines that start with a prefix (`starts_with`) and
equal byte ranges (`equal_ranges`); `column_delimiter` reads the ``delimiter`` option. Files are
read into bytes by `io.sources`.
"""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from ..errors import OptionError

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Bool, Bytes, Int

__all__ = [
    "BLOCK_BYTES",
    "BOM",
    "DELIMITERS",
    "DOCSTART",
    "FieldTable",
    "column_delimiter",
    "count_lines",
    "equal_ranges",
    "intern",
    "split_fields",
    "starts_with",
]


BLOCK_BYTES = 1 << 20
DOCSTART = b"-DOCSTART-"
BOM = codecs.BOM_UTF8


@frozen
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


def split_fields(buf: Bytes, delimiter: int | None = None, keep_trailing: bool = False) -> FieldTable:
    """Locate the fields of every line of ``buf``, which must end with a newline.

    Args:
        buf: the bytes of whole lines.
        delimiter: ``None`` to split on runs of spaces and tabs, ignoring leading and trailing
            ones; or one byte value, every occurrence of which separates two fields, keeping empty
            fields except trailing ones (how Perl's ``split`` works).
        keep_trailing: with a delimiter, keep trailing empty fields too (``a<TAB>`` has two
            fields), and read lines of only spaces and tabs as blank.

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
    if delimiter is not None and keep_trailing:
        blank = _only_blanks(buf, gap_start[first_gap], cut[line_cut])
        count = np.where(blank, 0, line_cut - first_gap + 1)
        return FieldTable(gap_start, cut, count, first_gap, line_cut - 1, line_cut, first_gap, line_cut)
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


def _only_blanks(buf: Bytes, starts: Int, ends: Int) -> Bool:
    """Whether each ``buf[starts[i]:ends[i]]`` holds nothing but spaces and tabs."""
    others = np.zeros(buf.shape[0] + 1, dtype=np.int64)
    np.cumsum((buf != 32) & (buf != 9), out=others[1:])
    return others[ends] == others[starts]


DELIMITERS = {"tab": 9, "space": 32}


def count_lines(data: bytes) -> int:
    """The number of newlines (LF bytes) in ``data``, counted in numpy's vectorised loops.

    ``bytes.count`` of one byte runs at about 1 GB/s, numpy's comparison and count at ten times that.
    """
    return int(np.count_nonzero(np.frombuffer(data, dtype=np.uint8) == 10))


def column_delimiter(value: str | None) -> int | None:
    """The byte that separates columns, from the ``delimiter`` option.

    ``None`` or ``"whitespace"``: runs of spaces and tabs (returned as ``None``); ``"tab"``,
    ``"space"`` or one ASCII character: each occurrence separates two columns.
    """
    if value is None or value == "whitespace":
        return None
    if value in DELIMITERS:
        return DELIMITERS[value]
    if len(value) == 1 and value.isascii() and value not in "\r\n":
        return ord(value)
    raise OptionError(
        "delimiter", f"expected whitespace, tab, space or one ASCII character, but got {value!r}"
    )


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


def _line_of(fields: FieldTable, offsets: list[int]) -> Int:
    """The index of the line each byte offset falls on."""
    ends = fields.end[fields.line_cut]
    return np.searchsorted(ends, np.asarray(offsets, dtype=np.int64))


def starts_with(data: bytes, prefix: bytes, fields: FieldTable, whole_field: bool) -> Int:
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
    if whole_field:  # the field ends there, or a space follows (``-DOCSTART- -X- O O`` with tabs)
        after = at + len(prefix)
        end = fields.end[fields.first[lines]]
        buf = np.frombuffer(data, dtype=np.uint8)
        ok &= (end == after) | ((end > after) & (buf[np.minimum(after, len(data) - 1)] == ord(" ")))
    return lines[ok]


def equal_ranges(a: Bytes, sa: Int, ea: Int, b: Bytes, sb: Int, eb: Int) -> Bool:
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
