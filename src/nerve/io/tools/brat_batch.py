"""brat documents of plain entities, read all at once: the fast path of `nerve.io.tools.brat_files`.

In: the documents of one side (each ``.ann`` path with its text, or ``None``). Out: the `Document`
of every document that holds nothing but plain ``T`` lines, ``T<DIGITS><TAB>TYPE START
END<TAB>TEXT`` (ASCII id and type, one space apart, one piece), over an ASCII text, whose
offsets lie within the text and whose entity texts are what they cover. They are parsed as
bytes of all documents at once, in C where the compiled engine is built (csrc/brat.c), else as
numpy columns, without a Python step per entity.

Every other document (relations, events, attributes, notes, blank lines, discontinuous
entities, CR LF line ends, a byte order mark, non-ASCII text, a repeated id, any problem at
all) is left out, for `nerve.io.tools.brat.read_ann` and `nerve.io.tools.brat.check_document` to read one by
one with every check and message. So a document is read here exactly as the slow path reads
it, or not at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._engine import speedups
from ...errors import InputError
from ..sources import read_bytes
from .brat import Document

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Bool, Bytes, Int

__all__ = ["plain_documents"]

Item = tuple[str, str, str] | None  # a .ann, its text and the file the text is from; None: unread
_MAX_DIGITS = 15  # longer numbers (beyond any text) are left to the slow path
_ID_DIGITS = 9  # ids up to T999999999
_TYPE_BYTES = 64  # longer type names are left to the slow path


def _plain(items: Sequence[Item]) -> tuple[list[int], list[bytes], list[bytes]]:
    """The documents of ``T`` lines only over ASCII texts: their indices, ``.ann`` data and text bytes."""
    keep: list[int] = []
    datas: list[bytes] = []
    texts: list[bytes] = []
    for k, item in enumerate(items):
        if item is None or not item[1].isascii():
            continue
        try:
            data = read_bytes(item[0])
        except (InputError, OSError):  # the slow path raises it, with its message
            continue
        if data and not data.endswith(b"\n"):
            data += b"\n"
        if data.count(b"\nT") + data.startswith(b"T") != data.count(b"\n") or b"\r" in data:
            continue
        keep.append(k)
        datas.append(data)
        texts.append(item[1].encode("ascii"))
    return keep, datas, texts


def _between(cum: npt.NDArray[np.int32], lo: Int, hi: Int) -> Int:
    """How many marked bytes lie in ``[lo, hi)``, by the cumulative count ``cum`` (``cum[0] == 0``)."""
    return (cum[np.minimum(hi, len(cum) - 1)] - cum[np.minimum(lo, len(cum) - 1)]).astype(np.int64)


def _numbers(buf: Bytes, lo: Int, hi: Int) -> Int:
    """The decimal numbers written in ``buf[lo:hi]`` (ASCII digits, at most `_MAX_DIGITS`; 0 if none)."""
    width = int((hi - lo).max(initial=0))
    if width == 0:
        return np.zeros(len(lo), dtype=np.int64)
    at = hi[:, None] - width + np.arange(width, dtype=np.int64)  # the last ``width`` bytes of each
    digits = np.where(at >= lo[:, None], buf[np.maximum(at, 0)].astype(np.int64) - 48, 0)
    return digits @ (10 ** np.arange(width - 1, -1, -1, dtype=np.int64))


def _lines(buf: Bytes) -> tuple[Int, Int, Int, Int, Int, Int, Bool]:
    """Each line's start and end, its first tab, two spaces and second tab, and whether it is plain."""
    size = len(buf)
    ends = np.flatnonzero(buf == 10).astype(np.int64)
    starts = np.concatenate([[0], ends + 1])[: len(ends)].astype(np.int64)

    def after(marks: Int, at: Int, skip: int = 0) -> Int:
        """The position of the first (``skip``: later) mark at or after ``at`` (``size`` if none)."""
        padded = np.concatenate([marks, np.full(skip + 1, size, dtype=np.int64)])
        return padded[np.searchsorted(marks, at) + skip]

    tabs = np.flatnonzero(buf == 9).astype(np.int64)
    spaces = np.flatnonzero(buf == 32).astype(np.int64)
    t1, t2 = after(tabs, starts), after(tabs, starts, 1)
    s1, s2 = after(spaces, t1), after(spaces, t1, 1)
    special = np.zeros(size + 2, dtype=np.int32)  # running counts, one past the end repeated
    np.cumsum((buf <= 32) | (buf >= 128), out=special[1 : size + 1])
    special[-1] = special[-2]
    other = np.zeros(size + 2, dtype=np.int32)
    np.cumsum((buf - np.uint8(48)) > 9, out=other[1 : size + 1])  # wraps below "0": not a digit
    other[-1] = other[-2]
    ok = (t2 + 1 < ends) & (t1 > starts + 1) & (t1 + 1 < s1) & (s1 + 1 < s2) & (s2 + 1 < t2)  # none empty
    ok &= (s2 - s1 - 1 <= _MAX_DIGITS) & (t2 - s2 - 1 <= _MAX_DIGITS)
    ok &= _between(special, starts, t2) == 3  # the tab and the two spaces; no control byte, no non-ASCII
    ok &= (_between(other, s1 + 1, t2) == 1) & (_between(other, starts + 1, t1) == 0)  # digits; T<DIGITS>
    return starts, ends, t1, s1, s2, t2, ok


def _labels(buf: Bytes, lo: Int, hi: Int) -> tuple[list[str], Int]:
    """Each type's name in order of first appearance, and each line's type index."""
    width = int((hi - lo).max(initial=1))
    at = lo[:, None] + np.arange(width, dtype=np.int64)  # zero-padded: a type holds no byte 0
    grid = np.where(at < hi[:, None], buf[np.minimum(at, len(buf) - 1)], 0).astype(np.uint8)
    keys: npt.NDArray[Any]
    if width <= 8:  # one machine word a type: a fast exact sort
        keys = np.pad(grid, ((0, 0), (0, 8 - width))).view(np.uint64).ravel()
    else:
        keys = grid.view(np.dtype((np.void, width))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    names = [bytes(buf[lo[i] : hi[i]]).decode("ascii") for i in first[order].tolist()]
    return names, rank[inverse.ravel()]


def plain_documents(items: Sequence[Item]) -> dict[int, Document]:
    """The `Document` of each item that holds only plain, correct entities (see the module).

    The lines are parsed by the compiled engine where it is built (`nerve._speedups`), else with numpy:
    the same documents, the same entities.
    """
    keep, datas, texts = _plain(items)
    if not keep:
        return {}
    counts = np.asarray([d.count(b"\n") for d in datas], dtype=np.int64)
    buf = b"".join(datas)
    engine = speedups()
    parsed = None if engine is None else _compiled(engine, buf, texts, counts)
    start, end, typed, slow = parsed or _numpy(np.frombuffer(buf, dtype=np.uint8), texts, counts)
    bounds = np.concatenate([[0], np.cumsum(counts)]).tolist()
    pieces = np.stack([start, end], axis=1)
    ones = np.ones(len(start), dtype=np.int64)
    return {
        keep[i]: Document(typed[a:b], pieces[a:b], ones[a:b], Counter())
        for i, a, b in zip(range(len(keep)), bounds[:-1], bounds[1:], strict=True)
        if not slow[i]
    }


Parsed = tuple["Int", "Int", list[str], "Bool"]  # each line's start, end and type; documents not plain


def _compiled(engine: ModuleType, buf: bytes, texts: list[bytes], counts: Int) -> Parsed | None:
    """The lines parsed by ``nerve._speedups.brat_plain``; ``None`` where it declines."""
    lengths = np.asarray([len(t) for t in texts], dtype=np.int64)
    found = engine.brat_plain(buf, b"".join(texts), counts.tobytes(), lengths.tobytes())
    if found is None:
        return None
    start, end, lo, hi, slow = found
    values, ids = engine.intern(buf, lo, hi, 0, 1)
    names = [v.decode("ascii") for v in values]
    typed = [names[k] for k in np.frombuffer(ids, dtype=np.int64).tolist()]
    first, last = np.frombuffer(start, dtype=np.int64), np.frombuffer(end, dtype=np.int64)
    return first, last, typed, np.frombuffer(slow, dtype=np.uint8).astype(bool)


def _numpy(buf: Bytes, texts: list[bytes], counts: Int) -> Parsed:
    """The lines parsed with numpy (the rule of the module)."""
    starts, ends, t1, s1, s2, t2, ok = _lines(buf)
    doc = np.repeat(np.arange(len(texts), dtype=np.int64), counts)
    txt = np.frombuffer(b"".join(texts), dtype=np.uint8)
    lengths = np.asarray([len(t) for t in texts], dtype=np.int64)
    base = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    ok &= (t1 - starts - 1 <= _ID_DIGITS) & (s1 - t1 - 1 <= _TYPE_BYTES)
    start = _numbers(buf, np.where(ok, s1 + 1, 0), np.where(ok, s2, 0))  # 0 where the line is not plain
    end = _numbers(buf, np.where(ok, s2 + 1, 0), np.where(ok, t2, 0))
    ids = _numbers(buf, np.where(ok, starts + 1, 0), np.where(ok, t1, 0))
    good = ok & (start < end) & (end <= lengths[doc])
    size = np.where(good, end - start, 0)
    good &= (ends - t2 - 1) == size  # the given text is as long as what the offsets cover
    size = np.where(good, size, 0)
    at = np.arange(int(size.sum()), dtype=np.int64) - np.repeat(np.cumsum(size) - size, size)
    given = buf[np.repeat(t2 + 1, size) + at]
    covered = txt[np.repeat(base[doc] + start, size) + at]
    differs = np.bincount(np.repeat(np.arange(len(good)), size), given != covered, minlength=len(good))
    good &= differs == 0
    key = doc * 10**_ID_DIGITS + ids
    _, first = np.unique(key, return_index=True)
    once = np.zeros(len(key), dtype=bool)
    once[first] = True
    slow = np.zeros(len(texts), dtype=bool)
    slow[doc[~(good & once)]] = True  # a repeated id sends its document (all of it) to the slow path
    names, label = _labels(buf, t1 + 1, np.where(good, s1, t1 + 1))
    return start, end, [names[k] for k in label.tolist()], slow
