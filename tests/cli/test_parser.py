"""`nerve.cli.parser`: argparse's help layout at the terminal's width, found as shutil finds it."""

from __future__ import annotations

import argparse
import io
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nerve
from nerve.cli.parser import Help, Parser, terminal_width

SRC = str(Path(nerve.__file__).resolve().parents[1])


@pytest.mark.parametrize("value", ["120", "33", "1", "0", "-5", "wide", "", " 90 ", None])
def test_the_width_is_shutils(value: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """COLUMNS when a positive number, else the terminal's, else 80: `shutil.get_terminal_size`'s rule."""
    if value is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", value)
    monkeypatch.setenv("LINES", "24")
    assert terminal_width() == shutil.get_terminal_size().columns
    assert Help("nerve")._width == terminal_width() - 2  # argparse keeps the width it lays out at


def _not_a_tty(fd: int) -> os.terminal_size:
    raise OSError(25, "Inappropriate ioctl for device")


@pytest.mark.parametrize("how", ["no terminal", "no file descriptor"])
def test_without_a_terminal_the_width_is_80(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    if how == "no terminal":
        monkeypatch.setattr(
            os, "get_terminal_size", lambda fd: (_ for _ in ()).throw(OSError(25, "not a tty"))
        )
    else:  # a stream standing in for stdout (pythonw, an embedding): fileno() raises
        monkeypatch.setattr(sys, "__stdout__", io.StringIO())
    assert terminal_width() == 80


class _Terminal:
    """The process's stdout, but for its descriptor: a pseudo-terminal of ``width`` columns."""

    def __init__(self, width: int) -> None:
        self.real = sys.__stdout__
        import fcntl
        import struct
        import termios

        self.leader, self.follower = pty.openpty()
        fcntl.ioctl(self.follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, width, 0, 0))

    def fileno(self) -> int:
        return self.follower

    def __getattr__(self, name: str) -> object:  # write, flush...: the real stream's (test runners print)
        return getattr(self.real, name)


@pytest.mark.parametrize("given", [None, "0", "-3"])
def test_on_a_terminal_the_width_is_the_terminals(given: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal of 57 columns, with no usable COLUMNS: 57, as shutil says (help wraps at 55)."""
    terminal = _Terminal(57)
    monkeypatch.setattr(sys, "__stdout__", terminal)
    if given is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", given)
    try:
        assert terminal_width() == shutil.get_terminal_size().columns == 57
        assert Help("nerve")._width == 55
    finally:
        os.close(terminal.leader)
        os.close(terminal.follower)


def test_a_given_width_is_kept_and_subcommands_share_the_layout() -> None:
    assert Help("nerve", width=50)._width == 50
    parser = Parser(prog="nerve")
    sub = parser.add_subparsers().add_parser("score")
    assert parser.formatter_class is sub.formatter_class is Help
    raw = argparse.RawTextHelpFormatter
    assert Parser(prog="x", formatter_class=raw).formatter_class is raw
    assert Parser("nerve-x").prog == "nerve-x"  # positional arguments reach argparse


@pytest.mark.parametrize("width", ["40", "100"])
def test_help_here_is_argparses_own(width: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process too: a `Parser`'s help, usage and errors' usage read as argparse's at COLUMNS."""
    monkeypatch.setenv("COLUMNS", width)
    texts = []
    for cls in (Parser, argparse.ArgumentParser):
        p = cls(prog="nerve score", description="Evaluation for named-entity recognition. " * 4)
        p.add_argument("--format", choices=["conll", "jsonl", "brat"] * 4, help="x " * 60)
        p.add_argument("file", metavar="FILE")
        texts.append((p.format_help(), p.format_usage()))
    assert texts[0] == texts[1]
    assert texts[0][1].startswith("usage: nerve score [-h]")


@pytest.mark.parametrize("width", ["40", "100"])
def test_help_is_argparses_own_at_any_width(width: str) -> None:
    """The same text as a plain `argparse.ArgumentParser` lays out, which finds the width by shutil."""
    code = (
        "import argparse, sys\n"
        "from nerve.cli.parser import Parser\n"
        "for cls in (Parser, argparse.ArgumentParser):\n"
        "    p = cls(prog='nerve', description='Evaluation for named-entity recognition. ' * 4)\n"
        "    names = ['conll', 'jsonl', 'brat', 'nervaluate'] * 3\n"
        "    p.add_argument('--format', choices=names, help='x ' * 60)\n"
        "    sys.stdout.write(p.format_help() + '\\0')\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": width}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout
    ours, argparses, _ = out.split("\0")
    assert ours == argparses
    description = [
        line for line in ours.splitlines() if line.startswith(("Evaluation", "recognition", "named"))
    ]
    assert len(description) > 1
    assert max(map(len, description)) <= int(width) - 2 < len(" ".join(description))  # wrapped at the width
