"""The votes and the bootstrap of the compiled agreement path.

In: each annotator's entities as the C core gives them (int64 bytes, labels in one sorted list of
types), or the per-document rows of the bootstrap. Out: the votes and disagreeing clusters as
lists (the compiled engine's `agree_votes`, the twin of `nerve.analysis.agree_votes`), and every
resample's column sums (the compiled engine's `agree_resample`: numpy's `default_rng` and
`integers`, `seed_words` its SeedSequence) with their percentile interval (`quantiles`, numpy's
linear method). Nothing here imports numpy.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from types import ModuleType

Column = tuple[bytes, bytes, bytes, bytes]  # doc, start, end, label: int64 each

__all__ = ["FlatVotes", "any_differs", "flat_votes", "quantiles", "resampled", "resampled_flat"]


class FlatVotes:
    """Every distinct entity and who marked it (a bitmask), its cluster, and the clusters apart.

    The compiled engine's `agree_votes` (csrc/agree.c): `nerve.analysis.agree_votes.votes_of` and
    `categories_of`, for flat annotators who annotated every document.
    """

    def __init__(self, found: tuple[bytes, ...]) -> None:
        doc, start, end, label, voters, cluster, apart, kinds = found
        # the votes are read a row at a time, for the rows listed: views, not lists
        self.doc, self.start, self.end = _view(doc), _view(start), _view(end)
        self.label, self.cluster = _view(label), _view(cluster)
        self.voters: Sequence[int] = memoryview(voters).cast("Q")
        self.apart, self.kinds = _ints(apart), _ints(kinds)


def flat_votes(core: ModuleType, columns: Sequence[Column]) -> FlatVotes:
    """The `FlatVotes` of flat annotators (at most 63) who annotated every document."""
    found = core.agree_votes(list(columns))
    assert found is not None  # decoded columns are flat and sorted, and there are at most 63
    return FlatVotes(found)


def _ints(b: bytes) -> list[int]:
    return memoryview(b).cast("q").tolist()


def _view(b: bytes) -> Sequence[int]:
    return memoryview(b).cast("q")


_MASK = 0xFFFFFFFF
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def seed_words(seed: int) -> tuple[int, int, int, int]:
    """Numpy's ``SeedSequence(seed).generate_state(4, np.uint64)``: what seeds `default_rng(seed)`.

    The seed's 32-bit words (little end first) are mixed into a pool of four, as numpy's
    SeedSequence mixes its entropy, and the pool is hashed out into eight 32-bit words.
    """
    words = []
    while True:
        words.append(seed & _MASK)
        seed >>= 32
        if not seed:
            break
    hash_const = [_INIT_A]

    def hashmix(value: int) -> int:
        value = (value ^ hash_const[0]) & _MASK
        hash_const[0] = (hash_const[0] * _MULT_A) & _MASK
        value = (value * hash_const[0]) & _MASK
        return value ^ (value >> 16)

    def mix(x: int, y: int) -> int:
        result = (_MIX_L * x - _MIX_R * y) & _MASK
        return result ^ (result >> 16)

    pool = [hashmix(words[i] if i < len(words) else 0) for i in range(4)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(4, len(words)):
        for dst in range(4):
            pool[dst] = mix(pool[dst], hashmix(words[src]))
    out, const = [], _INIT_B
    for i in range(8):
        value = pool[i % 4] ^ const
        const = (const * _MULT_B) & _MASK
        value = (value * const) & _MASK
        out.append(value ^ (value >> 16))
    w = [out[2 * i] | out[2 * i + 1] << 32 for i in range(4)]
    return w[0], w[1], w[2], w[3]


def resampled(core: ModuleType, rows: list[list[int]], n: int, seed: int) -> list[list[int]]:
    """The column sums of ``n`` resamples of ``rows`` (units x columns), drawn as `agree_intervals` draws.

    The compiled engine's `agree_resample`: numpy's generator and draws, whole-number sums.
    """
    k = len(rows[0]) if rows else 0
    flat = array("q", [v for row in rows for v in row]).tobytes()
    return resampled_flat(core, flat, (len(rows), k), n, seed)


def resampled_flat(
    core: ModuleType,
    values: bytes,
    shape: tuple[int, int],
    n: int,
    seed: int,
    part: tuple[int, int] | None = None,
) -> list[list[int]]:
    """`resampled` of ``values``: int64 bytes of ``shape`` (units x columns), row after row.

    ``part``: only the resamples ``first`` to ``last`` of the ``n`` (the draws of those before are
    drawn and dropped), so that parts can be summed at once.
    """
    units, k = shape
    first, last = part if part is not None else (0, n)
    found = core.agree_resample(values, units, k, n, seed_words(seed), first, last)
    totals = memoryview(found).cast("q").tolist()
    return [totals[r * k : (r + 1) * k] for r in range(last - first)]


def quantiles(values: list[float], confidence: float) -> tuple[float, float]:
    """The percentile interval of ``values``, float operation for float operation as numpy's.

    As `nerve.analysis.bootstrap.percentiles` computes it: numpy's ``quantile``, method ``linear``.
    """
    ordered = sorted(values)
    tail = (1 - confidence) / 2
    low, high = (_linear(ordered, q) for q in (tail, 1 - tail))
    return low, high


def _linear(ordered: list[float], q: float) -> float:
    """Numpy's linear quantile ``q`` of sorted values: its virtual index, neighbours and `_lerp`."""
    n = len(ordered)
    index = (n - 1) * q
    below = math.floor(index)
    if index >= n - 1:
        a = b = ordered[-1]
    else:
        a, b = ordered[below], ordered[below + 1]
    t = index - below
    diff = b - a
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t


def any_differs(values: list[float]) -> bool:
    """Whether the values are not all the first."""
    return any(v != values[0] for v in values)
