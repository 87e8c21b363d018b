"""Nested entities in scoring: the nesting slice and --flatten, against naive references."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.api.span_scores import dropped_note
from nerve.cli import main
from nerve.errors import OptionError
from nerve.model.nesting import POLICIES, flatten
from nerve.model.spans import SpanArray

Doc = list[tuple[int, int, str]]

span = st.tuples(st.integers(0, 10), st.integers(1, 5), st.sampled_from("AB")).map(
    lambda t: (t[0], t[0] + t[1], t[2])
)
corpora = st.lists(st.tuples(st.lists(span, max_size=6), st.lists(span, max_size=6)), min_size=1, max_size=3)


def write(path: Path, docs: list[tuple[Doc, Doc]]) -> Path:
    def side(spans: Doc) -> list[dict[str, object]]:
        return [{"start": s, "end": e, "label": t} for s, e, t in spans]

    path.write_text("".join(json.dumps({"gold": side(g), "pred": side(p)}) + "\n" for g, p in docs))
    return path


def naive_role(doc: Doc, i: int) -> str:
    a = doc[i]
    others = [b for j, b in enumerate(doc) if j != i]
    if any(b[0] <= a[0] and a[1] <= b[1] and (a[0], a[1]) != (b[0], b[1]) for b in others):
        return "inner"
    if any(a[0] < b[1] and b[0] < a[1] for b in others):
        return "outermost"
    return "flat"


def naive_slice(docs: list[tuple[Doc, Doc]]) -> dict[str, tuple[int, int, int, int]]:
    """Per role: gold, predicted, matched gold, matched predicted (a multiset match per document)."""
    out = {role: [0, 0, 0, 0] for role in ("flat", "outermost", "inner")}
    for gold, pred in docs:
        left = Counter(pred)
        for i, e in enumerate(gold):
            out[naive_role(gold, i)][0] += 1
            if left[e] > 0:
                left[e] -= 1
                out[naive_role(gold, i)][2] += 1
        left = Counter(gold)
        for i, e in enumerate(pred):
            out[naive_role(pred, i)][1] += 1
            if left[e] > 0:
                left[e] -= 1
                out[naive_role(pred, i)][3] += 1
    return {role: (g, p, t, pt) for role, (g, p, t, pt) in out.items()}


@settings(max_examples=80, deadline=None)
@given(corpora)
def test_nesting_slice_equals_a_naive_count(docs: list[tuple[Doc, Doc]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result = nerve.score(write(Path(tmp) / "s.jsonl", docs), slices="nesting")
    assert result.analysis is not None
    assert result.analysis.slices is not None
    rows = result.analysis.slices.rows["nesting"]
    got = {band: (r.gold, r.pred, r.tp, r.pred_tp) for band, r in rows.items()}
    assert got == naive_slice(docs)
    # Each side's counts add up over the roles to the exact totals.
    micro = result.micro
    assert sum(r.gold for r in rows.values()) == micro.gold
    assert sum(r.pred for r in rows.values()) == micro.predicted
    assert sum(r.tp for r in rows.values()) == micro.tp
    assert sum(r.pred_tp or 0 for r in rows.values()) == micro.tp
    for r in rows.values():
        assert r.recall == (r.tp / r.gold if r.gold else 0.0)
        assert r.precision == ((r.pred_tp or 0) / r.pred if r.pred else 0.0)


def naive_exact(docs: list[tuple[Doc, Doc]]) -> tuple[int, int, int]:
    tp = sum(sum((Counter(g) & Counter(p)).values()) for g, p in docs)
    n_gold, n_pred = sum(len(g) for g, _ in docs), sum(len(p) for _, p in docs)
    return tp, n_pred - tp, n_gold - tp


@settings(max_examples=80, deadline=None)
@given(corpora, st.sampled_from(POLICIES))
def test_flattening_scores_the_kept_spans_and_counts_the_dropped(
    docs: list[tuple[Doc, Doc]], policy: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result = nerve.score(write(Path(tmp) / "s.jsonl", docs), flatten=policy)
        plain = nerve.score(Path(tmp) / "s.jsonl")
    # Nested exact counts are a multiset intersection, duplicates and same-span other-type included.
    m = plain.micro
    assert (m.tp, m.fp, m.fn) == naive_exact(docs)
    kept = []
    for side in (0, 1):
        spans = SpanArray.from_documents([d[side] for d in docs])
        flat, dropped = flatten(spans, policy)
        assert result.notes["gold" if side == 0 else "pred"][dropped_note(policy)] == dropped
        kept.append([[(s, e, t) for s, e, t in doc] for doc in flat.documents()])
    m = result.micro
    assert (m.tp, m.fp, m.fn) == naive_exact(list(zip(kept[0], kept[1], strict=True)))
    assert f"flatten {policy}" in result.signature
    assert "flatten" not in plain.signature


NESTED = [([(0, 5, "ORG"), (0, 2, "LOC"), (7, 9, "PER")], [(0, 5, "ORG"), (7, 9, "PER"), (8, 9, "PER")])]


@pytest.mark.parametrize("output", ["table", "json", "markdown", "csv", "latex"])
def test_every_renderer_shows_what_flattening_dropped(
    output: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "s.jsonl", NESTED)
    assert main(["score", str(path), "--flatten", "innermost", "-o", output]) == 0
    out = capsys.readouterr().out
    assert "flatten innermost" in out
    assert out.count(dropped_note("innermost")) == 2  # gold and pred: one each
    assert main(["score", str(path), "-o", output]) == 0
    assert "flatten" not in capsys.readouterr().out


def test_flatten_is_refused_for_tags_and_unknown_policies(tmp_path: Path) -> None:
    news = Path(__file__).parents[2] / "examples" / "news.conll"
    with pytest.raises(OptionError, match="flatten: applies to span input"):
        nerve.score(news, flatten="outermost")
    with pytest.raises(OptionError, match="expected one of outermost, innermost, longest, first"):
        nerve.score(write(tmp_path / "s.jsonl", NESTED), flatten="widest")


def test_nesting_slice_of_the_example(tmp_path: Path) -> None:
    result = nerve.score(write(tmp_path / "s.jsonl", NESTED), slices="nesting")
    assert result.analysis is not None
    assert result.analysis.slices is not None
    d = result.analysis.slices.to_dict()["slices"]["nesting"]
    # gold: ORG outermost, LOC inner, PER flat; pred: ORG flat, PER outermost, PER inner.
    assert {b: (r["gold"], r["pred"], r["tp"], r["pred_tp"]) for b, r in d.items()} == {
        "flat": (1, 1, 1, 1),
        "outermost": (1, 1, 1, 1),
        "inner": (1, 1, 0, 0),
    }
