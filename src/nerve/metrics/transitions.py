"""One side's transitions, counted tag pair by tag pair, and the scheme they fit.

In: tag ids of a `TagVocab`, sentence by sentence. Out: `TransitionTable`, the additive counts of
each kind of transition (pair code, `nerve.model.pairs`) and of each tag, from which `infer_from`
infers the scheme and `nerve.metrics.exact` counts repairs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..model.chunks import neighbours
from ..model.counts import SchemeEvidence
from ..model.pairs import KIND_OF_PREVIOUS, KIND_OF_TAG, N_CODES, SAME, pair_codes
from ..model.schemes import BEGIN, END, SCHEMES, Scheme, infer_scheme
from ..model.vocab import TagVocab
from ..tagging.decode import transition_counts

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Bool, Int

__all__ = ["TransitionTable", "evidence", "grow", "infer_from"]


def grow(a: Int, size: int) -> Int:
    """``a`` padded with zeros to ``size`` entries (``a`` itself when it has as many)."""
    if a.shape[0] >= size:
        return a
    out = np.zeros(size, dtype=np.int64)
    out[: a.shape[0]] = a
    return out


class TransitionTable:
    """One side's transitions: counts by pair code, and how often each tag id occurs.

    Sentence edges count as the outside tag, id 0 (`nerve.tagging.decode.transition_counts`).
    """

    def __init__(self) -> None:
        self.codes: Int = np.zeros(N_CODES, dtype=np.int64)
        self.tags: Int = np.zeros(1, dtype=np.int64)

    def add(self, ids: npt.NDArray[np.int32], sentence_start: Bool, vocab: TagVocab) -> None:
        """Count the transitions of tag ids of ``vocab``, sentence by sentence."""
        kinds, types = vocab.kinds, vocab.types
        codes = pair_codes(neighbours(ids, sentence_start)[0], ids, kinds, types)
        self.add_counts(transition_counts(ids, sentence_start, codes, kinds, types))

    def add_counts(self, block: Int, ids: npt.NDArray[np.integer] | None = None) -> None:
        """Add a block's `transition_counts`, its tag ids mapped by ``ids`` when given."""
        self.codes += block[:N_CODES]
        tags = block[N_CODES:]
        if ids is None:
            self.tags = grow(self.tags, tags.shape[0])
            self.tags[: tags.shape[0]] += tags
        else:
            self.tags = grow(self.tags, int(ids.max(initial=-1)) + 1)
            np.add.at(self.tags, ids[: tags.shape[0]], tags)

    def absorb(self, other: TransitionTable, ids: npt.NDArray[np.integer]) -> None:
        """Add another table, whose tag id ``i`` is ``ids[i]`` here."""
        self.add_counts(np.concatenate([other.codes, other.tags]), ids)

    def used(self) -> Int:
        """The tag ids that occur, the outside tag (id 0) too when any sentence was read."""
        return np.flatnonzero(self.tags)


def evidence(vocab: TagVocab, tables: list[TransitionTable]) -> SchemeEvidence:
    """What the scheme is inferred from: the letters of the tags read and how they follow each other."""
    seen = sum((t.codes for t in tables), np.zeros(N_CODES, dtype=np.int64)) > 0
    in_use = np.unique(np.concatenate([t.used() for t in tables]))
    return SchemeEvidence(
        frozenset(vocab.letters[i] for i in in_use.tolist()),
        b_after_other=bool(np.any(seen & (KIND_OF_TAG == BEGIN) & ~SAME)),
        e_before_other=bool(np.any(seen & (KIND_OF_PREVIOUS == END) & ~SAME)),
        bare=vocab.format is not None and vocab.format.position == "bare",
    )


def infer_from(vocab: TagVocab, tables: list[TransitionTable]) -> Scheme:
    """Infer the scheme from the tags read and how they follow each other."""
    if vocab.format is not None and vocab.format.position == "bare":
        return SCHEMES["IO"]
    found = evidence(vocab, tables)
    return infer_scheme(found.letters, found.b_after_other, found.e_before_other)
