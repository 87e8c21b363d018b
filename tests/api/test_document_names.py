"""Documents keep their names (issue 25): a doccano ``id`` names the brat files `convert` writes,
and ``--instances`` names a brat document by its ``.ann`` file, not ``DIR doc 0``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nerve.api.convert import convert
from nerve.api.convert_input import given_names
from nerve.cli import main


def test_doccano_ids_name_the_brat_files(tmp_path: Path) -> None:
    src = tmp_path / "d.jsonl"
    docs = [
        {"id": 17, "text": "John lives", "label": [[0, 4, "PER"]]},
        {"id": "a/b c", "text": "Mary", "label": [[0, 4, "PER"]]},
        {"text": "no id", "label": []},
    ]
    src.write_text("".join(json.dumps(d) + "\n" for d in docs))
    report = convert(src, tmp_path / "b", to="brat")
    assert report.lost == {}
    written = sorted(p.name for p in (tmp_path / "b").iterdir())
    assert written == ["17.ann", "17.txt", "a_b_c.ann", "a_b_c.txt", "doc0003.ann", "doc0003.txt"]
    assert (tmp_path / "b" / "a_b_c.ann").read_text() == "T1\tPER 0 4\tMary\n"


def test_doccano_ids_name_bio_files_too(tmp_path: Path) -> None:
    src = tmp_path / "d.jsonl"
    src.write_text(json.dumps({"id": 5, "text": "John lives", "label": [[0, 4, "PER"]]}) + "\n")
    convert(src, tmp_path / "bio", to="bio")
    assert [p.name for p in (tmp_path / "bio").iterdir()] == ["5.bio"]


@pytest.mark.parametrize(
    ("ids", "names"),
    [
        (["7", "7", "8"], ["doc0001", "doc0002", "8"]),  # an id two documents share names neither
        ([None, "x"], ["doc0001", "x"]),
        (["..", "/"], ["doc0001", "doc0002"]),  # nothing left of it
        (["doc0002", None], ["doc0001", "doc0002"]),  # would clash with a default name: none used
        (["é 1", "t.v"], ["é_1", "t.v"]),
    ],
)
def test_given_names(ids: list[str | None], names: list[str]) -> None:
    assert given_names(ids, [f"doc{i + 1:04d}" for i in range(len(ids))]) == names


def brat(root: Path, name: str, anns: dict[str, str]) -> Path:
    d = root / name
    (d / "sub").mkdir(parents=True)
    texts = {"x1": "John lives in Paris.\n", "sub/x2": "Mary too.\n"}
    for key, text in texts.items():
        (d / f"{key}.txt").write_text(text)
        (d / f"{key}.ann").write_text(anns[key])
    return d


def test_instances_name_brat_documents_by_their_ann_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = brat(
        tmp_path, "annA", {"x1": "T1\tPER 0 4\tJohn\nT2\tLOC 14 19\tParis\n", "sub/x2": "T1\tPER 0 4\tMary\n"}
    )
    pred = brat(
        tmp_path, "annB", {"x1": "T1\tPER 0 4\tJohn\n", "sub/x2": "T1\tPER 0 4\tMary\nT2\tLOC 5 8\ttoo\n"}
    )
    out = tmp_path / "i.jsonl"
    assert main(["score", str(gold), str(pred), "--instances", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    where = {(r["category"], r["source"], r["document"]) for r in rows}
    assert where == {
        ("missed", str(gold / "x1.ann"), 1),  # documents in name order: sub/x2 first
        ("spurious", str(pred / "sub" / "x2.ann"), 0),
    }
    capsys.readouterr()
    assert main(["score", str(gold), str(pred), "--instances", "-", "--instances-format", "table"]) == 0
    table = capsys.readouterr().out
    assert f"{gold / 'x1.ann'}  " in table
    assert " doc " not in table


def test_instances_of_one_ann_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("John lives.\n")
    (tmp_path / "a.ann").write_text("T1\tPER 0 4\tJohn\n")
    (tmp_path / "p.txt").write_text("John lives.\n")
    (tmp_path / "p.ann").write_text("T1\tLOC 0 4\tJohn\n")
    out = tmp_path / "i.jsonl"
    assert main(["score", str(tmp_path / "a.ann"), str(tmp_path / "p.ann"), "--instances", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert [(r["category"], r["source"]) for r in rows] == [("type", str(tmp_path / "a.ann"))]
