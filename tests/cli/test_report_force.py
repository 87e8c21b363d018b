"""``nerve report -o FILE`` writes over an existing file only with ``--force``, as ``nerve convert``
does (issue 25): without it, one line naming ``--force``, exit status 2, the file untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_errors import cli_error
from conftest import peer
from nerve.cli import main

ROOT = Path(__file__).resolve().parents[2]
NEWS = ROOT / "examples" / "news.conll"


def test_report_refuses_an_existing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    out.write_text("mine")
    line = cli_error(capsys, "report", str(NEWS), "-o", str(out))
    assert line == f"nerve: error: --force: {out} exists; pass it to write over it"
    assert out.read_text() == "mine"
    converted = cli_error(capsys, "convert", str(NEWS), str(out), "--to", "conll")
    assert converted == line  # the two commands say it alike


def test_report_force_writes_over_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    peer("jinja2")
    peer("matplotlib")
    out = tmp_path / "r.html"
    out.write_text("mine")
    assert main(["report", str(NEWS), "-o", str(out), "--force", "--bootstrap", "20"]) == 0
    assert capsys.readouterr() == ("", "")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
