"""What a subcommand hands back, and writing it to a standard output that may be gone.

In: a subcommand's `Output` (its text for stdout, its exit status). Out: the text on stdout, and
the exit status to return: the command's own when the reader closed the pipe early (``nerve
validate FILE | head -1`` still exits 1), 2 with one line on stderr when nothing can be written
(a closed stdout, a full disk).
"""

from __future__ import annotations

import os
import sys

__all__ = ["Output", "StdoutError", "check_stdout", "discard_stdout", "emit", "write_text"]


class Output:
    """A subcommand's result: the text (or bytes) for stdout and the exit status.

    A plain class, not a `typing.NamedTuple`: ``nerve --version`` imports neither typing nor
    dataclasses, which would cost it about as much CPU time as the interpreter's start.
    """

    __slots__ = ("status", "text")

    def __init__(self, text: str | bytes, status: int = 0) -> None:
        self.text = text
        self.status = status

    def __repr__(self) -> str:
        return f"Output({self.text!r}, {self.status})"


class StdoutError(Exception):
    """The standard output cannot be written: the message says why."""


def check_stdout() -> None:
    """Raise `StdoutError` when the command was started with its stdout closed (``>&-``)."""
    if sys.stdout is None:
        raise StdoutError("standard output is closed")


def emit(output: Output) -> int:
    """Write ``output``'s text to stdout and flush it; return the exit status.

    A reader that went away (a broken pipe) is no error: the rest of the text is dropped, and
    the status is the command's. Any other failure to write raises `StdoutError`.
    """
    try:
        if isinstance(output.text, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(output.text)
        else:
            sys.stdout.write(output.text)
        sys.stdout.flush()
    except BrokenPipeError:
        discard_stdout()
        return output.status
    except OSError as err:
        discard_stdout()
        raise StdoutError(f"cannot write to the standard output: {err.strerror}") from None
    return output.status


def discard_stdout() -> None:
    """Point stdout at the null device, so that the text still buffered is dropped at exit.

    Without it, Python's last flush at exit fails again and prints that it could not.
    """
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture): nothing waits
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def write_text(path: str, text: str, option: str) -> None:
    """Write ``text`` to the file ``path`` (UTF-8) that ``option`` named; a failure is the user's."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as err:
        from ..errors import OptionError  # only when the file cannot be written

        raise OptionError(option, f"cannot write {path}: {err.strerror}") from None
