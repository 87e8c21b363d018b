"""The numbers of `nerve.agree`: every pair's F1 and kappa, Fleiss' kappa, alpha and their intervals.

In: the annotators' entities (`AnnotatorSpans`) and the bootstrap asked for. Out: an `Agreement`
without its annotators, disagreements and consensus (`nerve.api.agree` adds them).

Each pair is scored as `nerve.score` scores gold against predictions, on the documents both
annotated: by the compiled engine's span matcher where it is built and no entity is
discontinuous (`nerve.compiled_spans.columns_result`, which gives the numpy engine's result),
else by the numpy engine (`nerve.api.pipeline.spans_result`). Token labels are taken once per
annotator; each pair's label-pair counts and the tokens x labels counts of Fleiss' kappa and
alpha are bincounts over them, and the per-document exact counts of the bootstrap come from one
key per entity, computed once per annotator (`nerve.analysis.agree_stats`).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from .._engine import speedups
from ..analysis.agree_formulas import agreement_of
from ..analysis.agree_result import AgreeBootstrap, Agreement, PairScores
from ..analysis.agree_stats import agree_intervals, entity_keys, pair_counts_of_keys
from ..analysis.agreement import ONE_LABEL, alpha, alpha_parts, cohen, fleiss, label_counts, token_labels
from ..compiled_spans import columns_result
from ..plan import Metrics, MucOptions, Plan, Statistics
from ..results import Result
from .agree_input import AnnotatorSpans
from .pipeline import spans_result

if TYPE_CHECKING:
    from ..io.json.compiled import Columns
    from ..model.arrays import Bool, Int
    from ..model.spans import SpanArray

__all__ = ["measured"]


def _columns(spans: SpanArray) -> Columns:
    """The compiled engine's columns of ``spans`` (int64 bytearrays, the names, the documents)."""
    cols = (spans.doc, spans.start, spans.end, spans.label)
    as_bytes = [bytearray(np.ascontiguousarray(c, dtype=np.int64).tobytes()) for c in cols]
    return (as_bytes[0], as_bytes[1], as_bytes[2], as_bytes[3], list(spans.labels), spans.n_docs)


class _Scorer:
    """Each annotator's entities on the documents a pair both annotated, scored as `nerve.score` does."""

    def __init__(self, ann: AnnotatorSpans) -> None:
        self.ann = ann
        self.plan = Plan(metrics=Metrics(1.0, MucOptions()))
        self.compiled = speedups() is not None and all(s.fragments is None for s in ann.spans)
        self.whole: dict[int, Columns] = {}  # annotators' columns over every document, once each

    def side(self, a: int, both: Bool) -> SpanArray:
        s = self.ann.spans[a]
        return s if bool(both.all()) else s.select(both[s.doc])

    def columns(self, a: int, both: Bool) -> Columns:
        if not bool(both.all()):
            return _columns(self.side(a, both))
        if a not in self.whole:
            self.whole[a] = _columns(self.ann.spans[a])
        return self.whole[a]

    def result(self, i: int, j: int, both: Bool) -> Result:
        fmt = self.ann.fmt[i]
        if self.compiled:
            found = columns_result(self.columns(i, both), self.columns(j, both), self.plan, fmt, pairs=False)
            if found is not None:
                return found
        return spans_result(self.side(i, both), self.side(j, both), self.plan, fmt)

    def pair(self, i: int, j: int) -> PairScores:
        """Annotators ``i`` and ``j`` scored as `nerve.score` scores gold against predictions."""
        ann = self.ann
        both = ann.present[i] & ann.present[j]
        result = self.result(i, j, both)
        assert result.muc is not None
        partial = result.muc.modes["partial"]
        return PairScores(
            ann.names[i],
            ann.names[j],
            result.micro,
            partial.overall,
            dict(result.per_type),
            dict(partial.per_type),
            None,
            0,
            int(both.sum()),
        )


def _kappas(ann: AnnotatorSpans, pairs: list[PairScores]) -> tuple[list[PairScores], Int]:
    """The pairs with their Cohen's kappa, and the tokens x labels counts."""
    types = tuple(sorted({name for s in ann.token_spans for name in s.labels}))
    k = len(types) + 1
    labels = np.stack(
        [token_labels(s, ann.tokens.doc_start, ann.present[a], types) for a, s in enumerate(ann.token_spans)]
    )
    out = []
    for p, (i, j) in zip(pairs, combinations(range(len(ann.names)), 2), strict=True):
        both = (labels[i] >= 0) & (labels[j] >= 0)
        codes = labels[i] * k + labels[j] if bool(both.all()) else (labels[i] * k + labels[j])[both]
        matrix = np.bincount(codes, minlength=k * k).reshape(k, k)
        value = cohen(matrix)
        tokens = int(matrix.sum())
        reason = None if value is not None else (ONE_LABEL if tokens else "no token both annotated")
        out.append(replace(p, kappa=value, tokens=tokens, kappa_reason=reason))
    return out, label_counts(labels, k)


def _intervals(
    ann: AnnotatorSpans, parts: Int, stats: Statistics
) -> tuple[tuple[float, float] | None, tuple[float, float] | None, AgreeBootstrap]:
    """The intervals of the mean pairwise F1 and of alpha, and how they were drawn."""
    keys = entity_keys(list(ann.spans))
    per_pair = [
        pair_counts_of_keys(keys, i, j, (ann.spans[i], ann.spans[j]), ann.present[i] & ann.present[j])
        for i, j in combinations(range(len(ann.names)), 2)
    ]
    n, seed, level = stats.resamples, stats.seed, stats.confidence
    f1_interval, alpha_interval, flags = agree_intervals(per_pair, parts, len(ann.names), (n, seed, level))
    return f1_interval, alpha_interval, AgreeBootstrap(n, seed, level, len(ann.documents), flags)


def measured(ann: AnnotatorSpans, stats: Statistics | None) -> Agreement:
    """The pairs' scores and kappas, Fleiss' kappa and alpha, and the intervals ``stats`` asks for."""
    scorer = _Scorer(ann)
    together = list(combinations(range(len(ann.names)), 2))
    pairs, counts = _kappas(ann, [scorer.pair(i, j) for i, j in together])
    doc_start = ann.tokens.doc_start
    token_doc = np.repeat(np.arange(len(ann.documents), dtype=np.int64), np.diff(doc_start))
    parts = alpha_parts(counts, token_doc, len(ann.documents), len(ann.names))
    fleiss_value, fleiss_tokens = fleiss(counts, len(ann.names))
    alpha_value = alpha(parts.sum(axis=0), len(ann.names))
    f1_interval = alpha_interval = info = None
    if stats is not None:
        f1_interval, alpha_interval, info = _intervals(ann, parts, stats)
    types = sorted({t for s in ann.spans for t in s.labels})
    drawn = (f1_interval, alpha_interval, info)
    size = (len(ann.documents), int(doc_start[-1]))
    return agreement_of(pairs, types, (fleiss_value, fleiss_tokens), alpha_value, drawn, size)
