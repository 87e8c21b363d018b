"""How far a run has read its input: bytes counted as the readers take them, for a progress callback.

In: `reporting` (a callback ``(done, total)`` and the bytes the run expects to read) around a run,
and `note` (bytes just read) from the readers, once per piece, never per line or token. Out: calls
of the callback with ``done`` never decreasing and never above ``total``, and a last call
``(total, total)`` when the run ends without an error. The library never prints: the CLI's callback
draws the bar (`nerve.cli.progress`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["ProgressFn", "Tally", "file_bytes", "note", "reporting"]

ProgressFn = Callable[[int, int], None]


class Tally:
    """Bytes read so far of ``total``, passed on to ``progress``; safe to add to from threads."""

    def __init__(self, total: int, progress: ProgressFn) -> None:
        self.total, self.progress, self.done = total, progress, 0
        import _thread  # threading's own lock, without importing threading (a plain run's millisecond)

        self.lock = _thread.allocate_lock()

    def add(self, n: int) -> None:
        """Count ``n`` more bytes (at most up to the total: some runs read a file twice)."""
        with self.lock:
            self.done = min(self.done + n, self.total)
            self.progress(self.done, self.total)

    def finish(self) -> None:
        """Say that everything is done."""
        with self.lock:
            self.done = self.total
            self.progress(self.total, self.total)


_current: ContextVar[Tally | None] = ContextVar("nerve_progress", default=None)


@contextmanager
def reporting(progress: ProgressFn | None, total: int) -> Iterator[None]:
    """Count the bytes that the readers `note` inside, for ``progress`` (``None``: nothing is counted)."""
    if progress is None:
        yield
        return
    tally = Tally(total, progress)
    token = _current.set(tally)
    progress(0, total)
    try:
        yield
        tally.finish()
    finally:
        _current.reset(token)


def note(n: int) -> None:
    """Count ``n`` bytes just read, if a run is `reporting` (threads: run them in a copy of the context)."""
    tally = _current.get()
    if tally is not None:
        tally.add(n)


def file_bytes(paths: Iterable[object]) -> int:
    """The bytes of the files among ``paths`` and of the files under its directories (others: 0).

    A stream (standard input) counts what is left of it when it is a regular file (``< FILE``);
    a pipe's size is not known, so it counts 0 and draws no bar.
    """
    total = 0
    for path in paths:
        if not isinstance(path, (str, os.PathLike)):
            total += _stream_bytes(path)
            continue
        name = os.fspath(path)
        if os.path.isfile(name):
            total += os.path.getsize(name)
        elif os.path.isdir(name):
            for root, _, files in os.walk(name):
                total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total


def _stream_bytes(stream: object) -> int:
    """What is left to read of ``stream`` when it is a regular file; 0 for anything else."""
    fileno, tell = getattr(stream, "fileno", None), getattr(stream, "tell", None)
    if fileno is None or tell is None:
        return 0
    try:
        status = os.fstat(fileno())
        if not stat.S_ISREG(status.st_mode):
            return 0
        return max(status.st_size - int(tell()), 0)
    except (OSError, ValueError):  # closed, or not seekable after all
        return 0
