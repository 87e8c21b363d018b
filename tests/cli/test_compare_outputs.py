"""``nerve compare`` of model outputs: each side's format, ``--min-score``, ``--locate``, ``--normalize``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cli_errors import cli_error
from nerve import score
from nerve.cli import main

TEXT = "Ann met Bob in Paris and Paris again"
GOLD = [(0, 3, "PER"), (8, 11, "PER"), (15, 20, "LOC"), (25, 30, "LOC")]
N_DOCS = 24


def corpus(tmp_path: Path) -> dict[str, str]:
    """A gold file, two hf-pipeline systems and two entity-list systems over ``N_DOCS`` documents."""
    rng = random.Random(7)
    files = {name: tmp_path / f"{name}.jsonl" for name in ("gold", "hf_a", "hf_b", "llm_a", "llm_b")}
    lines: dict[str, list[str]] = {name: [] for name in files}
    for d in range(N_DOCS):
        doc = {"id": f"d{d}", "text": TEXT}
        spans = [{"start": s, "end": e, "label": t} for s, e, t in GOLD]
        lines["gold"].append(json.dumps({**doc, "spans": spans}))
        for name in ("hf_a", "hf_b"):
            found = [
                {"entity_group": t if rng.random() < 0.8 else "ORG", "score": round(rng.random(), 3)}
                | {"word": TEXT[s:e], "start": s, "end": e}
                for s, e, t in GOLD
                if rng.random() < 0.9
            ]
            lines[name].append(json.dumps({**doc, "entities": found}))
        for name in ("llm_a", "llm_b"):
            listed = [
                {"text": rng.choice([TEXT[s:e], TEXT[s:e].lower()]), "type": t}
                for s, e, t in GOLD
                if rng.random() < 0.7
            ]
            lines[name].append(json.dumps({**doc, "entities": listed}))
    for name, path in files.items():
        path.write_text("\n".join(lines[name]) + "\n", encoding="utf-8")
    return {name: str(path) for name, path in files.items()}


def compared(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["compare", *args, "--bootstrap", "50", "-o", "json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def delta(f: dict[str, str], a: str, b: str, **options: object) -> float:
    """The micro F1 difference of system ``b`` over ``a``, as `nerve.score` gives each under ``options``."""
    return score(f["gold"], f[b], **options).micro.f1 - score(f["gold"], f[a], **options).micro.f1  # type: ignore[arg-type]


def test_two_pipeline_systems_with_a_min_score(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = corpus(tmp_path)
    got = compared(capsys, f["gold"], f["hf_a"], f["hf_b"], "--min-score", "0.5")
    assert "| spans jsonl/hf-pipeline min-score 0.5 |" in str(got["signature"])
    (row,) = got["comparisons"]  # type: ignore[misc]
    assert row["delta_f1"] == pytest.approx(delta(f, "hf_a", "hf_b", min_score=0.5))
    assert row["delta_f1"] != pytest.approx(delta(f, "hf_a", "hf_b"))  # the threshold reached the scoring
    named = compared(
        capsys, f["gold"], f["hf_a"], f["hf_b"], "--min-score", "0.5", "--pred-format", "hf-pipeline"
    )
    assert named["comparisons"] == got["comparisons"]


def test_two_entity_list_systems_located_and_normalised(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = corpus(tmp_path)
    args = (f["gold"], f["llm_a"], f["llm_b"], "--normalize", "case", "--locate", "all")
    got = compared(capsys, *args, "--gold-format", "jsonl", "--pred-format", "entity-list")
    assert "| spans jsonl/entity-list locate all normalize case |" in str(got["signature"])
    (row,) = got["comparisons"]  # type: ignore[misc]
    assert row["delta_f1"] == pytest.approx(delta(f, "llm_a", "llm_b", normalize="case", locate="all"))
    assert row["delta_f1"] != pytest.approx(delta(f, "llm_a", "llm_b"))


def test_options_that_do_not_apply_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = corpus(tmp_path)
    line = cli_error(capsys, "compare", f["gold"], f["llm_a"], f["llm_b"], "--min-score", "0.5")
    assert line.startswith(
        "nerve: error: --min-score: applies to hf-pipeline input, but the input reads as"
    ), line
    line = cli_error(capsys, "compare", f["gold"], f["hf_a"], f["hf_b"], "--locate", "first")
    assert line.startswith("nerve: error: --locate: applies to entity-list input"), line
    line = cli_error(capsys, "compare", f["gold"], f["hf_a"], f["hf_b"], "--pred-format", "entity-list")
    assert line.startswith(f"nerve: error: {f['hf_a']}:1: document 0 (line 1): "), line
    assert line.endswith("looks like hf-pipeline, not entity-list: pass --pred-format hf-pipeline"), line


def test_a_pipeline_system_beside_an_entity_list_system(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = corpus(tmp_path)
    given = ("--min-score", "0.5", "--normalize", "case")  # the one for the pipeline, the other for the list
    got = compared(capsys, f["gold"], f["hf_a"], f["llm_b"], *given)
    both = "| spans jsonl/hf-pipeline min-score 0.5; jsonl/entity-list locate in-order normalize case |"
    assert both in str(got["signature"])  # each system's reading, the options it took
    (row,) = got["comparisons"]  # type: ignore[misc]
    pipeline = score(f["gold"], f["hf_a"], min_score=0.5).micro.f1
    listed = score(f["gold"], f["llm_b"], normalize="case").micro.f1
    assert row["delta_f1"] == pytest.approx(listed - pipeline)
    flipped = compared(capsys, f["gold"], f["llm_b"], f["hf_a"], *given)
    assert flipped["comparisons"][0]["delta_f1"] == pytest.approx(pipeline - listed)  # type: ignore[index]


def test_the_lenient_an_error_names_is_an_option_of_compare(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = corpus(tmp_path)
    lines = Path(f["hf_b"]).read_text(encoding="utf-8").splitlines()
    doc = json.loads(lines[0])
    doc["entities"] = [{"entity_group": "LOC", "score": 0.9, "word": "Berlin", "start": 15, "end": 20}]
    mismatched = tmp_path / "mismatched.jsonl"
    mismatched.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n", encoding="utf-8")
    line = cli_error(capsys, "compare", f["gold"], f["hf_a"], str(mismatched))
    assert line.endswith("or count such entities with --lenient)"), line
    got = compared(capsys, f["gold"], f["hf_a"], str(mismatched), "--lenient", "--offsets", "char")
    assert "| spans jsonl/hf-pipeline lenient |" in str(got["signature"])
