"""The signature every metric family prints with its scores: one line naming what changes them.

It reads ``nerve VERSION | field | field ...``, in the order the family gives its fields.
"""

from __future__ import annotations

from .._version import __version__
from ..errors import plural

__all__ = ["bootstrap_field", "repair_field", "signature"]


def signature(*fields: str | None, version: str = __version__) -> str:
    """``nerve VERSION`` and the given fields, joined by `` | ``; ``None`` fields are left out."""
    return " | ".join([f"nerve {version}", *(f for f in fields if f is not None)])


def repair_field(policy: str, repairs: int | None = None) -> str:
    """``repair POLICY``, with the number of repairs when it is known: ``repair begin (2 repairs)``."""
    return f"repair {policy}" if repairs is None else f"repair {policy} ({plural(repairs, 'repair')})"


def bootstrap_field(method: str, n: int, unit: str, seed: int, confidence: float) -> str:
    """How intervals were resampled: ``bootstrap percentile n=1000 unit=document seed=1 confidence=0.95``."""
    return f"bootstrap {method} n={n} unit={unit} seed={seed} confidence={confidence:g}"
