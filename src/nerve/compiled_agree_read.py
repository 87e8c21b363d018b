"""A CoNLL file of several tag columns read and decoded by the compiled engine, for `nerve.agree`.

In: the file, the annotators picked (column numbers, ``ID=NAME`` to rename) and the scheme, tag
format and outside tag. Out: `FlatRead` (the documents and each column's distinct tags; the
sentences, words' places and tag ids kept in C, from csrc/agree.c's `agree_scan`) and each picked
column (`FlatColumn`: its type names; decoded by `FlatColumn.decode` into its entities and repairs,
as `nerve.api.convert_input.decoded` decodes tags); or ``None`` (or `HandOver` from a decoding) to
hand the file to the numpy engine, which reads it again and gives the result or its error.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import options
from ._engine import speedups
from .errors import NerveError, SchemeError
from .io.tags.agree_scan import Data, FileBytes, Scanned, raw, scan_columns
from .io.tags.conll_counted import scheme_tables
from .model.schemes import BEGIN, END, OUT, SCHEMES, check_letters, infer_scheme
from .model.vocab import TagVocab

__all__ = ["Column", "FlatColumn", "FlatRead", "HandOver", "Reading", "read_agree_columns"]

Column = tuple[bytes, bytes, bytes, bytes]  # doc, start, end, label: int64 each (bytes or bytearray)
Reading = tuple[str, str | None, str]  # the scheme, tag format and outside tag
_KIND_NAMES = ("O", "B", "I", "E", "S")


class FlatRead:
    """What the C core read: the documents, tokens and every tag column's distinct tags (`Scanned`)."""

    def __init__(self, path: str, data: Data, scanned: Scanned) -> None:
        self.path, self.data, self.n_docs = path, data, scanned.n_docs
        self.doc_start = scanned.doc_start  # int64, n_docs + 1
        self.tokens = scanned.tokens
        self.tags = scanned.tags  # each column's distinct tags
        self.parts = scanned.parts  # the scans, kept in C, and their columns' tag ids mapped

    def words(self, lo: int, hi: int) -> list[str]:
        """The words of tokens ``lo`` to ``hi``; `InputError` where the mapped file has changed since."""
        engine = speedups()
        assert engine is not None
        if isinstance(self.data, FileBytes):
            self.data.check()
        return engine.agree_words(raw(self.data), [scan for scan, _ in self.parts], lo, hi)


def _picked(found: Sequence[str], wanted: Sequence[str] | None) -> list[tuple[str, str]] | None:
    """``(column, name)`` of the annotators picked (as `nerve.api.agree_input` picks them), or ``None``."""
    pairs = [(n, n) for n in found]
    if wanted is not None:
        pairs = [(w.split("=", 1)[0], w.split("=", 1)[-1]) for w in wanted]
        if any(who not in found for who, _ in pairs) or len({n for _, n in pairs}) < len(pairs):
            return None  # the numpy engine says what is wrong
    return pairs if len(pairs) >= 2 else None


class HandOver(Exception):
    """The compiled path stops: the numpy engine reads the input (and gives its error)."""


class FlatColumn:
    """One annotator's column: its tags read (type names), then decoded (`decode`: entities, repairs)."""

    def __init__(self, column: int, read: FlatRead, how: tuple[str, str | None, str]) -> None:
        scheme, tag_format, outside = how
        tags = read.tags[column]
        vocab = TagVocab(options.tag_format(tag_format, outside), None, outside)
        order = sorted(range(len(tags)), key=tags.__getitem__)
        found = vocab.add_list([tags[i].decode("utf-8") for i in order])
        if any(v < 0 for v in found):
            raise SchemeError("a tag the tag format refuses")  # the numpy engine names it, with its line
        vid = [0] * len(tags)
        for i, v in zip(order, found, strict=True):
            vid[i] = v
        kinds, types = vocab.parts()
        self.column, self.read, self.vocab, self.scheme = column, read, vocab, scheme
        self.kind = bytes(kinds[v] for v in vid)
        self.type = b"".join(types[v].to_bytes(4, "little", signed=True) for v in vid)
        self.names = list(vocab.type_names)
        self.codes: list[int] = []
        self.spans: Column = (b"", b"", b"", b"")
        self.repairs: dict[str, int] = {}

    def decode(self) -> FlatColumn:
        """The column decoded (in C, without the GIL): its transitions, entities and repairs.

        Raises `HandOver` where the tags break the scheme: the numpy engine says how, with the line.
        """
        engine = speedups()
        assert engine is not None
        read, c = self.read, self.column
        parts = [(scan, None if maps is None else maps[c]) for scan, maps in read.parts]
        codes, *spans = engine.agree_decode(parts, c, self.kind, self.type, read.doc_start)
        self.codes = codes
        self.spans = (spans[0], spans[1], spans[2], spans[3])
        try:
            self.repairs = _repairs(self.vocab, codes, options.scheme(self.scheme, "scheme"))
        except NerveError:
            raise HandOver from None
        return self

    @property
    def count(self) -> int:
        """How many entities."""
        return len(self.spans[0]) // 8


def _repairs(vocab: TagVocab, codes: list[int], fixed: object) -> dict[str, int]:
    """The scheme (given, or inferred from the transitions) checked, and the repairs by kind."""
    seen = [c > 0 for c in codes]
    b_after = any(seen[c] and c // 2 % 5 == BEGIN and not _same(c) for c in range(50))
    e_before = any(seen[c] and c // 10 == END and not _same(c) for c in range(50))
    fmt = vocab.format
    if fixed is not None:
        known = fixed
    elif fmt is not None and fmt.position == "bare":
        known = SCHEMES["IO"]
    else:
        known = infer_scheme(frozenset(vocab.letters), b_after, e_before)
    check_letters(known, vocab.letters, "input")  # type: ignore[arg-type]
    bad_start, bad_end = scheme_tables(known)  # type: ignore[arg-type]
    out: dict[str, int] = {}
    for c in range(50):
        if (bad_start[c] or bad_end[c]) and codes[c]:
            key = f"{_KIND_NAMES[c // 10]} -> {_KIND_NAMES[c // 2 % 5]}"
            out[key] = out.get(key, 0) + codes[c]
    return dict(sorted(out.items()))


def _same(code: int) -> bool:
    """Whether a pair code's two tags are of one type, neither outside."""
    return code % 2 == 1 and code // 10 != OUT and code // 2 % 5 != OUT


def read_agree_columns(
    path: str, wanted: Sequence[str] | None, how: tuple[str, str | None, str]
) -> tuple[FlatRead, list[tuple[str, FlatColumn]]] | None:
    """The file read by the C core and the picked columns' tags read, or ``None`` to hand over.

    The columns are decoded later (`FlatColumn.decode`), each as soon as a thread is free.
    """
    engine = speedups()
    assert engine is not None
    data = FileBytes(engine, path)
    scanned = scan_columns(engine, data)
    if scanned is None:
        return None
    read = FlatRead(path, data, scanned)
    picked = _picked([str(c + 2) for c in range(len(read.tags))], wanted)
    if picked is None:
        return None
    try:
        return read, [(name, FlatColumn(int(who) - 2, read, how)) for who, name in picked]
    except NerveError:
        return None  # the numpy engine raises it, with the file and line
