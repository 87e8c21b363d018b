"""The shared decoding rule: tag ids and the pair codes of their transitions → entity chunks.

An entity tag continues the open entity when the continuation table says so for the pair
(previous tag, tag), else it begins one; the outside tag (id 0) stands before every sentence
(`neighbours`). Every reader and decoder uses this rule: the repair policies of
`nerve.tagging.decode` build on it, and the tag-column readers of ``io`` (HIPE, CoNLL-U) decode
with it directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from .schemes import OUT

if TYPE_CHECKING:
    import numpy.typing as npt

    from .arrays import Bool, Codes, Ids, Int

__all__ = ["NO_CHUNKS", "Chunks", "decode_ids", "neighbours"]


@frozen
class Chunks:
    """Entities decoded from a block: half-open token ranges of the block, and type ids."""

    start: Int
    end: Int
    type: Int

    def __len__(self) -> int:
        return int(self.start.shape[0])

    def select(self, keep: Bool) -> Chunks:
        """The chunks where ``keep`` is true."""
        return Chunks(self.start[keep], self.end[keep], self.type[keep])


NO_CHUNKS = Chunks(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))


def neighbours(ids: Ids, sentence_start: Bool) -> tuple[Ids, Ids]:
    """The tag before and after each token, with the outside tag (id 0) across sentence breaks."""
    n = ids.shape[0]
    prev = np.zeros(n, dtype=np.int32)
    nxt = np.zeros(n, dtype=np.int32)
    if n:
        prev[1:] = ids[:-1]
        nxt[:-1] = ids[1:]
        first = np.flatnonzero(sentence_start)
        prev[first] = 0
        nxt[first[1:] - 1] = 0
    return prev, nxt


def decode_ids(ids: Ids, codes: Codes, continues: Bool, kinds: npt.NDArray[np.int8], types: Int) -> Chunks:
    """Decode with the shared rule: every entity tag continues the open entity or begins one.

    Args:
        ids: tag ids of the tokens.
        codes: the pair code (`nerve.model.pairs`) of each token with the tag before it, the
            outside tag at sentence starts (from `neighbours`).
        continues: table pair code -> whether the current tag continues.
        kinds: kind of each tag id.
        types: type id of each tag id.
    """
    inside = (kinds != OUT).take(ids)
    starts = inside & ~continues.take(codes)  # prev: O at sentence starts
    # A chunk ends after token i when the next token does not continue it.
    last = np.ones_like(inside)
    last[:-1] = starts[1:] | ~inside[1:]
    last &= inside
    start = np.flatnonzero(starts)
    end = np.flatnonzero(last) + 1
    return Chunks(start, end, types[ids[start]])
