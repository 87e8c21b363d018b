"""A CoNLL file of several tag columns scanned by the C core (csrc/agree.c), in two threads when big.

In: the file's bytes (`FileBytes`: the file mapped read-only where it can be). Out: `Scanned` (the
documents' first tokens and each tag column's distinct tags, as one pass over the whole file gives
them, and the scans of its parts, kept in C: where sentences start, where each token's word starts
and the uint16 id of each token's tag); or ``None`` where the core hands the file over.

A file of `SPLIT_BYTES` or more on two cores or more is cut as `nerve.io.tags.conll_cuts` cuts a
merged file (before a ``-DOCSTART-`` line, or after a blank line between token lines, past the
middle) and its halves are scanned at once: the core releases the GIL. The halves are then joined
without a copy: the second half's documents follow the first's (`documents`), and its tags are
mapped to the first half's, its new tags added after them in the order met, as one pass would have
met them. The decoder reads the halves one after the other, each half's ids through its mapping
(csrc/agree.c's `agree_decode`); `Scanned.arrays` gives the arrays one pass would have.

This module imports no numpy.
"""

from __future__ import annotations

import _thread
import os
from array import array
from collections.abc import Callable
from contextvars import copy_context
from types import ModuleType

from ..._frozen import frozen
from ...errors import InputError
from .conll_cuts import cut_in, threads

__all__ = ["FileBytes", "Scanned", "both", "cut_of", "documents", "raw", "scan_columns"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (3 ms)
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")
    U = TypeVar("U")

_WINDOW = 1 << 20  # the bytes past the middle where a cut is looked for


Part = tuple[object, "list[list[int]] | None"]  # a part's scan, and its tag ids in each column's


@frozen(eq=False)
class Scanned:
    """What the C core read: the documents, the tokens and each tag column's distinct tags.

    ``doc_start``: int64, each document's first token, and the tokens last. ``parts``: the scans of
    the parts the file was read in, kept in C (`agree_decode` and `agree_words` read them), each
    with the mapping of its tag ids to the column's (``None``: they are the column's).
    """

    n_docs: int
    doc_start: bytes
    tokens: int
    tags: list[list[bytes]]
    parts: list[Part]

    def arrays(self, core: ModuleType) -> tuple[bytes, bytes, list[bytes]]:
        """The per-token arrays as one pass gives them (copies).

        Sentence starts (uint8), words' starts (int64) and each column's tag ids (uint16).
        """
        sentence, words, ids = [], [], [b""] * len(self.tags)
        for scan, maps in self.parts:
            one, word, by_column = core.agree_parts(scan)
            sentence.append(one)
            words.append(word)
            for c, column in enumerate(by_column):
                ids[c] += column if maps is None else core.agree_remap(column, maps[c])
        return b"".join(sentence), b"".join(words), ids


class FileBytes:
    """A file's bytes as the C core reads them: mapped read-only (csrc/agree.c's `agree_map`), else read.

    A mapping costs no copy of the file and no fresh memory: reading 22 MB into a bytes object took
    16 ms, mapping it 1.5 ms. It has a length and gives slices as bytes; `raw` is what the core takes.
    A mapped file must not change while it is read: `check` says whether it has (its size, time or
    inode), before words are read from it again (a file cut short would fault on its lost pages).
    """

    def __init__(self, core: ModuleType, path: str) -> None:
        mapped = core.agree_map(path)
        self.path, self.core, self.stamp = path, core, _stamp(path) if mapped is not None else None
        if mapped is None:  # empty, not a regular file, or no mmap here
            with open(path, "rb") as f:
                data = f.read()
            self.raw: object = data
            self.size = len(data)
        else:
            self.raw, self.size = mapped

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, cut: slice) -> bytes:
        lo, hi, _ = cut.indices(self.size)
        return self.core.agree_slice(self.raw, lo, hi)

    def check(self) -> None:
        """Raise `InputError` where the file was mapped and has changed since."""
        if self.stamp is not None and _stamp(self.path) != self.stamp:
            detail = "changed since nerve read it: its words cannot be read again; run nerve.agree again"
            raise InputError(self.path, None, detail)


def _stamp(path: str) -> tuple[int, int, int] | None:
    """The file's inode, size and modification time (``None`` when it is gone)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


Data = bytes | FileBytes


def raw(data: Data) -> object:
    """What the C core takes for ``data``: the bytes, or the mapping."""
    return data.raw if isinstance(data, FileBytes) else data


def cut_of(data: Data, at: int) -> int | None:
    """Where ``data`` is cut into two halves: the first cut past ``at`` (within `_WINDOW`), or ``None``."""
    found = cut_in(data[at : at + _WINDOW])
    return None if found is None else at + found[0]


def scan_columns(core: ModuleType, data: Data, cut: int | None = -1) -> Scanned | None:
    """The columns of ``data`` (see the module), or ``None`` to hand the file over.

    ``cut``: where to cut it in two (``None``: read it in one pass; by default past the middle
    where the file is big and the machine has two cores).
    """
    if cut == -1:
        cut = cut_of(data, len(data) // 2) if threads(len(data), None) > 1 else None
    if cut is None:
        return _one_pass(core, data)
    whole, size = raw(data), len(data)
    a, b = both(lambda: core.agree_scan(whole, 0, cut), lambda: core.agree_scan(whole, cut, size))
    if not isinstance(a, tuple) or not isinstance(b, tuple) or a[5] != b[5]:
        return _one_pass(core, data)  # a half without tokens, or the core hands one over: one pass decides
    return _joined(a, b)


def both(first: Callable[[], T], second: Callable[[], U]) -> tuple[T, U]:
    """``first()`` here and ``second()`` in another thread, at once (for C code that releases the GIL).

    An exception of either is raised here, once both are done.
    """
    out: list[object] = [None, None]
    failed: list[BaseException] = []
    done = _thread.allocate_lock()
    done.acquire()

    def run() -> None:
        try:
            out[1] = second()
        except BaseException as e:  # raised again in the caller's thread
            failed.append(e)
        finally:
            done.release()

    _thread.start_new_thread(copy_context().run, (run,))
    try:
        out[0] = first()
    finally:
        done.acquire()
    if failed:
        raise failed[0]
    return out[0], out[1]  # type: ignore[return-value]


def _one_pass(core: ModuleType, data: Data) -> Scanned | None:
    one = core.agree_scan(raw(data), 0, len(data))
    return None if isinstance(one, str) else Scanned(one[0], one[1], one[3], one[4], [(one[2], None)])


def documents(first: tuple[int, list[int], int, int], second: tuple[int, list[int], int]) -> list[int]:
    """The first token of every document of two halves joined (and the tokens in all, last).

    ``first``: the first half's documents, their first tokens, whether tokens come before its first
    ``-DOCSTART-`` line, and its ``-DOCSTART-`` lines; ``second``: the second half's documents,
    their first tokens (counted from its own first) and whether tokens come before its first
    ``-DOCSTART-`` line. A token's document in one pass is the ``-DOCSTART-`` lines before it, less
    one unless tokens came before the first: the second half's documents begin at ``offset``.
    """
    n1, starts1, leading1, docstarts1 = first
    n2, starts2, leading2 = second
    offset = docstarts1 - (0 if leading1 else 1) + (0 if leading2 else 1)
    tokens1 = starts1[n1]
    out = starts1[:n1]
    out += [tokens1] * (offset - n1)  # documents of no token between the halves
    out += [tokens1 + s for j, s in enumerate(starts2[:n2]) if offset + j >= n1]
    out.append(tokens1 + starts2[n2])
    return out


def _joined(a: tuple[object, ...], b: tuple[object, ...]) -> Scanned | None:
    """One pass's `Scanned` from the scans of two halves: the second's tag ids mapped, not copied."""
    n1, starts1, scan1, tokens1, tags1_all, _, leading1, docstarts1 = a
    n2, starts2, scan2, tokens2, tags2_all, _, leading2, _ = b
    first = (n1, _ints(starts1), leading1, docstarts1)
    joined = documents(first, (n2, _ints(starts2), leading2))  # type: ignore[arg-type]
    columns, maps = [], []
    for tags1, tags2 in zip(tags1_all, tags2_all, strict=True):  # type: ignore[call-overload]
        index = {t: i for i, t in enumerate(tags1)}
        tags = list(tags1)
        for t in tags2:
            if t not in index:
                index[t] = len(tags)
                tags.append(t)
        if len(tags) > 65536:
            return None  # more tags than uint16 ids hold (as the core refuses them): handed over
        columns.append(tags)
        maps.append([index[t] for t in tags2])
    parts: list[Part] = [(scan1, None), (scan2, maps)]
    return Scanned(len(joined) - 1, array("q", joined).tobytes(), tokens1 + tokens2, columns, parts)  # type: ignore[operator]


def _ints(b: object) -> list[int]:
    """int64 bytes as a list."""
    assert isinstance(b, bytes)
    return memoryview(b).cast("q").tolist()
