"""Entities by their text, decoded from tagged lines: the input of the text-level metrics.

In: `TagLines` of BIO directories or CoNLL files (`nerve.io.tags.bio_dirs`). Out: `EntityTexts` per
side, in a `TextCorpus`. The text of an entity is its tokens joined by single spaces. Tags are
IOB2 by default; invalid transitions (``I-X`` after ``O``) are repaired by the policy given
(``begin`` by default) and counted, or reported with ``error``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .. import options
from .._frozen import frozen
from ..errors import InputError, InvalidSequenceError, NerveError, Problem, plural
from ..io.tags.bio_dirs import (
    Files,
    TagLines,
    bio_names,
    check_directories,
    load_files,
    name_pattern,
    one_side_only,
    parse_tag_lines,
    read_side,
)
from ..model.pairs import N_CODES
from ..model.schemes import TagFormat, get_scheme
from ..model.texts import EntityTexts
from ..model.vocab import TagVocab
from .decode import DecodeRules, decode_block, get_policy

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Int

__all__ = ["DOCUMENTS", "TextCorpus", "decode_tag_lines", "read_bio_dirs", "read_text_files"]

#: What a document of a CoNLL file is: the lines from one ``-DOCSTART-`` to the next, or a sentence.
DOCUMENTS = ("docstart", "sentence")


@frozen
class TextCorpus:
    """Gold and predicted entities by text, document by document, and what reading found."""

    gold: EntityTexts
    pred: EntityTexts
    documents: list[str]
    repairs: tuple[int, int]  # invalid transitions repaired, gold and predicted
    scheme: str
    repair: str
    notes: tuple[str, ...] = ()  # what reading noticed that may change the scores


def _entity_texts(buf: npt.NDArray[np.uint8], starts: Int, ends: Int, first: Int, last: Int) -> list[str]:
    """The text of each entity: its tokens ``first[k]..last[k]`` (inclusive) joined by spaces.

    The bytes are gathered in one pass over the buffer.
    """
    n_entities = first.shape[0]
    if not n_entities:
        return []
    per_entity = last - first + 1
    tokens = np.repeat(first - np.cumsum(per_entity) + per_entity, per_entity) + np.arange(
        int(per_entity.sum())
    )
    s, e = starts[tokens], ends[tokens]
    lengths = e - s + 1  # each token is followed by a space, or by a newline ending its entity
    total = int(lengths.sum())
    out_start = np.cumsum(lengths) - lengths
    index = np.repeat(s - out_start, lengths) + np.arange(total)
    out = buf[np.minimum(index, buf.shape[0] - 1)].copy()
    sep_at = out_start + lengths - 1
    out[sep_at] = 32
    out[sep_at[np.cumsum(per_entity) - 1]] = 10
    return out.tobytes().decode("utf-8").split("\n")[:-1]


def _located(lines: TagLines, problems: list[Problem]) -> list[Problem]:
    """The problems at their files and lines (they come numbered by global line index)."""
    located = []
    for p in problems:
        name, line = lines.files.where(p.line)
        located.append(replace(p, source=name, line=line))
    return located


def decode_tag_lines(lines: TagLines, policy: str, role: str) -> tuple[EntityTexts, int]:
    """One side's entities by text, and its number of invalid transitions.

    The decoding is `decode_block`'s, the one every command shares; invalid transitions are
    counted from its transition counts.

    Args:
        lines: the side's token lines, with the vocabulary of their tags.
        policy: ``begin`` or ``discard`` repair invalid transitions; ``error`` raises
            `InvalidSequenceError` listing them.
        role: ``"gold"`` or ``"pred"``, for the problems reported.
    """
    vocab = lines.vocab
    assert vocab.scheme is not None
    rules = DecodeRules.of(vocab, vocab.scheme)
    found = decode_block(
        lines.ids, lines.sentence_start, vocab, rules, policy, transitions=True, side=role, lines=lines.rows
    )
    if found.problems:
        raise InvalidSequenceError(_located(lines, found.problems), vocab.scheme.name)
    assert found.transitions is not None
    repairs = int(found.transitions[:N_CODES][rules.invalid].sum())
    chunks = found.chunks
    texts = _entity_texts(lines.buf, lines.token_start, lines.token_end, chunks.start, chunks.end - 1)
    names = vocab.type_names
    categories = [names[t] for t in chunks.type.tolist()]
    return EntityTexts(lines.doc[chunks.start].astype(np.int64), categories, texts, lines.n_docs), repairs


def _vocab(scheme: str) -> TagVocab:
    fixed = get_scheme(scheme)
    return TagVocab(TagFormat(), fixed, "O")


def _policy(repair: str) -> str:
    policy = get_policy(repair)
    if policy == "conlleval":
        raise NerveError("the text metrics need entities; use --repair begin, discard or error")
    return policy


def read_bio_dirs(
    label_dir: str | os.PathLike[str],
    prediction_dir: str | os.PathLike[str],
    *,
    scheme: str = "IOB2",
    repair: str = "begin",
    pattern: str = "*.bio",
) -> TextCorpus:
    """Read a label and a prediction directory of ``*.bio`` files, paired by name.

    ``pattern`` picks the files of each directory by name: a glob (`name_pattern`).

    Raises:
        InputError: a missing directory, no file that matches ``pattern`` on either side, a
            file on one side only (all are named), a line that is not ``token TAG``, or a tag
            the scheme does not know.
        OptionError: a ``pattern`` that is empty or holds a path separator.
    """
    policy = _policy(repair)
    pattern = name_pattern(pattern)
    check_directories(label_dir, prediction_dir)
    # The two sides are listed, read and parsed at once, each with its own vocabulary: listing
    # and reading are system calls and parsing mostly numpy, all of which release the GIL.
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(2)
    with pool:
        label_names, pred_names = pool.map(bio_names, (label_dir, prediction_dir), (pattern, pattern))
        if label_names != pred_names:
            raise one_side_only(label_dir, label_names, pred_names)
        if not label_names:
            where = f"no files match {pattern!r} here or in {os.fspath(prediction_dir)}"
            raise InputError(os.fspath(label_dir), None, where, option="--pattern")
        names = label_names
        doc_of_file = np.arange(len(names), dtype=np.int64)

        def side(directory: str | os.PathLike[str], role: str) -> tuple[EntityTexts, int]:
            files = read_side(os.fspath(directory), names, role)
            return decode_tag_lines(parse_tag_lines(files, doc_of_file, _vocab(scheme), "last"), policy, role)

        (gold, g_rep), (pred, p_rep) = pool.map(side, (label_dir, prediction_dir), ("gold", "pred"))
    return TextCorpus(gold, pred, names, (g_rep, p_rep), get_scheme(scheme).name, policy)


def _one_document_note(lines: TagLines, path: str) -> str | None:
    """The note for a file of many sentences read as one document, for want of ``-DOCSTART-``."""
    if lines.docstarts or lines.sentences < 2:
        return None
    return (
        f"{path}: no -DOCSTART- lines, so its {lines.sentences} sentences are scored as one document;"
        f" {options.setting('documents', 'sentence')} makes each sentence a document"
    )


def read_text_files(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    scheme: str = "IOB2",
    repair: str = "begin",
    documents: str = "docstart",
) -> TextCorpus:
    """Read a merged CoNLL file, or a gold and a prediction file.

    ``documents`` is ``"docstart"`` (documents start at ``-DOCSTART-`` lines; without any, the
    whole file is one, which the corpus notes when it has several sentences) or ``"sentence"``
    (each sentence is a document).
    """
    policy = _policy(repair)
    options.one_of(documents, DOCUMENTS, "documents")
    vocab = _vocab(scheme)
    notes: dict[str, None] = {}

    def side(path: str | os.PathLike[str], files: Files, role: str, column: str) -> tuple[EntityTexts, int]:
        lines = parse_tag_lines(files, None, vocab, column, documents)
        note = _one_document_note(lines, os.fspath(path)) if documents == "docstart" else None
        if note is not None:
            notes[note] = None
        return decode_tag_lines(lines, policy, role)

    g_files = load_files([os.fspath(gold)])
    if pred is None:
        g, g_rep = side(gold, g_files, "gold", "second_last")
        p, p_rep = side(gold, g_files, "pred", "last")
    else:
        g, g_rep = side(gold, g_files, "gold", "last")
        p, p_rep = side(pred, load_files([os.fspath(pred)]), "pred", "last")
    if g.n_docs != p.n_docs:
        raise InputError(
            os.fspath(pred or gold), None, f"has {plural(p.n_docs, 'document')}, but the gold has {g.n_docs}"
        )
    names = [f"{os.fspath(gold)}#{i + 1}" for i in range(g.n_docs)]
    name = vocab.scheme.name if vocab.scheme else scheme
    return TextCorpus(g, p, names, (g_rep, p_rep), name, policy, tuple(notes))
