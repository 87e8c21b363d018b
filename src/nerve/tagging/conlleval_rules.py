r"""conlleval.pl's chunk rules (version 2004-01-26) as arrays, and its correct-chunk state machine.

conlleval.pl splits each tag at its first hyphen (`PerlTagTable`) and compares the part before
it with a few letters (`perl_letter`); its ``startOfChunk`` and ``endOfChunk`` are tables over
the letters of the previous and current tag (`START_OF_CHUNK`, `END_OF_CHUNK`), plus a change
of type. `PerlChunker` runs them block by block and counts gold, guessed and correct chunks per
type: ``nerve conlleval`` (`nerve.compat.conlleval`) and ``nerve score --repair conlleval``
both count with it.

The state machine: conlleval.pl keeps a flag "the chunks that started together are still equal".
At each token the flag is cleared or counted when either side ends a chunk, and set when both
start one of the same type. The flag's value at token t is therefore fixed by the last token
<= t at which it was set or cleared; `np.maximum.accumulate` over those positions finds it for
every token at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Codes, Int
    from ..model.vocab import TagVocab

ArrayT = TypeVar("ArrayT", bound="np.ndarray[Any, np.dtype[np.generic]]")

__all__ = [
    "END_OF_CHUNK",
    "P_O",
    "START_OF_CHUNK",
    "PerlChunker",
    "PerlCounts",
    "PerlTagTable",
    "perl_letter",
    "rule_tables",
    "vocab_codes",
]


# conlleval.pl compares the part of a tag before its first hyphen with these strings.
P_O, P_B, P_I, P_E, P_DOT, P_OPEN, P_CLOSE, P_OTHER = range(8)
_PERL_LETTERS = {b"O": P_O, b"B": P_B, b"I": P_I, b"E": P_E, b".": P_DOT, b"[": P_OPEN, b"]": P_CLOSE}


def perl_letter(prefix: bytes) -> int:
    """The code conlleval.pl's rules see for a tag prefix; every other prefix acts alike."""
    return _PERL_LETTERS.get(prefix, P_OTHER)


def rule_tables() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """conlleval.pl's ``endOfChunk`` and ``startOfChunk`` for a same-type step, as [previous, current]."""
    end = np.zeros((8, 8), dtype=np.bool_)
    start = np.zeros((8, 8), dtype=np.bool_)
    for prev, cur in [(P_B, P_B), (P_B, P_O), (P_I, P_B), (P_I, P_O), (P_E, P_E), (P_E, P_I), (P_E, P_O)]:
        end[prev, cur] = True
    for prev, cur in [(P_B, P_B), (P_I, P_B), (P_O, P_B), (P_O, P_I), (P_E, P_E), (P_E, P_I), (P_O, P_E)]:
        start[prev, cur] = True
    end[[P_OPEN, P_CLOSE], :] = True
    start[:, [P_OPEN, P_CLOSE]] = True
    return end, start


END_OF_CHUNK, START_OF_CHUNK = rule_tables()


@dataclass
class PerlCounts:
    """Per-type chunk counts of the state machine, indexed by type id.

    An array may end before the highest type id: the counts it leaves out are 0.
    """

    gold: Int
    pred: Int
    correct: Int


def _bincount(values: Int) -> Int:
    return np.bincount(values).astype(np.int64)


def _add(a: Int, b: Int) -> Int:
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    out = a.copy()
    out[: b.shape[0]] += b
    return out


def _shift(values: ArrayT, first: int) -> ArrayT:
    """The value before each position: ``first``, then ``values`` shifted by one."""
    out = np.empty_like(values)
    out[0] = first
    out[1:] = values[:-1]
    return out


class PerlTagTable:
    """Distinct tags as conlleval.pl splits them: prefix code, type id and (prefix, type) id.

    conlleval.pl splits a tag at its first hyphen; a tag without one, and the type ``0``, have
    the empty type (id 0). With ``raw`` (its ``-r``), ``outside`` is ``O`` and every other tag
    is ``B-`` and itself.
    """

    def __init__(self, raw: bool = False, outside: bytes = b"O") -> None:
        self.raw = raw
        self.outside = outside
        self.types: list[bytes] = [b""]
        self._type_index = {b"": 0}
        self._pairs: dict[tuple[bytes, bytes], int] = {}
        self._cache: dict[bytes, tuple[int, int, int]] = {}

    def lookup(self, tags: Sequence[bytes]) -> tuple[Codes, Int, Int]:
        """Prefix codes, type ids and (prefix, type) ids of ``tags``."""
        rows = [self._one(t) for t in tags]
        arr = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
        return arr[:, 0].astype(np.int8), arr[:, 1], arr[:, 2]

    def _one(self, tag: bytes) -> tuple[int, int, int]:
        found = self._cache.get(tag)
        if found is not None:
            return found
        t = tag
        if self.raw:
            if t == self.outside:
                t = b"O"
            if t != b"O":
                t = b"B-" + t
        prefix, hyphen, typ = t.partition(b"-")
        if not hyphen:
            typ = b""
        if typ == b"0":
            typ = b""
        if typ not in self._type_index:
            self._type_index[typ] = len(self.types)
            self.types.append(typ)
        pair = self._pairs.setdefault((prefix, typ), len(self._pairs))
        found = (perl_letter(prefix), self._type_index[typ], pair)
        self._cache[tag] = found
        return found


class PerlChunker:
    """conlleval.pl's chunk rules and correct-chunk counting, fed block by block.

    Each token is given as a prefix code (`perl_letter`) and a type id for each side. The
    empty type must have id 0: conlleval.pl gives ``O`` the empty type, and untyped tags too.
    """

    def __init__(self) -> None:
        self.last = (P_O, 0, P_O, 0)
        self.in_correct = False
        self.counts = PerlCounts(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))

    def update(self, gold_code: Codes, gold_type: Int, pred_code: Codes, pred_type: Int) -> None:
        """Run the rules over the next tokens (boundaries given as O tokens of type 0)."""
        n = gold_code.shape[0]
        if n == 0:
            return
        lgc, lgt = _shift(gold_code, self.last[0]), _shift(gold_type, self.last[1])
        lpc, lpt = _shift(pred_code, self.last[2]), _shift(pred_type, self.last[3])
        gold_end = END_OF_CHUNK[lgc, gold_code] | ((lgc != P_O) & (lgc != P_DOT) & (lgt != gold_type))
        pred_end = END_OF_CHUNK[lpc, pred_code] | ((lpc != P_O) & (lpc != P_DOT) & (lpt != pred_type))
        gold_start = START_OF_CHUNK[lgc, gold_code] | (
            (gold_code != P_O) & (gold_code != P_DOT) & (lgt != gold_type)
        )
        pred_start = START_OF_CHUNK[lpc, pred_code] | (
            (pred_code != P_O) & (pred_code != P_DOT) & (lpt != pred_type)
        )
        # conlleval.pl's `$lastGuessedType eq $lastCorrectType`: always true where `before` is, since
        # the type check of `broken` clears the flag at a token whose two types differ.
        close = gold_end & pred_end & (lpt == lgt)
        broken = (gold_end != pred_end) | (pred_type != gold_type)
        set_ = gold_start & pred_start & (pred_type == gold_type)
        decided = set_ | close | broken
        where = np.maximum.accumulate(np.where(decided, np.arange(n), -1))
        flag = np.where(where >= 0, set_[np.maximum(where, 0)], self.in_correct)
        before = np.empty(n, dtype=np.bool_)
        before[0] = self.in_correct
        before[1:] = flag[:-1]
        self.counts = PerlCounts(
            _add(self.counts.gold, _bincount(gold_type[gold_start])),
            _add(self.counts.pred, _bincount(pred_type[pred_start])),
            _add(self.counts.correct, _bincount(lgt[before & close])),
        )
        self.last = (int(gold_code[-1]), int(gold_type[-1]), int(pred_code[-1]), int(pred_type[-1]))
        self.in_correct = bool(flag[-1])

    def finish(self) -> PerlCounts:
        """Count the chunk still open at the end of the input, and return the totals."""
        if self.in_correct:
            self.in_correct = False
            extra = np.zeros(self.last[1] + 1, dtype=np.int64)
            extra[self.last[1]] = 1
            self.counts.correct = _add(self.counts.correct, extra)
        return self.counts


def vocab_codes(vocab: TagVocab) -> tuple[Codes, Int]:
    """The letter code and conlleval.pl type of each tag id of ``vocab``.

    conlleval.pl gives ``O`` and untyped tags the empty type, id 0 here; type id ``k`` of the
    vocabulary is ``k + 1``.
    """
    codes = np.asarray([perl_letter(letter.encode()) for letter in vocab.letters], dtype=np.int8)
    codes[0] = P_O
    perl_type = vocab.types + 1
    if "" in vocab.type_names:
        perl_type[vocab.types == vocab.type_names.index("")] = 0
    return codes, perl_type
