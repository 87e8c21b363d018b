"""Agreement statistics (`nerve.analysis.agreement`, `agree_votes`, `agree_stats`) against the peers.

Cohen's kappa against ``sklearn.metrics.cohen_kappa_score``, Fleiss' kappa against
``statsmodels.stats.inter_rater.fleiss_kappa``, Krippendorff's alpha against the ``krippendorff``
package: on GermEval 2014 with the gold and four systems as five annotators (token labels read
from the tags by the test), and on random label matrices with missing values (hypothesis). The
token labels, the votes and consensus, the per-document counts and the bootstrap against naive
loops written here.
"""

from __future__ import annotations

import warnings
from collections import Counter
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from agree_corpora import NAMES, germeval_sentences, token_label, write_columns
from conftest import need
from nerve.analysis.agree_stats import agree_intervals, pair_counts
from nerve.analysis.agree_votes import categories_of, consensus, votes_of
from nerve.analysis.agreement import (
    alpha,
    alpha_parts,
    cohen,
    fleiss,
    label_counts,
    label_pairs,
    token_labels,
)
from nerve.api import score_spans
from nerve.model.spans import SpanArray

sklearn_metrics = need("sklearn.metrics")
inter_rater = need("statsmodels.stats.inter_rater")
krippendorff = need("krippendorff")


@pytest.fixture(scope="module")
def germeval(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[str]]]:
    """GermEval's test set as one CoNLL file of five tag columns (documents of 100 sentences), and
    each annotator's token labels read from the tags."""
    from conftest import shared_data_dir

    sentences = germeval_sentences(shared_data_dir())
    path = write_columns(sentences, tmp_path_factory.mktemp("germeval") / "five.conll", 100)
    labels = [[token_label(tags[a]) for s in sentences for _, tags in s] for a in range(len(NAMES))]
    return path, labels


@pytest.mark.slow
def test_germeval_kappas_and_alpha_match_the_peers(germeval: tuple[Path, list[list[str]]]) -> None:
    """Five real annotators: every pair's kappa is sklearn's, Fleiss' statsmodels', alpha krippendorff's."""
    path, labels = germeval
    result = nerve.agree(path, annotators=None, bootstrap=None)
    assert result.tokens == len(labels[0]) == 96499
    for (i, j), pair in zip(combinations(range(5), 2), result.pairs, strict=True):
        assert (pair.a, pair.b) == (str(i + 2), str(j + 2))
        assert pair.kappa == pytest.approx(sklearn_metrics.cohen_kappa_score(labels[i], labels[j]), abs=1e-12)
    codes = {name: k for k, name in enumerate(sorted({x for row in labels for x in row}))}
    matrix = np.asarray([[codes[x] for x in row] for row in labels])
    table, _ = inter_rater.aggregate_raters(matrix.T)
    assert result.fleiss_kappa.value == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-12)
    expected = krippendorff.alpha(reliability_data=matrix.astype(float), level_of_measurement="nominal")
    assert result.alpha.value == pytest.approx(expected, abs=1e-12)
    assert result.fleiss_tokens == result.tokens


def _nan(labels: np.ndarray) -> np.ndarray:
    return np.where(labels < 0, np.nan, labels.astype(float))


@st.composite
def ratings(draw: st.DrawFn) -> np.ndarray:
    """A label matrix (annotators x tokens), labels 0..k-1 and -1 for missing."""
    m = draw(st.integers(2, 5))
    n = draw(st.integers(2, 40))
    k = draw(st.integers(2, 4))
    cells = draw(st.lists(st.integers(-1, k - 1), min_size=m * n, max_size=m * n))
    return np.asarray(cells, dtype=np.int64).reshape(m, n)


@settings(max_examples=200, deadline=None)
@given(ratings())
def test_random_ratings_match_the_peers(labels: np.ndarray) -> None:
    """Pairwise kappa (tokens both labelled), Fleiss (tokens all labelled) and alpha (missing values)."""
    m, k = labels.shape[0], int(labels.max()) + 1 if (labels >= 0).any() else 1
    k = max(k, 2)
    for i, j in combinations(range(m), 2):
        both = (labels[i] >= 0) & (labels[j] >= 0)
        ours = cohen(label_pairs(labels[i], labels[j], k))
        a, b = labels[i][both], labels[j][both]
        if not both.any() or len(set(a.tolist()) | set(b.tolist())) < 2:
            assert ours is None or len(set(a.tolist()) | set(b.tolist())) > 1
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = sklearn_metrics.cohen_kappa_score(a, b)
        assert ours == pytest.approx(theirs, abs=1e-9) if not np.isnan(theirs) else ours is None
    counts = label_counts(labels, k)
    value, items = fleiss(counts, m)
    full = (labels >= 0).all(axis=0)
    assert items == int(full.sum())
    if items and len(set(labels[:, full].ravel().tolist())) > 1:
        table, _ = inter_rater.aggregate_raters(labels[:, full].T, n_cat=k)
        assert value == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-9)
    parts = alpha_parts(counts, np.zeros(labels.shape[1], dtype=np.int64), 1, m)
    ours_alpha = alpha(parts[0], m)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 0 / 0 where nothing is pairable: NaN, which we check
            theirs_alpha = krippendorff.alpha(reliability_data=_nan(labels), level_of_measurement="nominal")
    except ValueError:  # one value in the domain
        assert ours_alpha is None
        return
    if np.isnan(theirs_alpha):
        assert ours_alpha is None
    else:
        assert ours_alpha == pytest.approx(theirs_alpha, abs=1e-9)


def test_alpha_parts_add_up_over_documents() -> None:
    """The per-document parts sum to the parts of the whole: alpha is the same either way."""
    rng = np.random.default_rng(3)
    labels = rng.integers(-1, 3, size=(3, 60))
    counts = label_counts(labels, 3)
    doc = np.repeat(np.arange(4), 15)
    assert alpha(alpha_parts(counts, doc, 4, 3).sum(axis=0), 3) == alpha(
        alpha_parts(counts, np.zeros(60, dtype=np.int64), 1, 3)[0], 3
    )


Doc = list[tuple[int, int, str]]


@st.composite
def annotated(draw: st.DrawFn) -> tuple[list[list[Doc]], np.ndarray, int]:
    """Annotators' spans of the same documents (nesting allowed), who annotated which, the length."""
    m = draw(st.integers(2, 5))
    n_docs = draw(st.integers(1, 4))
    length = 12
    span = st.tuples(st.integers(0, length - 1), st.integers(1, 4), st.sampled_from("ABC")).map(
        lambda t: (t[0], min(t[0] + t[1], length), t[2])
    )
    docs = [[draw(st.lists(span, max_size=5, unique=True)) for _ in range(n_docs)] for _ in range(m)]
    present = np.asarray(draw(st.lists(st.booleans(), min_size=m * n_docs, max_size=m * n_docs))).reshape(
        m, n_docs
    )
    return docs, present, length


@settings(max_examples=200, deadline=None)
@given(annotated(), st.sampled_from(["majority", "unanimous"]))
def test_consensus_is_a_naive_vote(data: tuple[list[list[Doc]], np.ndarray, int], rule: str) -> None:
    """The consensus and its ties are those of a vote counted entity by entity."""
    docs, present, _ = data
    spans = [SpanArray.from_documents(d) for d in docs]
    kept, tie = consensus(votes_of(spans, present), rule)
    votes: Counter[tuple[int, int, int, str]] = Counter()
    for _a, annotator in enumerate(docs):
        for d, doc in enumerate(annotator):
            for s, e, y in set(doc):
                votes[(d, s, e, y)] += 1
    want, ties = set(), set()
    for (d, s, e, y), count in votes.items():
        eligible = int(present[:, d].sum())
        if eligible and (count == eligible if rule == "unanimous" else 2 * count > eligible):
            want.add((d, s, e, y))
        if rule == "majority" and 2 * count == eligible:
            ties.add((d, s, e, y))
    assert {(s.seq, s.start, s.end, s.label) for s in kept} == want
    v = votes_of(spans, present)
    found = {
        (int(v.doc[r]), int(v.start[r]), int(v.end[r]), v.labels[int(v.label[r])])
        for r in np.flatnonzero(tie)
    }
    assert found == ties


@settings(max_examples=200, deadline=None)
@given(annotated())
def test_per_document_counts_sum_to_score(data: tuple[list[list[Doc]], np.ndarray, int]) -> None:
    """`pair_counts` of a pair sum to `nerve.score_spans`' exact counts on the documents both annotated."""
    docs, present, _ = data
    a, b = SpanArray.from_documents(docs[0]), SpanArray.from_documents(docs[1])
    both = present[0] & present[1]
    counts = pair_counts(a, b, both)
    keep = [[x if both[d] else [] for d, x in enumerate(side)] for side in (docs[0], docs[1])]
    result = score_spans(keep[0], keep[1])
    assert tuple(int(x) for x in counts.sum(axis=0)) == (result.micro.tp, result.micro.fp, result.micro.fn)


def _naive_labels(doc: Doc, length: int) -> list[int]:
    """Each token's label: the longest covering span's, the first type by name on a tie."""
    out = []
    for t in range(length):
        covering = sorted((-(e - s), y) for s, e, y in doc if s <= t < e)
        out.append("ABC".index(covering[0][1]) + 1 if covering else 0)
    return out


@settings(max_examples=100, deadline=None)
@given(annotated())
def test_token_labels_are_the_longest_entitys(data: tuple[list[list[Doc]], np.ndarray, int]) -> None:
    docs, present, length = data
    n_docs = len(docs[0])
    doc_start = np.arange(n_docs + 1, dtype=np.int64) * length
    for a, annotator in enumerate(docs):
        ours = token_labels(SpanArray.from_documents(annotator), doc_start, present[a], ("A", "B", "C"))
        want = [
            x if present[a, d] else -1 for d, doc in enumerate(annotator) for x in _naive_labels(doc, length)
        ]
        assert ours.tolist() == want


def test_categories_of_disagreements() -> None:
    """A cluster's category: someone silent, other types, other extents, or both."""
    docs = [
        [[(0, 2, "A"), (4, 5, "A"), (7, 9, "A"), (10, 12, "A")]],
        [[(0, 2, "A"), (4, 5, "B"), (7, 8, "A"), (10, 11, "B")]],
        [[(0, 2, "A"), (4, 5, "A"), (7, 9, "A")]],
    ]
    v = votes_of([SpanArray.from_documents(d) for d in docs], np.ones((3, 1), dtype=bool))
    apart, kinds = categories_of(v)
    assert [("missed", "type", "boundary", "boundary_type")[k] for k in kinds] == [
        "type",
        "boundary",
        "missed",
    ]
    assert len(apart) == 3  # the first cluster is agreed


def _naive_intervals(
    pairs: list[np.ndarray], parts: np.ndarray, n: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """One resample at a time: the documents drawn, each pair's F1 and alpha from their sums."""
    rng = np.random.default_rng(seed)
    units = parts.shape[0]
    f1s, alphas = [], []
    drawn = [rng.integers(0, units, size=(min(8, n - b), units), dtype=np.int64) for b in range(0, n, 8)]
    for draw in (row for block in drawn for row in block):
        f = []
        for p in pairs:
            tp, fp, fn = p[draw].sum(axis=0)
            prec = tp / (tp + fp) if tp + fp else 0.0
            rec = tp / (tp + fn) if tp + fn else 0.0
            f.append(2 * prec * rec / (prec + rec) if prec + rec else 0.0)
        f1s.append(sum(f) / len(f))
        alphas.append(alpha(parts[draw].sum(axis=0), 3))
    return np.asarray(f1s), np.asarray(alphas, dtype=float)


def test_bootstrap_replays_one_resample_at_a_time() -> None:
    rng = np.random.default_rng(5)
    labels = rng.integers(0, 3, size=(3, 300))
    labels[1, :200] = labels[0, :200]
    counts = label_counts(labels, 3)
    doc = np.repeat(np.arange(30), 10)
    parts = alpha_parts(counts, doc, 30, 3)
    pairs = [rng.integers(0, 6, size=(30, 3)) for _ in range(3)]
    f1_interval, alpha_interval, flags = agree_intervals(pairs, parts, 3, (50, 7, 0.9))
    f1s, alphas = _naive_intervals(pairs, parts, 50, 7)
    assert f1_interval == pytest.approx(tuple(np.quantile(f1s, [0.05, 0.95])))
    assert alpha_interval == pytest.approx(tuple(np.quantile(alphas, [0.05, 0.95])))
    assert flags == ()


def test_one_document_has_no_interval_and_says_why() -> None:
    counts = label_counts(np.asarray([[0, 1, 1], [0, 1, 0]]), 2)
    parts = alpha_parts(counts, np.zeros(3, dtype=np.int64), 1, 2)
    f1, a, flags = agree_intervals([np.asarray([[1, 0, 1]])], parts, 2, (100, 1, 0.95))
    assert f1 is None
    assert a is None
    assert [f.kind for f in flags] == ["one_unit"]
    assert "more documents" in flags[0].message
