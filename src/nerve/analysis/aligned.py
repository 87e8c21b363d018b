"""The analysis input: the gold and predicted entities of one corpus, and where each one is.

`Aligned` holds both sides as `SpanArray` columns in one vocabulary of types. For tagged input the
offsets are token positions counted over the whole corpus, and `Tokens` says which sentence,
document and line each position is in, and (when kept) which word it is. For span files the
offsets are the file's own, within each document, and there are no tokens. `Collector` builds an
`Aligned` from the blocks an `ExactAccumulator` decodes, block by block, in columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from ..model.blocks import TagBlock
from ..model.chunks import Chunks
from ..model.spans import SpanArray

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Int

__all__ = ["Aligned", "Collector", "Tokens"]

_NONE = np.zeros(0, dtype=np.int64)


@frozen(eq=False)
class Tokens:
    """Token columns of a tagged corpus; index ``i`` is the token at corpus position ``i``.

    Attributes:
        sentence: the sentence of each token, counted from 0 over the corpus.
        document: the document of each token, counted from 0 (``-DOCSTART-`` lines start them).
        line: the 1-based line of each token in the gold (or merged) file.
        words: the word id of each token, or ``None`` when the tokens were not kept.
        vocabulary: the words the ids index.
    """

    sentence: Int
    document: Int
    line: Int
    words: Int | None = None
    vocabulary: tuple[str, ...] = ()

    def __len__(self) -> int:
        return int(self.sentence.shape[0])

    @property
    def n_sentences(self) -> int:
        """The number of sentences."""
        return int(self.sentence[-1]) + 1 if len(self) else 0

    def sentence_bounds(self) -> tuple[Int, Int]:
        """The first position of each sentence and one past its last."""
        n = len(self)
        starts = np.flatnonzero(np.diff(self.sentence, prepend=-1) != 0).astype(np.int64)
        ends = np.append(starts[1:], n).astype(np.int64)
        return starts, ends


@frozen(eq=False)
class Aligned:
    """Gold and predicted entities of one corpus, in one type vocabulary (``gold.labels``).

    Attributes:
        gold: the gold entities; ``doc`` is the document of each.
        pred: the predicted entities, labelled by the same vocabulary as ``gold``.
        tokens: the token columns for tagged input (offsets are corpus positions), else ``None``
            (offsets are the span file's, within each document).
        sources: the gold and prediction file names.
        texts: for span files, each document's text (a string, for character offsets) or tokens
            (a tuple, for token offsets), or ``None`` where the file has neither; ``None`` when
            not kept.
    """

    gold: SpanArray
    pred: SpanArray
    tokens: Tokens | None
    sources: tuple[str, str]
    texts: tuple[str | tuple[str, ...] | None, ...] | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        """The entity types, gold types first."""
        return self.gold.labels

    @property
    def n_docs(self) -> int:
        """The number of documents."""
        return self.gold.n_docs

    @property
    def n_sentences(self) -> int:
        """The number of sentences (documents for span files, which have none)."""
        return self.tokens.n_sentences if self.tokens is not None else self.n_docs

    def sentence_of(self, spans: SpanArray) -> Int:
        """The sentence of each span (its document for span files)."""
        if self.tokens is None:
            return spans.doc
        return self.tokens.sentence[spans.start]

    def unit_of(self, spans: SpanArray, unit: str) -> Int:
        """The resampling unit of each span: its ``"document"`` or its ``"sentence"``."""
        return spans.doc if unit == "document" else self.sentence_of(spans)

    def n_units(self, unit: str) -> int:
        """How many documents or sentences there are."""
        return self.n_docs if unit == "document" else self.n_sentences


class Collector:
    """Keeps the decoded entities and token columns of blocks, to build an `Aligned` at the end."""

    def __init__(self) -> None:
        self.length = 0
        self.gold: list[tuple[Int, Int, Int]] = []
        self.pred: list[tuple[Int, Int, Int]] = []
        self.sentence_start: list[npt.NDArray[np.bool_]] = []
        self.document_start: list[npt.NDArray[np.bool_]] = []
        self.line: list[Int] = []
        self.words: list[Int] | None = []
        self.index: dict[bytes, int] = {}

    def add(self, block: TagBlock, chunks: tuple[Chunks, Chunks]) -> None:
        """Keep one block's decoded gold and predicted chunks and its token columns."""
        base = self.length
        for side, c in ((self.gold, chunks[0]), (self.pred, chunks[1])):
            side.append((c.start + base, c.end + base, c.type.astype(np.int64, copy=False)))
        self.sentence_start.append(block.sentence_start)
        self.document_start.append(block.document_start)
        self.line.append(block.line)
        if block.words is None or self.words is None:
            self.words = None
        else:
            index = self.index
            ids = np.fromiter((index.setdefault(v, len(index)) for v in block.words.values), np.int64)
            self.words.append(ids[block.words.ids])
        self.length += len(block)

    def columns(self, type_names: Sequence[str]) -> tuple[SpanArray, SpanArray, Tokens]:
        """Both sides and the tokens, with type ids of ``type_names`` (the reader's vocabulary).

        The corpus's first token starts a document (the readers mark it so), whether or not a
        ``-DOCSTART-`` line comes before it.
        """
        sentence = np.cumsum(_cat(self.sentence_start), dtype=np.int64) - 1
        document = np.maximum(np.cumsum(_cat(self.document_start), dtype=np.int64) - 1, 0)
        n_docs = int(document[-1]) + 1 if document.shape[0] else 0
        words = None
        vocabulary: tuple[str, ...] = ()
        if self.words is not None:
            words = np.concatenate(self.words) if self.words else _NONE
            vocabulary = tuple(v.decode("utf-8", "replace") for v in self.index)
        tokens = Tokens(
            sentence, document, np.concatenate(self.line) if self.line else _NONE, words, vocabulary
        )
        sides = []
        for parts in (self.gold, self.pred):
            start, end, typ = (np.concatenate(c) for c in zip(*parts, strict=True)) if parts else (_NONE,) * 3
            sides.append(SpanArray(document[start], start, end, typ, tuple(type_names), n_docs))
        return sides[0], sides[1], tokens


def _cat(parts: list[npt.NDArray[np.bool_]]) -> npt.NDArray[np.bool_]:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.bool_)


def aligned_of(collectors: Sequence[tuple[Collector, Sequence[str]]], sources: tuple[str, str]) -> Aligned:
    """One `Aligned` from the collectors of consecutive parts of a corpus, each with its types.

    A part's positions follow those of the parts before it; documents are numbered over the whole.
    """
    merged = Collector()
    names: list[str] = []
    for collector, type_names in collectors:
        index = {name: i for i, name in enumerate(names)}
        for name in type_names:
            if name not in index:
                index[name] = len(names)
                names.append(name)
        mapping = np.asarray([index[n] for n in type_names], dtype=np.int64)
        base = merged.length
        for mine, theirs in ((merged.gold, collector.gold), (merged.pred, collector.pred)):
            mine.extend((s + base, e + base, mapping[t] if mapping.shape[0] else t) for s, e, t in theirs)
        merged.sentence_start += collector.sentence_start
        merged.document_start += collector.document_start
        merged.line += collector.line
        merged.length += collector.length
        if collector.words is None or merged.words is None:
            merged.words = None
        else:
            remap = np.fromiter(
                (merged.index.setdefault(v, len(merged.index)) for v in collector.index), np.int64
            )
            merged.words.extend(remap[w] for w in collector.words)
    gold, pred, tokens = merged.columns(names)
    return Aligned(gold, pred, tokens, sources)
