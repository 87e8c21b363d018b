"""Label maps and type filters: entity types renamed, kept or dropped on both sides before matching.

In: a `LabelMap` (built and checked by `nerve.options.label_map`) and type ids or span columns.
Out: the same entities with their types renamed, and those filtered out removed, as if the input
had been written that way. Filters name types after the renaming, and remove entities before
matching: with ``MISC`` ignored, a gold ``PER`` predicted as ``MISC`` is a missed ``PER``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .._frozen import frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from .arrays import Int
    from .spans import SpanArray

__all__ = ["LabelMap", "TypeIds"]


@frozen
class LabelMap:
    """Renames (``FROM`` to ``TO``, applied once), then the types kept (``keep``) or dropped (``drop``)."""

    rename: tuple[tuple[str, str], ...] = ()
    keep: tuple[str, ...] | None = None
    drop: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.rename) or self.keep is not None or bool(self.drop)

    def renamed(self, name: str) -> str:
        """``name`` after the renames (itself when none applies)."""
        return dict(self.rename).get(name, name)

    def target(self, name: str) -> str | None:
        """The type an entity of type ``name`` is scored as, or ``None`` when it is filtered out."""
        name = self.renamed(name)
        if (self.keep is not None and name not in self.keep) or name in self.drop:
            return None
        return name

    def fields(self) -> tuple[str, ...]:
        """The signature's fields: ``map OTH=MISC,person=PER``, ``types LOC,PER``, ``ignore MISC``."""
        out = []
        if self.rename:
            out.append("map " + ",".join(f"{a}={b}" for a, b in self.rename))
        if self.keep is not None:
            out.append("types " + ",".join(self.keep))
        if self.drop:
            out.append("ignore " + ",".join(self.drop))
        return tuple(out)

    def unseen(self, names: Sequence[str]) -> list[str]:
        """The kept types that no type of ``names`` becomes (likely typos), when any name is given."""
        if self.keep is None or not names:
            return []
        renamed = {self.renamed(n) for n in names}
        return [t for t in self.keep if t not in renamed]

    def spans(self, spans: SpanArray) -> SpanArray:
        """``spans`` renamed and filtered, labelled by the types that remain (in first-seen order)."""
        ids = TypeIds(self)
        mapped = ids.of(spans.labels)
        label = mapped[spans.label] if len(mapped) else spans.label
        kept = spans.select(label >= 0)
        return replace(kept, label=label[label >= 0], labels=tuple(ids.names))


class TypeIds:
    """Type ids of a growing vocabulary mapped to ids of the types scored (-1: filtered out)."""

    def __init__(self, label_map: LabelMap):
        self.label_map = label_map
        self.names: list[str] = []
        import numpy as np  # a label map used on arrays: numpy is loaded by then

        self._index: dict[str, int] = {}
        self._ids: Int = np.zeros(0, dtype=np.int64)

    def of(self, source: Sequence[str]) -> Int:
        """The scored id of each of ``source``'s types (a vocabulary's names, which only grow)."""
        import numpy as np

        old = self._ids.shape[0]
        if len(source) > old:
            more = [self.add(self.label_map.target(name)) for name in source[old:]]
            self._ids = np.concatenate([self._ids, np.asarray(more, dtype=np.int64)])
        return self._ids

    def add(self, name: str | None) -> int:
        """The scored id of type ``name`` (added if new), -1 for ``None`` (filtered out)."""
        if name is None:
            return -1
        if name not in self._index:
            self._index[name] = len(self.names)
            self.names.append(name)
        return self._index[name]
