"""The ``nerve`` command as a process: Ctrl-C, a reader that stops early, a closed stdout.

Each test runs ``python -m nerve`` in a subprocess, as a shell would: an interrupt exits 130
without a traceback; a broken pipe (``nerve validate FILE | head -1``) keeps the command's exit
status and prints nothing; an output that cannot be written at all (a closed stdout, a full
disk) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import nerve

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and pipes")

SRC = str(Path(nerve.__file__).resolve().parents[1])
ENV = {**os.environ, "PYTHONPATH": SRC}
NERVE = [sys.executable, "-m", "nerve"]
# In IOB2, every line of this sentence is an invalid transition on both sides.
INVALID = "a I-PER I-LOC\nb I-LOC I-PER\n"


def popen(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*NERVE, *args], env=ENV, stderr=subprocess.PIPE, **kwargs)  # type: ignore[call-overload, no-any-return]


def wait_reading_stdin(proc: subprocess.Popen[bytes], limit: float = 30.0) -> None:
    """Wait until ``proc`` blocks reading its stdin (Linux tells; elsewhere, wait a while)."""
    syscall = Path(f"/proc/{proc.pid}/syscall")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        try:
            fields = syscall.read_text().split()
        except OSError:
            time.sleep(3.0)
            return
        # read(0, ...): syscall 0 on x86-64, 63 on arm64
        if fields[:2] in (["0", "0x0"], ["63", "0x0"]):
            time.sleep(0.2)
            return
        time.sleep(0.05)
    pytest.fail("the command never read its stdin")


def interruptible() -> None:
    """Let Ctrl-C through, as a shell does (a runner such as mutmut ignores SIGINT; children inherit it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("args", [["conlleval"], ["score", "-"], ["validate", "-"]])
def test_ctrl_c_exits_130_without_a_traceback(args: list[str]) -> None:
    proc = popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, preexec_fn=interruptible)
    assert proc.stdin is not None
    proc.stdin.write(b"John B-PER B-PER\n")  # a slow writer: one line, and then nothing
    proc.stdin.flush()
    wait_reading_stdin(proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert err == b""
    assert out == b""


def closed_pipe(args: list[str], read_first_line: bool) -> tuple[int, bytes, bytes]:
    """Run ``nerve`` into a pipe whose reader goes away: at once, or after one line (``| head -1``)."""
    read, write = os.pipe()
    if not read_first_line:
        os.close(read)
    proc = popen(args, stdout=write)
    os.close(write)
    first = b""
    if read_first_line:
        with os.fdopen(read, "rb") as reader:
            first = reader.readline()
    _, err = proc.communicate(timeout=120)
    return proc.returncode, first, err


@pytest.mark.parametrize("read_first_line", [False, True])
@pytest.mark.parametrize("sentences", [1, 20_000])
def test_a_broken_pipe_keeps_the_exit_status(tmp_path: Path, sentences: int, read_first_line: bool) -> None:
    path = tmp_path / "invalid.conll"
    path.write_text((INVALID + "\n") * sentences)
    status, first, err = closed_pipe(["validate", str(path), "--scheme", "IOB2"], read_first_line)
    assert err == b""
    assert status == 1  # validate found problems, whether or not they were all read
    if read_first_line:
        assert first.startswith(f"{path}:1: gold: invalid transition".encode())


def test_a_broken_pipe_after_a_score_is_a_success(tmp_path: Path) -> None:
    path = tmp_path / "m.conll"
    path.write_text("John B-PER B-PER\nSmith I-PER I-PER\n")
    status, _, err = closed_pipe(["score", str(path)], read_first_line=False)
    assert (status, err) == (0, b"")
    status, _, err = closed_pipe(["conlleval", str(path)], read_first_line=False)
    assert (status, err) == (0, b"")


@pytest.mark.parametrize("command", ["score", "validate", "conlleval"])
def test_a_closed_stdout_is_one_line_and_status_2(tmp_path: Path, command: str) -> None:
    path = tmp_path / "m.conll"
    path.write_text("John B-PER B-PER\nSmith I-PER I-PER\n")
    script = 'exec "$0" -m nerve "$1" "$2" >&-'
    proc = subprocess.run(
        ["sh", "-c", script, sys.executable, command, str(path)], env=ENV, capture_output=True, check=False
    )
    assert proc.returncode == 2
    assert proc.stderr == b"nerve: error: standard output is closed\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_status_2(tmp_path: Path) -> None:
    path = tmp_path / "m.conll"
    path.write_text("John B-PER B-PER\nSmith I-PER I-PER\n")
    with open("/dev/full", "wb") as full:
        proc = popen(["score", str(path)], stdout=full)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err == b"nerve: error: cannot write to the standard output: No space left on device\n"
