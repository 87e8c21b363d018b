"""Both engines in one process: `engine(on)` turns the compiled one on or off for a block, and
`compiled_or_skip` skips a module where it is not built (and fails under CI=true, which builds it).

`conll_engine` does the same for CoNLL files with the C counter (`nerve.io.tags.conll_c`) wrapped in
a `Spy` that counts the file pairs it counted and those it handed over; `both` runs a call on each
engine and gives both outcomes (the result, or the error's type and message).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import nerve
import nerve.io.tags.conll_c as conll_c
from conftest import engine, need
from nerve.errors import NerveError


def compiled_or_skip() -> None:
    """Skip the calling test module unless `nerve._speedups` is built (fail under CI=true).

    Built is enough: the tests turn the engine on and off themselves, so they run under
    ``NERVE_NO_SPEEDUPS=1`` too.
    """
    if importlib.util.find_spec("nerve._speedups") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nerve._speedups is not built; CI builds it", pytrace=False)
        pytest.skip("nerve._speedups is not built here", allow_module_level=True)


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
def conll_engine(compiled: bool) -> Iterator[Spy]:
    """Score CoNLL files on the C engine (``compiled``) or on the numpy engine, in this process.

    The engine is chosen as `engine` chooses it (``NERVE_NO_SPEEDUPS``), and the C counter's module
    is the `Spy` (or none), so that the C engine counts even where the environment turned it off.
    """
    spy = Spy()
    before = conll_c.speedups
    conll_c.speedups = (lambda: spy) if compiled else (lambda: None)  # type: ignore[assignment]
    try:
        with engine(compiled):
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
    with conll_engine(True) as spy:
        fast = outcome(run)
    with conll_engine(False):
        slow = outcome(run)
    return fast, slow, spy
