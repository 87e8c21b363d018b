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
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from nerve.cli.progress import Progress
from nerve.cli.text import PAIRS_PER_SECOND

ROOT = Path(__file__).resolve().parents[2]


class Pipe(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.buffer = io.BytesIO()  # where `nerve conlleval` writes its own errors


class Terminal(Pipe):
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


def run_nerve(args: list[str], tty: bool, stdin: Path | None = None) -> tuple[int, str]:
    """Run ``nerve`` with stderr on a pseudo-terminal (or a pipe), and ``stdin`` as its input; its stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "100"}
    cmd = [sys.executable, "-m", "nerve", *args]
    if not tty:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        return done.returncode, done.stderr
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal's size
    with open(stdin or os.devnull, "rb") as source:
        proc = subprocess.Popen(cmd, stdin=source, stdout=subprocess.DEVNULL, stderr=slave, env=env)
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


# --- score, report, compare and convert: bytes read, counted a piece at a time -----------------


def tagged_files(tmp_path: Path, sentences: int) -> tuple[Path, Path, Path]:
    """A merged file, and the same as a gold and a prediction file: ``sentences`` of ten tokens."""
    rnd = random.Random(sentences)
    merged, gold, pred = [], [], []
    for _ in range(sentences):
        for t in range(10):
            g = rnd.choice(["B-X", "I-X", "O", "O", "B-Y"])
            p = g if rnd.random() < 0.9 else "O"
            merged.append(f"w{t} {g} {p}")
            gold.append(f"w{t} {g}")
            pred.append(f"w{t} {p}")
        merged.append("")
        gold.append("")
        pred.append("")
    out = []
    for name, lines in (("merged", merged), ("gold", gold), ("pred", pred)):
        path = tmp_path / f"{name}.conll"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(path)
    return out[0], out[1], out[2]


def recorded(run: object, *args: object, **kwargs: object) -> tuple[object, list[tuple[int, int]]]:
    calls: list[tuple[int, int]] = []
    result = run(*args, **kwargs, progress=lambda done, total: calls.append((done, total)))  # type: ignore[operator]
    return result, calls


def check_calls(calls: list[tuple[int, int]], total: int, steps: int = 2) -> None:
    """Every call has ``total``, ``done`` never goes down, ends at the total, and moves on in between."""
    assert calls
    assert {t for _, t in calls} == {total}
    done = [d for d, _ in calls]
    assert done == sorted(done)
    assert (done[0], done[-1]) == (0, total)
    assert len({d for d in done if 0 < d < total}) >= steps  # a piece at a time, not all at the end


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return tagged_files(tmp_path_factory.mktemp("big"), 30_000)  # about 2.8 MB merged: three pieces


@pytest.mark.parametrize("workers", [1, 2])
def test_score_reports_the_bytes_read(big: tuple[Path, Path, Path], workers: int) -> None:
    import nerve

    merged, gold, pred = big
    for args in ((merged,), (gold, pred)):
        result, calls = recorded(nerve.score, *args, workers=workers, metrics="exact,muc")
        check_calls(calls, sum(p.stat().st_size for p in args))
        assert result == nerve.score(*args, workers=workers, metrics="exact,muc")


def test_score_with_analysis_reports_and_keeps_the_result(big: tuple[Path, Path, Path]) -> None:
    import nerve

    merged = big[0]
    result, calls = recorded(nerve.score, merged, errors=True, confusion=True)
    check_calls(calls, merged.stat().st_size)
    assert result.to_dict() == nerve.score(merged, errors=True, confusion=True).to_dict()  # type: ignore[attr-defined]


def test_compare_reports_the_gold_file_once_per_system(big: tuple[Path, Path, Path]) -> None:
    import nerve

    _, gold, pred = big
    result, calls = recorded(nerve.compare, gold, [pred, gold], bootstrap=50, seed=1)
    check_calls(calls, 3 * gold.stat().st_size + pred.stat().st_size)
    assert result == nerve.compare(gold, [pred, gold], bootstrap=50, seed=1)


def test_convert_reports_the_bytes_read(big: tuple[Path, Path, Path], tmp_path: Path) -> None:
    from nerve.api.convert import convert

    merged = big[0]
    report, calls = recorded(convert, merged, tmp_path / "a.jsonl", to="jsonl")
    check_calls(calls, merged.stat().st_size, steps=1)  # read whole (in pieces of 8 MiB), then decoded
    again = convert(merged, tmp_path / "b.jsonl", to="jsonl")
    assert report == replace(again, target=str(tmp_path / "a.jsonl"))
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_report_reports_the_bytes_read(big: tuple[Path, Path, Path], tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    from nerve.api.report import write_report

    _, gold, pred = big
    results, calls = recorded(write_report, gold, [pred], tmp_path / "a.html", bootstrap=20, seed=1)
    check_calls(calls, gold.stat().st_size + pred.stat().st_size)
    again = write_report(gold, [pred], tmp_path / "b.html", bootstrap=20, seed=1)
    assert [r.to_dict() for r in results] == [r.to_dict() for r in again]  # type: ignore[attr-defined]


def test_validate_reports_each_pass_over_the_bytes(big: tuple[Path, Path, Path]) -> None:
    import nerve

    merged, gold, pred = big
    found, calls = recorded(nerve.validate, gold, pred)  # ``auto``: one pass infers, one checks
    check_calls(calls, 2 * (gold.stat().st_size + pred.stat().st_size))
    assert found == nerve.validate(gold, pred)
    found, calls = recorded(nerve.validate, merged, scheme="IOB2")  # a named scheme: one pass
    check_calls(calls, merged.stat().st_size)
    assert found == nerve.validate(merged, scheme="IOB2")


def test_standard_input_counts_when_it_is_a_file(tmp_path: Path) -> None:
    from nerve.io.progress import file_bytes

    path = tmp_path / "in.conll"
    path.write_bytes(b"x" * 1000)
    with open(path, "rb") as stream:
        assert file_bytes([stream]) == 1000
        stream.read(300)
        assert file_bytes([stream, path]) == 700 + 1000  # what is left of it, and the file
    read, write = os.pipe()
    with os.fdopen(read, "rb") as stream, os.fdopen(write, "wb"):
        assert file_bytes([stream]) == 0  # a pipe's size is not known: no bar
    assert file_bytes([io.BytesIO(b"abc"), None, ["a", "list"]]) == 0


Command = tuple[Callable[..., list[str]], Callable[[int, int, int], int]]
COMMANDS: dict[str, Command] = {  # the arguments, and the bytes read (compare: the gold file once per system)
    "score": (lambda m, g, p, out: ["score", str(m), "-o", "json"], lambda m, g, p: m),
    "compare": (
        lambda m, g, p, out: ["compare", str(g), str(p), str(g), "--bootstrap", "20"],
        lambda m, g, p: 3 * g + p,
    ),
    "report": (
        lambda m, g, p, out: ["report", str(g), str(p), "--output", str(out / "r.html"), "--bootstrap", "20"],
        lambda m, g, p: g + p,
    ),
    "convert": (
        lambda m, g, p, out: ["convert", str(m), str(out / "c.jsonl"), "--to", "jsonl", "--force"],
        lambda m, g, p: m,
    ),
    "validate": (lambda m, g, p, out: ["validate", str(g), str(p)], lambda m, g, p: 2 * (g + p)),
    "conlleval": (lambda m, g, p, out: ["conlleval", "-d", " ", str(m)], lambda m, g, p: m),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(
    ("tty", "long", "drawn"), [(True, True, True), (False, True, False), (True, False, False)]
)
def test_commands_draw_a_bar_on_a_terminal_for_long_runs_only(
    command: str,
    tty: bool,
    long: bool,
    drawn: bool,
    big: tuple[Path, Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bar when the bytes read reach the command's threshold (set here at, or one byte above, them)."""
    pytest.importorskip("tqdm")
    if command == "report":
        pytest.importorskip("jinja2")
        pytest.importorskip("matplotlib")
    import importlib

    from nerve.cli import main

    arguments, read = COMMANDS[command]
    total = read(*(path.stat().st_size for path in big))
    monkeypatch.setattr(
        importlib.import_module(f"nerve.cli.{command}"), "BYTES_PER_SECOND", total + (not long)
    )
    stream = Terminal() if tty else Pipe()
    monkeypatch.setattr(sys, "stderr", stream)
    assert main(arguments(*big, tmp_path)) in ((0, 1) if command == "validate" else (0,))
    capsys.readouterr()
    assert ("B/s" in stream.getvalue() and "%" in stream.getvalue()) is drawn


@pytest.mark.parametrize("command", [["score", "-", "-o", "json"], ["conlleval"], ["validate", "-"]])
def test_standard_input_from_a_file_draws_a_bar(tmp_path: Path, command: list[str]) -> None:
    """``nerve score - < FILE``: the size of the file behind stdin is known (a large file: 40 MB)."""
    pytest.importorskip("tqdm")
    path = tmp_path / "big.conll"
    with open(path, "w", encoding="utf-8") as out:
        out.write("w B-X B-X\nw I-X O\nw O O\n\n" * 1_400_000)
    status, err = run_nerve(command, True, stdin=path)
    assert status == 0
    assert "B/s" in err
    assert "%" in err
