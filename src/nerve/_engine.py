"""Which engine counts: the compiled one (`nerve._speedups`) where it is built, else numpy.

In: the environment (``NERVE_NO_SPEEDUPS=1`` asks for the numpy engine). Out: `speedups`, the
compiled module or ``None``, and `engine`, the word ``nerve --version`` prints. Both engines give
the same results, errors and messages; the compiled one is optional, since an install without a
compiler has none.
"""

from __future__ import annotations

import functools
import importlib
import os
from types import ModuleType

__all__ = ["engine", "speedups"]


@functools.cache
def speedups() -> ModuleType | None:
    """The compiled engine, or ``None`` where it is not built or ``NERVE_NO_SPEEDUPS=1`` turns it off."""
    if os.environ.get("NERVE_NO_SPEEDUPS", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("nerve._speedups")
    except ImportError:
        return None


def engine() -> str:
    """``C`` when the compiled engine is in use, else ``none`` (as in ``nerve 0.2.0 (speedups: C)``)."""
    return "C" if speedups() is not None else "none"
