"""The threshold sweep in every output format: all rows in JSON and CSV, a readable subset in tables."""

from __future__ import annotations

import csv
import io
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.cli import main
from nerve.report.renderers import RENDERERS, render
from nerve.report.sweep import SHOWN

TEXT = "Ann met Bob in Paris"
GOLD = [(0, 3, "PER"), (8, 11, "PER"), (15, 20, "LOC")]
PRED = [(0, 3, "PER", 0.9), (8, 11, "LOC", 0.4), (15, 20, "LOC", 0.7)]


Gold = list[tuple[int, int, str]]
Pred = list[tuple[int, int, str, float]]


def files(tmp_path: Path, gold: Gold, pred: Pred, text: str = TEXT) -> tuple[Path, Path]:
    g, p = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    g.write_text(
        json.dumps({"text": text, "spans": [{"start": s, "end": e, "label": t} for s, e, t in gold]}) + "\n"
    )
    spans = [{"start": s, "end": e, "label": t, "score": x} for s, e, t, x in pred]
    p.write_text(json.dumps({"text": text, "spans": spans}) + "\n")
    return g, p


def test_json_has_every_row_the_best_and_each_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g, p = files(tmp_path, GOLD, PRED)
    assert main(["score", str(g), str(p), "--sweep", "-o", "json"]) == 0
    sweep = json.loads(capsys.readouterr().out)["sweep"]
    rows = [(r["threshold"], r["tp"], r["fp"], r["fn"]) for r in sweep["rows"]]
    assert rows == [(0.9, 1, 0, 2), (0.7, 2, 0, 1), (0.4, 2, 1, 1)]
    assert sweep["rows"][1]["f1"] == pytest.approx(0.8)
    assert list(sweep["rows"][0]) == ["threshold", "precision", "recall", "f1", "tp", "fp", "fn"]
    assert sweep["best"]["threshold"] == 0.7
    assert "highest" in sweep["tie"]
    assert [r["threshold"] for r in sweep["per_type"]["LOC"]["rows"]] == [0.7, 0.4]
    assert sweep["per_type"]["PER"]["best"] == {
        "threshold": 0.9, "precision": 1.0, "recall": 0.5, "f1": 2 / 3, "tp": 1, "fp": 0, "fn": 1,
    }  # fmt: skip


def test_without_sweep_nothing_changes(tmp_path: Path) -> None:
    g, p = files(tmp_path, GOLD, PRED)
    plain, swept = nerve.score(g, p), nerve.score(g, p, sweep=True)
    assert "sweep" not in plain.to_dict()
    assert {k: v for k, v in swept.to_dict().items() if k != "sweep"} == plain.to_dict()
    for output in RENDERERS:
        assert "threshold" not in render(plain, output)


@pytest.mark.parametrize("output", ["table", "markdown", "latex", "csv"])
def test_every_text_format_carries_the_curve_and_the_best(tmp_path: Path, output: str) -> None:
    g, p = files(tmp_path, GOLD, PRED)
    text = render(nerve.score(g, p, sweep=True), output)
    assert "threshold sweep" in text
    assert "best 0.7" in text
    assert "best threshold per type" in text
    for threshold in ("0.9", "0.7", "0.4"):
        assert threshold in text
    if output != "csv":
        assert "80.00" in text  # F1 at 0.7, in percent


def test_csv_sections_hold_full_precision_rows(tmp_path: Path) -> None:
    g, p = files(tmp_path, GOLD, PRED)
    sections = render(nerve.score(g, p, sweep=True), "csv").split("\n\n")
    micro = next(s for s in sections if s.startswith("# threshold sweep:"))
    rows = list(csv.reader(io.StringIO(micro.split("\n", 1)[1])))
    assert rows[0] == ["threshold", "precision", "recall", "f1", "tp", "fp", "fn"]
    assert rows[3] == ["0.4", "0.6666666666666666", "0.6666666666666666", "0.6666666666666666", "2", "1", "1"]
    per_type = next(s for s in sections if s.startswith("# threshold sweep per type"))
    assert [r[:2] for r in csv.reader(io.StringIO(per_type.split("\n", 1)[1]))][1:] == [
        ["LOC", "0.7"], ["LOC", "0.4"], ["PER", "0.9"],
    ]  # fmt: skip


def test_a_long_curve_shows_a_subset_and_says_so(tmp_path: Path) -> None:
    """100 thresholds: the table shows SHOWN of them spread evenly, with the best; JSON and CSV all."""
    text = "x" * 200
    gold = [(2 * i, 2 * i + 1, "A") for i in range(100) if i % 3]
    pred = [(2 * i, 2 * i + 1, "A", round(1 - i / 100, 2)) for i in range(100)]
    g, p = files(tmp_path, gold, pred, text)
    result = nerve.score(g, p, sweep=True)
    assert len(result.to_dict()["sweep"]["rows"]) == 100
    table = render(result, "table")
    assert "of 100 thresholds shown, spread evenly, with the best (json and csv have all)" in table
    body = table.split("threshold sweep:", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    assert SHOWN <= len(body) <= SHOWN + 1
    assert body[0].split()[0] == "1.0"
    assert body[-1].split()[0] == "0.01"
    best = result.to_dict()["sweep"]["best"]["threshold"]
    assert any(line.split()[0] == repr(best) for line in body)
    csv_rows = render(result, "csv").split("# threshold sweep:", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(csv_rows) == 1 + 1 + 100  # the comment's tail, the header, every row


def test_a_type_without_predictions_is_n_a(tmp_path: Path) -> None:
    g, p = files(tmp_path, [*GOLD, (4, 7, "MISC")], PRED)
    result = nerve.score(g, p, sweep=True)
    assert result.to_dict()["sweep"]["per_type"]["MISC"] == {"rows": [], "best": None}
    line = next(x for x in render(result, "table").splitlines() if x.startswith("MISC") and "n/a" in x)
    assert line.split()[1] == "0"


def test_types_and_label_maps_apply_before_the_sweep(tmp_path: Path) -> None:
    g, p = files(tmp_path, GOLD, PRED)
    result = nerve.score(g, p, sweep=True, types="PER")
    assert set(result.to_dict()["sweep"]["per_type"]) == {"PER"}
    assert [r["threshold"] for r in result.to_dict()["sweep"]["rows"]] == [0.9]


@pytest.mark.parametrize("name", ['a,"b"', "rows", "\n", '"rows": "x"', "é"])
def test_json_and_csv_keep_every_row_whatever_the_type_names(tmp_path: Path, name: str) -> None:
    """JSON written a row a line parses to `Result.to_dict`; CSV quotes a type name as csv does."""
    g, p = files(tmp_path, GOLD, [*PRED, (4, 7, name, 0.5)])
    result = nerve.score(g, p, sweep=True)
    parsed = json.loads(render(result, "json"))
    assert parsed["sweep"] == result.to_dict()["sweep"]
    assert parsed["exact"] == result.to_dict()["exact"]
    per_type = render(result, "csv").split("# threshold sweep per type\n", 1)[1].split("\n\n", 1)[0]
    rows = list(csv.reader(io.StringIO(per_type)))[1:]
    assert [r[:2] for r in rows if r[0] == name] == [[name, "0.5"]]
    assert len(rows) == sum(len(c) for c in result.sweep.per_type.values())  # type: ignore[union-attr]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 1) | st.sampled_from([1e-05, 5e-324, 1.0, 0.0, 0.1]), min_size=1, max_size=12))
def test_json_and_csv_numbers_read_back_exactly(scores: list[float]) -> None:
    """The rows written column by column (orjson's numbers) parse back to `Curve.row`'s, bit for bit."""
    with tempfile.TemporaryDirectory() as tmp:
        pred = [(2 * i, 2 * i + 1, "AB"[i % 2], x) for i, x in enumerate(scores)]
        g, p = files(Path(tmp), [(0, 1, "A"), (2, 3, "B")], pred, "x" * 40)
        result = nerve.score(g, p, sweep=True, beta=2.0)
    assert result.sweep is not None
    assert json.loads(render(result, "json"))["sweep"] == result.to_dict()["sweep"]
    micro = render(result, "csv").split("# threshold sweep:", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    rows = list(csv.DictReader(micro))
    assert [float(r["threshold"]) for r in rows] == result.sweep.micro.threshold.tolist()
    assert [float(r["f2"]) for r in rows] == result.sweep.micro.fbeta.tolist()  # type: ignore[union-attr]
    assert [int(r["fn"]) for r in rows] == result.sweep.micro.fn.tolist()
