"""Instance lists: one row per error, against a naive reading of the categories; filters, caps, formats."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.analysis.errors import CATEGORIES, categorise
from nerve.analysis.instances import InstanceQuery, instances, instances_of
from nerve.api import score_aligned
from nerve.cli import main

EXAMPLE = "examples/news.conll"


def _lines() -> list[list[str]]:
    with open(EXAMPLE, encoding="utf-8") as f:
        return [ln.split() for ln in f]


def test_rows_of_the_example_name_their_lines_and_texts() -> None:
    _, aligned = score_aligned(EXAMPLE)
    found = instances(aligned, categorise(aligned.gold, aligned.pred), context=1)
    lines = _lines()
    assert found.rows, "the example has errors"
    for r in found.rows:
        assert r.line is not None
        assert r.gold_text is not None
        assert r.gold_start is not None
        assert r.gold_end is not None
        first = lines[r.line - 1]
        assert first[0] == r.gold_text.split()[0]  # the line of the entity's first token
        words = [lines[r.line - 1 + k][0] for k in range(r.gold_end - r.gold_start)]
        assert " ".join(words) == r.gold_text
        assert f"[[{r.gold_text}]]" in (r.context or "")
        assert r.source == EXAMPLE


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[list[tuple[int, int, str]]], list[list[tuple[int, int, str]]]]:
    span = st.tuples(st.integers(0, 8), st.integers(1, 3), st.sampled_from("ABC")).map(
        lambda t: (t[0], t[0] + t[1], t[2])
    )
    n = draw(st.integers(1, 3))
    return [draw(st.lists(span, max_size=5)) for _ in range(n)], [
        draw(st.lists(span, max_size=5)) for _ in range(n)
    ]


def _aligned(gold: list[list[tuple[int, int, str]]], pred: list[list[tuple[int, int, str]]]) -> object:
    from nerve.analysis.aligned import Aligned
    from nerve.model.spans import SpanArray

    g = SpanArray.from_documents(gold)
    p = SpanArray.from_documents(pred, labels=g.labels)
    g = SpanArray.from_documents(gold, labels=p.labels)
    return Aligned(g, p, None, ("g.json", "p.json"))


@settings(max_examples=200, deadline=None)
@given(corpora(), st.sampled_from([None, ("missed",), ("spurious", "type"), ("correct", "boundary")]))
def test_rows_are_the_errors(corpus: tuple[list, list], wanted: tuple[str, ...] | None) -> None:  # type: ignore[type-arg]
    aligned = _aligned(*corpus)
    g, p = aligned.gold, aligned.pred  # type: ignore[attr-defined]
    cats = categorise(g, p)
    found = instances(aligned, cats, categories=wanted)  # type: ignore[arg-type]
    want = set(wanted or [c for c in CATEGORIES if c != "correct"])
    expected = Counter()
    for i in range(len(g)):
        name = CATEGORIES[int(cats.gold[i])]
        if name in want:
            expected[(name, int(g.doc[i]), int(g.start[i]), int(g.end[i]), g.labels[int(g.label[i])])] += 1
    for i in range(len(p)):
        if CATEGORIES[int(cats.pred[i])] == "spurious" and "spurious" in want:
            expected[
                ("spurious", int(p.doc[i]), int(p.start[i]), int(p.end[i]), p.labels[int(p.label[i])])
            ] += 1
    got = Counter(
        (
            r.category,
            r.document,
            r.gold_start if r.gold_type else r.pred_start,
            r.gold_end if r.gold_type else r.pred_end,
            r.gold_type or r.pred_type,
        )
        for r in found.rows
    )
    assert got == expected
    assert sum(found.totals.values()) == len(found.rows)
    order = [(r.document, r.gold_start if r.gold_type else r.pred_start) for r in found.rows]
    assert order == sorted(order)  # by position
    for r in found.rows:  # a pair row carries its partner
        if r.category in ("type", "boundary", "boundary_type"):
            assert r.pred_type is not None
        if r.category in ("missed", "spurious"):
            assert (r.gold_type is None) != (r.pred_type is None)


def test_filters_caps_and_frequency_order() -> None:
    gold = [[(0, 1, "PER"), (2, 3, "PER"), (4, 5, "LOC")], [(0, 1, "PER")], [(0, 2, "ORG")]]
    pred = [[], [], [(5, 6, "ORG")]]
    aligned = _aligned(gold, pred)
    cats = categorise(aligned.gold, aligned.pred)  # type: ignore[attr-defined]
    every = instances(aligned, cats)  # type: ignore[arg-type]
    assert every.totals == {"type": 0, "boundary": 0, "boundary_type": 0, "missed": 5, "spurious": 1}
    only = instances(aligned, cats, types=["LOC", "ORG"])  # type: ignore[arg-type]
    assert sorted((r.category, r.gold_type or r.pred_type) for r in only.rows) == [
        ("missed", "LOC"),
        ("missed", "ORG"),
        ("spurious", "ORG"),
    ]
    capped = instances(aligned, cats, per_category=2)  # type: ignore[arg-type]
    assert Counter(r.category for r in capped.rows) == {"missed": 2, "spurious": 1}
    assert capped.totals["missed"] == 5  # what the cap left out is still counted
    assert capped.to_dict()["shown"]["missed"] == 2
    query = InstanceQuery(("missed",), ("PER", "LOC"), 2, "frequency", 1)  # the analysis hands it whole
    whole = instances_of(aligned, cats, query)  # type: ignore[arg-type]
    assert whole == instances(
        aligned,
        cats,
        categories=["missed"],
        types=["PER", "LOC"],
        per_category=2,
        sort="frequency",
        context=1,
    )  # type: ignore[arg-type]


def test_frequency_puts_the_most_missed_surface_first(tmp_path: Path) -> None:
    text = "".join(
        f"{w} {g} O\n" + ("\n" if k % 2 else "")
        for k, (w, g) in enumerate(
            [("Ada", "B-PER"), ("x", "O"), ("Bob", "B-PER"), ("y", "O"), ("Ada", "B-PER"), ("z", "O")]
        )
    )
    path = tmp_path / "m.conll"
    path.write_text(text, encoding="utf-8")
    result = nerve.score(path, instances=nerve.InstanceQuery(sort="frequency"))
    assert result.analysis is not None
    assert result.analysis.instances is not None
    assert [r.gold_text for r in result.analysis.instances.rows] == ["Ada", "Ada", "Bob"]
    by_position = nerve.score(path, instances=nerve.InstanceQuery())
    assert [r.gold_text for r in by_position.analysis.instances.rows] == ["Ada", "Bob", "Ada"]  # type: ignore[union-attr]


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "table"])
def test_cli_writes_the_list(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"errors.{'txt' if fmt == 'table' else fmt}"
    assert main(["score", EXAMPLE, "--instances", str(out), "--per-category", "1"]) == 0
    assert "micro avg" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    want = nerve.score(EXAMPLE, instances=nerve.InstanceQuery(per_category=1)).analysis.instances  # type: ignore[union-attr]
    assert want is not None
    if fmt == "jsonl":
        first, *rows = [json.loads(x) for x in text.splitlines()]
        assert first == {"totals": want.totals, "shown": want.to_dict()["shown"]}
        assert rows == [r.to_dict() for r in want.rows]
    elif fmt == "csv":
        body = [ln for ln in text.splitlines() if not ln.startswith("#")]
        rows = list(csv.DictReader(io.StringIO("\n".join(body))))
        assert [r["gold_text"] for r in rows] == [r.gold_text for r in want.rows]
        assert text.startswith("# errors matching: type 2, boundary 2")
    else:
        assert "errors matching: type 2, boundary 2" in text
        for r in want.rows:
            assert f"{EXAMPLE}:{r.line}" in text


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--instance-category", "wrong"], "--instance-category"),
        (["--sort", "frequency"], "--sort"),
        (["--per-category", "0"], "--per-category"),
        (["--context", "-1"], "--context"),
        (["--instance-type", "PER"], "--instance-type"),
    ],
)
def test_bad_instance_options(
    args: list[str], flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with_file = args[0] not in ("--sort", "--instance-type")
    extra = ["--instances", str(tmp_path / "x.jsonl")] if with_file else []
    assert main(["score", EXAMPLE, *extra, *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert flag in err


def test_unwritable_instance_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["score", EXAMPLE, "--instances", str(tmp_path / "no" / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert "--instances" in err
    assert "No such file" in err


def test_instance_lists_do_not_merge() -> None:
    a = nerve.score(EXAMPLE, instances=nerve.InstanceQuery())
    with pytest.raises(nerve.NerveError, match="instance"):
        a.merge(a)


def test_span_file_rows_carry_texts_and_context(tmp_path: Path) -> None:
    docs = [
        {
            "text": "Ada Lovelace met Charles Babbage in London.",
            "gold": [{"start": 0, "end": 12, "label": "PER"}, {"start": 36, "end": 42, "label": "LOC"}],
            "pred": [{"start": 0, "end": 3, "label": "PER"}],
        },
        {"tokens": ["Paris", "is", "<script>"], "gold": [], "pred": [{"start": 2, "end": 3, "label": "X"}]},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    found = nerve.score(path, instances=nerve.InstanceQuery(context=1)).analysis.instances  # type: ignore[union-attr]
    assert found is not None
    rows = [(r.category, r.gold_text, r.pred_text, r.context, r.line, r.document) for r in found.rows]
    assert rows == [
        ("boundary", "Ada Lovelace", "Ada", "[[Ada Lovelace]] met", None, 0),
        ("missed", "London", None, "in [[London]] .", None, 0),
        ("spurious", None, "<script>", "is [[<script>]]", None, 1),
    ]
