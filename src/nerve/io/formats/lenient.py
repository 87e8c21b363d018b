"""The help of ``lenient``, which the formats whose entities carry their text take.

In: nothing. Out: `LENIENT`, the help text their records give the option.
"""

from __future__ import annotations

__all__ = ["LENIENT"]

LENIENT = (
    "score an entity whose text differs from what its offsets cover as the offsets say, "
    "and count it in the notes (default: an error)"
)
