"""Scoring a large JSONL span file piece by piece, in bounded memory.

In: one JSONL file holding both sides and the settings of `score_spans`. Out: the `Result` of the
whole file, the merge (`Result.merge`, in file order) of the results of pieces of whole lines
(`nerve.io.json.jsonl_chunks`): exact and MUC counts add up per document, so the merged result is the
one of reading the file at once, while only one piece's documents are held.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ..io.json.jsonl_chunks import CHUNK_BYTES, read_chunks
from ..model.spans import SpanArray
from ..results import Result

__all__ = ["chunks_apply", "score_jsonl_chunks"]


def chunks_apply(path: str, pred: str | None, fmt: str, plain: bool) -> bool:
    """Whether to read ``path`` in pieces: one JSONL file over `CHUNK_BYTES`, read plainly.

    ``plain``: nothing asks for the whole file at once (no kept spans, no lenient texts, no column).
    """
    if not (plain and pred is None and fmt == "jsonl"):
        return False
    try:
        return os.path.getsize(path) > CHUNK_BYTES
    except OSError:  # no size: the reader names the problem
        return False


def score_jsonl_chunks(
    path: str, units: str | None, score: Callable[[SpanArray, SpanArray], Result]
) -> Result:
    """The result of a JSONL file of both sides, ``score`` (`score_spans`) of one piece at a time."""
    total: Result | None = None
    for gold, pred in read_chunks(path, units, CHUNK_BYTES):
        part = score(gold, pred)
        total = part if total is None else total.merge(part)
    assert total is not None  # a file over CHUNK_BYTES has a piece
    return total
