"""doccano JSONL exports: the real samples of tests/data/formats/doccano and hostile inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerve
from nerve.cli import main
from nerve.io.spans import document_texts, read_span_columns, sniff_format, validate_spans
from nerve.io.tools.doccano import read_doccano

DATA = Path(__file__).parents[1] / "data" / "formats" / "doccano"


def naive(path: Path) -> list[list[tuple[int, int, str]]]:
    """Each line's spans, from either of doccano's two forms."""
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        if "entities" in obj:
            docs.append([(e["start_offset"], e["end_offset"], e["label"]) for e in obj["entities"]])
        else:
            docs.append([(s, e, t) for s, e, t in obj["label"]])
    return docs


@pytest.mark.parametrize(
    "name", ["sequence_labeling.jsonl", "relation_extraction.jsonl", "overlapping.jsonl"]
)
def test_real_samples_against_a_naive_parse(name: str) -> None:
    spans, none = read_doccano(str(DATA / name))
    assert none is None
    assert spans.documents() == naive(DATA / name)
    assert sniff_format(str(DATA / name)) == "doccano"
    result = nerve.score(str(DATA / name), str(DATA / name))
    total = sum(map(len, naive(DATA / name)))
    assert (result.micro.tp, result.micro.gold) == (total, total)  # duplicates count, and match once each


def test_real_sample_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """The figures in tests/data/formats/README.md."""
    assert [len(d) for d in naive(DATA / "sequence_labeling.jsonl")] == [2, 1, 1]
    assert (
        main(
            [
                "score",
                str(DATA / "relation_extraction.jsonl"),
                str(DATA / "relation_extraction.jsonl"),
                "-o",
                "json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["notes"] == {"gold": {"ignored relations": 3}, "pred": {"ignored relations": 3}}
    assert out["exact"]["micro"]["tp"] == 4
    texts = document_texts(str(DATA / "sequence_labeling.jsonl"))
    assert texts[2][10:15] == "Obama"


def write(path: Path, docs: list[object], bom: bool = False, crlf: bool = False) -> Path:
    text = "".join(json.dumps(d, ensure_ascii=False) + ("\r\n" if crlf else "\n") for d in docs)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


TEXT = "😀 John met 😀😀 Mary"  # code points: John 2..6, Mary 14..18; UTF-16 units: 3..7, 17..21


def test_emoji_before_a_span(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path / "g.jsonl", [{"text": TEXT, "label": [[2, 6, "PER"], [14, 18, "PER"]]}])
    old = write(tmp_path / "old.jsonl", [{"text": TEXT, "label": [[3, 7, "PER"], [17, 21, "PER"]]}])
    assert read_span_columns(str(gold), str(old), units="utf16")[1].documents() == [
        [(2, 6, "PER"), (14, 18, "PER")]
    ]
    err = fails(capsys, str(old), str(old))
    assert f"{old}:1: document 0 (line 1): span 1: end 21 is beyond the text (18 characters)" in err
    inside = write(tmp_path / "i.jsonl", [{"text": TEXT, "label": [[1, 7, "PER"]]}])  # 1: inside the emoji
    err = fails(capsys, str(inside), str(inside), "--offsets", "utf16")
    assert "span 0: UTF-16 offsets 1, 7 fall inside a character or beyond the text (--offsets utf16)" in err
    result = nerve.score(str(gold), str(old), offsets="utf16")
    assert result.micro.tp == 0  # the gold, read as UTF-16, is shifted


def test_crlf_bom_and_an_empty_document(tmp_path: Path) -> None:
    docs = [
        {"text": "John\r\nMary", "label": [[6, 10, "PER"], [0, 4, "PER", "John"]]},
        {"text": "", "label": []},
    ]
    path = write(tmp_path / "d.jsonl", docs, bom=True, crlf=True)
    assert sniff_format(str(path)) == "doccano"
    gold, _ = read_doccano(str(path))
    assert (gold.documents(), gold.n_docs) == ([[(6, 10, "PER"), (0, 4, "PER")], []], 2)


@pytest.mark.parametrize(
    ("doc", "detail"),
    [
        ({"text": "John", "label": [[0, 5, "PER"]]}, "span 0: end 5 is beyond the text (4 characters)"),
        ({"text": "John", "label": [[2, 1, "PER"]]}, "span 0: expected 0 <= start < end (half-open)"),
        ({"text": "John", "label": [[0, 4]]}, 'span 0: expected [start, end, "TYPE"]'),
        ({"text": "John", "label": [[0, 4, "PER", "Jon"]]}, "span 0: text[0:4] is 'John', not 'Jon'"),
        ({"text": "John", "label": [[True, 4, "PER"]]}, "span 0: expected integer start and end"),
        ({"text": "John", "label": ["positive"]}, "span 0: expected [start, end"),
        ({"label": [[0, 4, "PER"]]}, 'expected the document\'s text under "text"'),
        ({"text": "John"}, 'expected its spans under "label"'),
        ({"text": "John", "entities": [{"start_offset": 0, "label": "PER"}]}, "span 0: expected [start"),
    ],
)
def test_bad_input_names_file_line_and_span(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: dict[str, object], detail: str
) -> None:
    good = {"text": "Mary", "label": [[0, 4, "PER"]]}
    path = write(tmp_path / "d.jsonl", [good, doc])
    err = fails(capsys, "--format", "doccano", str(path), str(path))
    assert f"{path}:2: document 1 (line 2): " in err
    assert detail in err


def test_files_that_do_not_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path / "g.jsonl", [{"text": "John", "label": []}, {"text": "Mary", "label": []}])
    swapped = write(tmp_path / "p.jsonl", [{"text": "John", "label": []}, {"text": "Marie", "label": []}])
    assert f"{swapped}:2: document 1: its text is not the gold's" in fails(capsys, str(gold), str(swapped))
    short = write(tmp_path / "s.jsonl", [{"text": "John", "label": []}])
    assert f"{short}: has 1 document, but the gold has 2" in fails(capsys, str(gold), str(short))
    assert "holds no predictions; give a prediction file too" in fails(capsys, str(gold))
    broken = tmp_path / "b.jsonl"
    broken.write_text('{"text": "a", "label": []}\n{"text": \n', encoding="utf-8")
    assert f"{broken}: line 2: malformed JSON" in fails(capsys, "--format", "doccano", str(broken), str(gold))
    err = fails(capsys, str(gold), str(gold), "--offsets", "token")
    assert "--offsets: doccano offsets count char, utf16 or byte, not token" in err


def test_validate_collects_every_problem(tmp_path: Path) -> None:
    docs = [{"text": "John", "label": [[0, 9, "PER"], [0, 4, "PER"]]}, {"text": "Mary", "label": [[0, 4]]}]
    path = write(tmp_path / "d.jsonl", docs)
    problems = validate_spans(str(path), fmt="doccano")
    assert [(p.line, p.detail.split(":")[1]) for p in problems] == [(1, " span 0"), (2, " span 0")]
