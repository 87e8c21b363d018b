"""Where `nerve.score`, `nerve.validate` and `nerve.decode` read tags from.

In: the ``gold`` and ``pred`` arguments as the caller gave them: CoNLL files, a binary stream (the
command's stdin), tag lists, or a `TaggedCorpus`. Out: `TagBlock`s with the ids of a `TagVocab`, as
often as asked (a stream is read once and kept), and the scheme inferred from them.
"""

from __future__ import annotations

import codecs
import io
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, BinaryIO, TypeAlias

import numpy as np

from .. import options
from ..errors import InputError, OptionError, SchemeError
from ..io import formats
from ..io.spans import sniff_format
from ..io.tags.conll import ConllReader, TagBlock, TaggedCorpus, iter_lists
from ..io.tags.hf import is_dataset
from ..metrics.exact import TransitionTable, infer_from
from ..model.schemes import Scheme, TagFormat
from ..model.vocab import TagVocab

if TYPE_CHECKING:
    from ..plan import Reading

__all__ = [
    "Input",
    "PathLike",
    "Source",
    "Tags",
    "format_options",
    "input_kind",
    "input_kinds",
    "is_path",
    "is_stream",
    "reading_notes",
    "scheme_of_inputs",
]

PathLike: TypeAlias = "str | os.PathLike[str]"
Tags: TypeAlias = Sequence[Sequence[str]]
Source: TypeAlias = "PathLike | Tags | TaggedCorpus | BinaryIO"


def is_path(x: object) -> bool:
    """Whether ``x`` names a file."""
    return isinstance(x, (str, os.PathLike))


def is_stream(x: object) -> bool:
    """Whether ``x`` is an open binary file (such as ``sys.stdin.buffer``)."""
    return hasattr(x, "read") and not is_path(x)


class _Kept:
    """A stream's bytes, read once (as UTF-8), to be read again from the start."""

    def __init__(self, stream: BinaryIO, encoding: str):
        self.name = self.name_of(stream)
        data = stream.read()
        if codecs.lookup(encoding).name != "utf-8":
            try:
                data = data.decode(encoding).encode("utf-8")
            except UnicodeError as err:
                reason = getattr(err, "reason", str(err))
                raise InputError(self.name, None, f"cannot be decoded as {encoding}: {reason}") from None
        self.data = data

    @staticmethod
    def name_of(stream: object) -> str:
        """The stream's name: ``<stdin>`` for the standard input."""
        return str(getattr(stream, "name", "<stdin>"))

    def open(self) -> BinaryIO:
        """A new binary stream of the bytes, with the stream's name."""
        f = io.BytesIO(self.data)
        f.name = self.name
        return f


def _keep(source: Source | None, encoding: str) -> Source | _Kept | None:
    return _Kept(source, encoding) if is_stream(source) else source  # type: ignore[arg-type]


def _is_file(source: object) -> bool:
    return is_path(source) or isinstance(source, _Kept)


def _name(source: object) -> str:
    return source.name if isinstance(source, _Kept) else os.fspath(source)  # type: ignore[call-overload]


class Input:
    """Where blocks come from: files or a stream (re-readable), in-memory lists, or a corpus."""

    def __init__(
        self,
        gold: Source,
        pred: Source | None,
        comments: bool,
        encoding: str,
        check_tokens: bool,
        single: bool = False,
        delimiter: str | None = None,
    ):
        options.encoding(encoding)
        if is_stream(gold) and gold is pred:
            raise InputError(_Kept.name_of(gold), None, "is read once: give it as gold or as pred, not both")
        self.gold, self.pred = _keep(gold, encoding), _keep(pred, encoding)
        self.comments, self.encoding, self.check_tokens, self.single = (
            comments,
            encoding,
            check_tokens,
            single,
        )
        self.delimiter = delimiter
        self.words = False  # keep the tokens of files (for error analysis)
        self.notes: dict[str, int] = {}  # what reading the files did, counted (`ConllReader.notes`)
        if isinstance(gold, TaggedCorpus):
            self.sources = (gold.source, gold.source)
        elif _is_file(self.gold):
            g = _name(self.gold)
            self.sources = (g, _name(self.pred) if _is_file(self.pred) else g)
        else:
            self.sources = ("<gold>", "<pred>")

    def files(self) -> tuple[str | bytes, str | bytes | None] | None:
        """The files as the C engine reads them (paths, or a stream's bytes); ``None``: tags in memory."""

        def one(source: object) -> str | bytes:
            return source.data if isinstance(source, _Kept) else os.fspath(source)  # type: ignore[call-overload]

        if not _is_file(self.gold) or (self.pred is not None and not _is_file(self.pred)):
            return None
        return one(self.gold), None if self.pred is None else one(self.pred)

    def blocks(self, vocab: TagVocab) -> Iterator[TagBlock]:
        """The blocks, with ids of ``vocab``."""
        gold, pred = self.gold, self.pred
        if isinstance(gold, TaggedCorpus):
            yield from _remap(gold, vocab)
        elif _is_file(gold):
            if pred is not None and not _is_file(pred):
                raise OptionError("pred", "give both gold and pred as files, or both as tag lists")
            reader = ConllReader(
                gold.open() if isinstance(gold, _Kept) else gold,  # type: ignore[arg-type]
                pred.open() if isinstance(pred, _Kept) else pred,  # type: ignore[arg-type]
                vocab,
                comments=self.comments,
                encoding=self.encoding,
                check_tokens=self.check_tokens,
                single=self.single,
                delimiter=self.delimiter,
                words=self.words,
            )
            yield from reader
            self.notes = dict(reader.notes)
        else:
            if pred is not None and (_is_file(pred) or isinstance(pred, TaggedCorpus)):
                raise OptionError("pred", "give both gold and pred as files, or both as tag lists")
            yield from iter_lists(gold, pred, vocab)  # type: ignore[arg-type]


def reading_notes(inputs: Sequence[Input]) -> dict[str, dict[str, int]]:
    """What reading the inputs' files did, counted, as a result's notes: on the ``pred`` side.

    A prediction file paired with the gold file sentence by sentence (`ConllReader.notes`).
    """
    notes: Counter[str] = Counter()
    for each in inputs:
        notes.update(each.notes)
    return {"pred": dict(notes)} if notes else {}


def path_of(source: Source | None) -> str | None:
    """The path of a file given as a path, or ``None``."""
    return None if source is None else os.fspath(source)  # type: ignore[arg-type]


def input_kind(gold: Source, input_format: str | None, offsets: str | None) -> str:
    """``conll``, ``hf`` (`io.tags.hf`) or a span format: ``input_format``, or sniffed from the gold file."""
    if input_format is not None:
        kind = options.one_of(input_format, formats.input_choices(), "input_format")
    elif is_path(gold) and is_dataset(os.fspath(gold)):  # type: ignore[arg-type]
        kind = "hf"
    else:
        kind = sniff_format(os.fspath(gold)) if is_path(gold) else "conll"  # type: ignore[arg-type]
    if kind != "conll" and not is_path(gold):
        raise OptionError(options.flag("input_format"), f"{kind} input is read from a file, by its name")
    formats.check_offsets(offsets, kind)
    return kind


def input_kinds(
    gold: Source, pred: Source | None, named: tuple[str | None, str | None, str | None], offsets: str | None
) -> tuple[str, str]:
    """The formats of the gold and the prediction input, each sniffed on its own unless named.

    ``named``: ``input_format`` (both sides), ``gold_format`` and ``pred_format``. Unless both are
    files, the predictions take the gold's format. Tags and spans are not scored against each
    other: a gold and a prediction file that read as one of each are refused, saying what fixes it.
    """
    both, gold_format, pred_format = named
    if gold_format is not None:
        options.one_of(gold_format, formats.input_choices(), "gold_format")
    kind = input_kind(gold, gold_format or both, None)
    theirs = kind
    if both is not None and gold_format is not None:  # input_format names the side gold_format does not
        theirs = options.one_of(both, formats.input_choices(), "input_format")
    if pred_format is not None:
        theirs = options.one_of(pred_format, formats.input_choices(), "pred_format")
    elif both is None and kind != "hf" and _files(gold, pred):
        theirs = sniff_format(os.fspath(pred))  # type: ignore[arg-type]
    if theirs != kind and "spans" in {formats.format_named(k).kind for k in (kind, theirs)}:
        spans = [k for k in (kind, theirs) if formats.format_named(k).kind == "spans"]
        if len(spans) == 1:
            raise _mixed(gold, pred, kind, theirs)
    if offsets is not None:
        formats.check_offsets(
            offsets, kind if formats.format_named(kind).offsets or kind == theirs else theirs
        )
    return kind, theirs


def format_options(r: Reading) -> tuple[str | None, str | None]:
    """The option that named the gold's and the predictions' format, ``None`` where sniffed."""
    both = "input_format" if r.input_format else None
    return ("gold_format" if r.gold_format else both), ("pred_format" if r.pred_format else both)


def _files(*sources: Source | None) -> bool:
    """Whether every source is a path to a file (not a directory, a stream or lists)."""
    return all(is_path(s) and os.path.isfile(os.fspath(s)) for s in sources)  # type: ignore[arg-type]


def _mixed(gold: Source, pred: Source | None, kind: str, theirs: str) -> InputError:
    """The error of a gold and a prediction input of which one reads as tags and the other as spans."""
    where = os.fspath(pred) if is_path(pred) else "<pred>"  # type: ignore[arg-type]
    g = os.fspath(gold) if is_path(gold) else "<gold>"  # type: ignore[arg-type]
    detail = (
        f"reads as {theirs}, but the gold {g} reads as {kind}: tags are scored against tags and spans "
        "against spans; give the gold as spans with character offsets into the same texts (JSONL "
        '{"text", "spans"}), or name the format sniffing misread with --gold-format or --pred-format'
    )
    return InputError(where, None, detail)


def _remap(corpus: TaggedCorpus, vocab: TagVocab) -> Iterator[TagBlock]:
    """The corpus's blocks with ids of ``vocab`` (which may parse tags differently)."""
    ids = vocab.add(corpus.vocab.tags)
    if (ids < 0).any():
        raise SchemeError(f"{corpus.source}: {vocab.explain(corpus.vocab.tags[int(np.argmin(ids))])}")
    for b in corpus.blocks:
        yield TagBlock(
            ids[b.gold],
            ids[b.pred] if b.pred is not None else None,
            b.sentence_start,
            b.document_start,
            b.line,
            b.pred_line,
        )


def scheme_of_inputs(source: Input | Sequence[Input], tag_format: TagFormat | None, outside: str) -> Scheme:
    """Read the input (or inputs, together) once to infer the scheme (discard and error need it first)."""
    vocab = TagVocab(tag_format, None, outside)
    gold, pred = TransitionTable(), TransitionTable()
    inputs = [source] if isinstance(source, Input) else source
    for block in (b for each in inputs for b in each.blocks(vocab)):
        for table, ids in ((gold, block.gold), (pred, block.pred)):
            if ids is not None:
                table.add(ids, block.sentence_start, vocab)
    return infer_from(vocab, [gold, pred])
