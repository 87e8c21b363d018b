"""The one span model of nerve: half-open ``[start, end)`` offsets plus a label.

`Span` is the readable, per-object form for the Python API. `SpanArray` is the columnar form
that whole corpora pass through: parallel numpy arrays, never one Python object per token.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

__all__ = ["Span", "SpanArray"]


@dataclass(frozen=True, order=True)
class Span:
    """An entity: tokens ``start`` up to but not including ``end`` of sequence ``seq``.

    Attributes:
        start: offset of the first token (or character) of the entity, counted from 0.
        end: offset one past the last token; ``end > start`` always.
        label: the entity type, e.g. ``"PER"``; the empty string for untyped tags.
        seq: index of the sentence (or document) the offsets are relative to.
        source: the file the span was read from, if any (not part of equality).
        line: the 1-based line of its first token in ``source``, if known (not part of equality).
    """

    seq: int
    start: int
    end: int
    label: str
    source: str | None = field(default=None, compare=False, repr=False)
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            msg = f"Expected 0 <= start < end for a span, but got start={self.start}, end={self.end}"
            raise ValueError(msg)

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class SpanArray:
    """Many spans as parallel arrays, sorted by ``(seq, start)``.

    Attributes:
        seq: sequence index of each span.
        start: half-open start offset within its sequence.
        end: half-open end offset within its sequence.
        label: index into ``labels`` of each span's type.
        labels: the type names that ``label`` indexes.
        line: 1-based line of each span's first token, or -1 where unknown.
        source: the file the spans came from, if any.
    """

    seq: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    labels: tuple[str, ...]
    line: IntArray
    source: str | None = None

    def __len__(self) -> int:
        return int(self.start.shape[0])

    def __iter__(self) -> Iterator[Span]:
        columns = (self.seq, self.start, self.end, self.label, self.line)
        for q, s, e, k, ln in zip(*(c.tolist() for c in columns), strict=True):
            yield Span(q, s, e, self.labels[k], self.source, ln if ln >= 0 else None)

    def to_list(self) -> list[Span]:
        """Return the spans as `Span` objects, in order."""
        return list(self)

    @classmethod
    def from_spans(cls, spans: Iterable[Span], labels: Sequence[str] = ()) -> SpanArray:
        """Build the columnar form of ``spans``, adding unseen labels after ``labels``."""
        items = sorted(spans)
        names = list(labels)
        index = {name: i for i, name in enumerate(names)}
        label_ids = []
        for span in items:
            if span.label not in index:
                index[span.label] = len(names)
                names.append(span.label)
            label_ids.append(index[span.label])
        source = items[0].source if items else None

        def col(values: Iterable[int]) -> IntArray:
            return np.fromiter(values, dtype=np.int64, count=len(items))

        return cls(
            seq=col(s.seq for s in items),
            start=col(s.start for s in items),
            end=col(s.end for s in items),
            label=np.asarray(label_ids, dtype=np.int64),
            labels=tuple(names),
            line=col(s.line if s.line is not None else -1 for s in items),
            source=source,
        )
