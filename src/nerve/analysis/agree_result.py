"""The result of `nerve.agree`: typed fractions, and their JSON form.

In: what `nerve.api.agree` computes. Out: `Agreement` and its parts: each annotator
(`Annotator`, with the documents they left out, by name), each pair's exact and partial F1 and
Cohen's kappa (`PairScores`), the statistics over all annotators with their intervals and the
reason where one is n/a (`Estimate`), the disagreements (`Disagreement`) and the consensus
(`Consensus`). ``to_dict`` gives the JSON keys ``pairwise``, ``kappa``, ``fleiss_kappa``, ``alpha``,
``annotators`` and ``disagreements`` (and ``bootstrap``, ``consensus``, ``documents``, ``tokens``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field

from .._frozen import frozen
from ..metrics.muc_counts import MucCounts
from ..model.counts import Score
from .units import Flag

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (3 ms): agree starts cheaper
if TYPE_CHECKING:
    from typing import Any, overload

__all__ = [
    "AGREE_CATEGORIES",
    "RULES",
    "AgreeBootstrap",
    "Agreement",
    "Annotator",
    "Consensus",
    "Disagreement",
    "Disagreements",
    "Estimate",
    "LazyRows",
    "PairScores",
    "mean",
]

RULES = ("majority", "unanimous")  # the consensus rules
AGREE_CATEGORIES = ("missed", "type", "boundary", "boundary_type")  # the disagreements' categories


def mean(values: list[float | None]) -> float | None:
    """The mean of the values that are not ``None``; ``None`` if none is."""
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


@frozen
class Annotator:
    """One annotator: name, source, entities, documents annotated and left out, and what changed.

    ``notes``: what reading changed, by reason (repairs of invalid tags, entities widened to token
    edges), each also a warning.
    """

    name: str
    source: str
    entities: int
    documents: int
    missing: tuple[str, ...] = ()
    notes: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "source", "entities", "documents", "missing": [...], "notes": {reason: n}}``."""
        return {**self.__dict__, "missing": list(self.missing), "notes": dict(self.notes)}


@frozen
class PairScores:
    """Two annotators compared on the documents both annotated (``a`` taken as the reference).

    F1 is symmetric; precision and recall swap with ``a`` and ``b``. ``partial`` is MUC's partial
    mode (half credit for an overlap of the same type). ``kappa`` is Cohen's, on token labels,
    ``None`` where undefined (``kappa_reason``).
    """

    a: str
    b: str
    exact: Score
    partial: MucCounts
    exact_types: Mapping[str, Score]
    partial_types: Mapping[str, MucCounts]
    kappa: float | None
    tokens: int
    documents: int
    kappa_reason: str | None = None

    def f1(self, mode: str = "exact", type_name: str | None = None) -> float | None:
        """F1 of ``mode`` (``exact`` or ``partial``), micro or of one type (``None``: no such entity)."""
        if type_name is None:
            return self.exact.f1 if mode == "exact" else self.partial.f1
        if mode == "exact":
            score = self.exact_types.get(type_name)
            return None if score is None or not (score.gold or score.predicted) else score.f1
        counts = self.partial_types.get(type_name)
        return None if counts is None or not (counts.pos or counts.act) else counts.f1

    def to_dict(self) -> dict[str, Any]:
        """The pair's scores, counts and kappa."""
        return {
            "a": self.a,
            "b": self.b,
            "documents": self.documents,
            "exact": self.exact.to_dict(),
            "partial": self.partial.to_dict(),
            "exact_per_type": {k: v.to_dict() for k, v in self.exact_types.items()},
            "partial_per_type": {k: v.to_dict() for k, v in self.partial_types.items()},
            "kappa": self.kappa,
            "kappa_reason": self.kappa_reason,
            "tokens": self.tokens,
        }


@frozen
class Estimate:
    """A statistic, its bootstrap interval, and why either is n/a (with what to do), where one is."""

    value: float | None
    interval: tuple[float, float] | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"value", "interval": [low, high] | None, "reason"}``."""
        interval = list(self.interval) if self.interval is not None else None
        return {"value": self.value, "interval": interval, "reason": self.reason}


@frozen
class AgreeBootstrap:
    """How the intervals were drawn: resamples of documents, and what makes them unreliable."""

    n: int
    seed: int
    confidence: float
    units: int
    flags: tuple[Flag, ...] = ()
    unit: str = "document"
    method: str = "percentile"

    def to_dict(self) -> dict[str, Any]:
        """``{"n", "seed", "confidence", "unit", "units", "method", "flags": [...]}``."""
        out = {k: v for k, v in self.__dict__.items() if k != "flags"}
        return {**out, "flags": [f.to_dict() for f in self.flags]}


@frozen
class Disagreement:
    """A cluster of overlapping entities the annotators of its document did not all mark alike.

    ``marks``: for each annotator of the document, the entities they marked there, ``(text,
    type)``, in order (empty: they marked nothing). ``start``/``end``: the cluster's extent.
    """

    document: str
    start: int
    end: int
    category: str
    text: str | None
    context: str | None
    marks: Mapping[str, tuple[tuple[str | None, str], ...]]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; ``marks`` as ``{annotator: [{"text", "type"}, ...]}``."""
        marks = {k: [{"text": t, "type": y} for t, y in v] for k, v in self.marks.items()}
        return {**self.__dict__, "marks": marks}


class LazyRows(Sequence[Disagreement]):
    """``n`` disagreement rows, each built (by ``build(i)``) when first read, then kept.

    A text table shows 20 of tens of thousands; JSON and CSV read them all. It compares, hashes,
    prints and pickles as the tuple of its rows.
    """

    def __init__(self, n: int, build: Callable[[int], Disagreement]) -> None:
        self._n, self._build = n, build
        self._built: dict[int, Disagreement] = {}

    def __len__(self) -> int:
        return self._n

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, i: int) -> Disagreement: ...

        @overload
        def __getitem__(self, i: slice) -> tuple[Disagreement, ...]: ...

    def __getitem__(self, i: int | slice) -> Disagreement | tuple[Disagreement, ...]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(self._n)))
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("disagreement row out of range")
        row = self._built.get(i)
        if row is None:
            row = self._built[i] = self._build(i)
        return row

    def __iter__(self) -> Iterator[Disagreement]:
        return (self[i] for i in range(self._n))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self) -> tuple[type[tuple[Disagreement, ...]], tuple[tuple[Disagreement, ...]]]:
        return tuple, (tuple(self),)


@frozen
class Disagreements:
    """How many clusters disagree, by category, and the ones listed (after the filters).

    ``rows``: a tuple, or `LazyRows` that build each row when it is read.
    """

    total: int
    by_category: Mapping[str, int]
    rows: Sequence[Disagreement]

    def to_dict(self) -> dict[str, Any]:
        """``{"total", "by_category", "rows": [...]}``."""
        return {
            "total": self.total,
            "by_category": dict(self.by_category),
            "rows": [r.to_dict() for r in self.rows],
        }


@frozen
class Consensus:
    """The entities kept by ``rule``, and the ties (exactly half the annotators) left out, listed."""

    rule: str
    entities: int
    ties: int
    tied: tuple[tuple[str, str | None, str, tuple[str, ...]], ...] = ()
    written: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"rule", "entities", "ties", "tied": [{"document", "text", "type", "marked_by"}], ...}``."""
        tied = [{"document": d, "text": t, "type": y, "marked_by": list(w)} for d, t, y, w in self.tied]
        return {
            "rule": self.rule,
            "entities": self.entities,
            "ties": self.ties,
            "tied": tied,
            "written": self.written,
        }


@frozen
class Agreement:
    """Agreement between annotators of the same documents (`nerve.agree`).

    Attributes:
        annotators: each annotator, in order.
        pairs: every two annotators (in order: the first with each later one, and so on).
        types: the entity types any annotator used.
        mean_f1: the mean of the pairs' exact micro F1, with its bootstrap interval.
        mean_partial_f1: the mean of the pairs' partial micro F1.
        fleiss_kappa: over the tokens every annotator labelled (``fleiss_tokens``).
        alpha: Krippendorff's nominal alpha on token labels, with its bootstrap interval.
        documents, tokens: the documents and their tokens.
        bootstrap: how the intervals were drawn (``None``: none asked for).
        disagreements: the clusters the annotators disagree on.
        consensus: the consensus, when asked for.
        warnings: what may make the numbers mislead (documents left out, ties...).
    """

    annotators: tuple[Annotator, ...]
    pairs: tuple[PairScores, ...]
    types: tuple[str, ...]
    mean_f1: Estimate
    mean_partial_f1: float | None
    fleiss_kappa: Estimate
    fleiss_tokens: int
    alpha: Estimate
    documents: int
    tokens: int
    disagreements: Disagreements
    bootstrap: AgreeBootstrap | None = None
    consensus: Consensus | None = None
    warnings: tuple[str, ...] = field(default=())

    @property
    def names(self) -> tuple[str, ...]:
        """The annotators' names."""
        return tuple(a.name for a in self.annotators)

    def pair(self, a: str, b: str) -> PairScores | None:
        """The scores of ``a`` and ``b`` (either order); ``None`` for ``a == b``."""
        return next((p for p in self.pairs if {p.a, p.b} == {a, b} and a != b), None)

    def matrix(self, what: str = "exact", type_name: str | None = None) -> dict[str, dict[str, float | None]]:
        """``{a: {b: value}}`` of ``exact``/``partial`` F1 (of a type) or ``kappa``; the diagonal ``None``."""
        out: dict[str, dict[str, float | None]] = {}
        for a in self.names:
            row: dict[str, float | None] = {}
            for b in self.names:
                p = self.pair(a, b)
                row[b] = None if p is None else (p.kappa if what == "kappa" else p.f1(what, type_name))
            out[a] = row
        return out

    def mean_of(self, what: str, type_name: str | None = None) -> float | None:
        """The mean over pairs of ``matrix(what, type_name)``'s values (those defined)."""
        return mean([p.kappa if what == "kappa" else p.f1(what, type_name) for p in self.pairs])

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see the module)."""

        def mode(name: str) -> dict[str, Any]:
            per_type = {
                t: {"matrix": self.matrix(name, t), "mean": self.mean_of(name, t)} for t in self.types
            }
            return {"matrix": self.matrix(name), "mean": self.mean_of(name), "per_type": per_type}

        exact = {**mode("exact"), **{k: v for k, v in self.mean_f1.to_dict().items() if k != "value"}}
        kappa = {"matrix": self.matrix("kappa"), "mean": self.mean_of("kappa")}
        return {
            "annotators": [a.to_dict() for a in self.annotators],
            "documents": self.documents,
            "tokens": self.tokens,
            "pairwise": {
                "exact": exact,
                "partial": mode("partial"),
                "pairs": [p.to_dict() for p in self.pairs],
            },
            "kappa": {
                **kappa,
                "pairs": [{"a": p.a, "b": p.b, "kappa": p.kappa, "tokens": p.tokens} for p in self.pairs],
            },
            "fleiss_kappa": {**self.fleiss_kappa.to_dict(), "tokens": self.fleiss_tokens},
            "alpha": {**self.alpha.to_dict(), "level": "nominal", "unit": "token"},
            "bootstrap": self.bootstrap.to_dict() if self.bootstrap is not None else None,
            "disagreements": self.disagreements.to_dict(),
            "consensus": self.consensus.to_dict() if self.consensus is not None else None,
            "warnings": list(self.warnings),
        }
