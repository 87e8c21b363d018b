"""Both engines in one process: the C engine (`nerve._speedups`) or the numpy engine, switched for a call.

The compiled CoNLL counter (`nerve.io.tags.conll_c`) is switched off by making its `speedups` return
``None``, which sends `nerve.score` (and scoring in parts) to the numpy reader; switched on, it is
the compiled module itself, even under ``NERVE_NO_SPEEDUPS=1``, wrapped to count what it did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import nerve
import nerve.io.tags.conll_c as conll_c
from conftest import need
from nerve.errors import NerveError

CORE = need("nerve._speedups")


class Spy:
    """The compiled module, counting the file pairs it counted and those it handed over."""

    def __init__(self) -> None:
        self.counted = 0
        self.handed = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(CORE, name)

    def conll_count_file(self, *args: Any) -> str | None:
        why: str | None = CORE.conll_count_file(*args)
        if why is None:
            self.counted += 1
        else:
            self.handed += 1
        return why


@contextmanager
def engine(compiled: bool) -> Iterator[Spy]:
    """Score on the C engine (``compiled``) or on the numpy engine, in this process."""
    spy = Spy()
    before = conll_c.speedups
    conll_c.speedups = (lambda: spy) if compiled else (lambda: None)  # type: ignore[assignment]
    try:
        yield spy
    finally:
        conll_c.speedups = before  # type: ignore[assignment]


def outcome(run: Callable[[], nerve.Result]) -> tuple[Any, ...]:
    """What a run gives: the result (and its warnings and JSON), or the error's type and message."""
    try:
        result = run()
    except NerveError as err:
        return ("error", type(err).__name__, str(err), getattr(err, "line", None))
    return ("result", result, result.warnings, result.to_dict())


def both(run: Callable[[], nerve.Result]) -> tuple[tuple[Any, ...], tuple[Any, ...], Spy]:
    """The outcome on the C engine, the outcome on the numpy engine, and what the C engine did."""
    with engine(True) as spy:
        fast = outcome(run)
    with engine(False):
        slow = outcome(run)
    return fast, slow, spy
