"""Surface forms of entities, and the entities of a training file, for the slices.

In: word ids of token positions and entity spans over them; a CoNLL training file and the reading
options of the scored corpus. Out: one id per distinct surface form (the sequence of word ids an
entity covers, compared exactly: case and every character count), the training entities with
their words (`Train`), and which entities are seen in training: their (surface, type) occurs there.

Surfaces are grouped by length, and each group's (entities x length) matrix of word ids by
`numpy.unique` over rows, so there is one Python step per distinct entity length, none per entity.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import options
from .._frozen import frozen
from ..errors import InvalidSequenceError, Problem
from ..io.tags.conll import ConllReader
from ..model.chunks import NO_CHUNKS
from ..model.schemes import TagFormat
from ..model.spans import SpanArray
from ..model.vocab import TagVocab
from ..tagging.decode import DecodeRules, decode_block
from .aligned import Collector

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int

__all__ = ["Train", "TrainReading", "read_train", "seen", "surface_ids"]


def surface_ids(words: Int, start: Int, end: Int) -> Int:
    """One id per span such that two spans share it when they cover the same word ids, in order.

    ``words`` is the word id of each position; spans are half-open ``[start, end)`` with
    ``start < end``. Ids count from 0 and are dense.
    """
    n = start.shape[0]
    out = np.zeros(n, dtype=np.int64)
    length = end - start
    base = 0
    for size in np.unique(length).tolist():  # one step per distinct length
        at = np.flatnonzero(length == size)
        matrix = words[start[at, None] + np.arange(size, dtype=np.int64)]
        _, inverse = np.unique(matrix, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        out[at] = base + inverse
        base += int(inverse.max()) + 1
    return out


@frozen
class TrainReading:
    """How to read a training file: as the scored corpus was read.

    Attributes:
        scheme: the scheme name to decode with, or ``None`` to read every letter and decode with
            the rule all schemes share (the ``begin`` policy's decoding needs no scheme).
        repair: the repair policy (``begin``, ``discard`` or ``error``).
        tag_format, outside, comments, encoding, delimiter: as `nerve.score` takes them.
    """

    scheme: str | None
    repair: str
    tag_format: str | TagFormat | None = None
    outside: str = "O"
    comments: bool = False
    encoding: str = "utf-8"
    delimiter: str | None = None


@frozen(eq=False)
class Train:
    """The entities of a training file, with the words of its tokens.

    Attributes:
        entities: the entities; offsets are token positions over the whole file.
        words: the word id of each token position.
        vocabulary: the words the ids index.
        source: the file name.
    """

    entities: SpanArray
    words: Int
    vocabulary: tuple[str, ...]
    source: str


def read_train(path: str, reading: TrainReading) -> Train:
    """The entities of a CoNLL file whose last column is the tag (other columns: the token first).

    Problems are those of the reader (`InputError` with file and line); with the ``error``
    policy, an `InvalidSequenceError` lists the training file's invalid transitions.
    """
    fmt = options.tag_format(reading.tag_format, reading.outside)
    scheme = options.scheme(reading.scheme) if reading.scheme is not None else None
    vocab = TagVocab(fmt, scheme, reading.outside)
    reader = ConllReader(
        path,
        None,
        vocab,
        comments=reading.comments,
        encoding=reading.encoding,
        check_tokens=False,
        single=True,
        delimiter=reading.delimiter,
        words=True,
    )
    collector = Collector()
    problems: list[Problem] = []
    for block in reader:
        rules = DecodeRules.of(vocab, scheme)  # the vocabulary grows as blocks are read
        found = decode_block(
            block.gold,
            block.sentence_start,
            vocab,
            rules,
            reading.repair,
            side="gold",
            source=path,
            lines=block.line,
        )
        problems.extend(found.problems)
        collector.add(block, (found.chunks, NO_CHUNKS))
    if problems:
        assert scheme is not None
        raise InvalidSequenceError(problems, scheme.name)
    entities, _, tokens = collector.columns(vocab.type_names)
    assert tokens.words is not None
    return Train(entities, tokens.words, tokens.vocabulary, path)


def seen(
    words: Int, vocabulary: tuple[str, ...], labels: tuple[str, ...], spans: SpanArray, train: Train
) -> Bool:
    """Whether each span's (surface, type) occurs among the training entities.

    ``words`` and ``vocabulary`` are the scored corpus's, ``spans`` its entities (offsets into
    ``words``, types indexing ``labels``). Words and types are compared by their strings.
    """
    index = {w: i for i, w in enumerate(vocabulary)}
    remap = np.fromiter((index.setdefault(w, len(index)) for w in train.vocabulary), np.int64)
    joint = np.concatenate([words, remap[train.words] if remap.shape[0] else train.words])
    base = words.shape[0]
    t = train.entities
    ids = surface_ids(
        joint, np.concatenate([spans.start, t.start + base]), np.concatenate([spans.end, t.end + base])
    )
    names = {name: i for i, name in enumerate(labels)}
    type_of = np.asarray([names.get(name, -1) for name in t.labels], dtype=np.int64)
    train_type = type_of[t.label] if type_of.shape[0] else t.label
    n = len(spans)
    known = train_type >= 0  # a type the corpus does not have matches none of its entities
    width = len(labels) + 1
    train_keys = ids[n:][known] * width + train_type[known]
    return np.isin(ids[:n] * width + spans.label, train_keys)
