"""Small hand-made inputs: int64 arrays, a tag vocabulary and a block of its ids.

The tests that use them need no data, so they run inside mutmut's ``mutants/`` tree too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nerve.model.blocks import TagBlock
from nerve.model.schemes import TagFormat, get_scheme
from nerve.model.vocab import TagVocab

IOB2 = get_scheme("IOB2")


def ints(values: list[int]) -> np.ndarray:  # type: ignore[type-arg]
    return np.asarray(values, dtype=np.int64)


def vocab(order: list[str], scheme: str = "IOB2") -> TagVocab:
    """A vocabulary whose ids follow ``order``."""
    v = TagVocab(TagFormat(), get_scheme(scheme))
    v.add(order)
    return v


def block(
    v: TagVocab, gold: list[str], pred: list[str], sentences: list[int], docs: Sequence[int] = ()
) -> TagBlock:
    """A block of one vocabulary's ids; ``sentences`` and ``docs`` list the positions that start one."""
    n = len(gold)
    starts = np.zeros(n, dtype=np.bool_)
    starts[sentences] = True
    doc_starts = np.zeros(n, dtype=np.bool_)
    doc_starts[list(docs)] = True
    line = np.arange(1, n + 1, dtype=np.int64)
    return TagBlock(v.add(gold), v.add(pred), starts, doc_starts, line, line)
