"""Per-type entity counts for seqeval's modes, from `nerve.score`; and the tag comparisons.

In: seqeval's arguments (tag lists, ``mode``, ``scheme``, ``suffix``). Out: `EntityCounts`, the
gold, predicted and correct entity counts per type in seqeval's order (sorted names), which
`nerve.compat.seqeval.metrics.v1` turns into scores; the entities of `decode_flat` in seqeval's
``get_entities`` form; and the flattened tag arrays of `flat_tags` for the token metrics.

How each mode decodes (nerve's decoder, no chunking here):

- ``mode=None`` (seqeval's conlleval-like default): ``repair="begin"``, in ``scheme`` when one is
  given; else in the scheme nerve infers when the tags use only the letters B, I and O (IOB2 or
  IOB1, where ``begin`` counts what seqeval counts, and the repairs are the real ill-formed
  entities); else in IOBES when they use only B, I, E, S and O (the letters seqeval's default
  mode knows; on them ``begin`` counts what seqeval counts); else in the scheme nerve infers
  (BILOU's L and U, BMES's M).
- ``mode="strict"``: ``repair="discard"`` in ``scheme``, or without one in the scheme seqeval's
  `auto_detect` picks from the gold tags (from the predicted tags when the gold ones are all ``O``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._frozen import frozen
from ...api import decode, score
from ...errors import InputError, OptionError, plural
from ...model.quoting import quote
from .scheme import auto_detect, scheme_name

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "LENIENT_LETTERS",
    "EntityCounts",
    "check_mode",
    "check_tags",
    "decode_flat",
    "entity_counts",
    "flat_tags",
]

LENIENT_LETTERS = frozenset("BIESO")
IOB_LETTERS = frozenset("BIO")  # decoded in their own scheme, so the signature and repairs are honest
UNTYPED = "_"  # seqeval's name for the type of a bare tag (``B``, ``I``)


@frozen
class EntityCounts:
    """Gold (``true``), predicted and correct (``tp``) entities per type, names sorted."""

    names: list[str]
    true: npt.NDArray[np.int64]
    pred: npt.NDArray[np.int64]
    tp: npt.NDArray[np.int64]


def check_mode(mode: str | None) -> bool:
    """Whether ``mode`` is strict: ``None`` (seqeval's default) or ``"strict"``, else an OptionError."""
    if mode is None or mode == "strict":
        return mode is not None
    detail = f"expected None (seqeval's default, conlleval-like) or 'strict', but got {mode!r}"
    raise OptionError("mode", detail)


def check_tags(seq: object, side: str) -> None:
    """``seq`` must be a list of tag lists (or, where seqeval takes one, a flat list of tags).

    Raises:
        InputError: anything else (a number, None, a string, a list of numbers), named by side
            and sentence, where seqeval raises a TypeError or reads the characters of a string.
    """
    if isinstance(seq, str | bytes) or not isinstance(seq, Sequence | np.ndarray):
        raise InputError(side, None, f"expected a list of tag lists (one per sentence), got {quote(seq)}")
    for i, sentence in enumerate(seq):
        if not isinstance(sentence, str) and (
            isinstance(sentence, bytes) or not isinstance(sentence, Sequence | np.ndarray)
        ):
            detail = f"sentence {i}: expected a list of tags, got {quote(sentence)}"
            raise InputError(side, None, detail)


def _letters(*sides: Sequence[Sequence[str]], suffix: bool) -> set[str]:
    """The prefix letters of the distinct tags (the first character, or the last with ``suffix``)."""
    tags = set(chain.from_iterable(chain.from_iterable(sides)))
    return {t[-1] if suffix else t[0] for t in tags if isinstance(t, str) and t}


def decoding(
    y_true: Sequence[Sequence[str]],
    y_pred: Sequence[Sequence[str]] | None,
    *,
    strict: bool,
    scheme: object,
    suffix: bool,
) -> tuple[str, str]:
    """The nerve scheme name and repair policy that count what seqeval's ``mode`` counts."""
    named = scheme_name(scheme)
    if strict:
        return named or _detected(y_true, y_pred, suffix), "discard"
    if named is None:
        sides = (y_true,) if y_pred is None else (y_true, y_pred)
        letters = _letters(*sides, suffix=suffix)
        named = "IOBES" if letters <= LENIENT_LETTERS and not letters <= IOB_LETTERS else "auto"
    return named, "begin"


def _detected(y_true: Sequence[Sequence[str]], y_pred: Sequence[Sequence[str]] | None, suffix: bool) -> str:
    """The scheme `auto_detect` finds in the gold tags, or the predicted ones where the gold has only ``O``.

    With only ``O`` on both sides nothing is decoded and any scheme gives the same counts.
    """
    for side in (y_true, y_pred or []):
        if _letters(side, suffix=suffix) - {"O"}:
            return auto_detect(side, suffix).__name__
    return "IOB2"


def entity_counts(
    y_true: Sequence[Sequence[str]],
    y_pred: Sequence[Sequence[str]],
    *,
    strict: bool,
    scheme: object = None,
    suffix: bool = False,
) -> EntityCounts:
    """The per-type counts seqeval's ``mode`` gives ``y_true`` against ``y_pred``, by `nerve.score`."""
    check_tags(y_true, "<gold>")
    check_tags(y_pred, "<pred>")
    name, repair = decoding(y_true, y_pred, strict=strict, scheme=scheme, suffix=suffix)
    result = score(y_true, y_pred, scheme=name, repair=repair, tag_format="X-B" if suffix else "B-X")
    rows = sorted((n or UNTYPED, c.gold, c.predicted, c.tp) for n, c in result.exact.counts.items())
    rows = [r for r in rows if r[1] or r[2]]
    columns = [np.array([r[k] for r in rows], dtype=np.int64) for k in (1, 2, 3)]
    return EntityCounts([r[0] for r in rows], *columns)


def decode_flat(seq: Sequence[Any], suffix: bool = False) -> list[tuple[str, int, int]]:
    """The entities seqeval's ``get_entities`` gives: ``(type, start, end)`` with ``end`` inclusive.

    The offsets of a list of sentences are those of seqeval's flattening, with an ``O`` after each
    sentence. Decoded as ``mode=None`` decodes.
    """
    check_tags(seq, "<seq>")
    nested = bool(len(seq)) and not isinstance(seq[0], str)
    sentences: Sequence[Sequence[str]] = seq if nested else [seq]
    name, repair = decoding(sentences, None, strict=False, scheme=None, suffix=suffix)
    spans = decode(sentences, scheme=name, repair=repair, tag_format="X-B" if suffix else "B-X")
    lengths = np.fromiter((len(s) + 1 for s in sentences), dtype=np.int64, count=len(sentences))
    base = (np.cumsum(lengths) - lengths).tolist()
    return [(s.label or UNTYPED, s.start + base[s.seq], s.end - 1 + base[s.seq]) for s in spans]


def flat_tags(y_true: Sequence[Any], y_pred: Sequence[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Both sides as flat object arrays of tags, sentence by sentence; lengths must agree.

    Flat lists of tags are taken as they are, as seqeval's token metrics take them.

    Raises:
        InputError: a different number of sentences, or of tags in a sentence (seqeval compares
            only the common prefix).
    """
    check_tags(y_true, "<gold>")
    check_tags(y_pred, "<pred>")
    nested = any(not isinstance(s, str) for s in y_true)
    if len(y_true) != len(y_pred):
        what = "sentence" if nested else "tag"
        raise InputError("<pred>", None, f"has {plural(len(y_pred), what)}, but the gold has {len(y_true)}")
    if not nested:
        return np.array(y_true, dtype=object), np.array(y_pred, dtype=object)
    for i, (t, p) in enumerate(
        zip(y_true, y_pred, strict=True)
    ):  # per sentence, to name the one that differs
        if len(t) != len(p):
            detail = f"sentence {i} has {plural(len(p), 'tag')}, but the gold sentence has {len(t)}"
            raise InputError("<pred>", None, detail)
    true = np.array(list(chain.from_iterable(y_true)), dtype=object)
    return true, np.array(list(chain.from_iterable(y_pred)), dtype=object)
