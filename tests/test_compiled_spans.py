"""MUC and exact counts on the compiled engine against the numpy engine: random corpora of
overlapping spans (groups of one span against one, stars, and larger groups that go to the
general solver) give identical results, pairs of the optimal matching included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from engines import compiled_or_skip, engine
from nerve import compiled_spans
from nerve.metrics.muc import muc_columns
from nerve.plan import Metrics, MucOptions, Plan

compiled_or_skip()

SPAN = st.tuples(st.integers(0, 12), st.integers(1, 6), st.sampled_from(["PER", "LOC", "ORG", "Z", "é"]))
DOCS = st.lists(st.lists(SPAN, max_size=9), min_size=1, max_size=6)


def nervaluate_file(path: Path, gold: Any, pred: Any) -> str:
    def side(docs: Any) -> list[list[dict[str, Any]]]:
        return [[{"label": t, "start": s, "end": s + n - 1} for s, n, t in doc] for doc in docs]

    path.write_text(json.dumps({"true": side(gold), "pred": side(pred)}))
    return str(path)


def scored(path: str, metrics: str, **kw: Any) -> Any:
    try:
        return nerve.score(path, input_format="nervaluate", metrics=metrics, **kw)
    except nerve.NerveError as err:
        return type(err).__name__, str(err)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(gold=DOCS, pred=DOCS, metrics=st.sampled_from(["exact,muc", "exact"]))
def test_muc_counts_alike_on_both_engines(tmp_path: Path, gold: Any, pred: Any, metrics: str) -> None:
    path = nervaluate_file(tmp_path / "f.json", gold, pred[: len(gold)] + [[]] * (len(gold) - len(pred)))
    with engine(True):
        compiled = scored(path, metrics)
        plan = Plan(metrics=Metrics(1.0, MucOptions() if "muc" in metrics else None))
        direct = compiled_spans.count_spans(path, None, plan, "nervaluate")
    with engine(False):
        python = scored(path, metrics)
    assert direct is not None  # the compiled path scored it
    assert compiled == python
    assert direct == python
    if "muc" in metrics:
        assert direct.muc is not None
        assert python.muc is not None
        assert direct.muc.pairs == python.muc.pairs


def test_groups_beyond_small_ones_go_to_the_general_solver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # gold [0,4) and [4,8) against pred [2,6) and [3,5): a group of two against two, solved in C;
    # eight gold spans against two long predictions: a group beyond 5 x 7, for the general solver;
    # gold [40,42) against two predictions: a star, resolved in C.
    gold = [[(0, 4, "A"), (4, 4, "A"), *[(20 + i, 1, "B") for i in range(8)], (40, 2, "B")]]
    pred = [[(2, 4, "A"), (3, 2, "B"), (20, 5, "B"), (23, 5, "A"), (40, 1, "B"), (41, 1, "B")]]
    path = nervaluate_file(tmp_path / "f.json", gold, pred)
    calls: list[int] = []
    solver = compiled_spans.solve_groups

    def counted(*args: bytes) -> bytes:
        calls.append(len(args[0]) // 8)
        return solver(*args)

    monkeypatch.setattr(compiled_spans, "solve_groups", counted)
    with engine(True):
        compiled = nerve.score(path, input_format="nervaluate", metrics="exact,muc")
    with engine(False):
        python = nerve.score(path, input_format="nervaluate", metrics="exact,muc")
    assert calls == [10]
    assert compiled == python
    assert compiled.muc is not None
    assert compiled.muc.pairs[:2] == [(0, 0, 0), (0, 1, 1)]


@pytest.mark.parametrize(
    "options",
    [
        MucOptions(min_iou=0.5),
        MucOptions(min_gold_share=0.5),
        MucOptions(matching="greedy"),
        MucOptions(document_average=True),
    ],
)
def test_muc_options_beyond_the_compiled_path_hand_over(tmp_path: Path, options: MucOptions) -> None:
    path = nervaluate_file(tmp_path / "f.json", [[(0, 2, "A")]], [[(1, 2, "A")]])
    plan = Plan(metrics=Metrics(1.0, options))
    with engine(True):
        assert compiled_spans.count_spans(path, None, plan, "nervaluate") is None


def test_muc_columns_agree_with_the_compiled_counts_on_a_bench_like_corpus(tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    gold, pred = [], []
    for _ in range(300):
        g = [(s, rng.randint(1, 3), rng.choice("ABCD")) for s in sorted(rng.sample(range(30), 5))]
        p = [
            (s + rng.randint(-1, 1) if s else s, n + rng.randint(0, 1), t if rng.random() < 0.8 else "E")
            for s, n, t in g
        ]
        gold.append(g)
        pred.append(p[: rng.randint(2, 5)])
    path = nervaluate_file(tmp_path / "f.json", gold, pred)
    with engine(True):
        compiled = nerve.score(path, input_format="nervaluate", metrics="muc")
    with engine(False):
        from nerve.io.json.nervaluate import read_nervaluate

        g_side, p_side = read_nervaluate(path)
        assert p_side is not None
        p_side = p_side.relabel(g_side.labels)
        reference = muc_columns(g_side, p_side, MucOptions())
    assert compiled.muc == reference


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(gold=DOCS, pred=DOCS)
def test_jsonl_read_in_pieces_scores_alike_on_both_engines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gold: Any, pred: Any
) -> None:
    from nerve.api import span_chunks
    from nerve.io.json import jsonl_chunks

    for module in (compiled_spans, span_chunks, jsonl_chunks):  # pieces of about 200 bytes
        monkeypatch.setattr(module, "CHUNK_BYTES", 200)
    pred = pred[: len(gold)] + [[]] * (len(gold) - len(pred))
    path = tmp_path / "f.jsonl"
    lines = [
        json.dumps(
            {
                "tokens": ["w"] * 20,
                "gold": [{"start": s, "end": s + n, "label": t} for s, n, t in g],
                "pred": [{"start": s, "end": s + n, "label": t} for s, n, t in p],
            }
        )
        for g, p in zip(gold, pred, strict=True)
    ]
    path.write_text("\n".join(lines) + "\n")
    plan = Plan(metrics=Metrics(1.0, MucOptions()))
    with engine(True):
        compiled = nerve.score(str(path), metrics="exact,muc")
        direct = compiled_spans.count_spans(str(path), None, plan)
    with engine(False):
        python = nerve.score(str(path), metrics="exact,muc")
    assert direct is not None
    assert compiled == python
    assert direct == python
