"""The one span model of nerve: half-open ``[start, end)`` offsets plus a label.

`Span` is the readable, per-object form for the Python API. `SpanArray` is the columnar form
that whole corpora pass through: parallel numpy arrays, never one Python object per token. Every
reader emits a `SpanArray` and every metric consumes one. Spans may overlap and nest; a
discontinuous span keeps its pieces in ``fragments``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import field, replace
from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from ..errors import InputError

if TYPE_CHECKING:
    from .arrays import Bool as BoolArray
    from .arrays import Float as FloatArray
    from .arrays import Int as IntArray
    from .arrays import ObjectArray

__all__ = ["Fragments", "Span", "SpanArray"]


@frozen(order=True)
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
            detail = f"expected 0 <= start < end for a span, but got start={self.start}, end={self.end}"
            raise InputError(self.source or "<span>", self.line, detail)

    def __len__(self) -> int:
        return self.end - self.start


@frozen(eq=False)
class Fragments:
    """The pieces of discontinuous spans: span ``i`` is ``start[offsets[i]:offsets[i + 1]]`` and so on.

    A span's own ``start`` and ``end`` are its first piece's start and its last piece's end.
    """

    offsets: IntArray
    start: IntArray
    end: IntArray


def _col(values: Iterable[int], count: int) -> IntArray:
    return np.fromiter(values, dtype=np.int64, count=count)


@frozen(eq=False)
class SpanArray:
    """The spans of many documents as parallel ``int64`` columns; overlaps and nesting allowed.

    Attributes:
        doc: the document (or sentence) index of each span, in ``range(n_docs)``.
        start: half-open start offset within its document.
        end: half-open end offset within its document.
        label: index into ``labels`` of each span's type.
        labels: the type names that ``label`` indexes (the vocabulary).
        n_docs: the number of documents, including those without spans.
        line: 1-based line of each span in ``source``, or -1 where unknown; ``None`` when no
            span's line is known.
        source: the file the spans came from, if any.
        fragments: the pieces of discontinuous spans, or ``None`` when every span is contiguous.
        notes: what the reader read besides these spans and left out, or converted, counted by
            kind (``{"ignored relations": 3}`` for brat): nothing is dropped without a count.
        attributes: per-span metadata by name (brat's attributes and normalisations), each an
            object column of one value (a string) or ``None`` per span; ``None`` when no span has any.
        score: each span's confidence (``float64``), NaN where a span has none; ``None`` when no
            span has one. Predictions carry it (a JSON span's ``"score"``); `nerve.score`'s
            ``sweep`` reads it.
    """

    doc: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    labels: tuple[str, ...]
    n_docs: int
    line: IntArray | None = None
    source: str | None = None
    fragments: Fragments | None = None
    notes: Mapping[str, int] = field(default_factory=dict)
    attributes: Mapping[str, ObjectArray] | None = None
    score: FloatArray | None = None

    def __len__(self) -> int:
        return int(self.start.shape[0])

    @property
    def seq(self) -> IntArray:
        """The document column, by the name `Span` gives it."""
        return self.doc

    def __iter__(self) -> Iterator[Span]:
        lines = self.line.tolist() if self.line is not None else [-1] * len(self)
        names = self.labels
        columns = (self.doc.tolist(), self.start.tolist(), self.end.tolist(), self.label.tolist(), lines)
        for q, s, e, k, ln in zip(*columns, strict=True):
            yield Span(q, s, e, names[k], self.source, ln if ln >= 0 else None)

    def to_list(self) -> list[Span]:
        """Return the spans as `Span` objects, in order."""
        return list(self)

    def documents(self) -> list[list[tuple[int, int, str]]]:
        """One list of ``(start, end, label)`` per document, in column order."""
        out: list[list[tuple[int, int, str]]] = [[] for _ in range(self.n_docs)]
        names = self.labels
        for d, s, e, k in zip(
            self.doc.tolist(), self.start.tolist(), self.end.tolist(), self.label.tolist(), strict=True
        ):
            out[d].append((s, e, names[k]))
        return out

    def select(self, keep: BoolArray | IntArray) -> SpanArray:
        """The spans where ``keep`` is true (or at the positions ``keep`` lists), in that order."""
        fragments = None
        if self.fragments is not None:
            f = self.fragments
            lo, hi = f.offsets[:-1][keep], f.offsets[1:][keep]
            counts = hi - lo
            pieces = np.repeat(lo, counts) + (
                np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
            )
            pieces = pieces.astype(np.int64)
            offsets = np.concatenate([[0], np.cumsum(hi - lo)]).astype(np.int64)
            fragments = Fragments(offsets, f.start[pieces], f.end[pieces])
        return replace(
            self,
            doc=self.doc[keep],
            start=self.start[keep],
            end=self.end[keep],
            label=self.label[keep],
            line=None if self.line is None else self.line[keep],
            fragments=fragments,
            attributes=None if self.attributes is None else {k: v[keep] for k, v in self.attributes.items()},
            score=None if self.score is None else self.score[keep],
        )

    def order(self) -> IntArray:
        """The permutation that sorts the spans by document, start, end and type name."""
        rank = np.argsort(np.argsort(np.asarray(self.labels, dtype=object), kind="stable"), kind="stable")
        type_rank = rank[self.label] if len(self.labels) else self.label
        return np.lexsort((type_rank, self.end, self.start, self.doc))

    def relabel(self, labels: Sequence[str]) -> SpanArray:
        """The same spans with ``label`` indexing ``labels`` (extended by unseen names after them)."""
        names = list(labels)
        index = {name: i for i, name in enumerate(names)}
        for name in self.labels:
            if name not in index:
                index[name] = len(names)
                names.append(name)
        mapping = np.asarray([index[name] for name in self.labels], dtype=np.int64)
        label = mapping[self.label] if len(mapping) else self.label
        return replace(self, label=label, labels=tuple(names))

    @classmethod
    def empty(cls, n_docs: int = 0, labels: Sequence[str] = ()) -> SpanArray:
        """No spans, over ``n_docs`` documents."""
        none = np.zeros(0, dtype=np.int64)
        return cls(none, none, none, none, tuple(labels), n_docs)

    @classmethod
    def from_documents(
        cls, docs: Sequence[Iterable[tuple[int, int, str]]], labels: Sequence[str] = ()
    ) -> SpanArray:
        """Columns of one list of ``(start, end, label)`` per document, in list order."""
        lists = [list(d) for d in docs]
        flat = [span for d in lists for span in d]
        names = list(labels)
        index = {name: i for i, name in enumerate(names)}
        for _, _, name in flat:
            if name not in index:
                index[name] = len(names)
                names.append(name)
        n = len(flat)
        return cls(
            doc=np.repeat(np.arange(len(lists), dtype=np.int64), [len(d) for d in lists]),
            start=_col((s for s, _, _ in flat), n),
            end=_col((e for _, e, _ in flat), n),
            label=_col((index[t] for _, _, t in flat), n),
            labels=tuple(names),
            n_docs=len(lists),
        )

    @classmethod
    def from_spans(cls, spans: Iterable[Span], labels: Sequence[str] = ()) -> SpanArray:
        """Build the columnar form of ``spans``, sorted, adding unseen labels after ``labels``."""
        items = sorted(spans)
        names = list(labels)
        index = {name: i for i, name in enumerate(names)}
        for span in items:
            if span.label not in index:
                index[span.label] = len(names)
                names.append(span.label)
        n = len(items)
        return cls(
            doc=_col((s.seq for s in items), n),
            start=_col((s.start for s in items), n),
            end=_col((s.end for s in items), n),
            label=_col((index[s.label] for s in items), n),
            labels=tuple(names),
            n_docs=items[-1].seq + 1 if items else 0,
            line=_col((s.line if s.line is not None else -1 for s in items), n),
            source=items[0].source if items else None,
        )
