"""`nerve.agree`'s fast code against the straightforward code it replaced (`tests/agree_reference.py`).

On random annotators of random documents (empty documents, documents an annotator left out, one
type or several, nested, overlapping, duplicated and discontinuous entities, in tokens or in
characters of a text), on both engines: every number of `nerve.api.agree_measure.measured` (the
pairs' scores and kappas, Fleiss' kappa, alpha, the bootstrap intervals) and every disagreement
row `nerve.api.agree_rows.disagreements_of` lists, under random filters, are the reference's. And
`nerve.agree`, which pauses the garbage collector while it works, leaves it as it found it.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from agree_reference import disagreements_reference, measured_reference, votes_order_reference
from conftest import engine
from nerve.analysis.agree_votes import AGREE_CATEGORIES, votes_of
from nerve.api.agree_input import AnnotatorSpans
from nerve.api.agree_measure import measured
from nerve.api.agree_rows import check_agree_query, disagreements_of
from nerve.errors import InputError
from nerve.io.write.tags import TokenColumns
from nerve.model.spans import Fragments, SpanArray
from nerve.plan import InstanceQuery, statistics_of

Entity = tuple[int, int, str, int]  # start, end, type, a gap after this many tokens (0: none)


def _spans(docs: list[list[Entity]], offsets: list[list[int]] | None, pieces: bool) -> SpanArray:
    """One annotator's entities (in characters where ``offsets`` gives each token's), pieces if asked."""
    flat = [(d, s, e, y, gap) for d, doc in enumerate(docs) for s, e, y, gap in doc]
    names = sorted({y for *_, y, _ in flat})

    def at(d: int, t: int, end: bool) -> int:
        if offsets is None:
            return t
        return offsets[d][t] - (1 if end else 0)  # a token's end is the next one's start, less the space

    columns = [
        [d for d, *_ in flat],
        [at(d, s, False) for d, s, *_ in flat],
        [at(d, e, True) for d, _, e, *_ in flat],
        [names.index(y) for *_, y, _ in flat],
    ]
    doc, start, end, label = (np.asarray(c, dtype=np.int64).reshape(-1) for c in columns)
    fragments = None
    if pieces:
        starts, ends, offs = [], [], [0]
        for d, s, e, _, gap in flat:
            cut = s + gap if 0 < gap < e - s - 1 else None
            parts = [(s, e)] if cut is None else [(s, cut), (cut + 1, e)]
            starts += [at(d, a, False) for a, _ in parts]
            ends += [at(d, b, True) for _, b in parts]
            offs.append(offs[-1] + len(parts))
        fragments = Fragments(*(np.asarray(x, dtype=np.int64) for x in (offs, starts, ends)))
    return SpanArray(doc, start, end, label, tuple(names), len(docs), fragments=fragments)


@st.composite
def annotators(draw: st.DrawFn) -> AnnotatorSpans:
    """Two to four annotators of one to four documents of up to ten tokens, in tokens or characters."""
    m, n_docs = draw(st.integers(2, 4)), draw(st.integers(1, 4))
    lengths = draw(st.lists(st.integers(0, 10), min_size=n_docs, max_size=n_docs))
    types = draw(st.sampled_from(["A", "AB", "ABC"]))
    chars, pieces = draw(st.booleans()), draw(st.booleans())

    def entities(n: int) -> st.SearchStrategy[list[Entity]]:
        if not n:
            return st.just([])
        one = st.tuples(st.integers(0, n - 1), st.integers(1, 4), st.sampled_from(types), st.integers(0, 3))
        return st.lists(one.map(lambda t: (t[0], min(t[0] + t[1], n), t[2], t[3])), max_size=6)

    docs = [[draw(entities(n)) for n in lengths] for _ in range(m)]
    present = np.asarray(draw(st.lists(st.booleans(), min_size=m * n_docs, max_size=m * n_docs)))
    present = present.reshape(m, n_docs)
    words = [[f"x{t % 2}" if t % 3 else f"w{d}" for t in range(n)] for d, n in enumerate(lengths)]
    offsets = [[sum(len(w) + 1 for w in doc[:t]) for t in range(len(doc) + 1)] for doc in words]
    token_spans = tuple(_spans(d, None, pieces) for d in docs)
    spans = tuple(_spans(d, offsets, pieces) for d in docs) if chars else token_spans
    doc_start = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    sentence = np.zeros(int(doc_start[-1]), dtype=np.bool_)
    sentence[doc_start[:-1][np.asarray(lengths) > 0]] = True
    tokens = TokenColumns([w for doc in words for w in doc], doc_start, sentence)
    texts = [" ".join(doc) for doc in words] if chars else None
    names = tuple(f"ann{a}" for a in range(m))
    fmt = ("jsonl" if chars else "conll",) * m
    documents = [f"doc-{d}" for d in range(n_docs)]
    return AnnotatorSpans(names, names, spans, token_spans, present, documents, texts, tokens, fmt)


@settings(max_examples=150, deadline=None)
@given(annotators(), st.sampled_from([None, 0, 3]), st.booleans())
def test_measured_is_the_straightforward_codes(ann: AnnotatorSpans, seed: int | None, compiled: bool) -> None:
    """Every pair's scores and kappa, Fleiss' kappa, alpha and the intervals, on either engine."""
    stats = None if seed is None else statistics_of(40, seed, 0.9, None)
    with engine(compiled):
        ours, want = measured(ann, stats), measured_reference(ann, stats)
    assert ours == want
    assert json.dumps(ours.to_dict()) == json.dumps(want.to_dict())  # the keys in the same order too


queries = st.sampled_from([InstanceQuery(), InstanceQuery(sort="frequency", context=2)]) | st.builds(
    InstanceQuery,
    categories=st.one_of(
        st.none(), st.lists(st.sampled_from(AGREE_CATEGORIES), min_size=1, unique=True).map(tuple)
    ),
    types=st.one_of(st.none(), st.lists(st.sampled_from("ABC"), min_size=1, unique=True).map(tuple)),
    per_category=st.one_of(st.none(), st.integers(1, 3)),
    sort=st.sampled_from(["position", "frequency"]),
    context=st.integers(0, 3),
)


@settings(max_examples=150, deadline=None)
@given(annotators(), queries)
def test_disagreement_rows_are_the_straightforward_codes(ann: AnnotatorSpans, query: InstanceQuery) -> None:
    """The rows listed (text, context, who marked what), their count by category, under any filter."""
    votes = votes_of(list(ann.spans), ann.present)
    want = votes_order_reference(list(ann.spans))
    distinct = np.unique(want[:, :4], axis=0, return_index=True)[1]  # the first of each entity, in order
    ours = np.stack([votes.doc, votes.start, votes.end, votes.label], axis=1).reshape(-1, 4)
    assert ours.tolist() == want[np.sort(distinct), :4].tolist()
    checked = check_agree_query(query)
    assert disagreements_of(votes, ann, checked) == disagreements_reference(votes, ann, checked)


def test_agree_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path) -> None:
    """agree pauses the cyclic collector while it works, and resumes it (or not) as it was, on error too."""
    good = tmp_path / "two.conll"
    good.write_text("-DOCSTART- O O\n\nEU B-ORG O\nsays O O\n", encoding="utf-8")
    bad = tmp_path / "bad.conll"
    bad.write_text("-DOCSTART- O O\n\nEU B-ORG XX-BAD\n", encoding="utf-8")
    was = gc.isenabled()
    try:
        for collecting in (True, False):
            (gc.enable if collecting else gc.disable)()
            assert nerve.agree(good, bootstrap=None).disagreements.total == 1
            assert gc.isenabled() is collecting
            with pytest.raises(InputError):
                nerve.agree(bad, bootstrap=None)
            assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()
