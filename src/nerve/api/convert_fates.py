"""What became of each entity `nerve.api.convert` read: kept, changed or dropped, under one reason.

In: the number of entities read, then, step by step, masks over the entities still held (in
their current order) of those a step changes or drops, and each reorder or selection. Out: how
many entities each reason took, each entity counted once: a drop outweighs any change (an entity
written as its extent and then flattened away counts as dropped alone), and of several changes
the first recorded counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int

__all__ = ["Fates"]

KEPT = -1  # an entity no step changed or dropped


class Fates:
    """Each entity's fate, and which entities read the current array's rows are.

    Attributes:
        reasons: each reason recorded, in order; an entity's fate is an index into it.
    """

    def __init__(self, n: int) -> None:
        self.reasons: list[str] = []
        self._fate: Int = np.full(n, KEPT, dtype=np.int64)
        self._drop: list[bool] = []
        self._rows: Int = np.arange(n, dtype=np.int64)  # the entity read behind each current row

    def _code(self, reason: str, drop: bool) -> int:
        if reason not in self.reasons:
            self.reasons.append(reason)
            self._drop.append(drop)
        return self.reasons.index(reason)

    def changed(self, mask: Bool, reason: str) -> None:
        """The current rows ``mask`` picks are written changed by ``reason``, unless already counted."""
        rows = self._rows[mask]
        if not len(rows):
            return
        code = self._code(reason, False)
        fresh = rows[self._fate[rows] == KEPT]
        self._fate[fresh] = code

    def dropped(self, mask: Bool, reason: str) -> None:
        """The current rows ``mask`` picks are not written, by ``reason``: they leave the array."""
        rows = self._rows[mask]
        if len(rows):
            self._fate[rows] = self._code(reason, True)
        self._rows = self._rows[~mask]

    def select(self, index: Int | Bool) -> None:
        """The current array is now ``array.select(index)`` (a reorder, or rows left unwritten)."""
        self._rows = self._rows[index]

    def counts(self) -> dict[str, int]:
        """How many entities each reason took, each entity once."""
        found = np.bincount(self._fate[self._fate != KEPT], minlength=len(self.reasons))
        return {r: int(n) for r, n in zip(self.reasons, found.tolist(), strict=True) if n}
