"""Text metrics cell by cell: the dense-block path and the batched path give the same scores.

Every (document, category) cell with at least `text_cells.BIG` pairs is solved as one dense block;
the others in batches of `text_cells.CHUNK` pairs. Forcing each path on random and real data
(WLP, one document and per document) checks them against each other, against brute force and
against ie-eval 0.2.0's scorers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import peer
from nerve.matching import text_cells
from nerve.metrics.text import EntityTexts, TextScores, score_texts
from stats_corpora import wlp_documents
from text_reference import approx_dict, brute_errors

Doc = list[tuple[str, str]]


@contextmanager
def paths(big: int, chunk: int) -> Iterator[None]:
    """Cells of at least ``big`` pairs as dense blocks; batches and bands of ``chunk`` pairs."""
    with mock.patch.object(text_cells, "BIG", big), mock.patch.object(text_cells, "CHUNK", chunk):
        yield


def every_path(gold: object, pred: object, **kwargs: object) -> list[TextScores]:
    """The scores with the default paths, every cell dense, and every cell batched in tiny batches."""
    out = [score_texts(gold, pred, **kwargs)]  # type: ignore[arg-type]
    for big, chunk in ((1, 1), (1, 1 << 20), (1 << 60, 1), (1 << 60, 3)):
        with paths(big, chunk):
            out.append(score_texts(gold, pred, **kwargs))  # type: ignore[arg-type]
    return out


POOL = ["ab", "abc", "b c", "ab c", "xyz", "a", "Marie", "Maria", "Mario b", "x y z"]
entity = st.tuples(st.sampled_from(["A", "B", "C"]), st.sampled_from(POOL))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.lists(entity, max_size=9), st.lists(entity, max_size=9)), max_size=4),
    st.sampled_from([0.0, 0.3, 0.5, 1.0]),
)
def test_dense_and_batched_paths_agree(docs: list[tuple[Doc, Doc]], threshold: float) -> None:
    gold = [g for g, _ in docs]
    pred = [p for _, p in docs]
    first, *others = every_path(gold, pred, threshold=threshold)
    for other in others:
        assert approx_dict(other.to_dict()) == approx_dict(first.to_dict())


@settings(max_examples=100, deadline=None)
@given(st.lists(entity, max_size=5), st.lists(entity, max_size=4))
def test_dense_blocks_equal_brute_force(gold: Doc, pred: Doc) -> None:
    with paths(1, 2):
        r = score_texts([gold], [pred], metrics=["ecer-ewer"])
    assert r.ecer_ewer is not None
    assert r.ecer_ewer.total.char_errors == pytest.approx(brute_errors(gold, pred, words=False))
    assert r.ecer_ewer.total.word_errors == pytest.approx(brute_errors(gold, pred, words=True))


def test_threshold_one_matches_every_pair_of_a_cell() -> None:
    gold = [[("A", "abc"), ("A", "x"), ("B", "y")]]
    pred = [[("A", "zzzz"), ("B", "q"), ("B", "r")]]
    for r in every_path(gold, pred, threshold=1.0):
        assert r.nerval is not None
        assert (r.nerval.total.tp, r.nerval.total.fp, r.nerval.total.fn) == (2, 1, 1)


def _wlp_texts(shared: Path, tmp: Path) -> tuple[EntityTexts, EntityTexts]:
    from nerve.tagging.texts import read_text_files

    merged = wlp_documents(shared, tmp / "wlp.conll")
    corpus = read_text_files(merged, None, scheme="IOB2", repair="begin", documents="docstart")
    return corpus.gold, corpus.pred


def _per_doc(side: EntityTexts) -> list[Doc]:
    docs: list[Doc] = [[] for _ in range(side.n_docs)]
    for d, c, t in zip(side.doc.tolist(), side.category, side.text, strict=True):
        docs[d].append((c, t))
    return docs


@pytest.mark.slow
def test_wlp_paths_agree_per_document_and_as_one_document(shared_data: Path, tmp_path: Path) -> None:
    gold, pred = _wlp_texts(shared_data, tmp_path)
    per_doc = [score_texts(gold, pred)]
    with paths(1, 1 << 16):
        per_doc.append(score_texts(gold, pred))
    assert approx_dict(per_doc[0].to_dict()) == approx_dict(per_doc[1].to_dict())
    # The first 25 protocols as one document: large cells, dense blocks against batches.
    one = []
    for side in (gold, pred):
        keep = side.doc < 25
        texts = [t for t, k in zip(side.text, keep.tolist(), strict=True) if k]
        categories = [c for c, k in zip(side.category, keep.tolist(), strict=True) if k]
        one.append(EntityTexts(side.doc[keep] * 0, categories, texts, 1))
    whole = score_texts(*one)
    with paths(1 << 60, 1 << 20):
        batched = score_texts(*one)
    assert whole.ecer_ewer is not None
    assert whole.ecer_ewer.total.gold > 3000
    assert approx_dict(whole.to_dict()) == approx_dict(batched.to_dict())


@pytest.mark.slow
def test_wlp_dense_blocks_agree_with_ie_eval(shared_data: Path, tmp_path: Path) -> None:
    peer("ie_eval")
    from ie_eval.scorer import OiEcerEwer, OiNerval

    gold, pred = _wlp_texts(shared_data, tmp_path)
    g_docs, p_docs = _per_doc(gold)[:12], _per_doc(pred)[:12]  # munkres is pure Python: 12 documents
    with paths(1, 1 << 12):
        r = score_texts(g_docs, p_docs, threshold=0.3)
    assert r.ecer_ewer is not None
    assert r.nerval is not None
    pairs = list(zip(g_docs, p_docs, strict=True))
    assert r.ecer_ewer.total.char_errors == pytest.approx(
        sum(OiEcerEwer(g, p, True).errors for g, p in pairs)
    )
    assert r.ecer_ewer.total.word_errors == pytest.approx(
        sum(OiEcerEwer(g, p, False).errors for g, p in pairs)
    )
    nervals = [OiNerval(g, p, nerval_threshold=30.0) for g, p in pairs]
    assert r.nerval.total.tp == sum(n.true_positives for n in nervals)
