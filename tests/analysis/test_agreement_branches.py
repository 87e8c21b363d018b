"""The branches of the agreement code that the corpus-sized tests do not reach, against naive loops.

`nerve.analysis.agreement`, `agree_stats` and `agree_votes` each take a fast path for the common
case and a general one for the rest: `label_counts` compares small ints for up to 16 labels and
scatters counts beyond; `alpha_parts` takes running sums when the tokens come in document order
and bincounts otherwise; the entity keys of `pair_counts` and the order of `votes_of` pack a row
into one int64 when its columns fit and sort whole rows when they do not. Both paths of each are
checked here against a loop written out token by token or entity by entity (found by mutation
testing: a broken general path passed every other test).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agree_reference import votes_order_reference
from nerve.analysis.agree_stats import pair_counts
from nerve.analysis.agree_votes import categories_of, consensus, votes_of
from nerve.analysis.agreement import alpha, alpha_parts, label_counts
from nerve.model.spans import SpanArray


@st.composite
def label_matrices(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """Annotators x tokens of labels ``0..k-1`` or -1 (missing), ``k`` up to 30: both sides of 16."""
    k = draw(st.integers(1, 30))
    m = draw(st.integers(1, 5))
    n = draw(st.integers(0, 30))
    cells = draw(st.lists(st.integers(-1, k - 1), min_size=m * n, max_size=m * n))
    return np.asarray(cells, dtype=np.int64).reshape(m, n), k


@settings(max_examples=150, deadline=None)
@given(label_matrices())
def test_label_counts_are_a_count_token_by_token(data: tuple[np.ndarray, int]) -> None:
    labels, k = data
    want = np.zeros((labels.shape[1], k), dtype=np.int64)
    for row in labels.tolist():
        for t, c in enumerate(row):
            if c >= 0:
                want[t, c] += 1
    ours = label_counts(labels, k)
    assert ours.dtype == np.int64
    assert ours.tolist() == want.tolist()


def test_label_counts_beyond_16_labels_with_and_without_missing() -> None:
    """Rows with every token labelled and rows with gaps, on the scatter path (k > 16)."""
    labels = np.asarray([[16, 0, 3, 3], [16, -1, 3, 20], [-1, -1, -1, -1]])
    want = np.zeros((4, 21), dtype=np.int64)
    want[0, 16], want[1, 0], want[2, 3], want[3, 3], want[3, 20] = 2, 1, 2, 1, 1
    assert label_counts(labels, 21).tolist() == want.tolist()


def _naive_parts(counts: np.ndarray, token_doc: np.ndarray, n_docs: int, top: int) -> np.ndarray:
    """Per document, token by token: pairable labels, Σ_c n_uc (n_uc - 1) by m_u, each n_c."""
    k = counts.shape[1]
    out = np.zeros((n_docs, top + k), dtype=np.int64)
    for row, d in zip(counts.tolist(), token_doc.tolist(), strict=True):
        m = sum(row)
        if m < 2:
            continue
        out[d, 0] += m
        out[d, m - 1] += sum(c * (c - 1) for c in row)
        for c, n in enumerate(row):
            out[d, top + c] += n
    return out


@st.composite
def counts_by_document(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int]:
    """A tokens x labels count table and each token's document, in any order (sorted or not)."""
    k = draw(st.integers(1, 4))
    n = draw(st.integers(0, 25))
    n_docs = draw(st.integers(1, 5))
    cells = draw(st.lists(st.integers(0, 3), min_size=n * k, max_size=n * k))
    doc = draw(st.lists(st.integers(0, n_docs - 1), min_size=n, max_size=n))
    if draw(st.booleans()):
        doc = sorted(doc)
    return np.asarray(cells, dtype=np.int64).reshape(n, k), np.asarray(doc, dtype=np.int64), n_docs


@settings(max_examples=200, deadline=None)
@given(counts_by_document())
def test_alpha_parts_are_sums_token_by_token(data: tuple[np.ndarray, np.ndarray, int]) -> None:
    """Tokens in document order or not, every one pairable or not: the parts of a loop over tokens."""
    counts, token_doc, n_docs = data
    top = max(2, int(counts.sum(axis=1).max()) if counts.shape[0] else 2)  # labels a token may have
    ours = alpha_parts(counts, token_doc, n_docs, top)
    assert ours.shape == (n_docs, top + counts.shape[1])
    assert ours.tolist() == _naive_parts(counts, token_doc, n_docs, top).tolist()


def test_alpha_parts_of_tokens_out_of_document_order() -> None:
    """Documents 1, 0, 1: the per-document label counts do not depend on where the tokens stand."""
    counts = np.asarray([[2, 0], [1, 1], [0, 3]])
    parts = alpha_parts(counts, np.asarray([1, 0, 1]), 2, 3)
    assert parts.tolist() == [[2, 0, 0, 1, 1], [5, 2, 6, 2, 3]]
    assert alpha(parts.sum(axis=0), 3) == pytest.approx(1 - 6 * 2 / (49 - 9 - 16))


def test_alpha_of_two_labels_and_fewer() -> None:
    """Two pairable labels that differ: alpha 0 (chance); one: undefined; one value: undefined."""
    assert alpha(np.asarray([2, 0, 1, 1]), 2) == pytest.approx(0.0)
    assert alpha(np.asarray([1, 0, 1, 0]), 2) is None
    assert alpha(np.asarray([4, 4, 4, 0]), 2) is None


Doc = list[tuple[int, int, str]]
BIG = 2**40  # offsets this far in: (doc, start, end, type) no longer packs into one int64


@st.composite
def far_annotators(draw: st.DrawFn) -> tuple[list[list[Doc]], np.ndarray]:
    """Two or three annotators' entities at offsets near or beyond 2**40, duplicates allowed."""
    m, n_docs = draw(st.integers(2, 3)), draw(st.integers(1, 3))
    base = draw(st.sampled_from([0, BIG]))
    span = st.tuples(st.integers(0, 5), st.integers(1, 3), st.sampled_from("AB")).map(
        lambda t: (base + t[0], base + t[0] + t[1], t[2])
    )
    docs = [[draw(st.lists(span, max_size=4)) for _ in range(n_docs)] for _ in range(m)]
    cells = draw(st.lists(st.booleans(), min_size=m * n_docs, max_size=m * n_docs))
    return docs, np.asarray(cells, dtype=np.bool_).reshape(m, n_docs)


def _naive_pair(a: list[Doc], b: list[Doc], both: np.ndarray) -> list[list[int]]:
    out = []
    for d, (x, y) in enumerate(zip(a, b, strict=True)):
        if not both[d]:
            out.append([0, 0, 0])
            continue
        tp = sum((Counter(x) & Counter(y)).values())
        out.append([tp, len(y) - tp, len(x) - tp])
    return out


@settings(max_examples=150, deadline=None)
@given(far_annotators())
def test_pair_counts_and_vote_order_at_any_offset(data: tuple[list[list[Doc]], np.ndarray]) -> None:
    """Offsets that fit one int64 key and offsets that do not: the same multiset counts, the same order."""
    docs, present = data
    spans = [SpanArray.from_documents(d) for d in docs]
    both = present[0] & present[1]
    assert pair_counts(spans[0], spans[1], both).tolist() == _naive_pair(docs[0], docs[1], both)
    votes = votes_of(spans, present)
    want = votes_order_reference(spans)
    first = np.unique(want[:, :4], axis=0, return_index=True)[1]
    ours = np.stack([votes.doc, votes.start, votes.end, votes.label], axis=1).reshape(-1, 4)
    assert ours.tolist() == want[np.sort(first), :4].tolist()
    marked = {(d, s, e, y) for a in docs for d, doc in enumerate(a) for s, e, y in doc}
    assert len(votes.doc) == len(marked)


@pytest.mark.parametrize("rule", ["majority", "unanimous"])
def test_consensus_ties_are_a_boolean_mask_under_either_rule(rule: str) -> None:
    """One flag per entity, booleans (a mask to index with), none set where no tie is possible."""
    one, two = [[(0, 2, "A")]], [[(0, 2, "A"), (3, 4, "B")]]
    spans = [SpanArray.from_documents(one), SpanArray.from_documents(two)]
    kept, tie = consensus(votes_of(spans, np.ones((2, 1), dtype=np.bool_)), rule)
    assert tie.dtype == np.bool_
    assert tie.tolist() == ([False, True] if rule == "majority" else [False, False])
    assert len(kept) == 1


def test_a_cluster_with_one_entity_short_of_a_vote_disagrees() -> None:
    """Both mark "a b c"; one also marks "b" inside it: one entity short, nobody silent: boundary."""
    one, two = [[(0, 3, "A")]], [[(0, 3, "A"), (1, 2, "A")]]
    spans = [SpanArray.from_documents(one), SpanArray.from_documents(two)]
    votes = votes_of(spans, np.ones((2, 1), np.bool_))
    apart, kinds = categories_of(votes)
    assert apart.tolist() == [0]
    assert kinds.tolist() == [2]  # boundary
