"""The agreement page (``nerve report --agree``), opened in Chromium as the report page is.

The heatmap shows every pair's score (the values `nerve.agree` computes), the warnings and the
n/a reasons reach the page, the disagreements are listed with who marked what, and hostile
annotator names and entity texts stay text. Without chromium or Playwright the tests skip, and
fail under CI=true.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import nerve
from conftest import ROOT
from nerve.cli import main

EXPORT = ROOT / "examples" / "agreement" / "labelstudio.json"
HOSTILE = "<img src=x onerror=window.__pwned=1>"


def _open(browser: Any, path: Path) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.resolve().as_uri())
    return page, errors


def _write(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "agreement.html"
    assert main(["report", "--agree", *args, "-o", str(out)]) == 0
    return out


def test_heatmap_holds_every_pair(browser: Any, tmp_path: Path) -> None:
    page, errors = _open(browser, _write(tmp_path, str(EXPORT)))
    result = nerve.agree(EXPORT)
    for metric in ("exact", "partial", "kappa"):
        table = page.locator(f"figure[data-metric={metric}] table.heatmap")
        cells = table.locator("tbody tr").all()
        assert len(cells) == 3
        matrix = result.matrix(metric)
        for row, a in zip(cells, result.names, strict=True):
            shown = row.locator("td").all_inner_texts()
            want = ["-" if a == b else f"{100 * (matrix[a][b] or 0):.2f}" for b in result.names]
            assert shown == want
    assert page.locator(".warnings").inner_text().count("annotator 7 left out 1 document (task-4)") == 1
    assert page.locator("ol.disagreements li.instance").count() == result.disagreements.total == 5
    missed = page.locator("li.instance.cat-missed").first.inner_text()
    assert "Amnesty International" in missed
    assert "nothing" in missed
    assert errors == []


def test_na_with_its_reason(browser: Any, tmp_path: Path) -> None:
    """One document: the intervals are n/a on the page, with the reason and the fix."""
    out = _write(tmp_path, str(ROOT / "docs/examples/gold.conll"), str(ROOT / "docs/examples/pred.conll"))
    page, errors = _open(browser, out)
    row = page.locator("table.statistics tr", has_text="Krippendorff").inner_text()
    assert "n/a" in row
    assert "one document only" in row
    assert "more documents" in row
    assert errors == []


def test_hostile_names_and_texts_stay_text(browser: Any, tmp_path: Path) -> None:
    text = f"{HOSTILE} met Bob"
    tasks = [
        {
            "data": {"text": text},
            "annotations": [
                {"completed_by": HOSTILE, "result": [_span(0, len(HOSTILE), HOSTILE, text)]},
                {"completed_by": 2, "result": [_span(len(text) - 3, len(text), "PER", text)]},
            ],
        }
    ]
    export = tmp_path / "hostile.json"
    export.write_text(json.dumps(tasks))
    page, errors = _open(browser, _write(tmp_path, str(export)))
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img").count() == 0
    assert HOSTILE in page.locator("table.annotators").inner_text()
    assert HOSTILE in page.locator("ol.disagreements").inner_text()
    assert errors == []


def _span(start: int, end: int, label: str, text: str) -> dict[str, Any]:
    value = {"start": start, "end": end, "text": text[start:end], "labels": [label]}
    return {"type": "labels", "value": value}


def test_report_options_of_systems_are_refused_with_agree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "x.html")
    assert main(["report", "--agree", str(EXPORT), "-o", out, "--slices", "type"]) == 2
    assert "leave out --slices" in capsys.readouterr().err
    assert main(["report", str(EXPORT), "--annotators", "3,7", "-o", out]) == 2
    assert "applies to --agree" in capsys.readouterr().err
