"""`agree`: agreement between several annotators of the same documents.

In: one file or directory per annotator, or one export of several (`nerve.api.agree_input`). Out: an
`nerve.analysis.agree_result.Agreement`: every pair's exact and partial (MUC) F1, micro and per type,
computed by the same code as `nerve.score` (one annotator as gold, the other as predictions, on
the documents both annotated); Cohen's kappa of every pair, Fleiss' kappa and Krippendorff's
alpha on token labels (`nerve.analysis.agreement`); bootstrap intervals of the mean pairwise F1
and of alpha by document (`nerve.analysis.agree_stats`); the disagreements; the documents each
annotator left out; and, when asked, the consensus (`nerve.api.agree_rows`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

import numpy as np

from .. import options
from ..analysis.agree_result import (
    AgreeBootstrap,
    Agreement,
    Annotator,
    Disagreements,
    Estimate,
    PairScores,
    mean,
)
from ..analysis.agree_stats import agree_intervals, pair_counts
from ..analysis.agree_votes import RULES, votes_of
from ..analysis.agreement import (
    ONE_LABEL,
    alpha,
    alpha_parts,
    cohen,
    confusion,
    fleiss,
    label_counts,
    token_labels,
)
from ..errors import OptionError, plural
from ..model.arrays import Int
from ..plan import InstanceQuery, Metrics, MucOptions, Plan, Statistics, statistics_of
from .agree_input import Annotations, read_annotations
from .agree_rows import check_agree_query, consensus_of, disagreements_of
from .pipeline import spans_result

__all__ = ["agree"]

PathLike = str | os.PathLike[str]


def _pair(ann: Annotations, i: int, j: int, plan: Plan) -> PairScores:
    """Annotators ``i`` and ``j`` scored as `nerve.score` scores gold against predictions."""
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


def _kappas(ann: Annotations, pairs: list[PairScores]) -> tuple[list[PairScores], Int, int]:
    """The pairs with their Cohen's kappa, the token label counts, and the number of labels."""
    types = tuple(sorted({name for s in ann.token_spans for name in s.labels}))
    k = len(types) + 1
    labels = np.stack(
        [token_labels(s, ann.tokens.doc_start, ann.present[a], types) for a, s in enumerate(ann.token_spans)]
    )
    out = []
    for p, (i, j) in zip(pairs, combinations(range(len(ann.names)), 2), strict=True):
        matrix = confusion(labels[i], labels[j], k)
        value = cohen(matrix)
        tokens = int(matrix.sum())
        reason = None if value is not None else (ONE_LABEL if tokens else "no token both annotated")
        out.append(_with_kappa(p, value, tokens, reason))
    return out, label_counts(labels, k), k


def _with_kappa(p: PairScores, value: float | None, tokens: int, reason: str | None) -> PairScores:
    return replace(p, kappa=value, tokens=tokens, kappa_reason=reason)


def _annotators(ann: Annotations) -> tuple[tuple[Annotator, ...], tuple[str, ...]]:
    """Each annotator, with the documents they left out, and the warnings that name them."""
    out: list[Annotator] = []
    warnings: list[str] = []
    for a, name in enumerate(ann.names):
        missing = tuple(d for d, here in zip(ann.documents, ann.present[a].tolist(), strict=True) if not here)
        notes = ann.notes[a] if ann.notes else {}
        out.append(
            Annotator(name, ann.sources[a], len(ann.spans[a]), int(ann.present[a].sum()), missing, notes)
        )
        warnings.extend(f"annotator {name}: {n} {why}" for why, n in notes.items())
        if missing:
            shown = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
            warnings.append(
                f"annotator {name} left out {plural(len(missing), 'document')} ({shown}): "
                "each pair is compared on the documents both annotated"
            )
    return tuple(out), tuple(warnings)


def _consensus_rule(consensus: str | None, out: PathLike | None, to: str | None, force: bool) -> str | None:
    """The consensus rule asked for, checked with where it is written (``out`` over a file with ``force``)."""
    rule = options.one_of(consensus, RULES, "consensus") if consensus is not None else None
    if rule is None and (out is not None or to is not None):
        written = f"{options.flag('out')} and {options.flag('to')} write the consensus"
        detail = f"{written}: name its rule, majority or unanimous"
        raise OptionError(options.flag("consensus"), detail)
    if out is not None and os.path.exists(out) and not force:
        raise OptionError(options.flag("force"), f"{os.fspath(out)} exists; pass it to write over it")
    return rule


def agree(
    *sources: PathLike | Sequence[PathLike],
    annotators: str | Sequence[str] | None = None,
    input_format: str | None = None,
    offsets: str | None = None,
    scheme: str = "auto",
    tag_format: str | None = None,
    outside: str = "O",
    bootstrap: int | None = 1000,
    seed: int | None = None,
    confidence: float | None = None,
    unit: str | None = None,
    instances: InstanceQuery | None = None,
    consensus: str | None = None,
    out: PathLike | None = None,
    to: str | None = None,
    force: bool = False,
) -> Agreement:
    """Agreement between the annotators of ``sources`` (see the module).

    ``sources``: one file or directory per annotator (``annotators`` names them), or one Label
    Studio, doccano or CoNLL file of several (``annotators`` picks them by id, user or column
    number). ``bootstrap`` resamples of documents (``None`` or 0: no intervals; ``unit`` can only
    be ``document``) drawn with ``seed`` give intervals at ``confidence``. ``instances`` filters
    the disagreements listed (categories ``missed``, ``type``, ``boundary``, ``boundary_type``).
    ``consensus`` (``majority`` or ``unanimous``) computes the consensus, written to ``out`` in
    format ``to`` (default: from ``out``'s extension, else ``jsonl``), over an existing ``out`` only
    with ``force``.

    Raises:
        InputError: unreadable or unpairable input (see `nerve.api.agree_input`).
        OptionError: an option nerve cannot use.
    """
    paths = [p for s in sources for p in ([s] if isinstance(s, (str, os.PathLike)) else s)]
    wanted = annotators.split(",") if isinstance(annotators, str) else annotators
    query = check_agree_query(instances)
    rule = _consensus_rule(consensus, out, to, force)
    if unit not in (None, "auto", "document"):
        detail = f"agreement resamples documents (the statistics pair annotators within them), got {unit!r}"
        raise OptionError(options.flag("unit"), detail)
    stats = statistics_of(None if bootstrap in (None, 0, "0") else bootstrap, seed, confidence, None)
    ann = read_annotations(paths, wanted, input_format, offsets, (scheme, tag_format, outside))
    people, warnings = _annotators(ann)
    votes = votes_of(list(ann.spans), ann.present)
    agreed = consensus_of(votes, ann, rule, out, to) if rule is not None else None
    if agreed is not None and agreed.ties:
        ties = plural(agreed.ties, "entity", "entities")
        warnings += (f"{ties} tied (marked by exactly half of the annotators): left out of the consensus",)
    return replace(
        _measured(ann, stats),
        annotators=people,
        disagreements=disagreements_of(votes, ann, query),
        consensus=agreed,
        warnings=warnings,
    )


def _measured(ann: Annotations, stats: Statistics | None) -> Agreement:
    """The pairs' scores and kappas, Fleiss' kappa and alpha, and the intervals ``stats`` asks for."""
    plan = Plan(metrics=Metrics(1.0, MucOptions()))
    together = list(combinations(range(len(ann.names)), 2))
    pairs, counts, _ = _kappas(ann, [_pair(ann, i, j, plan) for i, j in together])
    doc_start = ann.tokens.doc_start
    token_doc = np.repeat(np.arange(len(ann.documents), dtype=np.int64), np.diff(doc_start))
    parts = alpha_parts(counts, token_doc, len(ann.documents))
    fleiss_value, fleiss_tokens = fleiss(counts, len(ann.names))
    alpha_value = alpha(parts.sum(axis=0))
    f1_interval = alpha_interval = info = None
    if stats is not None:
        per_pair = [
            pair_counts(ann.spans[i], ann.spans[j], ann.present[i] & ann.present[j]) for i, j in together
        ]
        n, seed, level = stats.resamples, stats.seed, stats.confidence
        f1_interval, alpha_interval, flags = agree_intervals(per_pair, parts, n, seed, level)
        info = AgreeBootstrap(n, seed, level, len(ann.documents), flags)
    reason = _interval_reason(info)
    return Agreement(
        annotators=(),
        pairs=tuple(pairs),
        types=tuple(sorted({t for s in ann.spans for t in s.labels})),
        mean_f1=Estimate(
            mean([p.exact.f1 for p in pairs]), f1_interval, reason if f1_interval is None else None
        ),
        mean_partial_f1=mean([p.partial.f1 for p in pairs]),
        fleiss_kappa=Estimate(
            fleiss_value, None, None if fleiss_value is not None else _fleiss_reason(fleiss_tokens)
        ),
        fleiss_tokens=fleiss_tokens,
        alpha=Estimate(alpha_value, alpha_interval, _alpha_reason(alpha_value, alpha_interval, info, reason)),
        documents=len(ann.documents),
        tokens=int(doc_start[-1]),
        disagreements=Disagreements(0, {}, ()),
        bootstrap=info,
    )


def _interval_reason(info: AgreeBootstrap | None) -> str | None:
    """Why an interval is n/a: the flags that say so (one document or none), or no spread."""
    if info is None:
        return None  # no interval asked for: nothing to explain
    said = [f.message for f in info.flags if f.kind in ("no_units", "one_unit", "degenerate")]
    return "; ".join(said) or "a resample leaves the statistic undefined: n/a"


def _fleiss_reason(tokens: int) -> str:
    if not tokens:
        return "no token was labelled by every annotator (each left out some document): n/a"
    return ONE_LABEL


def _alpha_reason(
    value: float | None, interval: tuple[float, float] | None, info: AgreeBootstrap | None, reason: str | None
) -> str | None:
    if value is None:
        return ONE_LABEL
    return reason if info is not None and interval is None else None
