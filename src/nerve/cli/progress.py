"""Progress bars for long runs of the CLI: on a terminal only, and only for runs of about a second or more.

In: the library's progress calls ``(done, total)`` (the library never prints; the CLI hands it a
`Progress` as its callback) and the smallest total worth a bar. Out: a tqdm bar on stderr when
stderr is a terminal and the total is at least that; nothing otherwise. Without tqdm (an optional
package) nothing is drawn.
"""

from __future__ import annotations

import sys
from types import TracebackType

TYPE_CHECKING = False  # typing's, unimported: the parsers (nerve --help) load no typing
if TYPE_CHECKING:
    from typing import Any, TextIO

__all__ = ["Progress"]


class Progress:
    """A callback ``(done, total)`` that draws a bar once a total of at least ``min_total`` is seen."""

    def __init__(self, unit: str, min_total: int, stream: TextIO | None = None) -> None:
        self.unit = unit
        self.min_total = min_total
        self.stream = stream if stream is not None else sys.stderr
        self.bar: Any = None
        self.decided = False

    def __call__(self, done: int, total: int) -> None:
        """Note that ``done`` of ``total`` are done (the first call decides whether to draw)."""
        if not self.decided:
            self.decided = True
            if total >= self.min_total and self.stream.isatty():
                self.bar = _bar(total, self.unit, self.stream)
        if self.bar is not None:
            self.bar.update(done - self.bar.n)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.bar is not None:
            self.bar.close()


def _bar(total: int, unit: str, stream: TextIO) -> Any:
    from importlib import import_module

    try:
        tqdm = import_module("tqdm").tqdm
    except ImportError:  # optional: no bar
        return None
    return tqdm(total=total, unit=unit, unit_scale=True, file=stream, leave=False)
