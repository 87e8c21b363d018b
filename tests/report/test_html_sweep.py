"""The threshold sweep on the HTML page (``nerve report --sweep``): its curve and rows, in Chromium."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_html_report import Page

import nerve
from nerve.cli import main
from nerve.report.html import render_html
from nerve.report.html_data import SystemReport
from nerve.report.sweep import CHART_POINTS, SHOWN, sweep_data

TEXT = "Ann met Bob in Paris"


def scored_files(tmp_path: Path, n: int = 3) -> tuple[Path, Path]:
    """Gold and scored predictions: three as in the other tests, or ``n`` entities with distinct scores."""
    g, p = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    if n == 3:
        gold = [(0, 3, "PER"), (8, 11, "PER"), (15, 20, "LOC")]
        pred = [(0, 3, "PER", 0.9), (8, 11, "LOC", 0.4), (15, 20, "LOC", 0.7)]
        text = TEXT
    else:
        text = "x" * (2 * n)
        gold = [(2 * i, 2 * i + 1, "AB"[i % 2]) for i in range(n) if i % 3]
        pred = [(2 * i, 2 * i + 1, "AB"[i % 2], 1 - i / n) for i in range(n)]
    g.write_text(
        json.dumps({"text": text, "spans": [{"start": s, "end": e, "label": t} for s, e, t in gold]})
    )
    spans = [{"start": s, "end": e, "label": t, "score": x} for s, e, t, x in pred]
    p.write_text(json.dumps({"text": text, "spans": spans}))
    return g, p


def test_the_page_draws_the_curve_and_marks_the_best(browser: Any, tmp_path: Path) -> None:
    from PIL import Image

    g, p = scored_files(tmp_path)
    out = tmp_path / "sweep.html"
    assert main(["report", str(g), str(p), "--sweep", "-o", str(out)]) == 0
    page = Page(browser, out)
    assert page.errors == []
    chart = page.page.locator("div.sweep svg.chart")
    assert chart.count() == 1
    box = chart.bounding_box()
    assert box is not None
    assert box["width"] > 200
    assert box["height"] > 150
    shot = Image.open(io.BytesIO(chart.screenshot())).convert("RGB")
    pixels = np.asarray(shot, dtype=np.int64)
    green = (abs(pixels - np.asarray([0x00, 0x9E, 0x73])).sum(axis=2) < 60).sum()  # the curve, f1's colour
    red = (abs(pixels - np.asarray([0xD5, 0x5E, 0x00])).sum(axis=2) < 60).sum()  # the best point
    assert green > 50
    assert red > 20
    assert page.page.locator("b.sweep-best").inner_text() == "0.7"
    rows = page.page.locator("table.sweep-rows tbody tr")
    assert rows.count() == 3
    assert rows.nth(1).get_attribute("class") == "best"
    assert rows.nth(1).inner_text().split() == ["0.7", "100.00", "66.67", "80.00", "2", "0", "1"]
    note = page.page.locator("div.sweep + p.note").inner_text()
    assert "LOC 0.7 (F1 100.00)" in note
    assert "PER 0.9 (F1 66.67)" in note


def test_a_page_without_sweep_has_no_sweep_section(browser: Any, tmp_path: Path) -> None:
    g, p = scored_files(tmp_path)
    out = tmp_path / "plain.html"
    nerve.write_report(g, p, out)
    page = Page(browser, out)
    assert page.errors == []
    assert page.page.locator("div.sweep").count() == 0
    assert "Threshold sweep" not in page.page.content()


def test_a_long_curve_is_thinned_for_the_page_and_says_so(tmp_path: Path) -> None:
    n = 1000
    g, p = scored_files(tmp_path, n)
    result = nerve.score(g, p, sweep=True)
    assert result.sweep is not None
    data = sweep_data(result.sweep, "system")
    assert data["total"] == n
    assert SHOWN <= len(data["rows"]) <= SHOWN + 1
    assert data["best"] == result.to_dict()["sweep"]["best"]
    assert data["best"] in data["rows"]
    assert data["svg"].count("<path") < CHART_POINTS + 100  # the chart is thinned too
    html = render_html([SystemReport("system", result)])
    assert f"{len(data['rows'])} of 1,000 thresholds shown" in html


@pytest.mark.parametrize("hostile", ["<img/src=x/onerror=window.__pwned=1>"])
def test_type_names_in_the_sweep_are_text(tmp_path: Path, hostile: str) -> None:
    g, p = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    g.write_text(json.dumps({"text": TEXT, "spans": [{"start": 0, "end": 3, "label": hostile}]}))
    p.write_text(
        json.dumps({"text": TEXT, "spans": [{"start": 0, "end": 3, "label": hostile, "score": 0.5}]})
    )
    html = render_html([SystemReport("system", nerve.score(g, p, sweep=True))])
    assert hostile not in html
