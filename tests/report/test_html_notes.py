"""A `Result`'s notes and warnings on the HTML page, worded as in the text output, in Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_html_report import Page

from nerve.cli import main

OUTPUTS = Path(__file__).resolve().parents[2] / "docs" / "examples" / "outputs"
GOLD = str(OUTPUTS / "gold.jsonl")
TAGS = "Ann B-PER\nLee I-PER\nmet O\nBo B-LOC\nSue I-LOC\nin O\nX B-ORG\n. O\n"


def text_lines(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    """The lines of ``nerve score ARGS``'s table output."""
    assert main(["score", *args]) == 0
    return capsys.readouterr().out.splitlines()


def page_notes(browser: Any, capsys: pytest.CaptureFixture[str], out: Path, *args: str) -> list[str]:
    """The notes the page of ``nerve report ARGS`` shows, each checked visible."""
    assert main(["report", *args, "-o", str(out)]) == 0
    capsys.readouterr()
    page = Page(browser, out)
    assert page.errors == []
    items = page.page.locator("section.system ul.result-notes li")
    for i in range(items.count()):
        assert items.nth(i).is_visible()
    return [items.nth(i).inner_text() for i in range(items.count())]


def test_repairs_and_a_warning_are_on_the_page(
    browser: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text(TAGS)
    pred.write_text(TAGS.replace("Bo B-LOC", "Bo I-LOC"))
    args = (str(gold), str(pred), "--scheme", "IOBES")
    text = text_lines(capsys, *args)
    shown = page_notes(browser, capsys, tmp_path / "r.html", *args)
    assert shown == [line for line in text if line.startswith(("invalid transitions:", "notes ", "warning:"))]
    assert shown[0].startswith("invalid transitions: gold 3, pred 4 (")
    assert shown[-1].startswith("warning: --scheme IOBES does not fit these tags")


def test_the_notes_of_model_outputs_are_on_the_page(
    browser: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = (GOLD, str(OUTPUTS / "pipeline-tokens.jsonl"), "--min-score", "0.5")
    wanted = "notes pred: predictions below min_score (dropped): 1"
    assert wanted in text_lines(capsys, *args)
    assert page_notes(browser, capsys, tmp_path / "p.html", *args) == [wanted]
    llm = (GOLD, str(OUTPUTS / "llm.jsonl"))
    notes = [line for line in text_lines(capsys, *llm) if line.startswith("notes ")]
    assert notes  # the hallucinated entities, counted
    assert page_notes(browser, capsys, tmp_path / "l.html", *llm) == notes


def test_a_result_without_notes_shows_no_list(
    browser: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert page_notes(browser, capsys, tmp_path / "g.html", GOLD, GOLD) == []
