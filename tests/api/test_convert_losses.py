"""`nerve convert`'s loss report: each entity dropped or changed is counted once, under one reason.

Issue 25: a discontinuous entity that ``--flatten`` dropped was also counted as "written as its
extent", and attribute values were counted where entities were meant (NCBI-disease's 960 entities
gave ``lost: 962 entity attributes and normalizations``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from nerve.api.convert import convert
from nerve.api.convert_fates import Fates
from nerve.cli import main

ATTRIBUTES = "entities whose attributes and normalizations were not written (--to {to} holds none)"
DISCONTINUOUS = "discontinuous entities written as their extent"
WIDENED = "entities widened to token boundaries (a boundary fell inside a token)"
DROPPED = "nested or overlapping entities dropped (flatten='longest')"

TEXT = "John Smith and Mary Jones met Jim.\n"
ANN = (
    "T1\tPER 0 4;11 14\tJohn and\n"  # discontinuous, normalised, inside T2: flattened away
    "T2\tPER 0 20\tJohn Smith and Mary \n"  # ends after a space: widened to the token before
    "T3\tPER 30 33\tJim\n"  # four metadata lines, three names
    "N1\tReference T1 Wiki:1\tx\n"
    "N2\tReference T3 Wiki:2\tJim\n"
    "N3\tReference T3 Wiki:3\tJim\n"
    "N4\tReference T3 Other:4\tJim\n"
    "A1\tNegated T3\n"
)


def brat_dir(tmp_path: Path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    (d / "a.txt").write_text(TEXT, encoding="utf-8")
    (d / "a.ann").write_text(ANN, encoding="utf-8")
    return d


def test_a_dropped_discontinuous_entity_is_counted_once_as_dropped(tmp_path: Path) -> None:
    report = convert(brat_dir(tmp_path), tmp_path / "o.conll", to="conll", flatten="longest")
    assert report.lost == {ATTRIBUTES.format(to="conll"): 1, DROPPED: 1, WIDENED: 1}
    assert (report.entities_read, report.entities_written) == (3, 2)
    assert sum(report.lost.values()) <= report.entities_read


def test_attributes_are_counted_by_entity_not_by_value(tmp_path: Path) -> None:
    report = convert(brat_dir(tmp_path), tmp_path / "o.jsonl", to="jsonl")
    # T1 is written as its extent (its normalisation is lost too, but it is counted once); T3
    # carries four metadata lines and is one entity.
    assert report.lost == {DISCONTINUOUS: 1, ATTRIBUTES.format(to="jsonl"): 1}
    assert report.notes["normalizations (kept as span metadata)"] == 4


def test_the_cli_prints_each_reason_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = brat_dir(tmp_path)
    out = str(tmp_path / "o.conll")
    assert main(["convert", str(src), out, "--to", "conll", "--flatten", "longest"]) == 0
    err = capsys.readouterr().err
    assert "discontinuous" not in err
    assert "lost: 1 nested or overlapping entities dropped (--flatten longest)" in err


def test_fates_a_drop_outweighs_a_change_and_the_first_change_counts() -> None:
    fates = Fates(5)
    fates.changed(np.array([True, True, False, False, False]), "a")
    fates.changed(np.array([False, True, True, False, False]), "b")
    fates.select(np.array([4, 3, 2, 1, 0]))
    fates.dropped(np.array([False, False, False, False, True]), "gone")  # entity 0
    assert fates.counts() == {"b": 1, "a": 1, "gone": 1}
    fates.dropped(np.array([True, False, False, False]), "gone")  # entity 4, after the reorder
    fates.changed(np.ones(3, dtype=bool), "c")  # entities 3, 2, 1: only 3 was untouched
    assert fates.counts() == {"a": 1, "b": 1, "gone": 2, "c": 1}


def test_ncbi_disease_counts_its_960_entities(shared_data: Path, tmp_path: Path) -> None:
    """960 entities carry 979 normalisation lines: at most 960 entities are counted."""
    src = shared_data / "bio-ncbi-disease" / "spyysalo-standoff" / "test"
    report = convert(src, tmp_path / "o.conll", to="conll", flatten="longest")
    assert report.entities_read == 960
    assert report.lost == {ATTRIBUTES.format(to="conll"): 960}  # each entity has a MeSH or OMIM id


OUTPUTS = Path(__file__).resolve().parents[2] / "docs" / "examples" / "outputs"
SCORES = "prediction scores not written ({to} holds none; {jsonl} does)"


@pytest.mark.parametrize("source", ["pipeline-tokens.jsonl", "pipeline-grouped.json"])
def test_scores_survive_a_round_trip_through_jsonl(tmp_path: Path, source: str) -> None:
    import nerve

    gold, pipeline = str(OUTPUTS / "gold.jsonl"), str(OUTPUTS / source)
    once, twice = tmp_path / "once.jsonl", tmp_path / "twice.jsonl"
    report = convert(pipeline, once, to="jsonl")
    assert report.lossless
    assert convert(once, twice, to="jsonl").lossless
    assert once.read_bytes() == twice.read_bytes()
    direct, converted = nerve.score(gold, pipeline, sweep=True), nerve.score(gold, once, sweep=True)
    assert direct.sweep is not None
    assert converted.to_dict()["sweep"] == direct.to_dict()["sweep"]  # every threshold, as the pipeline's


@pytest.mark.parametrize(
    ("to", "out"), [("brat", "b"), ("conll", "c.conll"), ("bio", "d"), ("spacy-jsonl", "s.jsonl")]
)
def test_a_target_without_scores_counts_them(tmp_path: Path, to: str, out: str) -> None:
    report = convert(OUTPUTS / "pipeline-tokens.jsonl", tmp_path / out, to=to)
    assert report.lost == {SCORES.format(to=f"to={to!r}", jsonl="to='jsonl'"): 5}
    assert not report.lossless
    unscored = convert(OUTPUTS / "gold.jsonl", tmp_path / ("u" + out), to=to)
    assert unscored.lossless


def test_the_cli_reports_the_scores_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(OUTPUTS / "pipeline-tokens.jsonl"), str(tmp_path / "b"), "--to", "brat"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert f"  lost: 5 {SCORES.format(to='--to brat', jsonl='--to jsonl')}" in lines


@pytest.mark.parametrize("name", ["pipeline-grouped.json", "pipeline-tokens.jsonl", "llm.jsonl"])
def test_a_models_output_converts_as_the_predictions_it_is(name: str, tmp_path: Path) -> None:
    """hf-pipeline and entity-list files hold one side, a model's: ``--side pred`` converts it."""
    by_side = {}
    for side in ("gold", "pred"):
        out = tmp_path / f"{side}.jsonl"
        convert(str(OUTPUTS / name), str(out), to="jsonl", side=side)
        by_side[side] = out.read_bytes()
    assert by_side["pred"] == by_side["gold"]
    assert b'"label"' in by_side["pred"]


def test_a_file_of_gold_alone_refuses_side_pred_and_says_what_converts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = OUTPUTS / "gold.jsonl"
    assert main(["convert", str(gold), str(tmp_path / "x.jsonl"), "--to", "jsonl", "--side", "pred"]) == 2
    err = capsys.readouterr().err
    assert err == f"nerve: error: {gold}: holds no predictions (--side gold converts its entities)\n"
