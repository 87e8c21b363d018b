"""Hugging Face datasets of tagged words, and sub-token predictions aggregated to words.

In: a dataset saved with ``Dataset.save_to_disk`` (a directory), a Parquet file or an Arrow file
(``Dataset.to_parquet``, a ``datasets`` cache shard), with a ``tokens`` column and a tag column
(``ner_tags``, ``tag_column``) holding lists of ``ClassLabel`` ids or of tag strings. The id's names
come from the dataset's features (Parquet and Arrow files carry them in their ``huggingface``
schema metadata), or from ``label_names``. Predictions come from a second dataset (the same
column) or from a column of the same one (``pred_column``). Out: a `TaggedCorpus`, one sentence
a row, that `nerve.score` decodes like any tags. Messages number rows from 0, as ``dataset[i]``
does; problems found while decoding (``nerve validate``, ``repair="error"``) give row ``i`` as
line ``i + 1``.

``datasets`` and ``pyarrow`` (the ``hf`` extra) are imported here, and only when a dataset is read.
Ids become tags column-wise (one gather), never a Python loop per token.

`words_from_subwords` turns a model's sub-token labels (``-100`` where no label is wanted, and
the tokenizer's ``word_ids``, ``None`` or negative for special tokens) into one label a word: the
first, the last or the most frequent of its sub-tokens' labels. ``all`` aggregates nothing: every
labelled sub-token is a position of its own, and the gold tag of its word is spread over the word's
labelled sub-tokens, ``B-X`` becoming ``I-X`` after the first (when ``I-X`` is a known tag). That is
how Hugging Face's token classification examples score a model trained with ``label_all_tokens``
(``compute_metrics`` scores every position whose label is not ``-100``, and ``b_to_i_label`` makes
the label of a word's later sub-tokens): entities are then matched in sub-tokens, as that model sees them.

Problems raise `InputError` naming the file, the row and the token: a missing column (and the
option that names it), an id outside the names, rows of different lengths, an unreadable file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ... import options
from ...errors import InputError, OptionError, plural
from ...model.blocks import TagBlock
from ...model.quoting import quote
from ...model.vocab import TagVocab
from .conll import TaggedCorpus
from .hf_files import dataset_table, is_dataset
from .hf_rows import check_rows

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Int

    Spread = tuple[Int, Int]  # --subwords all: the word of each labelled sub-token, and their count a row

__all__ = ["SUBWORD_POLICIES", "WORD_POLICIES", "is_dataset", "read_hf", "read_tokens", "words_from_subwords"]

#: How a word's label is chosen among its sub-tokens' (``--subwords``); ``all``: none is, every
#: labelled sub-token is scored (see the module).
SUBWORD_POLICIES = options.SUBWORD_POLICIES
WORD_POLICIES = SUBWORD_POLICIES[:3]  # one label a word


def _class_names(feature: Any) -> list[str] | None:
    """The ``ClassLabel`` names of a (list of) ClassLabel feature, as JSON, else ``None``."""
    while isinstance(feature, dict):
        if isinstance(feature.get("names"), list):
            return [str(n) for n in feature["names"]]
        feature = feature.get("feature")
    return None


def _column(table: Any, path: str, name: str, option: str) -> tuple[Any, Int]:
    """The flat values and row lengths of the list column ``name``."""
    import pyarrow as pa

    if name not in table.column_names:
        detail = f"has no column {quote(name)}; its columns: {quote(table.column_names)}"
        raise InputError(path, None, detail, option=option)
    column = table.column(name).combine_chunks()
    if not pa.types.is_list(column.type) and not pa.types.is_large_list(column.type):
        raise InputError(path, None, f"column {quote(name)}: expected lists of tags, got {column.type}")
    if column.null_count:
        row = int(np.argmax(column.is_null().to_numpy(zero_copy_only=False)))
        raise InputError(path, None, f"row {row}: column {quote(name)} is null")
    return column.flatten(), column.value_lengths().to_numpy().astype(np.int64)


def _tag_ids(values: Any, where: tuple[str, str, Int], names: list[str] | None, vocab: TagVocab) -> Any:
    """The vocab ids of a flat column of ClassLabel ids (with their names) or of tag strings."""
    import pyarrow as pa
    import pyarrow.compute as pc

    path, name, lengths = where
    if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
        encoded = pc.dictionary_encode(values)
        names, ids = encoded.dictionary.to_pylist(), encoded.indices.to_numpy(zero_copy_only=False)
    elif pa.types.is_integer(values.type):
        if names is None:
            hint = "its features name no ClassLabel; give the names in id order"
            raise InputError(path, None, f"column {quote(name)} holds ids: {hint}", option="--label-names")
        ids = values.to_numpy(zero_copy_only=False).astype(np.int64)
        bad = (ids < 0) | (ids >= len(names))
        if bad.any():
            k = int(np.argmax(bad))
            row = int(np.searchsorted(np.cumsum(lengths), k, side="right"))
            token = k - int(lengths[:row].sum())
            detail = f"row {row}, token {token}: tag id {int(ids[k])} is outside the {len(names)} names"
            detail = f"{detail} of column {quote(name)} (0..{len(names) - 1})"
            raise InputError(path, None, detail, option="--label-names")
    else:
        raise InputError(path, None, f"column {quote(name)}: expected tag ids or strings, got {values.type}")
    mapped = vocab.add(names)
    if (mapped < 0).any():
        tag = names[int(np.argmin(mapped))]
        raise InputError(path, None, f"column {quote(name)}: {vocab.explain(tag)}")
    return mapped[ids].astype(np.int32)


def _side(
    path: str,
    column: str,
    names: tuple[Sequence[str] | None, Sequence[str] | None],
    vocab: TagVocab,
    subwords: str | None = None,
) -> tuple[Any, Int, list[str] | None, Spread | None, Any]:
    """The tag ids and row lengths of one side (the gold, without ``subwords``), its names, its table.

    ``names``: the tags of the ids given by the caller, and those where neither they nor the
    column's features name them. A prediction with a ``word_ids`` column has a label a
    sub-token, aggregated to words by ``subwords``; with ``all``, the lengths count words and
    the `Spread` says where the gold goes.
    """
    spread = None
    table, features = dataset_table(path)
    option = "--tag-column"
    values, lengths = _column(table, path, column, option)
    given, fallback = names
    found = list(given) if given is not None else _class_names(features.get(column))
    names_of = found if found is not None else (list(fallback) if fallback is not None else None)
    if subwords is not None and "word_ids" in table.column_names:
        values, lengths, spread = _to_words(table, path, values, lengths, subwords)
    elif subwords not in (None, "auto"):
        raise OptionError(
            options.flag("subwords"), f"applies to predictions with a word_ids column, and {path} has none"
        )
    elif "tokens" in table.column_names:
        _, token_lengths = _column(table, path, "tokens", option)
        if not np.array_equal(token_lengths, lengths):
            row = int(np.argmax(token_lengths != lengths))
            counts = f"{plural(int(token_lengths[row]), 'token')} but {plural(int(lengths[row]), 'tag')}"
            detail = f"has {counts} in {quote(column)}"
            raise InputError(path, None, f"row {row}: {detail}; expected one tag a token")
    where = (path, column, lengths if spread is None else spread[1])
    return _tag_ids(values, where, names_of, vocab), lengths, names_of, spread, table


def _to_words(
    table: Any, path: str, values: Any, lengths: Int, policy: str
) -> tuple[Any, Int, Spread | None]:
    """Sub-token labels aggregated to words (`words_from_subwords`), all rows at once.

    With ``all``: the labelled sub-tokens, the words a row, and their `Spread`.
    """
    import pyarrow as pa

    word_values, word_lengths = _column(table, path, "word_ids", "--subwords")
    if not np.array_equal(word_lengths, lengths):
        r = int(np.argmax(word_lengths != lengths))
        detail = f"row {r}: {word_lengths[r]} word ids for {lengths[r]} sub-token labels"
        raise InputError(path, None, detail)
    words = word_values.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    row = np.repeat(np.arange(len(lengths)), lengths)
    n_words = np.zeros(len(lengths), dtype=np.int64)
    np.maximum.at(n_words, row, words + 1)
    offset = np.cumsum(n_words) - n_words
    words = np.where(words >= 0, words + offset[row], -1)  # one numbering of every row's words
    labels = values.to_numpy(zero_copy_only=False).astype(np.int64)
    keep = (words >= 0) & (labels != -100)
    missing = np.ones(int(n_words.sum()), dtype=bool)
    missing[words[keep]] = False
    if missing.any():  # a word that no policy can score: it would be dropped
        k = int(np.argmax(missing))
        r = int(np.searchsorted(np.cumsum(n_words), k, side="right"))
        detail = f"row {r}: word {k - int(offset[r])} has no sub-token with a label (all are -100)"
        raise InputError(path, None, detail, option="--subwords")
    if policy == "all":
        return (
            values.filter(pa.array(keep)),
            n_words,
            (words[keep], np.bincount(row[keep], minlength=len(lengths))),
        )
    return (
        pa.array(words_from_subwords(labels, words, "first" if policy == "auto" else policy)),
        n_words,
        None,
    )


def _spread(gold: Any, spread: Spread, vocab: TagVocab) -> tuple[Any, Int]:
    """The gold tag of each word on each of its labelled sub-tokens (``--subwords all``).

    ``B-X`` becomes ``I-X`` after a word's first sub-token when ``I-X`` is a known tag (Hugging
    Face's ``b_to_i_label``). Also the number of sub-tokens of each row.
    """
    words, lengths = spread
    inside = np.arange(len(vocab.tags), dtype=np.int64)
    for i, tag in enumerate(list(vocab.tags)):  # a loop over the tag vocabulary, not the tokens
        if tag.startswith("B-") and "I-" + tag[2:] in vocab.tags:
            inside[i] = vocab.tags.index("I-" + tag[2:])
    ids = np.asarray(gold, dtype=np.int64)[words]
    later = np.zeros(len(words), dtype=bool)
    later[1:] = words[1:] == words[:-1]
    return np.where(later, inside[ids], ids).astype(np.int32), lengths


def read_hf(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    tag_column: str = "ner_tags",
    pred_column: str | None = None,
    label_names: Sequence[str] | None = None,
    subwords: str = "auto",
) -> TaggedCorpus:
    """The gold tags of a dataset, with predictions from ``pred`` or its ``pred_column``.

    Args:
        gold: a ``save_to_disk`` directory, a ``.parquet`` or an Arrow file.
        pred: a second dataset, its tags in ``tag_column`` (or ``pred_column``), rows paired.
        tag_column: the column of tags (``--tag-column``).
        pred_column: the column of predicted tags, in ``pred`` or else in ``gold``.
        label_names: the tag of each ClassLabel id, where the features give none; the
            predictions' ids default to the gold's names.
        subwords: predictions with a ``word_ids`` column have a label a sub-token (``-100`` for
            none): a word takes its ``first``, ``last`` or ``majority`` label (``auto``: first);
            ``all`` scores every labelled sub-token, the gold spread over them (see the module).

    Raises:
        InputError: a missing column, an id outside the names, sides of different lengths, a
            prediction row whose ``tokens`` or ``id`` is not the gold row's (`nerve.io.tags.hf_rows`).
    """
    options.one_of(subwords, ("auto", *SUBWORD_POLICIES), "subwords")
    g_path = os.fspath(gold)
    p_path = os.fspath(pred) if pred is not None else g_path
    vocab = TagVocab()
    g_ids, lengths, names, _, g_table = _side(g_path, tag_column, (label_names, None), vocab)
    p_ids = None
    if pred is not None or pred_column is not None:
        p_ids, p_lengths, _, spread, p_table = _side(
            p_path, pred_column or tag_column, (label_names, names), vocab, subwords
        )
        if len(p_lengths) != len(lengths):
            raise InputError(p_path, None, f"has {len(p_lengths)} rows, but the gold has {len(lengths)}")
        if "word_ids" not in p_table.column_names and p_path != g_path:  # a row of words each
            check_rows(g_table, p_table, g_path, p_path)
        if not np.array_equal(p_lengths, lengths):
            row = int(np.argmax(p_lengths != lengths))
            detail = f"row {row}: {p_lengths[row]} predicted tags for {lengths[row]} gold ones"
            raise InputError(p_path, None, detail)
        if spread is not None:
            g_ids, lengths = _spread(g_ids, spread, vocab)
    return TaggedCorpus((_block(g_ids, p_ids, lengths),), vocab, g_path)


def read_tokens(path: str | os.PathLike[str], column: str = "tokens") -> tuple[list[str], Int]:
    """The words of a dataset's ``tokens`` column, rows end to end, and how many each row has."""
    source = os.fspath(path)
    table, _ = dataset_table(source)
    values, lengths = _column(table, source, column, "")
    return [str(w) for w in values.to_pylist()], lengths


def _block(gold: Any, pred: Any, lengths: Int) -> TagBlock:
    """One block of every row, a sentence each; ``line`` is the row's number (from 1)."""
    n = int(lengths.sum())
    starts = np.zeros(n, dtype=bool)
    nonempty = lengths > 0
    starts[(np.cumsum(lengths) - lengths)[nonempty]] = True
    rows = np.repeat(np.arange(1, len(lengths) + 1, dtype=np.int64), lengths)
    no_docs = np.zeros(n, dtype=bool)
    return TagBlock(gold, pred, starts, no_docs, rows, rows)


def words_from_subwords(
    label_ids: Sequence[int] | npt.NDArray[np.integer[Any]],
    word_ids: Sequence[int | None] | npt.NDArray[np.integer[Any]],
    policy: str = "first",
) -> Int:
    """One label a word, from its sub-tokens' labels: ``first``, ``last`` or ``majority``.

    Sub-tokens whose word id is ``None`` (or negative) or whose label is ``-100`` are left out;
    words are numbered ``0..max(word_ids)``. ``majority`` takes the most frequent label, the
    earliest of those tied.

    Raises:
        OptionError: an unknown ``policy``, or inputs of different lengths.
        InputError: a word none of whose sub-tokens has a label.
    """
    options.one_of(policy, WORD_POLICIES, "subwords")
    labels = np.asarray(label_ids, dtype=np.int64).reshape(-1)
    given = word_ids if isinstance(word_ids, np.ndarray) else [-1 if w is None else w for w in word_ids]
    words = np.asarray(given, dtype=np.int64).reshape(-1)
    if labels.shape != words.shape:
        raise OptionError("word_ids", f"expected {len(labels)} word ids, one a label, got {len(words)}")
    keep = (words >= 0) & (labels != -100)
    position = np.flatnonzero(keep)
    w, lab = words[keep], labels[keep]
    n_words = int(words.max(initial=-1)) + 1
    if policy == "majority":
        order = np.lexsort((position, lab, w))  # pairs (word, label) together, first occurrence first
        w, lab, position = w[order], lab[order], position[order]
        new_pair = np.ones(len(w), dtype=bool)
        new_pair[1:] = (w[1:] != w[:-1]) | (lab[1:] != lab[:-1])
        firsts = np.flatnonzero(new_pair)
        counts = np.diff(np.append(firsts, len(w)))
        w, lab, position = w[firsts], lab[firsts], position[firsts]
        best = np.lexsort((position, -counts, w))  # per word: most frequent, then earliest
        w, lab = w[best], lab[best]
    elif policy == "last":
        w, lab = w[::-1], lab[::-1]
        order = np.argsort(w, kind="stable")
        w, lab = w[order], lab[order]
    else:
        order = np.argsort(w, kind="stable")
        w, lab = w[order], lab[order]
    out = np.full(n_words, -100, dtype=np.int64)
    uniq, first = np.unique(w, return_index=True)  # ``w`` is sorted: the first of each word's run
    out[uniq] = lab[first]
    missing = np.flatnonzero(out == -100)
    if len(missing):
        detail = f"word {int(missing[0])} has no sub-token with a label (all are -100 or absent)"
        raise InputError("word_ids", None, detail)
    return out
