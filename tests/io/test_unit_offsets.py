"""``--offsets byte`` and ``--offsets utf16`` on json/jsonl and doccano, against Python's own encoders."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.api.convert import convert
from nerve.cli import main
from nerve.io.spans import read_span_columns

ALPHABET = "ab é中😀\U0001f9d1\u200d\n"


def byte_offset(text: str, k: int) -> int:
    return len(text[:k].encode("utf-8"))


def utf16_offset(text: str, k: int) -> int:
    return len(text[:k].encode("utf-16-le")) // 2


ENCODE = {"byte": byte_offset, "utf16": utf16_offset}


@st.composite
def documents(draw: st.DrawFn) -> list[tuple[str, list[tuple[int, int, str]]]]:
    docs = []
    for _ in range(draw(st.integers(1, 4))):
        text = draw(st.text(alphabet=ALPHABET, min_size=1, max_size=25))
        spans = []
        for _ in range(draw(st.integers(0, 4))):
            a, b = sorted(draw(st.lists(st.integers(0, len(text)), min_size=2, max_size=2, unique=True)))
            spans.append((a, b, draw(st.sampled_from(["PER", "LOC"]))))
        docs.append((text, spans))
    return docs


def write(path: Path, docs: list[tuple[str, list[tuple[int, int, str]]]], units: str, text: bool) -> None:
    code = ENCODE[units]
    lines = []
    for t, spans in docs:
        items = [{"start": code(t, a), "end": code(t, b), "label": k} for a, b, k in spans]
        if text:
            for item, (a, b, _) in zip(items, spans, strict=True):
                item["text"] = t[a:b]
        lines.append(json.dumps({"text": t, "spans": items}, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@settings(max_examples=60, deadline=None)
@given(documents(), st.sampled_from(["byte", "utf16"]), st.booleans())
def test_units_read_as_the_characters_python_counts(docs, units: str, text: bool) -> None:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "d.jsonl"
        write(path, docs, units, text)
        gold, _ = read_span_columns(str(path), str(path), units=units)
    assert gold.documents() == [spans for _, spans in docs]


@pytest.mark.parametrize(
    ("units", "text", "start", "end", "needle"),
    [
        (
            "byte",
            "é😀 x",
            1,
            3,
            "UTF-8 byte offsets 1, 3 fall inside a character or beyond the text (8 bytes)",
        ),
        ("byte", "é x", 0, 9, "UTF-8 byte offsets 0, 9 fall inside a character or beyond the text (4 bytes)"),
        (
            "utf16",
            "😀 x",
            1,
            3,
            "UTF-16 offsets 1, 3 fall inside a character or beyond the text (4 UTF-16 units)",
        ),
        ("utf16", "😀 x", 0, 5, "UTF-16 offsets 0, 5 fall inside"),
    ],
)
def test_offsets_inside_a_character_are_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    units: str,
    text: str,
    start: int,
    end: int,
    needle: str,
) -> None:
    path = tmp_path / "d.jsonl"
    ok = {"text": "plain", "spans": []}
    bad = {"text": text, "spans": [{"start": start, "end": end, "label": "X"}]}
    path.write_text(json.dumps(ok) + "\n" + json.dumps(bad, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(nerve.InputError) as err:
        read_span_columns(str(path), str(path), units=units)
    assert err.value.line == 2
    assert f"document 1 (line 2): spans 0: {needle}" in str(err.value)
    assert main(["score", str(path), str(path), "--offsets", units]) == 2
    message = capsys.readouterr().err.strip()
    assert "\n" not in message
    assert f"{path}:2: document 1 (line 2): spans 0:" in message


@pytest.mark.parametrize("units", ["byte", "utf16"])
def test_documents_without_text_are_refused(tmp_path: Path, units: str) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(
        json.dumps({"tokens": ["a", "b"], "spans": [{"start": 0, "end": 1, "label": "X"}]}) + "\n"
    )
    with pytest.raises(
        nerve.InputError, match=f'has no "text" string, which --offsets {units} offsets count'
    ):
        read_span_columns(str(path), str(path), units=units)


def test_ascii_and_bmp_documents_are_unchanged_and_still_checked(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"text": "Ann é", "spans": [{"start": 0, "end": 9, "label": "X"}]}) + "\n")
    with pytest.raises(nerve.InputError, match="end 9 is beyond the text"):
        read_span_columns(str(path), str(path), units="utf16")
    ok = tmp_path / "ok.jsonl"
    ok.write_text(
        json.dumps({"text": "Ann é", "spans": [{"start": 4, "end": 5, "label": "X", "text": "é"}]}) + "\n"
    )
    assert read_span_columns(str(ok), str(ok), units="utf16")[0].documents() == [[(4, 5, "X")]]


def test_doccano_byte_offsets(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    text = "Zoë met 😀 Bob"
    a, b = byte_offset(text, 10), byte_offset(text, 13)
    path.write_text(
        json.dumps({"text": text, "label": [[a, b, "PER"]]}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    gold, _ = read_span_columns(str(path), str(path), fmt="doccano", units="byte")
    assert gold.documents() == [[(10, 13, "PER")]]
    path.write_text(
        json.dumps({"text": text, "label": [[1, 3, "PER"]]}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    with pytest.raises(nerve.InputError, match="UTF-8 byte offsets 1, 3 fall inside a character"):
        read_span_columns(str(path), str(path), fmt="doccano", units="byte")


def test_convert_reads_byte_offsets_as_characters(tmp_path: Path) -> None:
    docs = [("Zoë met 😀 Bob", [(0, 3, "PER"), (10, 13, "PER")])]
    write(tmp_path / "d.jsonl", docs, "byte", True)
    report = convert(tmp_path / "d.jsonl", tmp_path / "out.jsonl", to="jsonl", offsets="byte")
    assert report.entities_written == 2
    line = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert [(s["start"], s["end"]) for s in line["spans"]] == [(0, 3), (10, 13)]


@pytest.mark.parametrize("units", ["byte", "utf16"])
def test_spacy_jsonl_offsets(tmp_path: Path, units: str) -> None:
    text = "Zoë met 😀 Bob"
    code = ENCODE[units]
    spans = [{"start": code(text, 10), "end": code(text, 13), "label": "PER"}]
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"text": text, "spans": spans}, ensure_ascii=False) + "\n", encoding="utf-8")
    gold, _ = read_span_columns(str(path), str(path), fmt="spacy-jsonl", units=units)
    assert gold.documents() == [[(10, 13, "PER")]]
    with pytest.raises(nerve.OptionError, match="labelstudio offsets count char or utf16, not byte"):
        read_span_columns(str(path), str(path), fmt="labelstudio", units="byte")
