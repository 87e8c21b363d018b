"""`nerve.report.agree`: the text formats show the first rows of the long lists and say how many there are.

A corpus of 25 one-sentence documents where annotator 2 marks a name annotator 3 leaves out: 25
disagreements, and 25 ties of the majority consensus (one of two annotators). The table, Markdown
and LaTeX show the first 20 of each list and say so; JSON and CSV give all 25.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerve
from nerve.report.agree import render_agree


@pytest.fixture
def result(tmp_path: Path) -> nerve.Agreement:
    lines = []
    for i in range(25):
        lines += ["-DOCSTART- O O", "", f"w{i} B-PER O", "says O O", ""]
    path = tmp_path / "two.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return nerve.agree(path, consensus="majority", bootstrap=None)


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
def test_text_formats_show_the_first_20_of_each_list(result: nerve.Agreement, fmt: str) -> None:
    assert len(result.disagreements.rows) == 25
    assert result.consensus is not None
    assert result.consensus.ties == 25
    text = render_agree(result, fmt)
    assert text.count("the first 20 of 25 shown: --output json lists all") == 2
    assert "w0" in text
    assert "w19" in text
    assert "w20" not in text
    assert "[[w0]]" in text  # the first disagreement, in its context


def test_json_and_csv_list_every_row(result: nerve.Agreement) -> None:
    data = json.loads(render_agree(result, "json"))
    assert len(data["disagreements"]["rows"]) == 25
    assert len(data["consensus"]["tied"]) == 25
    rows = render_agree(result, "csv")
    assert all(f"w{i}" in rows for i in range(25))
