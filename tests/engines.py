"""Both engines in one process: `engine(on)` turns the compiled one on or off for a block, and
`compiled_or_skip` skips a module where it is not built (and fails under CI=true, which builds it)."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from nerve import _engine


def compiled_or_skip() -> None:
    """Skip the calling test module unless `nerve._speedups` is built (fail under CI=true).

    Built is enough: the tests turn the engine on and off themselves, so they run under
    ``NERVE_NO_SPEEDUPS=1`` too.
    """
    if importlib.util.find_spec("nerve._speedups") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nerve._speedups is not built; CI builds it", pytrace=False)
        pytest.skip("nerve._speedups is not built here", allow_module_level=True)


@contextmanager
def engine(on: bool) -> Iterator[None]:
    """The compiled engine on or off (``NERVE_NO_SPEEDUPS``) inside the block."""
    old = os.environ.get("NERVE_NO_SPEEDUPS")
    os.environ["NERVE_NO_SPEEDUPS"] = "0" if on else "1"
    _engine.speedups.cache_clear()
    try:
        yield
    finally:
        if old is None:
            del os.environ["NERVE_NO_SPEEDUPS"]
        else:
            os.environ["NERVE_NO_SPEEDUPS"] = old
        _engine.speedups.cache_clear()
