"""Writers of tag formats: flat entities in, CoNLL files and directories of BIO files out.

In: the tokens of a corpus end to end (`TokenColumns`: words, where each document and sentence
starts) and flat, contiguous entities as columns of corpus-wide token offsets. Out: one tag per
token in any scheme of `nerve.model.schemes` (`encode_tags`, array operations, no Python code per
token), written as ``token<TAB>tag`` lines with blank lines between sentences: one CoNLL file
(``-DOCSTART-`` lines between documents, `write_conll`) or one ``NAME.bio`` file per document
(`write_bio_dir`).

The caller flattens nested entities and checks what a scheme cannot hold (`io_merges`) first: these
functions write what they are given. A token that a column file cannot hold (empty, with white
space, or ``-DOCSTART-``) is written with ``_`` in place of each offending part, and counted.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

import numpy as np

from ..._frozen import frozen
from ...model.schemes import BEGIN, END, INSIDE, OUT, SINGLE, Scheme, TagFormat

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Bool, Int

__all__ = [
    "TokenColumns",
    "clean_words",
    "encode_tags",
    "io_merged",
    "io_merges",
    "tag_strings",
    "write_bio_dir",
    "write_conll",
]

_SPACE = re.compile(r"\s")


@frozen
class TokenColumns:
    """The tokens of a corpus end to end.

    Attributes:
        words: every token's text, documents and sentences end to end.
        doc_start: where each document's tokens start, ``n_docs + 1`` offsets (the last: the total).
        sentence_start: whether each token starts a sentence (every document's first token does).
    """

    words: list[str]
    doc_start: Int
    sentence_start: Bool

    @property
    def n_docs(self) -> int:
        """The number of documents, those without tokens included."""
        return int(self.doc_start.shape[0]) - 1

    def sentence_ids(self) -> Int:
        """The sentence of each token, counted over the corpus from 0."""
        return np.cumsum(self.sentence_start, dtype=np.int64) - 1


def _touching(start: Int, end: Int, label: Int, sentence: Int) -> Bool:
    """Whether each entity (sorted by start) begins where the one before it, of its type, ends."""
    out = np.zeros(start.shape[0], dtype=np.bool_)
    if start.shape[0] > 1:
        same_sentence = sentence[start[1:]] == sentence[end[:-1] - 1]
        out[1:] = (start[1:] == end[:-1]) & (label[1:] == label[:-1]) & same_sentence
    return out


def io_merged(start: Int, end: Int, label: Int, sentence: Int) -> Bool:
    """Which entities (sorted by start) IO tags would merge into the one before them (same type, touching)."""
    return _touching(start, end, label, sentence)


def io_merges(start: Int, end: Int, label: Int, sentence: Int) -> int:
    """How many entities IO tags would merge into the one before them (same type, touching)."""
    return int(np.count_nonzero(io_merged(start, end, label, sentence)))


def encode_tags(
    start: Int, end: Int, label: Int, n_tokens: int, sentence: Int, scheme: Scheme
) -> tuple[npt.NDArray[np.int8], Int]:
    """The kind (`nerve.model.schemes`' OUT, BEGIN...) and type id of every token.

    Args:
        start: corpus-wide token offset of each entity, sorted, entities not overlapping.
        end: one past each entity's last token; an entity lies within one sentence.
        label: each entity's type id.
        n_tokens: the number of tokens.
        sentence: the sentence of each token (`TokenColumns.sentence_ids`).
        scheme: the scheme to tag with; its letters are as `nerve.model.schemes.encode_sequence`
            writes them, which these tags equal.
    """
    kinds = np.full(n_tokens, OUT, dtype=np.int8)
    types = np.full(n_tokens, -1, dtype=np.int64)
    length = end - start
    total = int(length.sum())
    covered = np.repeat(start - (np.cumsum(length) - length), length) + np.arange(total, dtype=np.int64)
    kinds[covered] = INSIDE
    types[covered] = np.repeat(label, length)
    name = scheme.name
    if name == "IOB1":
        kinds[start[_touching(start, end, label, sentence)]] = BEGIN
    elif name == "IOE1":
        before = np.zeros(start.shape[0], dtype=np.bool_)
        before[:-1] = _touching(start, end, label, sentence)[1:]
        kinds[end[before] - 1] = END
    elif name == "IOB2":
        kinds[start] = BEGIN
    elif name == "IOE2":
        kinds[end - 1] = END
    elif name != "IO":  # IOBES and its dialects BILOU and BMES
        kinds[start] = BEGIN
        kinds[end - 1] = END
        kinds[start[length == 1]] = SINGLE
    return kinds, types


def tag_strings(
    kinds: npt.NDArray[np.int8], types: Int, labels: tuple[str, ...], scheme: Scheme, fmt: TagFormat
) -> list[str]:
    """Each token's tag spelled in ``fmt`` with ``scheme``'s letters."""
    letter_of = {kind: letter for letter, kind in reversed(scheme.letters.items())}
    letter_of[OUT] = "O"
    width = len(labels) + 1
    table = np.empty(5 * width, dtype=object)
    for kind in (OUT, BEGIN, INSIDE, END, SINGLE):
        for t in range(-1, len(labels)):
            letter = letter_of.get(kind)
            typ = labels[t] if t >= 0 else ""
            ok = letter is not None and (kind == OUT) == (t < 0)
            table[kind * width + t + 1] = fmt.join(letter, typ) if ok and letter is not None else None
    tags: list[str] = table[kinds.astype(np.int64) * width + types + 1].tolist()
    return tags


def clean_words(words: list[str]) -> tuple[list[str], int]:
    """Tokens a column file can hold (white space and emptiness made ``_``), and how many changed."""
    joined = "\0".join(words)
    if not _SPACE.search(joined) and "" not in words and "-DOCSTART-" not in words:
        return words, 0
    out = [_SPACE.sub("_", w) or "_" for w in words]
    out = ["_DOCSTART-" if w == "-DOCSTART-" else w for w in out]
    return out, sum(a != b for a, b in zip(words, out, strict=True))


def _lines(words: list[str], tags: list[str], sentence_start: Bool, head: list[str]) -> list[str]:
    """``token<TAB>tag`` lines, a blank line before each sentence but the first, ``head`` first."""
    before = np.where(sentence_start, "\n", "").astype(object)
    if before.shape[0]:
        before[0] = ""
    body: list[str] = list(map("{}{}\t{}\n".format, before.tolist(), words, tags))
    return head + body


def write_conll(path: str, tokens: TokenColumns, tags: list[str], outside: str = "O") -> None:
    """One CoNLL file: ``-DOCSTART-`` lines between documents when there are several (or none has tokens)."""
    starts = tokens.doc_start
    docstart = tokens.n_docs > 1 or (tokens.n_docs == 1 and not tokens.words)
    pieces: list[str] = []
    for d in range(tokens.n_docs):
        a, b = int(starts[d]), int(starts[d + 1])
        head = [f"-DOCSTART-\t{outside}\n\n"] if docstart else []
        if d and docstart:
            head.insert(0, "\n")
        pieces.extend(_lines(tokens.words[a:b], tags[a:b], tokens.sentence_start[a:b], head))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(pieces))


def write_bio_dir(directory: str, names: list[str], tokens: TokenColumns, tags: list[str]) -> list[str]:
    """One ``NAME.bio`` file per document in ``directory`` (made if missing); the paths written."""
    os.makedirs(directory, exist_ok=True)
    written = []
    starts = tokens.doc_start
    for d, name in enumerate(names):
        a, b = int(starts[d]), int(starts[d + 1])
        path = os.path.join(directory, name + ".bio")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(_lines(tokens.words[a:b], tags[a:b], tokens.sentence_start[a:b], [])))
        written.append(path)
    return written
