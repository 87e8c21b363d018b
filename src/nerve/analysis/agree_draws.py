"""The votes and the bootstrap of the compiled agreement path.

In: each annotator's entities as the C core gives them (int64 bytes, labels in one sorted list of
types), or the per-document rows of the bootstrap. Out: the votes and disagreeing clusters as
lists (the compiled engine's `agree_votes`, the twin of `nerve.analysis.agree_votes`), and every
resample's column sums (`resample_totals`, the same generator and seed) with their percentile
interval, by the very functions the numpy engine calls; numpy is imported for those only.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

Column = tuple[bytes, bytes, bytes, bytes]  # doc, start, end, label: int64 each

__all__ = ["FlatVotes", "any_differs", "flat_votes", "quantiles", "resampled"]


class FlatVotes:
    """Every distinct entity and who marked it (a bitmask), its cluster, and the clusters apart.

    The compiled engine's `agree_votes` (csrc/agree.c): `nerve.analysis.agree_votes.votes_of` and
    `categories_of`, for flat annotators who annotated every document.
    """

    def __init__(self, found: tuple[bytes, ...]) -> None:
        doc, start, end, label, voters, cluster, apart, kinds = found
        self.doc, self.start, self.end = _ints(doc), _ints(start), _ints(end)
        self.label, self.cluster = _ints(label), _ints(cluster)
        self.voters: list[int] = memoryview(voters).cast("Q").tolist()
        self.apart, self.kinds = _ints(apart), _ints(kinds)


def flat_votes(core: ModuleType, columns: Sequence[Column]) -> FlatVotes:
    """The `FlatVotes` of flat annotators (at most 63) who annotated every document."""
    found = core.agree_votes(list(columns))
    assert found is not None  # decoded columns are flat and sorted, and there are at most 63
    return FlatVotes(found)


def _ints(b: bytes) -> list[int]:
    return memoryview(b).cast("q").tolist()


def resampled(rows: list[list[int]], n: int, seed: int) -> list[list[float]]:
    """The column sums of ``n`` resamples of ``rows`` (units x columns), drawn as `agree_intervals` draws."""
    import numpy as np

    from ..analysis.bootstrap import resample_totals

    matrix = np.asarray(rows, dtype=np.int64)
    return list(resample_totals(matrix, n, np.random.default_rng(seed)).tolist())


def quantiles(values: list[float], confidence: float) -> tuple[float, float]:
    """The percentile interval of ``values`` (`nerve.analysis.bootstrap.percentiles`)."""
    import numpy as np

    from ..analysis.bootstrap import percentiles

    low, high = percentiles(np.asarray(values, dtype=np.float64), confidence).tolist()
    return float(low), float(high)


def any_differs(values: list[float]) -> bool:
    """Whether the values are not all the first."""
    return any(v != values[0] for v in values)
