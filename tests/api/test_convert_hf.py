"""``nerve convert`` of Hugging Face datasets made by the real `datasets`: tags decoded, tokens kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from conftest import peer
from nerve.api.convert import convert
from nerve.cli import main

datasets = peer("datasets")
peer("pyarrow")
datasets.disable_progress_bars()

NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
FEATURES = datasets.Features(
    {
        "tokens": datasets.Sequence(datasets.Value("string")),
        "ner_tags": datasets.Sequence(datasets.ClassLabel(names=NAMES)),
    }
)
SAFE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def dataset(rows: list[list[int]]) -> object:
    words = [[f"w{r}_{i}" for i in range(len(s))] for r, s in enumerate(rows)]
    return datasets.Dataset.from_dict({"tokens": words, "ner_tags": rows}, features=FEATURES)


def naive(rows: list[list[int]]) -> list[tuple[int, int, str]]:
    """IOB2 entities over the rows end to end; an I- that continues nothing begins an entity."""
    out: list[tuple[int, int, str]] = []
    base = 0
    for row in rows:
        open_: list[int | str] | None = None
        for i, t in enumerate([NAMES[k] for k in row] + ["O"]):
            if open_ is not None and (t == "O" or t.startswith("B-") or t[2:] != open_[1]):
                out.append((base + int(open_[0]), base + i, str(open_[1])))
                open_ = None
            if t != "O" and open_ is None:
                open_ = [i, t[2:]]
        base += len(row)
    return out


rows_strategy = st.lists(st.lists(st.integers(0, len(NAMES) - 1), max_size=7), min_size=1, max_size=5)


@settings(max_examples=20, deadline=None, suppress_health_check=SAFE)
@given(rows=rows_strategy)
def test_dataset_to_jsonl_against_a_naive_decoding(
    tmp_path_factory: pytest.TempPathFactory, rows: list[list[int]]
) -> None:
    tmp = tmp_path_factory.mktemp("hf")
    dataset(rows).save_to_disk(str(tmp / "ds"))
    report = convert(tmp / "ds", tmp / "out.jsonl", to="jsonl")
    assert report.input_format == "hf"
    written = [json.loads(line) for line in (tmp / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    words = [f"w{r}_{i}" for r, s in enumerate(rows) for i in range(len(s))]
    if not words:
        assert written == []
        return
    (doc,) = written
    assert doc["tokens"] == words
    assert sorted((s["start"], s["end"], s["label"]) for s in doc["spans"]) == sorted(naive(rows))
    assert report.entities_read == report.entities_written == len(naive(rows))
    nonempty = sum(1 for s in rows if s)
    assert report.lost.get("sentence breaks (JSONL documents of tokens hold none)", 0) == nonempty - 1


def test_dataset_to_conll_scores_as_its_tags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [[1, 2, 0, 3], [0, 2, 2, 0], [4]]  # I-PER after O, and I-LOC alone: repaired by beginning
    dataset(rows).to_parquet(str(tmp_path / "ds.parquet"))
    assert main(["convert", str(tmp_path / "ds.parquet"), str(tmp_path / "out.conll"), "--to", "conll"]) == 0
    lines = (tmp_path / "out.conll").read_text(encoding="utf-8").split("\n\n")
    sentences = [[ln.split() for ln in block.splitlines() if ln.strip()] for block in lines if block.strip()]
    assert [[w for w, _ in s] for s in sentences] == [
        [f"w{r}_{i}" for i in range(len(s))] for r, s in enumerate(rows)
    ]
    assert [[t for _, t in s] for s in sentences] == [
        ["B-PER", "I-PER", "O", "B-LOC"],
        ["O", "B-PER", "I-PER", "O"],
        ["B-LOC"],
    ]
    err = capsys.readouterr().err
    assert "hf" in err
    result = nerve.score(str(tmp_path / "out.conll"), str(tmp_path / "out.conll"))
    assert result.micro.tp == len(naive(rows)) == 4


def test_dataset_refusals(tmp_path: Path) -> None:
    dataset([[1, 2]]).save_to_disk(str(tmp_path / "ds"))
    with pytest.raises(nerve.InputError, match="read as the gold side"):
        convert(tmp_path / "ds", tmp_path / "o.jsonl", to="jsonl", side="pred")
    with pytest.raises(nerve.OptionError, match=r"^tag_format: applies to CoNLL and BIO input"):
        convert(tmp_path / "ds", tmp_path / "o.jsonl", to="jsonl", tag_format="IOB")
    with pytest.raises(nerve.OptionError, match=r"^offsets: applies to"):
        convert(tmp_path / "ds", tmp_path / "o.jsonl", to="jsonl", offsets="char")
    bare = datasets.Dataset.from_dict(
        {"ner_tags": [[1, 2]]}, features=datasets.Features({"ner_tags": FEATURES["ner_tags"]})
    )
    bare.save_to_disk(str(tmp_path / "bare"))
    with pytest.raises(nerve.InputError, match="has no column 'tokens'"):
        convert(tmp_path / "bare", tmp_path / "o.jsonl", to="jsonl", input_format="hf")
