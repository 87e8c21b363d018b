"""The muc metric family through `nerve.score` and the CLI (the matching itself: test_muc.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import nerve
from conftest import peer
from nerve.cli import main
from nerve.metrics.muc import MODES, muc_score

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "news.conll"


def test_json_has_the_four_modes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE), "--metrics", "exact,muc", "--output", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d["muc"]) == set(MODES)
    keys = {"cor", "inc", "par", "mis", "spu", "cross", "pos", "act", "precision", "recall", "f1"}
    for mode in MODES:
        assert set(d["muc"][mode]) == {"overall", "per_type"}
        overall = d["muc"][mode]["overall"]
        assert set(overall) == keys
        assert overall["pos"] == d["exact"]["micro"]["gold"]
        assert overall["act"] == d["exact"]["micro"]["predicted"]
        assert sum(c["pos"] for c in d["muc"][mode]["per_type"].values()) == overall["pos"]
        assert sum(c["act"] for c in d["muc"][mode]["per_type"].values()) == overall["act"]
    # strict COR is exact-match TP.
    assert d["muc"]["strict"]["overall"]["cor"] == d["exact"]["micro"]["tp"]
    assert "muc (overlap any)" in d["signature"]


def test_tags_give_the_same_counts_as_spans() -> None:
    corpus = nerve.read_conll(EXAMPLE)
    result = nerve.score(corpus, metrics="muc")
    gold = [nerve.decode(s, scheme="IOB2") for s in corpus.gold]
    pred = [nerve.decode(s, scheme="IOB2") for s in corpus.pred]
    direct = muc_score(gold, pred)
    assert result.muc is not None
    assert result.muc is not None
    assert result.muc.pairs == []  # the tag path keeps counts only: nothing indexes its entities
    assert result.muc == replace(direct, pairs=[])


def test_table_shows_modes_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE), "--metrics", "muc", "--min-iou", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "strict F1" in out
    assert "partial F1" in out
    assert "overlap iou>=0.5" in out


def test_bad_metric_and_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE), "--metrics", "bleu"]) == 2
    assert main(["score", str(EXAMPLE), "--metrics", "muc", "--repair", "conlleval"]) == 2
    assert main(["score", str(EXAMPLE), "--metrics", "muc", "--min-iou", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 3


def test_shards_merge_muc_counts() -> None:
    a = nerve.score([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]], scheme="IOB2", metrics="muc")
    b = nerve.score([["B-LOC", "O"]], [["B-LOC", "O"]], scheme="IOB2", metrics="muc")
    both = nerve.score(
        [["B-PER", "I-PER", "O"], ["B-LOC", "O"]], [["B-PER", "O", "O"], ["B-LOC", "O"]], metrics="muc"
    )
    assert a.merge(b).to_dict()["muc"] == both.to_dict()["muc"]


def test_document_average_of_the_example() -> None:
    result = nerve.score(EXAMPLE, metrics="muc", document_average=True)
    assert result.muc is not None
    macro = result.muc.modes["strict"].document_macro
    assert macro is not None
    # Document 1: 3 of 5 gold and of 5 predicted entities right; document 2: 6 of 8 and of 8.
    assert (macro.precision, macro.recall, macro.documents) == pytest.approx((0.675, 0.675, 2))
    assert "document average" in result.signature


def test_document_average_is_the_same_read_in_threads(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "big.conll"
    path.write_text(text * 40, encoding="utf-8")
    one = nerve.score(path, metrics="muc", document_average=True, workers=1)
    three = nerve.score(path, metrics="muc", document_average=True, workers=3)
    assert one == three
    assert one.muc is not None
    assert one.muc.modes["strict"].document_macro is not None
    assert one.muc.modes["strict"].document_macro.documents == 80


def test_document_average_of_spans() -> None:
    result = muc_score([[(0, 2, "PER")], [(0, 1, "X")], []], [[(0, 2, "PER")], [], []], document_average=True)
    macro = result.modes["strict"].document_macro
    assert macro is not None
    assert (macro.precision, macro.recall, macro.f1, macro.documents) == (0.5, 0.5, 0.5, 2)
    doubled = (result + result).modes["strict"].document_macro
    assert doubled is not None
    assert doubled.documents == 4


def test_greedy_matching_from_a_nervaluate_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Evaluator = peer("nervaluate").Evaluator

    # C15 and C16 of peers-muc.md, where list order decides nervaluate's counts; and a long entity
    # that a one-token overlap does not reach 1 % of.
    true = [
        [{"label": "PER", "start": 3, "end": 4}, {"label": "PER", "start": 0, "end": 1}],
        [{"label": "PER", "start": 0, "end": 1}, {"label": "ORG", "start": 3, "end": 4}],
        [{"label": "LOC", "start": 0, "end": 199}],
    ]
    pred = [
        [{"label": "PER", "start": 0, "end": 4}, {"label": "PER", "start": 3, "end": 4}],
        [{"label": "ORG", "start": 1, "end": 3}, {"label": "PER", "start": 0, "end": 1}],
        [{"label": "LOC", "start": 199, "end": 205}],
    ]
    path = tmp_path / "spans.json"
    path.write_text(json.dumps({"true": true, "pred": pred}))
    expected = Evaluator(true, pred, tags=["PER", "ORG", "LOC"], loader="dict").evaluate()
    outputs = {}
    for matching in ("greedy", "optimal"):
        assert main(["score", str(path), "--metrics", "muc", "--matching", matching, "-o", "json"]) == 0
        outputs[matching] = json.loads(capsys.readouterr().out)
    strategies = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
    for mode, strategy in strategies.items():
        nv = expected["overall"][strategy]
        got = outputs["greedy"]["muc"][mode]["overall"]
        assert [got[k] for k in ("cor", "inc", "par", "mis", "spu")] == [
            nv.correct,
            nv.incorrect,
            nv.partial,
            nv.missed,
            nv.spurious,
        ]
        assert got["f1"] == pytest.approx(nv.f1)
    assert "greedy as nervaluate 1.2.1, overlap gold-share>=0.01" in outputs["greedy"]["signature"]
    assert outputs["optimal"]["muc"]["strict"]["overall"]["cor"] == 2
    assert outputs["greedy"]["muc"]["strict"]["overall"]["cor"] == 0


def test_greedy_matching_of_tags_equals_nervaluate_list_loader() -> None:
    Evaluator = peer("nervaluate").Evaluator

    corpus = nerve.read_conll(EXAMPLE)
    tags = sorted({t[2:] for sentence in corpus.gold + corpus.pred for t in sentence if t != "O"})
    expected = Evaluator(corpus.gold, corpus.pred, tags=tags, loader="list").evaluate()
    result = nerve.score(EXAMPLE, metrics="muc", matching="greedy")
    assert result.muc is not None
    strategies = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
    for mode, strategy in strategies.items():
        scores = result.muc.modes[mode]
        rows = {"overall": scores.overall, **scores.per_type}
        nv = {"overall": expected["overall"][strategy]} | {
            t: r[strategy] for t, r in expected["entities"].items()
        }
        assert {k: (c.cor, c.inc, c.par, c.mis, c.spu) for k, c in rows.items()} == {
            k: (r.correct, r.incorrect, r.partial, r.missed, r.spurious) for k, r in nv.items()
        }


def test_csv_and_latex_carry_the_muc_counts() -> None:
    import csv
    import io

    result = nerve.score(EXAMPLE, metrics="muc")
    assert result.muc is not None
    text = nerve.render(result, "csv")
    exact_part, muc_part = text.split("\n\n# muc\n")
    assert exact_part.startswith("# ")
    rows = list(csv.DictReader(io.StringIO(muc_part.split("\n\n")[0])))
    assert len(rows) == 4 * (1 + len(result.muc.modes["strict"].per_type))
    for row in rows:
        scores = result.muc.modes[row["mode"]]
        c = scores.overall if row["type"] == "overall" else scores.per_type[row["type"]]
        assert [int(row[k]) for k in ("cor", "inc", "par", "mis", "spu", "pos", "act")] == [
            c.cor,
            c.inc,
            c.par,
            c.mis,
            c.spu,
            c.pos,
            c.act,
        ]
        assert float(row["f1"]) == c.f1
    latex = nerve.render(result, "latex")
    assert latex.count("\\begin{tabular}") == 3  # exact, muc scores, muc counts
    overall = result.muc.modes["partial"].overall
    assert f"{100 * overall.f1:.2f}" in latex.split("\\begin{tabular}")[2]
    assert "strict P & strict R & strict F1" in latex
