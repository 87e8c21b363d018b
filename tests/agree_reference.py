"""The straightforward agreement code that `nerve.agree` was first written as: the tests' reference.

`measured_reference` scores every pair with `nerve.api.pipeline.spans_result` (the numpy engine's
`nerve.score` of span columns), takes the token labels of each annotator entity by entity, counts
label pairs and labels with plain bincounts, the per-document exact counts pair by pair, and
`disagreements_reference` builds every disagreement row cluster by cluster in Python. The fast
code in `nerve.api.agree_measure` and `nerve.api.agree_rows` must give the same `Agreement`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import numpy as np

from nerve.analysis.agree_result import (
    AgreeBootstrap,
    Agreement,
    Disagreement,
    Disagreements,
    Estimate,
    PairScores,
    mean,
)
from nerve.analysis.agree_stats import agree_intervals
from nerve.analysis.agree_votes import AGREE_CATEGORIES, Votes, clusters_apart
from nerve.analysis.agreement import ONE_LABEL, alpha, cohen, fleiss, label_pairs
from nerve.api.agree_input import AnnotatorSpans
from nerve.api.pipeline import spans_result
from nerve.model.spans import SpanArray
from nerve.plan import InstanceQuery, Metrics, MucOptions, Plan, Statistics


def pair_reference(ann: AnnotatorSpans, i: int, j: int, plan: Plan) -> PairScores:
    both = ann.present[i] & ann.present[j]
    a, b = (s.select(both[s.doc]) for s in (ann.spans[i], ann.spans[j]))
    result = spans_result(a, b, plan, ann.fmt[i])
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


def token_labels_reference(
    spans: SpanArray, doc_start: np.ndarray, present: np.ndarray, labels: tuple[str, ...]
) -> np.ndarray:
    """Each token's label, entity by entity: the longest covering entity's (the first type by name)."""
    out = np.zeros(int(doc_start[-1]), dtype=np.int64)
    longest = np.zeros(out.shape[0], dtype=np.int64)
    rows = zip(
        spans.doc.tolist(), spans.start.tolist(), spans.end.tolist(), spans.label.tolist(), strict=True
    )
    for d, s, e, y in rows:
        label = labels.index(spans.labels[y]) + 1
        base = int(doc_start[d])
        for t in range(base + s, base + e):
            if e - s > longest[t] or (e - s == longest[t] and label < out[t]):
                longest[t], out[t] = e - s, label
    for d in range(len(doc_start) - 1):
        if not present[d]:
            out[int(doc_start[d]) : int(doc_start[d + 1])] = -1
    return out


def label_counts_reference(labels: np.ndarray, k: int) -> np.ndarray:
    n = labels.shape[1]
    flat = labels + np.arange(n, dtype=np.int64)[None, :] * k
    return np.bincount(flat[labels >= 0], minlength=n * k).reshape(n, k)


def alpha_parts_reference(counts: np.ndarray, token_doc: np.ndarray, n_docs: int, top: int) -> np.ndarray:
    """Per document, token by token: pairable labels, Σ_c n_uc (n_uc - 1) by m_u, each label's count."""
    k = counts.shape[1]
    out = np.zeros((n_docs, top + k), dtype=np.int64)
    for row, d in zip(counts.tolist(), token_doc.tolist(), strict=True):
        m = sum(row)
        if m >= 2:
            out[d, 0] += m
            out[d, m - 1] += sum(c * (c - 1) for c in row)
            out[d, top:] += row
    return out


def pair_counts_reference(a: SpanArray, b: SpanArray, both: np.ndarray) -> np.ndarray:
    """Exact tp, fp and fn of ``b`` against ``a`` per document both annotated: a multiset count."""
    out = np.zeros((a.n_docs, 3), dtype=np.int64)
    for side, column in ((a, 2), (b, 1)):
        for d in side.doc.tolist():
            out[d, column] += bool(both[d])
    ka = Counter(
        (d, s, e, a.labels[y])
        for d, s, e, y in zip(a.doc.tolist(), a.start.tolist(), a.end.tolist(), a.label.tolist(), strict=True)
        if both[d]
    )
    kb = Counter(
        (d, s, e, b.labels[y])
        for d, s, e, y in zip(b.doc.tolist(), b.start.tolist(), b.end.tolist(), b.label.tolist(), strict=True)
        if both[d]
    )
    for key, n in (ka & kb).items():
        out[key[0], 0] += n
        out[key[0], 1] -= n
        out[key[0], 2] -= n
    return out


def kappas_reference(ann: AnnotatorSpans, pairs: list[PairScores]) -> tuple[list[PairScores], np.ndarray]:
    types = tuple(sorted({name for s in ann.token_spans for name in s.labels}))
    k = len(types) + 1
    labels = np.stack(
        [
            token_labels_reference(s, ann.tokens.doc_start, ann.present[a], types)
            for a, s in enumerate(ann.token_spans)
        ]
    )
    out = []
    for p, (i, j) in zip(pairs, combinations(range(len(ann.names)), 2), strict=True):
        matrix = label_pairs(labels[i], labels[j], k)
        value = cohen(matrix)
        tokens = int(matrix.sum())
        reason = None if value is not None else (ONE_LABEL if tokens else "no token both annotated")
        out.append(replace(p, kappa=value, tokens=tokens, kappa_reason=reason))
    return out, label_counts_reference(labels, k)


def _interval_reason(info: AgreeBootstrap | None, name: str) -> str | None:
    if info is None:
        return None
    said = [
        f.message
        for f in info.flags
        if f.kind in ("no_units", "one_unit") or (f.kind == "degenerate" and f.message.split(":")[0] == name)
    ]
    return "; ".join(said) or f"a resample leaves {name} undefined: n/a"


def measured_reference(ann: AnnotatorSpans, stats: Statistics | None) -> Agreement:
    """What `nerve.api.agree_measure.measured` gives, computed the straightforward way."""
    plan = Plan(metrics=Metrics(1.0, MucOptions()))
    together = list(combinations(range(len(ann.names)), 2))
    pairs, counts = kappas_reference(ann, [pair_reference(ann, i, j, plan) for i, j in together])
    doc_start = ann.tokens.doc_start
    token_doc = np.repeat(np.arange(len(ann.documents), dtype=np.int64), np.diff(doc_start))
    m = len(ann.names)
    parts = alpha_parts_reference(counts, token_doc, len(ann.documents), m)
    fleiss_value, fleiss_tokens = fleiss(counts, m)
    alpha_value = alpha(parts.sum(axis=0), m)
    f1_interval = alpha_interval = info = None
    if stats is not None:
        per_pair = [
            pair_counts_reference(ann.spans[i], ann.spans[j], ann.present[i] & ann.present[j])
            for i, j in together
        ]
        n, seed, level = stats.resamples, stats.seed, stats.confidence
        f1_interval, alpha_interval, flags = agree_intervals(per_pair, parts, m, (n, seed, level))
        info = AgreeBootstrap(n, seed, level, len(ann.documents), flags)
    f1_reason, reason = _interval_reason(info, "mean pairwise F1"), _interval_reason(info, "alpha")
    if fleiss_value is not None:
        fleiss_reason = None
    elif not fleiss_tokens:
        fleiss_reason = "no token was labelled by every annotator (each left out some document): n/a"
    else:
        fleiss_reason = ONE_LABEL
    if alpha_value is None:
        alpha_reason = ONE_LABEL
    else:
        alpha_reason = reason if info is not None and alpha_interval is None else None
    return Agreement(
        annotators=(),
        pairs=tuple(pairs),
        types=tuple(sorted({t for s in ann.spans for t in s.labels})),
        mean_f1=Estimate(
            mean([p.exact.f1 for p in pairs]), f1_interval, f1_reason if f1_interval is None else None
        ),
        mean_partial_f1=mean([p.partial.f1 for p in pairs]),
        fleiss_kappa=Estimate(fleiss_value, None, fleiss_reason),
        fleiss_tokens=fleiss_tokens,
        alpha=Estimate(alpha_value, alpha_interval, alpha_reason),
        documents=len(ann.documents),
        tokens=int(doc_start[-1]),
        disagreements=Disagreements(0, {}, ()),
        bootstrap=info,
    )


def _text(ann: AnnotatorSpans, doc: int, start: int, end: int) -> str | None:
    if ann.texts is not None:
        return ann.texts[doc][start:end]
    base = int(ann.tokens.doc_start[doc])
    return " ".join(ann.tokens.words[base + start : base + end])


def _context(ann: AnnotatorSpans, doc: int, start: int, end: int, words: int) -> str:
    if ann.texts is not None:
        text = ann.texts[doc]  # the whole text either side, split: words of any length stay whole
        left = " ".join(text[:start].split()[-words:]) if words else ""
        right = " ".join(text[end:].split()[:words]) if words else ""
    else:
        base, stop = int(ann.tokens.doc_start[doc]), int(ann.tokens.doc_start[doc + 1])
        left = " ".join(ann.tokens.words[max(base, base + start - words) : base + start])
        right = " ".join(ann.tokens.words[base + end : min(stop, base + end + words)])
    inner = _text(ann, doc, start, end) or ""
    return " ".join(part for part in (left, f"[[{inner}]]", right) if part)


def _row(votes: Votes, ann: AnnotatorSpans, category: str, rows: list[int], words: int) -> Disagreement:
    doc = int(votes.doc[rows[0]])
    start = min(int(votes.start[r]) for r in rows)
    end = max(int(votes.end[r]) for r in rows)
    marks = {}
    for a, name in enumerate(ann.names):
        if ann.present[a, doc]:
            marks[name] = tuple(
                (_text(ann, doc, int(votes.start[r]), int(votes.end[r])), votes.labels[int(votes.label[r])])
                for r in rows
                if votes.voters[r, a]
            )
    text, context = _text(ann, doc, start, end), _context(ann, doc, start, end, words)
    return Disagreement(ann.documents[doc], start, end, category, text, context, marks)


def disagreements_reference(votes: Votes, ann: AnnotatorSpans, query: InstanceQuery) -> Disagreements:
    """Every disagreeing cluster counted by category; those ``query`` picks listed, row by row."""
    found = clusters_apart(votes)
    by_category = Counter(category for _, category, _ in found)
    wanted = set(query.categories or AGREE_CATEGORIES)
    types = set(query.types) if query.types else None
    picked = [
        (c, rows)
        for _, c, rows in found
        if c in wanted and (types is None or any(votes.labels[int(votes.label[r])] in types for r in rows))
    ]
    if query.sort == "frequency":
        surface = [
            _text(
                ann,
                int(votes.doc[rows[0]]),
                min(int(votes.start[r]) for r in rows),
                max(int(votes.end[r]) for r in rows),
            )
            for _, rows in picked
        ]
        often = Counter(surface)
        order = sorted(range(len(picked)), key=lambda i: -often[surface[i]])
        picked = [picked[i] for i in order]
    taken: Counter[str] = Counter()
    listed = []
    for c, rows in picked:
        taken[c] += 1
        if query.per_category is None or taken[c] <= query.per_category:
            listed.append(_row(votes, ann, c, rows, query.context))
    counts = {c: by_category[c] for c in AGREE_CATEGORIES}
    return Disagreements(len(found), counts, tuple(listed))


def votes_order_reference(spans: list[SpanArray]) -> np.ndarray:
    """Every annotator's entities, end to end, as ``(doc, start, end, type name's rank, annotator)``,
    in the order of document, start, longest first and type: what `votes_of` sorts them into."""
    labels = sorted({name for s in spans for name in s.labels})
    rows = [
        (d, s_, e, labels.index(a.labels[y]), who)
        for who, a in enumerate(spans)
        for d, s_, e, y in zip(
            a.doc.tolist(), a.start.tolist(), a.end.tolist(), a.label.tolist(), strict=True
        )
    ]
    rows.sort(key=lambda r: (r[0], r[1], -r[2], r[3]))  # stable: the annotators in order among equals
    return np.asarray(rows, dtype=np.int64).reshape(-1, 5)
