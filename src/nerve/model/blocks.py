"""Blocks of tag ids: the columnar form every tag reader emits and every tag metric consumes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen

if TYPE_CHECKING:
    import numpy.typing as npt

    from .arrays import Bool, Int

__all__ = ["TagBlock", "Words"]


@frozen(eq=False)
class Words:
    """The token strings of a block, columnar: token ``i`` is ``values[ids[i]]`` (UTF-8 bytes)."""

    ids: npt.NDArray[np.intp]
    values: list[bytes]


@frozen
class TagBlock:
    """Whole sentences of a corpus in columnar form.

    Attributes:
        gold: gold tag id of each token (ids of the reader's `TagVocab`).
        pred: predicted tag id of each token, or ``None`` when only one side was read.
        sentence_start: whether each token starts a sentence.
        document_start: whether each token is the first after a ``-DOCSTART-`` line.
        line: the 1-based line of each token in the gold (or merged) file.
        pred_line: the line of each token in the prediction file (equal to ``line`` for one file).
        words: the tokens themselves, when the reader was asked to keep them (for error analysis).
    """

    gold: npt.NDArray[np.int32]
    pred: npt.NDArray[np.int32] | None
    sentence_start: Bool
    document_start: Bool
    line: Int
    pred_line: Int
    words: Words | None = None

    def __len__(self) -> int:
        return int(self.gold.shape[0])
