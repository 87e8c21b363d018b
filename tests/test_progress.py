"""Progress bars: drawn on a terminal for long runs only, never otherwise (the library never prints)."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import random
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from nerve.cli.progress import Progress
from nerve.cli.text import PAIRS_PER_SECOND

ROOT = Path(__file__).resolve().parents[1]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("tty", "total", "drawn"), [(True, 10, True), (False, 10, False), (True, 9, False)])
def test_a_bar_needs_a_terminal_and_a_long_run(tty: bool, total: int, drawn: bool) -> None:
    pytest.importorskip("tqdm")
    stream = Terminal() if tty else io.StringIO()
    with Progress("pairs", 10, stream) as progress:
        for done in range(0, total + 1, 3):
            progress(done, total)
    assert ("pairs" in stream.getvalue()) is drawn


def one_long_document(path: Path, n: int) -> Path:
    rnd = random.Random(7)
    lines = []
    for _ in range(n):
        word = "".join(rnd.choices("abcdefgh", k=6))
        pred = word if rnd.random() < 0.8 else word[::-1]
        lines += [f"{word} B-X B-X" if pred == word else f"{word} B-X O", "and O O"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_nerve(args: list[str], tty: bool) -> tuple[int, str]:
    """Run ``nerve`` with stderr on a pseudo-terminal (or a pipe); its stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "100"}
    cmd = [sys.executable, "-m", "nerve", *args]
    if not tty:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        return done.returncode, done.stderr
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal's size
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(timeout=300), b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("tty", [True, False])
def test_text_metrics_show_a_bar_on_a_terminal_only(tmp_path: Path, tty: bool) -> None:
    pytest.importorskip("tqdm")
    n = int((PAIRS_PER_SECOND / 0.7) ** 0.5)  # one category: n gold by about 0.8 n predicted
    path = one_long_document(tmp_path / "long.conll", n)
    status, err = run_nerve(["ecer-ewer", str(path), "-o", "json"], tty)
    assert status == 0
    assert ("pairs" in err and "%" in err) is tty


def test_short_runs_show_no_bar_on_a_terminal(tmp_path: Path) -> None:
    path = one_long_document(tmp_path / "short.conll", 50)
    status, err = run_nerve(["ecer-ewer", str(path), "-o", "json"], True)
    assert status == 0
    assert "pairs" not in err
