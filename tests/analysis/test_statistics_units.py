"""Statistics on too few resampling units: ``--unit auto``, ``n/a`` and the flags in every format.

Most CoNLL test files have no ``-DOCSTART-`` line, so they hold one document, whose only
resample is the corpus itself. ``auto`` (the default) resamples documents when there are at
least 20 and sentences otherwise; a statistic that cannot be computed is ``null`` in JSON and
``n/a`` in every table, and each flag (one unit, few units, degenerate resamples) reaches
every output format. The number of resamples is bounded, and a bootstrap that memory cannot
hold is refused before it is drawn.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import nerve
from nerve.analysis.bootstrap import UnitCounts, bootstrap_intervals
from nerve.analysis.units import MIN_UNITS, check_memory, choose_unit
from nerve.cli import main
from nerve.errors import OptionError
from stats_corpora import tagged_corpus

TEXT_FORMATS = ["table", "markdown", "csv", "latex"]
ONE_UNIT_FIX = "resample sentences (--unit sentence)"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@pytest.fixture
def one_document(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Gold and two systems without ``-DOCSTART-``: one document of 30 sentences."""
    return tagged_corpus(tmp_path, 1, 30, docstart=False)


# --------------------------------------------------------------------------- compare


def test_compare_one_document_resamples_sentences_by_default(
    one_document: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gold, a, b = map(str, one_document)
    out = json.loads(_run(capsys, "compare", gold, a, b, "--bootstrap", "200", "--output", "json"))
    assert out["unit"] == "sentence"
    assert "unit=sentence" in out["signature"]
    assert out["flags"] == []  # 30 sentences: neither too few nor degenerate
    (c,) = out["comparisons"]
    low, high = c["ci"]
    assert low < c["delta_f1"] < high
    assert 0 < c["p_bootstrap"] < 1
    assert 0 < c["p_randomization"] <= c["p_holm"] <= 1


@pytest.mark.parametrize("output", TEXT_FORMATS)
def test_compare_one_document_prints_no_fake_numbers(
    one_document: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str], output: str
) -> None:
    """``--unit document`` on one document: the interval and every p-value are n/a, with the fix."""
    gold, a, b = map(str, one_document)
    out = _run(capsys, "compare", gold, a, b, "--unit", "document", "--bootstrap", "50", "--output", output)
    assert "0.0010" not in out  # the old p bootstrap of 1 / (N + 1)
    assert "1.0000" not in out  # the old p randomization
    assert out.count("n/a") >= 5 + (output != "csv")  # ci low, ci high and three p-values; the note
    assert "one_unit" in out
    assert "one document only: every resample is the corpus itself" in out
    assert ONE_UNIT_FIX in out
    c = nerve.compare(one_document[0], one_document[1:], bootstrap=50, unit="document").comparisons[0]
    assert (c.ci, c.p_bootstrap, c.p_randomization, c.p_holm) == (None, None, None, None)
    assert c.delta_f1 != 0  # the point estimate is still given


def test_compare_json_has_nulls(
    one_document: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gold, a, b = map(str, one_document)
    out = _run(capsys, "compare", gold, a, b, "--unit", "document", "--bootstrap", "50", "--output", "json")
    assert '"ci": null' in out
    data = json.loads(out)
    (c,) = data["comparisons"]
    assert (c["ci"], c["p_bootstrap"], c["p_randomization"], c["p_holm"]) == (None, None, None, None)
    assert [f["kind"] for f in data["flags"]] == ["one_unit"]


def test_compare_few_units_warns_in_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, a, b = map(str, tagged_corpus(tmp_path, 1, 6, docstart=False))
    warning = "only 6 sentences: intervals and p-values from fewer than 20 sentences are unreliable"
    for output in TEXT_FORMATS:
        out = _run(capsys, "compare", gold, a, b, "--bootstrap", "50", "--output", output)
        assert f"few_units: {warning}; score a larger corpus" in out, output
    data = json.loads(_run(capsys, "compare", gold, a, b, "--bootstrap", "50", "--output", "json"))
    assert data["flags"][0] == {"kind": "few_units", "message": f"{warning}; score a larger corpus"}


def test_compare_degenerate_resamples_are_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Systems that differ in one sentence only: every randomisation trial gives the same size of
    difference, so p randomization (and Holm's) is n/a, said in every format."""
    gold, a, _ = tagged_corpus(tmp_path, 1, 25, docstart=False)
    lines = a.read_text(encoding="utf-8").splitlines()
    first = next(k for k, line in enumerate(lines) if line.endswith(" O"))
    lines[first] = lines[first][:-1] + "B-PER"
    b = tmp_path / "one-change.txt"
    b.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = nerve.compare(gold, [a, b], bootstrap=200)
    (c,) = result.comparisons
    assert (c.p_randomization, c.p_holm) == (None, None)
    assert c.ci is not None  # resampling draws that sentence 0, 1, 2... times: the difference varies
    assert [k for k, _ in result.flags] == ["degenerate"]
    for output in [*TEXT_FORMATS, "json"]:
        out = _run(capsys, "compare", str(gold), str(a), str(b), "--bootstrap", "200", "--output", output)
        assert "every randomisation trial gives the same size of difference" in out


# --------------------------------------------------------------------------- score --bootstrap


def test_score_one_document_resamples_sentences_by_default(one_document: tuple[Path, Path, Path]) -> None:
    result = nerve.score(one_document[0], one_document[1], bootstrap=200)
    b = result.analysis.bootstrap  # type: ignore[union-attr]
    assert b is not None
    assert (b.unit, b.units) == ("sentence", 30)
    assert "bootstrap percentile n=200 unit=sentence" in result.signature
    assert b.to_dict()["unit"] == "sentence"
    assert b.micro.f1 is not None
    low, high = b.micro.f1
    assert low < result.micro.f1 < high


@pytest.mark.parametrize("output", TEXT_FORMATS)
def test_score_one_document_prints_n_a(
    one_document: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str], output: str
) -> None:
    gold, a, _ = map(str, one_document)
    out = _run(capsys, "score", gold, a, "--bootstrap", "50", "--unit", "document", "--output", output)
    result = nerve.score(gold, a)
    f1 = f"{100 * result.micro.f1:.2f}" if output != "csv" else repr(result.micro.f1)
    assert not re.search(rf"{re.escape(f1)}\W+{re.escape(f1)}\W+{re.escape(f1)}", out)  # no [x, x]
    assert out.count("n/a") >= 6 * (len(result.per_type) + 3)  # low and high of P, R and F1 per row
    assert "one document only: every resample is the corpus itself, so intervals and p-values are n/a" in out
    assert ONE_UNIT_FIX in out


def test_score_one_document_json_has_nulls(
    one_document: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gold, a, _ = map(str, one_document)
    out = _run(capsys, "score", gold, a, "--bootstrap", "50", "--unit", "document", "--output", "json")
    b = json.loads(out)["bootstrap"]
    assert b["unit"] == "document"
    for scope in ["micro", "macro", "weighted", "PER", "LOC", "ORG"]:
        assert b[scope] == {"precision": None, "recall": None, "f1": None}
    assert [(f["kind"], f["type"]) for f in b["flags"]] == [("one_unit", None), ("no_gold", "MISC")]


@pytest.mark.parametrize("output", TEXT_FORMATS)
def test_score_slices_print_n_a(
    one_document: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str], output: str
) -> None:
    gold, a, _ = map(str, one_document)
    args = ["score", gold, a, "--bootstrap", "20", "--unit", "document", "--slices", "type", "-o", output]
    out = _run(capsys, *args)
    section = out[out.index("# slices") :] if output == "csv" else out[out.lower().rindex("f1 interval") :]
    assert "n/a" in section
    assert not re.search(r"\d\.\d\d-\d", section)  # no 82.25-82.25


def test_one_sentence_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One sentence: nothing to resample whatever the unit; the fix is more data."""
    gold, a, b = map(str, tagged_corpus(tmp_path, 1, 1, docstart=False))
    out = json.loads(_run(capsys, "score", gold, a, "--bootstrap", "30", "--output", "json"))["bootstrap"]
    assert (out["unit"], out["micro"]["f1"]) == ("sentence", None)
    message = "one sentence only: every resample is the corpus itself, so intervals and p-values are n/a"
    assert out["flags"][0] == {
        "kind": "one_unit",
        "type": None,
        "message": f"{message}; score a larger corpus",
    }
    compared = json.loads(_run(capsys, "compare", gold, a, b, "--bootstrap", "30", "--output", "json"))
    assert compared["unit"] == "sentence"
    assert compared["comparisons"][0]["p_bootstrap"] is None
    assert compared["flags"] == [{"kind": "one_unit", "message": f"{message}; score a larger corpus"}]


@pytest.mark.parametrize("output", [*TEXT_FORMATS, "json"])
def test_score_few_units_warns_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    gold, a, _ = map(str, tagged_corpus(tmp_path, 5, 3))
    out = _run(capsys, "score", gold, a, "--bootstrap", "50", "--unit", "document", "--output", output)
    assert "only 5 documents: intervals and p-values from fewer than 20 documents are unreliable" in out
    assert ONE_UNIT_FIX in out
    assert "few_units" in out


# --------------------------------------------------------------------------- auto


@pytest.mark.parametrize(("documents", "unit"), [(MIN_UNITS - 1, "sentence"), (MIN_UNITS, "document")])
def test_auto_threshold(tmp_path: Path, documents: int, unit: str) -> None:
    """19 documents: sentences (38 of them); 20: documents. Neither is flagged as too few."""
    gold, a, b = tagged_corpus(tmp_path, documents, 2)
    boot = nerve.score(gold, a, bootstrap=100).analysis.bootstrap  # type: ignore[union-attr]
    assert boot is not None
    assert (boot.unit, boot.units) == (unit, documents * (2 if unit == "sentence" else 1))
    assert "few_units" not in [f.kind for f in boot.flags if f.type is None]
    compared = nerve.compare(gold, [a, b], bootstrap=100)
    assert (compared.unit, compared.flags) == (unit, ())
    assert f"unit={unit}" in compared.signature


def test_choose_unit() -> None:
    assert choose_unit("auto", 19, True) == "sentence"
    assert choose_unit("auto", 20, True) == "document"
    assert choose_unit("auto", 1, False) == "document"  # span files have no sentences
    assert choose_unit("document", 1, True) == "document"
    assert choose_unit("sentence", 500, True) == "sentence"


def span(start: int, end: int, label: str) -> dict[str, object]:
    return {"start": start, "end": end, "label": label}


def test_span_files_resample_documents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = [
        {"text": "Ada met Bob", "gold": [span(0, 3, "PER"), span(8, 11, "PER")], "pred": [span(0, 3, "PER")]},
        {"text": "in Paris", "gold": [span(3, 8, "LOC")], "pred": [span(3, 8, "LOC"), span(0, 2, "LOC")]},
    ]
    path = tmp_path / "spans.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    out = json.loads(_run(capsys, "score", str(path), "--bootstrap", "50", "--output", "json"))["bootstrap"]
    assert out["unit"] == "document"
    assert out["flags"][0]["kind"] == "few_units"
    assert out["flags"][0]["message"].endswith(
        "span files have no sentences to resample: score more documents"
    )


# --------------------------------------------------------------------------- bounds


@pytest.mark.parametrize("command", ["score", "compare", "report"])
def test_resamples_are_bounded(
    one_document: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str], command: str, tmp_path: Path
) -> None:
    gold, a, b = map(str, one_document)
    args = {"score": [gold, a], "compare": [gold, a, b], "report": [gold, a, "-o", str(tmp_path / "r.html")]}
    err = _error(capsys, command, *args[command], "--bootstrap", "10000000000000")
    assert err == (
        "nerve: error: --bootstrap: expected a whole number from 1 to 1,000,000, such as 1000, "
        "but got '10000000000000'\n"
    )
    with pytest.raises(OptionError, match=r"^bootstrap: expected a whole number from 1 to 1,000,000"):
        nerve.score(gold, a, bootstrap=10**13)
    with pytest.raises(OptionError, match=r"^bootstrap: expected a whole number from 1 to 1,000,000"):
        nerve.compare(gold, [a, b], bootstrap=10**13)


def test_a_bootstrap_memory_cannot_hold_is_refused() -> None:
    """A million resamples of 100 types would take about 11 GiB: refused before any is drawn."""
    counts = UnitCounts(
        np.ones((3, 100, 3), dtype=np.int64), tuple(f"T{k:03}" for k in range(100)), "sentence"
    )
    with pytest.raises(OptionError) as info:
        bootstrap_intervals(counts, 1_000_000, 1, 0.95)
    assert str(info.value) == (
        "bootstrap: 1,000,000 resamples of 100 types need about 10.6 GiB of memory, more than the 4 GiB "
        "nerve allows: at most 375,960 resamples fit"
    )
    check_memory(375_960, 100, "100 types")  # the bound itself fits
    with pytest.raises(OptionError, match="at most 375,960 resamples fit"):
        check_memory(375_961, 100, "100 types")
    assert bootstrap_intervals(counts, 1000, 1, 0.95).n == 1000
