"""The votes and the bootstrap of the compiled agreement path, computed by the numpy engine's code.

In: each annotator's entities as the C core gives them (int64 bytes, labels in one sorted list of
types), or the per-document rows of the bootstrap. Out: the votes and disagreeing clusters
(`nerve.analysis.agree_votes`) as lists, and every resample's column sums (`resample_totals`, the
same generator and seed) with their percentile interval: the very functions the numpy engine
calls, so the two paths agree by construction. numpy is imported here only, when the compiled
path comes to these steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.agree_result import AGREE_CATEGORIES

__all__ = ["FlatVotes", "any_differs", "flat_votes", "quantiles", "resampled"]


class FlatVotes:
    """Every distinct entity and who marked it (a bitmask), its cluster, and the clusters apart."""

    def __init__(
        self, columns: Sequence[tuple[bytes, bytes, bytes, bytes]], types: list[str], n_docs: int
    ) -> None:
        import numpy as np

        from ..analysis.agree_votes import categories_of, votes_of
        from ..model.spans import SpanArray

        spans = []
        for doc, start, end, label in columns:
            arrays = [np.frombuffer(c, dtype=np.int64) for c in (doc, start, end, label)]
            spans.append(SpanArray(arrays[0], arrays[1], arrays[2], arrays[3], tuple(types), n_docs))
        votes = votes_of(spans, np.ones((len(columns), n_docs), dtype=np.bool_))
        apart, kinds = categories_of(votes)
        self.doc, self.start, self.end = votes.doc.tolist(), votes.start.tolist(), votes.end.tolist()
        self.label, self.cluster = votes.label.tolist(), votes.cluster.tolist()
        bits = np.left_shift(np.int64(1), np.arange(len(columns), dtype=np.int64))
        self.voters = (
            (votes.voters.astype(np.int64) @ bits).tolist()
            if len(columns) <= 62
            else [sum(1 << a for a, v in enumerate(row) if v) for row in votes.voters.tolist()]
        )
        self.apart, self.kinds = apart.tolist(), kinds.tolist()
        assert max(self.kinds, default=0) < len(AGREE_CATEGORIES)


def flat_votes(
    columns: Sequence[tuple[bytes, bytes, bytes, bytes]], types: list[str], n_docs: int
) -> FlatVotes:
    """The `FlatVotes` of annotators who annotated every document."""
    return FlatVotes(columns, types, n_docs)


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
