"""Python tag lists in: lists of tag strings, one list per sentence, into one `TagBlock`.

In: gold (and optionally predicted) sequences of tag-string sequences and the `TagVocab` the tags
are added to. Out: one `model.blocks.TagBlock` with each token's line its 1-based position. A flat
list, a non-string tag, a tag the vocabulary refuses or misaligned sentences raise `InputError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...errors import InputError, plural
from ...model.blocks import TagBlock
from ...model.quoting import is_list, quote

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Int
    from ...model.vocab import TagVocab

__all__ = ["iter_lists"]


def _lengths(sentences: Sequence[Sequence[str]], side: str) -> Int:
    """The length of each sentence; an `InputError` naming the first that is not a list of tags."""
    try:
        return np.fromiter((len(s) for s in sentences), dtype=np.int64, count=len(sentences))
    except TypeError:
        i = next(i for i, s in enumerate(sentences) if not is_list(s))
        raise InputError(
            side, None, f"sentence {i}: expected a list of tags, got {quote(sentences[i])}"
        ) from None


def iter_lists(
    gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]] | None, vocab: TagVocab
) -> Iterator[TagBlock]:
    """Turn Python lists of tag lists (one list per sentence) into one `TagBlock`."""
    for side, given in (("<gold>", gold), ("<pred>", pred)):
        if not is_list(given) and not (side == "<pred>" and given is None):
            raise InputError(
                side, None, f"expected a list of tag lists (one per sentence), got {quote(given)}"
            )
    if isinstance(gold, str) or (gold and isinstance(gold[0], str)):
        raise InputError(
            "<gold>", None, "expected a list of tag lists (one per sentence), got a flat sequence"
        )
    lengths = _lengths(gold, "<gold>")
    if pred is not None:
        if isinstance(pred, str) or (pred and isinstance(pred[0], str)):
            raise InputError(
                "<pred>", None, "expected a list of tag lists (one per sentence), got a flat sequence"
            )
        if len(pred) != len(gold):
            raise InputError(
                "<pred>", None, f"has {plural(len(pred), 'sentence')}, but the gold has {len(gold)}"
            )
        p_lengths = _lengths(pred, "<pred>")
        bad = np.flatnonzero(p_lengths != lengths)
        if bad.shape[0]:
            i = int(bad[0])
            raise InputError(
                "<pred>",
                None,
                f"sentence {i} has {plural(int(p_lengths[i]), 'tag')}, "
                f"but the gold sentence has {lengths[i]}",
            )
    gold_ids = _list_ids(gold, vocab, "<gold>", lengths)
    pred_ids = _list_ids(pred, vocab, "<pred>", lengths) if pred is not None else None
    n = int(lengths.sum())
    sentence_start = np.zeros(n, dtype=np.bool_)
    offsets = np.cumsum(lengths) - lengths
    sentence_start[offsets[lengths > 0]] = True
    document_start = np.zeros(n, dtype=np.bool_)
    if n:
        document_start[0] = True
    line = np.arange(1, n + 1, dtype=np.int64)
    yield TagBlock(gold_ids, pred_ids, sentence_start, document_start, line, line)


def _list_ids(
    seqs: Iterable[Sequence[str]], vocab: TagVocab, name: str, lengths: Int
) -> npt.NDArray[np.int32]:
    flat = [t for s in seqs for t in s]
    if not flat:
        return np.zeros(0, dtype=np.int32)
    bad_type = next((t for t in flat if not isinstance(t, str)), None)
    if bad_type is not None:
        raise InputError(
            name,
            None,
            f"expected tag strings, got {type(bad_type).__name__} {quote(bad_type)}; map ids to tags first",
        )
    values, inverse = np.unique(np.asarray(flat, dtype=object).astype(str), return_inverse=True)
    tags = values.tolist()
    mapped = vocab.add(tags)
    if (mapped < 0).any():
        where = int(np.flatnonzero(mapped[inverse.reshape(-1)] < 0)[0])
        bad = int(inverse.reshape(-1)[where])
        sentence = int(np.searchsorted(np.cumsum(lengths), where, side="right"))
        offset = where - int((np.cumsum(lengths) - lengths)[sentence])
        raise InputError(name, None, f"sentence {sentence}, token {offset}: {vocab.explain(tags[bad])}")
    return mapped[inverse.reshape(-1)].astype(np.int32)
