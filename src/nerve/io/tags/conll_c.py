"""The compiled CoNLL counter (csrc/conll.c): CoNLL files in, the totals of exact scoring out.

In: gold and prediction files (paths, or a stream's bytes), merged or a file a side, and the
reading and tagging options. Out: `ColumnTotals` (per-type chunk counts, transitions by pair code,
tokens, sentences, documents, the tags' format and letters), or ``None``: the numpy engine
(`nerve.io.tags.conll.ConllReader`) must read the input. It is the ``accelerated`` reader of the
``conll`` format record.

``None`` comes back when the compiled engine is not built (or ``NERVE_NO_SPEEDUPS=1``), for an
encoding other than UTF-8, a delimiter value the reader would refuse, a file that cannot be opened,
and whenever the C core meets input it leaves to the numpy engine: a NUL byte, a lone CR, bytes that
are not UTF-8, a token line whose column count differs from the file's first, a merged file with
fewer than two columns, a gold file of three or more columns beside a prediction file (the numpy
engine checks that it is not a merged file), gold and prediction lines that do not pair, a tag
that does not fit the tag format or the scheme, or a tag format inferred from the first tag that
the whole set of tags would not give. The numpy engine then gives the result or its own error.

This module imports no numpy: the counting is the C core's, and the rest is plain Python.
"""

from __future__ import annotations

import _thread
import io
import os
from collections.abc import Callable, Sequence
from contextvars import copy_context
from types import ModuleType

from ..._engine import speedups
from ..._frozen import frozen
from ...errors import SchemeError
from ...model.schemes import LETTER_KIND, SCHEMES, Scheme, TagFormat, infer_tag_format
from ..progress import note
from .conll_cuts import cut_in, threads

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from typing import Any, BinaryIO

__all__ = ["POLICY_CODES", "SENTENCES_NOTE", "ColumnTotals", "TagTable", "count_columns"]

#: The note of a result whose prediction file paired with the gold file sentence by sentence.
SENTENCES_NOTE = "-DOCSTART- lines of the gold file the prediction file lacks (aligned by sentences)"

#: The repair policies the core counts under, by its numbers (``error`` counts as ``begin``).
POLICY_CODES = {"begin": 0, "discard": 1, "error": 2, "conlleval": 3}
_BLOCK = 1 << 20
_HEAD = 1 << 20  # the bytes the delimiter is sniffed from (`nerve.io.tags.delimiters.HEAD_BYTES`)
_DELIMITERS = {"tab": 9, "space": 32}
_PERL = {"B": 1, "I": 2, "E": 3}  # conlleval.pl's letter codes; every other letter is 7
Resolved = tuple[int, int, int, int, int]
File = str | os.PathLike[str] | bytes


class TagTable:
    """The tags met so far, as `nerve.model.vocab.TagVocab` reads them, resolved one by one for the core.

    The tag format, when not given, is inferred from the first entity tag; `consistent` then says
    whether the whole set of tags gives the same format (else the numpy engine, which infers it from
    its first block, must read the input).
    """

    def __init__(self, fmt: TagFormat | None, scheme: Scheme | None, outside: str):
        self.format, self.inferred, self.scheme = fmt, fmt is None, scheme
        self.outside = fmt.outside if fmt else outside
        self.tags: list[str] = [self.outside]  # by id
        self.letters: list[str] = ["O"]
        self.type_names: list[str] = []
        self._ids: dict[str, int] = {self.outside: 0}
        self._types: dict[str, int] = {}

    def __call__(self, raw: bytes) -> Resolved | None:
        """What the tag ``raw`` is: ``(id, kind, type id, conlleval code, conlleval type)``, or ``None``."""
        tag = raw.decode("utf-8") or self.outside  # an empty field (with a delimiter) is outside
        if tag == self.outside:
            return 0, 0, -1, 0, 0
        if self.format is None:
            try:
                self.format = infer_tag_format([tag], self.outside)
            except SchemeError:
                return None
        parts = self.format.split(tag) if self.format is not None else None
        if parts is None or (self.scheme is not None and parts[0] not in self.scheme.letters):
            return None
        letter, typ = parts
        type_id = self._types.setdefault(typ, len(self._types))
        if type_id == len(self.type_names):
            self.type_names.append(typ)
        vid = self._ids.setdefault(tag, len(self.tags))
        if vid == len(self.tags):
            self.tags.append(tag)
            self.letters.append(letter)
        return vid, LETTER_KIND[letter], type_id, _PERL.get(letter, 7), 0 if typ == "" else type_id + 1

    def consistent(self) -> bool:
        """Whether the numpy engine would infer the format used here (or the format was given).

        It infers it from its first batch of new tags that holds an entity tag: a block's tags (a
        merged file's, or one side's of a gold and a prediction file). Any such batch gives the
        format of all tags when every tag alone gives it (each alone gives it when the first
        candidate, ``B-X``, fits them all).
        """
        if not self.inferred or self.format is None:
            return True
        entities = self.tags[1:]
        try:
            if infer_tag_format(entities, self.outside) != self.format:
                return False
            first = TagFormat("prefix", "-", self.outside)
            return self.format == first or all(
                infer_tag_format([t], self.outside) == self.format for t in entities
            )
        except SchemeError:
            return False


@frozen
class ColumnTotals:
    """What the core counted over every file pair.

    ``gold``/``pred``/``matched`` are indexed by type id (``type_names``); ``perl_*`` by
    conlleval.pl's type (0: none, ``k + 1``: type ``k``), counted under the ``conlleval`` policy
    only; ``codes`` are each side's transitions by pair code (`nerve.model.pairs`), sentence edges
    included; ``letters`` are the letters of the tags read (``O`` too once a sentence was read);
    ``unpaired_docs`` the gold ``-DOCSTART-`` lines of prediction files paired by sentences.
    """

    tokens: int
    correct: int
    sentences: int
    documents: int
    unpaired_docs: int
    codes: tuple[list[int], list[int]]
    gold: list[int]
    pred: list[int]
    matched: list[int]
    perl: tuple[list[int], list[int], list[int]]
    tags: list[str]
    type_names: list[str]
    used: tuple[list[int], list[int]]
    letters: frozenset[str]
    format: TagFormat | None
    outside: str


def _delimiter(given: str | None, head: Callable[[], bytes], sniff: Callable[[bytes], bool]) -> int | None:
    """The core's delimiter: -1 for runs of blanks, or a byte; ``None``: a value the reader refuses."""
    if given is None:
        return 9 if sniff(head()) else -1
    if given == "whitespace":
        return -1
    if given in _DELIMITERS:
        return _DELIMITERS[given]
    if len(given) == 1 and given.isascii() and given not in "\r\n":
        return ord(given)
    return None


def _opened(
    source: File, opened: list[BinaryIO], start: int = 0, end: int | None = None
) -> tuple[Callable[[int], bytes], Callable[[], bytes]] | None:
    """A reader of the file's blocks (progress noted) and of its head; ``None`` for what is no file.

    ``start`` and ``end`` keep the reader to a byte range of a file (`_cut`'s halves).
    """
    if isinstance(source, bytes):
        stream = io.BytesIO(source)
        return stream.read, lambda: source[:_HEAD]
    if not os.path.isfile(source):
        return None
    f = open(source, "rb")  # noqa: SIM115 (read block by block; closed by `count_columns`)
    opened.append(f)
    f.seek(start)
    left = [-1 if end is None else end - start]  # bytes still to read of the range (-1: to the end)
    first: list[bytes] = []  # the head, once read for the delimiter: it is also the first block

    def take(n: int) -> bytes:
        data = f.read(n if left[0] < 0 else min(n, left[0]))
        if left[0] >= 0:
            left[0] -= len(data)
        return data

    def read(n: int) -> bytes:
        data = first.pop() if first else take(n)
        note(len(data))
        return data

    def head() -> bytes:
        first.append(take(_HEAD))  # asked for once, before the first block (_HEAD is _BLOCK)
        return first[0]

    return read, head


def _count_pair(
    core: ModuleType,
    counter: object,
    pair: tuple[File, File | None],
    delimiter: str | None,
    opened: list[BinaryIO],
) -> str | None:
    """Count one gold and prediction file (or merged file): ``None``, or why the numpy engine must."""
    gold, pred = pair
    sides = [_opened(gold, opened), _opened(pred, opened) if pred is not None else None]
    if sides[0] is None or (pred is not None and sides[1] is None):
        return "not a file"
    found = [_delimiter(delimiter, s[1], core.conll_sniff_tab) if s else -1 for s in sides]
    if found[0] is None or found[1] is None:
        return "a delimiter the reader refuses"
    reads = [s[0] if s else None for s in sides]
    return core.conll_count_file(counter, reads[0], reads[1], found[0], found[1], _BLOCK)


def count_columns(
    files: Sequence[tuple[File, File | None]],
    *,
    comments: bool,
    check_tokens: bool,
    delimiter: str | None,
    tag_format: TagFormat | None,
    scheme: Scheme | None,
    outside: str,
    policy: str,
    tables: tuple[bytes, bytes] = (bytes(50), bytes(50)),
    workers: int | None = None,
) -> ColumnTotals | None:
    """Count ``files`` (gold and prediction file, or a merged file and ``None``) in C; ``None``: hand over.

    ``tables`` are the ``discard`` policy's ``bad_start`` and ``bad_end`` by pair code (one byte each).
    ``workers``: as the numpy engine's (`conll_cuts.threads`): ``None`` reads a merged file of
    `conll_cuts.SPLIT_BYTES` or more in two threads on two cores or more, 2 or more always, 1 never.
    """
    core = speedups()
    if core is None or policy not in POLICY_CODES:
        return None
    if tag_format is not None and tag_format.position == "bare" and scheme not in (None, SCHEMES["IO"]):
        return None  # the vocabulary refuses it
    table = TagTable(tag_format, scheme, outside)

    def counter() -> object:
        return core.conll_counter(comments, check_tokens, POLICY_CODES[policy], *tables, table)

    try:
        cut = _cut(core, files, delimiter, workers) if policy != "conlleval" else None
        totals = (
            _count_halves(core, counter, files[0][0], cut)
            if cut
            else _count_all(core, counter(), files, delimiter)
        )
    except OSError:
        return None  # the numpy engine says what is wrong
    if totals is None or not table.consistent():
        return None
    return _totals(totals, table)


def _count_all(
    core: ModuleType, counter: object, files: Sequence[tuple[File, File | None]], delimiter: str | None
) -> tuple[Any, ...] | None:
    """What `conll_totals` returns once ``files`` are read one after the other; ``None``: hand over."""
    opened: list[BinaryIO] = []
    try:
        for gold, pred in files:
            if _count_pair(core, counter, (gold, pred), delimiter, opened) is not None:
                return None
            while opened:
                opened.pop().close()
    finally:
        for f in opened:
            f.close()
    return core.conll_totals(counter)


def _cut(
    core: ModuleType, files: Sequence[tuple[File, File | None]], delimiter: str | None, workers: int | None
) -> tuple[int, int, int] | None:
    """Where a merged file is cut for two threads: offset, delimiter code, documents to take off.

    ``None``: read it in one go. The cut is `conll_cuts.cut_in`'s, in a window from the middle; only
    blanks or tabs as delimiters. conlleval's repairs carry state from one sentence to the next and
    are never cut.
    """
    path = files[0][0]
    if len(files) != 1 or files[0][1] is not None or not isinstance(path, str | os.PathLike):
        return None
    size = os.path.getsize(path) if os.path.isfile(path) else 0
    if threads(size, workers) < 2 or size < 2:
        return None
    with open(path, "rb") as f:
        code = _delimiter(delimiter, lambda: f.read(_HEAD), core.conll_sniff_tab)
        f.seek(size // 2)
        window = f.read(_HEAD)
    found = cut_in(window) if code in (-1, 9) else None
    return None if found is None or code is None else (size // 2 + found[0], code, found[1])


def _count_halves(
    core: ModuleType, counter: Callable[[], object], path: File, cut: tuple[int, int, int]
) -> tuple[Any, ...] | None:
    """`conll_totals` of a merged file counted as two halves in two threads, summed; ``None``: hand over.

    The counters share the `TagTable` (its callback holds the GIL), so a tag has one id in both.
    """
    at, code, extra_document = cut
    counters, outcome, failed = (counter(), counter()), ["", ""], []
    opened: list[BinaryIO] = []
    readers = [_opened(path, opened, 0, at), _opened(path, opened, at)]
    done = _thread.allocate_lock()
    done.acquire()

    def count(k: int) -> None:
        try:
            outcome[k] = core.conll_count_file(counters[k], readers[k][0], None, code, -1, _BLOCK)  # type: ignore[index]
        except BaseException as e:
            failed.append(e)

    def second() -> None:
        try:
            count(1)
        finally:
            done.release()

    try:
        _thread.start_new_thread(copy_context().run, (second,))  # the context: `note` counts its bytes
        count(0)
    finally:
        done.acquire()
        for f in opened:
            f.close()
    if failed:
        raise failed[0]
    if outcome != [None, None]:
        return None
    a, b = (core.conll_totals(c) for c in counters)
    if -1 not in (a[15], b[15]) and a[15] != b[15]:
        return None  # the halves' lines have different column counts: numpy's error
    summed = _summed(a, b)
    return (*summed[:3], summed[3] - extra_document, *summed[4:])


def _summed(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    """Two counters' totals (`conll_totals`'s first 15) as one: numbers added, lists added by position."""

    def add(x: list[int], y: list[int]) -> list[int]:
        longer, shorter = (x, y) if len(x) >= len(y) else (y, x)
        return [v + (shorter[i] if i < len(shorter) else 0) for i, v in enumerate(longer)]

    return (*(a[i] + b[i] for i in range(5)), *(add(a[i], b[i]) for i in range(5, 15)))


def _totals(t: tuple[Any, ...], table: TagTable) -> ColumnTotals:
    """`ColumnTotals` of what `conll_totals` returns, with the tags of ``table``."""
    used = [g + p for g, p in zip(t[13], t[14], strict=True)]
    tokens, correct, sentences, documents, unpaired = t[:5]
    return ColumnTotals(
        tokens,
        correct,
        sentences,
        documents,
        unpaired,
        codes=(t[5], t[6]),
        gold=t[7],
        pred=t[8],
        matched=t[9],
        perl=(t[10], t[11], t[12]),
        tags=list(table.tags),
        type_names=list(table.type_names),
        used=(t[13], t[14]),
        letters=frozenset(table.letters[i] for i, n in enumerate(used) if n and i < len(table.letters)),
        format=table.format,
        outside=table.outside,
    )
