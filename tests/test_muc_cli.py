"""The muc metric family through `nerve.score` and the CLI (the matching itself: test_muc.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerve
from nerve.cli import main
from nerve.muc import MODES, muc_score

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "news.conll"


def test_json_has_the_four_modes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE), "--metrics", "exact,muc", "--output", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d["muc"]) == set(MODES)
    keys = {"cor", "inc", "par", "mis", "spu", "pos", "act", "precision", "recall", "f1"}
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
    assert result.muc.to_dict() == direct.to_dict()


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
