"""Chance-corrected agreement on token labels: Cohen's kappa, Fleiss' kappa and Krippendorff's alpha.

In: each annotator's entities in token offsets (`SpanArray`) and where each document's tokens
start; or the label of every token by every annotator. Out: the token labels (`token_labels`), the
label-pair count matrices, and the statistics computed from counts alone, so that they add up over
documents and resample without a loop over tokens.

A token's label is the type of the entity that covers it, ``O`` (label 0) where none does; where
entities nest, the longest covering entity gives the label (the first type by name on a tie). A
document an annotator left out gives its tokens no label (``-1``): a pair is compared on the
tokens both labelled, Fleiss' kappa on the tokens every annotator labelled, and Krippendorff's
alpha on every token at least two labelled (it is made for missing values).

- Cohen's kappa of a pair: ``(p_o - p_e) / (1 - p_e)`` from the pair's confusion matrix, as
  ``sklearn.metrics.cohen_kappa_score`` computes it.
- Fleiss' kappa: ``(P̄ - P_e) / (1 - P_e)`` from the tokens x labels count table, as
  ``statsmodels.stats.inter_rater.fleiss_kappa`` computes it.
- Krippendorff's alpha (nominal): ``1 - (n - 1) (n - Σ o_cc) / (n² - Σ n_c²)`` from the
  coincidence matrix, as the ``krippendorff`` package computes it. Per token ``u`` with ``m_u >= 2``
  labels, ``Σ_c o_cc`` gains ``Σ_c n_uc (n_uc - 1) / (m_u - 1)`` and ``n_c`` gains ``n_uc``: the
  columns of `alpha_parts` keep the whole numbers before the division (one column per ``m_u``),
  additive over documents and exact in any order.

The formulas themselves are `nerve.analysis.agree_formulas`', which the compiled path shares.

A statistic whose chance agreement is 1 (every token has one label) is undefined: ``None``, with
the reason (`Undefined`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from ..model.spans import SpanArray
from .agree_formulas import ONE_LABEL, alpha_of, cohen_of, fleiss_of

if TYPE_CHECKING:
    from ..model.arrays import Bool, Float, Int

__all__ = [
    "ONE_LABEL",
    "Undefined",
    "alpha",
    "alpha_parts",
    "cohen",
    "fleiss",
    "label_counts",
    "label_pairs",
    "token_labels",
]


@frozen
class Undefined:
    """Why a statistic could not be computed, and what would make it computable."""

    reason: str
    fix: str


def token_labels(spans: SpanArray, doc_start: Int, present: Bool, labels: tuple[str, ...]) -> Int:
    """The label of each token (``labels.index(type) + 1``, 0 for none, -1 in a document left out).

    ``spans`` are in token offsets of the documents ``doc_start`` bounds; ``present`` says which
    documents the annotator annotated. The longest covering entity labels a token.
    """
    n = int(doc_start[-1])
    index = {name: i + 1 for i, name in enumerate(labels)}
    mapping = np.asarray([index[name] for name in spans.labels] or [0], dtype=np.int64)
    label = mapping[spans.label] if len(spans) else np.zeros(0, dtype=np.int64)
    k = len(labels) + 1
    first = doc_start[spans.doc] + spans.start
    length = spans.end - spans.start
    tokens = np.repeat(first, length) + _within(length)
    # the longest entity wins; among equals, the lowest label: a key that orders both
    key = np.repeat(length * k + (k - 1 - label), length)
    best = np.full(n, -1, dtype=np.int64)
    np.maximum.at(best, tokens, key)
    out = np.where(best >= 0, (k - 1) - best % k, 0).astype(np.int64)
    missing = np.repeat(~np.asarray(present, dtype=np.bool_), np.diff(doc_start))
    out[missing] = -1
    return out


def _within(length: Int) -> Int:
    """``0, 1, ..., length[i] - 1`` for each ``i``, end to end."""
    total = int(length.sum())
    starts = np.repeat(np.cumsum(length) - length, length)
    return np.arange(total, dtype=np.int64) - starts


def label_pairs(a: Int, b: Int, k: int) -> Int:
    """The ``k x k`` counts of label pairs ``(a[t], b[t])`` over the tokens both labelled."""
    both = (a >= 0) & (b >= 0)
    return np.bincount(a[both] * k + b[both], minlength=k * k).reshape(k, k)


def cohen(matrix: Int) -> float | None:
    """Cohen's kappa of a confusion matrix; ``None`` when chance agreement is 1 (or no token)."""
    return cohen_of(matrix.reshape(-1).tolist(), int(matrix.shape[0]))


def label_counts(labels: Int, k: int) -> Int:
    """How many annotators gave each token each label: ``(tokens, k)`` from ``(annotators, tokens)``."""
    n = labels.shape[1]
    if k <= 16:  # few labels: one comparison of small ints per label
        small = labels.astype(np.int8)
        return np.stack([np.count_nonzero(small == c, axis=0) for c in range(k)], axis=1).astype(np.int64)
    out = np.zeros(n * k, dtype=np.int64)
    base = np.arange(n, dtype=np.int64) * k
    for row in labels:  # one label a token per annotator: no index twice in one row
        given = row >= 0
        if bool(given.all()):
            out[base + row] += 1
        else:
            out[(base + row)[given]] += 1
    return out.reshape(n, k)


def fleiss(counts: Int, m: int) -> tuple[float | None, int]:
    """Fleiss' kappa over the tokens all ``m`` annotators labelled, and how many tokens those are."""
    rows = counts[counts.sum(axis=1) == m]
    items = int(rows.shape[0])
    totals = rows.sum(axis=0).tolist()
    return fleiss_of(totals, int((rows * rows).sum()), items, m), items


def alpha_parts(counts: Int, token_doc: Int, n_docs: int, m: int) -> Int:
    """Per document, alpha's parts (`nerve.analysis.agree_formulas`): ``(n_docs, m + k)``, ``m`` annotators.

    Whole numbers, summed document by document in int64.
    """
    given = counts.sum(axis=1)
    pairable = given >= 2
    every = bool(pairable.all())
    kept = counts if every else np.where(pairable[:, None], counts, 0)
    same = (kept * (kept - 1)).sum(axis=1)
    k = counts.shape[1]
    out = np.zeros((n_docs, m + k), dtype=np.int64)
    column = np.where(pairable, given - 1, 0)  # S_j is column j - 1; tokens that cannot pair add nothing
    for j in range(2, m + 1):
        here = column == j - 1
        out[:, j - 1] = np.bincount(token_doc[here], weights=same[here], minlength=n_docs).astype(np.int64)
    if token_doc.shape[0] and bool((np.diff(token_doc) >= 0).all()):  # tokens in document order
        bounds = np.searchsorted(token_doc, np.arange(n_docs + 1))
        running = np.concatenate([np.zeros((1, k), dtype=np.int64), np.cumsum(kept, axis=0)])
        by_label = running[bounds[1:]] - running[bounds[:-1]]
    else:
        by_label = np.stack(
            [np.bincount(token_doc, weights=kept[:, j], minlength=n_docs) for j in range(k)], 1
        ).astype(np.int64)
    out[:, m:] = by_label
    out[:, 0] = by_label.sum(axis=1)
    return out


def alpha(parts: Int, m: int) -> float | None:
    """Krippendorff's nominal alpha of summed `alpha_parts` (``(m + k,)``); ``None`` if undefined."""
    return alpha_of(parts.tolist(), m)


def alphas(parts: Float, m: int) -> Float:
    """`alpha` of each row of ``(r, m + k)`` summed parts (NaN where undefined), for resamples.

    The same operations as `nerve.analysis.agree_formulas.alpha_of`, in the same order, row by row.
    """
    n, by_label = parts[:, 0], parts[:, m:]
    diagonal = np.zeros(parts.shape[0])
    for j in range(2, m + 1):
        diagonal += parts[:, j - 1] / (j - 1)
    expected = n * n - (by_label * by_label).sum(axis=1)
    ok = (n >= 2) & (expected > 0)
    out = np.full(parts.shape[0], np.nan)
    out[ok] = 1.0 - (n[ok] - 1.0) * (n[ok] - diagonal[ok]) / expected[ok]
    return out
