"""The formulas of agreement, on whole-number counts, in plain Python: one arithmetic for both engines.

In: counts that add up over tokens and documents (a pair's label-pair matrix, labels by token,
alpha's parts, a pair's exact tp, fp and fn), or the resampled values of a statistic. Out: Cohen's
kappa (`cohen_of`), Fleiss' kappa (`fleiss_of`), Krippendorff's alpha (`alpha_of`), an F1
(`f1_of`), and a percentile interval with the flags of too few documents or no spread.

The numpy engine (`nerve.analysis.agreement`, `nerve.analysis.agree_stats`) and the compiled path
(`nerve.api.agree_compiled`) count in integers, exact in any order, and finish with these
functions, so that their floats are the same to the last bit. This module imports no numpy.

Alpha's parts are ``[n, S_2, ..., S_m, n_0, ..., n_(k-1)]`` for ``m`` annotators: ``n`` the labels
of tokens that two or more labelled, ``S_j`` the sum over the tokens ``j`` annotators labelled of
``sum_c n_uc (n_uc - 1)`` (whole numbers: the coincidences' diagonal is ``sum_j S_j / (j - 1)``),
and ``n_c`` the labels ``c`` among them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..errors import plural
from .agree_result import AgreeBootstrap, Agreement, Disagreements, Estimate, PairScores, mean
from .units import MIN_UNITS, Flag

__all__ = [
    "FIX",
    "ONE_LABEL",
    "agreement_of",
    "alpha_of",
    "alpha_reason",
    "cohen_of",
    "degenerate_flag",
    "document_flags",
    "f1_of",
    "fleiss_of",
    "fleiss_reason",
    "interval_reason",
]

ONE_LABEL = "every token has the same label, so chance agreement is 1 and the statistic is undefined"
FIX = "give the annotations in more documents (-DOCSTART- lines in CoNLL, one file per document in brat)"


def cohen_of(matrix: Sequence[int], k: int) -> float | None:
    """Cohen's kappa of a ``k x k`` confusion matrix (row-major); ``None`` when undefined."""
    total = sum(matrix)
    n = float(total)
    if not n:
        return None
    rows = [sum(matrix[i * k : (i + 1) * k]) for i in range(k)]
    columns = [sum(matrix[j::k]) for j in range(k)]
    observed = float(sum(matrix[i * k + i] for i in range(k))) / n
    expected = float(sum(r * c for r, c in zip(rows, columns, strict=True))) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def fleiss_of(totals: Sequence[int], squares: int, items: int, m: int) -> float | None:
    """Fleiss' kappa of ``items`` tokens each labelled by all ``m`` annotators.

    ``totals``: each label's count over them; ``squares``: the sum over them of ``sum_c n_uc²``.
    """
    if not items or m < 2:
        return None
    p = [t / (items * m) for t in totals]
    agreement = (squares - items * m) / (items * m * (m - 1))
    expected = math.fsum(x * x for x in p)
    if expected >= 1.0:
        return None
    return (agreement - expected) / (1.0 - expected)


def alpha_of(parts: Sequence[float], m: int) -> float | None:
    """Krippendorff's nominal alpha of summed parts (see the module); ``None`` if undefined."""
    n = float(parts[0])
    diagonal = 0.0
    for j in range(2, m + 1):
        diagonal += float(parts[j - 1]) / (j - 1)
    by_label = parts[m:]
    expected = n * n - float(sum(int(c) * int(c) for c in by_label))
    if n < 2 or expected <= 0:
        return None
    return 1.0 - (n - 1.0) * (n - diagonal) / expected


def f1_of(tp: float, fp: float, fn: float) -> float:
    """F1 of counts as `nerve.analysis.bootstrap.scores` computes it (0 where undefined)."""
    precision = tp / (tp + fp) if tp + fp != 0 else 0.0
    recall = tp / (tp + fn) if tp + fn != 0 else 0.0
    top, bottom = 2.0 * precision * recall, 1.0 * precision + recall
    return top / bottom if bottom != 0 else 0.0


def document_flags(units: int) -> tuple[Flag, ...]:
    """The flags of fewer than `MIN_UNITS` documents, each with what to do."""
    if units == 0:
        return (Flag("no_units", None, f"no documents: nothing to resample, so intervals are n/a; {FIX}"),)
    if units == 1:
        detail = "one document only: every resample is the corpus itself, so intervals are n/a"
        return (Flag("one_unit", None, f"{detail}; {FIX}"),)
    if units < MIN_UNITS:
        detail = f"only {plural(units, 'document')}: intervals from fewer than {MIN_UNITS} are unreliable"
        return (Flag("few_units", None, f"{detail}; {FIX}"),)
    return ()


def interval_reason(flags: Sequence[Flag] | None, name: str) -> str | None:
    """Why the interval of statistic ``name`` is n/a: one document or none, or no spread, or undefined.

    No spread: its resamples all alike (another statistic's lack of spread is not its reason);
    undefined: a resample leaves it so. ``flags``: the bootstrap's (``None``: no interval asked
    for, nothing to explain).
    """
    if flags is None:
        return None
    said = [
        f.message
        for f in flags
        if f.kind in ("no_units", "one_unit") or (f.kind == "degenerate" and f.message.startswith(f"{name}:"))
    ]
    return "; ".join(said) or f"a resample leaves {name} undefined: n/a"


def fleiss_reason(tokens: int) -> str:
    """Why Fleiss' kappa is n/a."""
    if not tokens:
        return "no token was labelled by every annotator (each left out some document): n/a"
    return ONE_LABEL


def alpha_reason(
    value: float | None, interval: tuple[float, float] | None, drawn: bool, reason: str | None
) -> str | None:
    """Why alpha (or its interval, ``drawn``: asked for) is n/a."""
    if value is None:
        return ONE_LABEL
    return reason if drawn and interval is None else None


def degenerate_flag(name: str) -> Flag:
    """The flag of a statistic that every resample gives the same value."""
    message = f"{name}: every resample gives the same value, so there is no spread to measure: n/a"
    return Flag("degenerate", None, message)


Interval = tuple[float, float] | None


def agreement_of(
    pairs: Sequence[PairScores],
    types: Sequence[str],
    fleiss: tuple[float | None, int],
    alpha: float | None,
    drawn: tuple[Interval, Interval, AgreeBootstrap | None],
    size: tuple[int, int],
) -> Agreement:
    """The `Agreement` of the measured numbers, each n/a one with its reason (both engines).

    ``fleiss``: Fleiss' kappa and the tokens it counted; ``drawn``: the intervals of the mean
    pairwise F1 and of alpha and how they were drawn (``None``: none asked for); ``size``: the
    documents and tokens. The annotators, disagreements and warnings are the caller's to add.
    """
    fleiss_value, fleiss_tokens = fleiss
    f1_interval, alpha_interval, info = drawn
    flags = None if info is None else info.flags
    return Agreement(
        annotators=(),
        pairs=tuple(pairs),
        types=tuple(types),
        mean_f1=Estimate(
            mean([p.exact.f1 for p in pairs]),
            f1_interval,
            interval_reason(flags, "mean pairwise F1") if f1_interval is None else None,
        ),
        mean_partial_f1=mean([p.partial.f1 for p in pairs]),
        fleiss_kappa=Estimate(
            fleiss_value, None, None if fleiss_value is not None else fleiss_reason(fleiss_tokens)
        ),
        fleiss_tokens=fleiss_tokens,
        alpha=Estimate(
            alpha,
            alpha_interval,
            alpha_reason(alpha, alpha_interval, flags is not None, interval_reason(flags, "alpha")),
        ),
        documents=size[0],
        tokens=size[1],
        disagreements=Disagreements(0, {}, ()),
        bootstrap=info,
    )
