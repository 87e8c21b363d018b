"""Label Studio JSON exports: the real samples of tests/data/formats/labelstudio, UTF-16 offsets,
which annotation is gold, and hostile inputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.cli import main
from nerve.io.offsets import first_difference, utf16_to_chars
from nerve.io.spans import document_texts, read_span_columns, sniff_format, validate_spans
from nerve.io.tools.labelstudio import read_labelstudio

DATA = Path(__file__).parents[1] / "data" / "formats" / "labelstudio"


def naive(tasks: list[dict[str, Any]], key: str) -> list[list[tuple[int, int, str]]]:
    """The spans of each task's first annotation (or prediction) under ``key``."""
    out = []
    for task in tasks:
        chosen = task.get(key) or [{"result": []}]
        out.append(
            [
                (r["value"]["start"], r["value"]["end"], label)
                for r in chosen[0]["result"]
                if r["type"] == "labels"
                for label in r["value"]["labels"]
            ]
        )
    return out


def load(path: Path) -> list[dict[str, Any]]:
    obj = json.loads(path.read_text(encoding="utf-8"))
    return obj if isinstance(obj, list) else [obj]


def test_real_samples_against_a_naive_parse(capsys: pytest.CaptureFixture[str]) -> None:
    annotated, tasks = DATA / "named_entity_annotation.json", DATA / "named_entity_tasks.json"
    assert sniff_format(str(annotated)) == sniff_format(str(tasks)) == "labelstudio"
    gold, none = read_labelstudio(str(annotated))
    assert (gold.documents(), none) == (naive(load(annotated), "annotations"), None)
    empty, pred = read_labelstudio(str(tasks))
    assert pred is not None
    assert (empty.documents(), pred.documents()) == ([[]], naive(load(tasks), "predictions"))
    assert gold.documents() == [[(343, 354, "Date")]]  # "February 22", as the README says
    assert main(["score", str(annotated), str(tasks), "-o", "json"]) == 0
    micro = json.loads(capsys.readouterr().out)["exact"]["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"]) == (1, 0, 0)
    assert document_texts(str(annotated))[0][343:354] == "February 22"


def test_a_real_export_whose_text_does_not_match(capsys: pytest.CaptureFixture[str]) -> None:
    """label-studio-frontend's rich_text_plain example kept the named_entity example's span."""
    path = DATA / "rich_text_plain_annotation.json"
    err = fails(capsys, str(path), str(DATA / "named_entity_tasks.json"))
    assert (
        f"{path}: task 0 (id 1), annotations: result 0: text[343:354] is ' supporters', not 'February 22'"
        in err
    )


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def span(start: int, end: int, label: str, text: str | None = None, kind: str = "labels") -> dict[str, Any]:
    value: dict[str, Any] = {"start": start, "end": end, "labels": [label]}
    if text is not None:
        value["text"] = text
    return {"from_name": "label", "to_name": "text", "type": kind, "value": value}


def task(
    text: str,
    annotations: list[list[dict[str, Any]]],
    predictions: list[list[dict[str, Any]]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    out: dict[str, Any] = {"id": extra.pop("id", 1), "data": {"text": text}}
    out["annotations"] = [{"result": r, **extra} for r in annotations]
    if predictions is not None:
        out["predictions"] = [{"result": r} for r in predictions]
    return out


def write(path: Path, tasks: list[dict[str, Any]] | dict[str, Any], prefix: bytes = b"") -> Path:
    path.write_bytes(prefix + json.dumps(tasks, ensure_ascii=False, indent=1).encode("utf-8"))
    return path


TEXT = "😀 John met 😀😀 Mary"  # code points: John 2..6, Mary 14..18; UTF-16 units: 3..7, 17..21
CHARS = [span(2, 6, "PER", "John"), span(14, 18, "PER", "Mary")]
UNITS = [span(3, 7, "PER", "John"), span(17, 21, "PER", "Mary")]


def test_utf16_offsets_after_an_emoji_are_converted(tmp_path: Path) -> None:
    old = write(tmp_path / "old.json", [task(TEXT, [UNITS], [CHARS])])  # a JS editor and a Python model
    gold, pred = read_labelstudio(str(old))
    assert pred is not None
    assert gold.documents() == pred.documents() == [[(2, 6, "PER"), (14, 18, "PER")]]
    assert gold.notes == {"annotations: documents with UTF-16 offsets converted": 1}
    assert pred.notes == {}
    result = nerve.score(str(old))
    assert (result.micro.tp, result.micro.fn) == (2, 0)


def test_offsets_without_texts_need_units(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bare = [span(3, 7, "PER"), span(17, 21, "PER")]
    path = write(tmp_path / "bare.json", [task(TEXT, [bare], [bare])])
    err = fails(capsys, str(path))
    assert "annotations: task 0 has characters beyond the BMP (emoji) and no span text" in err
    assert "use --offsets char or --offsets utf16" in err
    assert read_span_columns(str(path), units="utf16")[0].documents() == [[(2, 6, "PER"), (14, 18, "PER")]]
    mixed = write(tmp_path / "mixed.json", [task(TEXT, [[CHARS[0], UNITS[1]]])])
    assert (
        "agree with code point offsets (task 0, result 0) and with UTF-16 offsets (task 0, result 1)"
        in fails(capsys, str(mixed), str(mixed))
    )
    inside = write(tmp_path / "inside.json", [task(TEXT, [[span(1, 7, "PER")]])])
    err = fails(capsys, "--offsets", "utf16", str(inside), str(inside))
    assert "task 0 (id 1), annotations: result 0: UTF-16 offsets 1, 7 fall inside a character" in err
    assert "labelstudio offsets count char or utf16, not token" in fails(
        capsys, "--offsets", "token", str(inside), str(inside)
    )
    shifted = write(tmp_path / "shifted.json", [task(TEXT, [UNITS])])
    assert "result 0: text[3:7] is 'ohn ', not 'John'" in fails(
        capsys, "--offsets", "char", str(shifted), str(shifted)
    )


def test_which_annotation_is_gold(tmp_path: Path) -> None:
    first, second, third = (
        [span(0, 4, "PER", "John")],
        [span(0, 4, "ORG", "John")],
        [span(0, 4, "LOC", "John")],
    )
    t = task("John", [first, second, third])
    t["annotations"][0]["was_cancelled"] = True
    path = write(tmp_path / "a.json", [t])
    gold, _ = read_labelstudio(str(path))
    assert gold.documents() == [[(0, 4, "ORG")]]  # the first one not cancelled
    assert gold.notes == {"ignored annotations (one read per task)": 1, "ignored cancelled annotations": 1}
    t["annotations"][2]["ground_truth"] = True
    gold, _ = read_labelstudio(str(write(path, [t])))
    assert gold.documents() == [[(0, 4, "LOC")]]  # the one marked ground truth


def test_other_results_and_a_prediction_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    choice = {"type": "choices", "value": {"choices": ["news"]}}
    relation = {"type": "relation", "from_id": "a", "to_id": "b"}
    gold = write(tmp_path / "g.json", [task("John", [[span(0, 4, "PER", "John"), choice, relation]], [[]])])
    pred = write(
        tmp_path / "p.json", [task("John", [[span(0, 4, "ORG")]], [[span(0, 4, "PER"), span(0, 4, "LOC")]])]
    )
    assert main(["score", str(gold), str(pred), "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["exact"]["micro"]["tp"], out["exact"]["micro"]["fp"]) == (1, 1)
    assert out["notes"]["gold"] == {
        "ignored predictions (a prediction file was given)": 1,
        "ignored results of type choices": 1,
        "ignored results of type relation": 1,
    }
    assert out["notes"]["pred"] == {"ignored annotations (the predictions were read)": 1}
    annotations_only = write(tmp_path / "ann.json", [task("John", [[span(0, 4, "PER")]])])
    assert nerve.score(str(gold), str(annotations_only)).micro.tp == 1  # no predictions: its annotations


def test_crlf_bom_one_task_and_an_empty_document(tmp_path: Path) -> None:
    text = "John\r\nMary"  # Label Studio counts the CR as JavaScript does: one unit
    tasks = [task(text, [[span(6, 10, "PER", "Mary")]]), task("", [], id=2)]
    path = write(tmp_path / "t.json", tasks, prefix=b"\xef\xbb\xbf")
    assert sniff_format(str(path)) == "labelstudio"
    gold, pred = read_labelstudio(str(path))
    assert (gold.documents(), gold.n_docs, pred) == ([[(6, 10, "PER")], []], 2, None)
    one = write(
        tmp_path / "one.json",
        {"data": {"ner": "Mary"}, "annotations": [{"result": [span(0, 4, "PER", "Mary")]}]},
    )
    assert read_labelstudio(str(one))[0].documents() == [[(0, 4, "PER")]]  # <Text value="$ner">


@pytest.mark.parametrize(
    ("bad", "detail"),
    [
        ({"data": {"a": "x", "b": "y"}}, "expected the text under data.text, got data keys ['a', 'b']"),
        ({"annotations": []}, 'expected a task object with "data"'),
        (
            task("John", [[span(0, 9, "PER")]]),
            "annotations: result 0: end 9 is beyond the text (4 characters)",
        ),
        (task("John", [[span(0, 4, "PER", "Jon")]]), "result 0: text[0:4] is 'John', not 'Jon'"),
        (
            task("John", [[{"type": "labels", "value": {"start": 0, "end": 4}}]]),
            'result 0: expected value {"start"',
        ),
        (task("John", [[{"value": {}}]]), "result 0: expected an object with a type"),
        (
            {"data": {"text": "x"}, "annotations": {"result": []}},
            "expected a list of objects under annotations",
        ),
    ],
)
def test_bad_input_names_file_and_task(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: dict[str, Any], detail: str
) -> None:
    path = write(tmp_path / "t.json", [task("Mary", [[span(0, 4, "PER")]]), bad])
    err = fails(capsys, "--format", "labelstudio", str(path), str(path))
    assert f"{path}: task 1" in err
    assert detail in err


def test_files_that_do_not_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path / "g.json", [task("John", [[]]), task("Mary", [[]])])
    other = write(tmp_path / "p.json", [task("John", [[]]), task("Marie", [[]])])
    assert f"{other}: task 1 (id '1'): its text is not the gold's" in fails(capsys, str(gold), str(other))
    assert "holds no predictions; give a prediction file too" in fails(capsys, str(gold))
    broken = tmp_path / "b.json"
    broken.write_text('[{"data": ', encoding="utf-8")
    assert f"{broken}: the file: malformed JSON" in fails(
        capsys, "--format", "labelstudio", str(broken), str(gold)
    )


def test_validate_collects_every_problem(tmp_path: Path) -> None:
    tasks = [
        task("John", [[span(0, 9, "PER"), span(0, 4, "PER", "Jo")]]),
        task("Mary", [[span(0, 4, "PER")]]),
    ]
    problems = validate_spans(str(write(tmp_path / "t.json", tasks)), fmt="labelstudio")
    assert [p.detail.split(":")[0:2] for p in problems] == [
        ["task 0 (id 1), annotations", " result 0"],
        ["task 0 (id 1), annotations", " result 1"],
    ]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aé😀\U0001f600x\ud7ff\ue000", max_size=12))
def test_utf16_offsets_against_a_naive_count(text: str) -> None:
    """Every UTF-16 offset of a text: the character it starts, or -1 inside a character or past the end."""
    starts = {len(text[:i].encode("utf-16-le")) // 2: i for i in range(len(text) + 1)}
    units = len(text.encode("utf-16-le")) // 2
    offsets = np.arange(-1, units + 2, dtype=np.int64)
    expected = [starts.get(int(o), -1) for o in offsets]
    assert utf16_to_chars(text, offsets).tolist() == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab", max_size=8), st.text(alphabet="ab", max_size=8))
def test_first_difference(a: str, b: str) -> None:
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    assert first_difference(a, b) == k
