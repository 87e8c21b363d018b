"""A gold and a prediction file of tag columns (HIPE, CoNLL-U) must hold the same tokens.

In: the tokens of each file, with the document, the sentence start and the line of each (a
`TokenColumn`). Out: ``None`` when the files pair token by token, else an `InputError` at the
first token where they part: another token, another document, another sentence, or a file that
ends before the other. Entity offsets count tokens, so two files that do not hold the same tokens
would be scored as if they did, with shifted entities. `read_sides` reads a gold and a prediction
file that way, each read with `read_or_none` (a problem collected, or raised).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ..._frozen import frozen
from ...errors import InputError, plural
from ...model.quoting import quote
from ..bytes import equal_ranges
from ..json.jsonl import Problems, collect

if TYPE_CHECKING:
    from ...model.arrays import Bool, Bytes, Int
    from ...model.spans import SpanArray

__all__ = ["PAIRED", "TokenColumn", "check_paired", "read_or_none", "read_sides"]

Read = TypeVar("Read")

#: What a prediction file of tag columns must be, said at the end of each error.
PAIRED = "the prediction file must hold the gold file's tokens, sentences and documents, in order"


@frozen
class TokenColumn:
    """The tokens of one file: token ``i`` is ``buf[start[i]:end[i]]``, on 1-based line ``line[i]``."""

    path: str
    buf: Bytes
    start: Int
    end: Int
    doc: Int
    sentence_start: Bool
    line: Int

    def __len__(self) -> int:
        return int(self.start.shape[0])

    def token(self, i: int) -> str:
        """Token ``i``, decoded."""
        return self.buf[int(self.start[i]) : int(self.end[i])].tobytes().decode("utf-8", "replace")

    def where(self, i: int) -> str:
        """Where token ``i`` is, for a message: ``path:line``."""
        return f"{self.path}:{int(self.line[i])}"


def check_paired(gold: TokenColumn, pred: TokenColumn) -> InputError | None:
    """The error at the first token where ``pred`` parts from ``gold``, or ``None`` if they pair."""
    n = min(len(gold), len(pred))
    same_doc = gold.doc[:n] == pred.doc[:n]
    same_start = gold.sentence_start[:n] == pred.sentence_start[:n]
    same_token = equal_ranges(gold.buf, gold.start[:n], gold.end[:n], pred.buf, pred.start[:n], pred.end[:n])
    differ = np.flatnonzero(~(same_doc & same_start & same_token))
    if differ.shape[0]:
        i = int(differ[0])
        token = quote(pred.token(i))
        if not same_token[i]:
            what = f"token {token} where the gold file has {quote(gold.token(i))} ({gold.where(i)})"
        elif not same_doc[i]:
            what = (
                f"token {token} is in document {int(pred.doc[i])}, but at {gold.where(i)} "
                f"it is in document {int(gold.doc[i])}"
            )
        else:
            starts = bool(pred.sentence_start[i])
            what = (
                f"token {token} {'starts' if starts else 'does not start'} a sentence, "
                f"but at {gold.where(i)} it {'does not' if starts else 'does'}"
            )
        return InputError(pred.path, int(pred.line[i]), f"{what}; {PAIRED}")
    if len(pred) < len(gold):
        what = (
            f"ends after {plural(n, 'token')}, but the gold file goes on at {gold.where(n)} "
            f"(document {int(gold.doc[n])}) with {quote(gold.token(n))}"
        )
        return InputError(pred.path, None, f"{what}; {PAIRED}")
    if len(pred) > len(gold):
        what = f"goes on with token {quote(pred.token(n))} after the gold file's {plural(n, 'token')}"
        return InputError(pred.path, int(pred.line[n]), f"{what}; {PAIRED}")
    return None


def read_or_none(read: Callable[[str], Read], path: str, problems: Problems) -> Read | None:
    """``read(path)``, or ``None`` when the file cannot be read and ``problems`` collects why."""
    try:
        return read(path)
    except InputError as err:
        collect(problems, err)
        return None


def read_sides(
    gold: str,
    pred: str | None,
    problems: Problems,
    read: Callable[[str], Read],
    spans: Callable[[str, Read | None], SpanArray],
    tokens: Callable[[str, Read], TokenColumn],
) -> tuple[SpanArray, SpanArray | None]:
    """The spans of a gold and a prediction file, read by ``read``, paired token by token first.

    Offsets count tokens, so a prediction file whose ``tokens`` part from the gold file's is a
    problem (`check_paired`): a token missing from it would shift every entity after it.
    """
    g = read_or_none(read, gold, problems)
    if pred is None:
        return spans(gold, g), None
    p = read_or_none(read, pred, problems)
    if g is not None and p is not None:
        misaligned = check_paired(tokens(gold, g), tokens(pred, p))
        if misaligned is not None:
            collect(problems, misaligned)
    return spans(gold, g), spans(pred, p)
