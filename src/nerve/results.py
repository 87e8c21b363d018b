"""Typed results: additive counts, the scores derived from them, and the settings behind them.

Everything here is computed from counts that add up (`Counts`), so results of shards, batches or
documents merge exactly with `Result.merge`. A zero denominator gives 0.0: precision is 0 when
nothing was predicted, recall is 0 when there is nothing to find, F1 is 0 when both are 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import field, replace

from . import options
from ._frozen import frozen
from ._version import __version__
from .errors import InputError, NerveError
from .model.counts import Counts, ExactTotals, RepairStats, Score, TokenStats, fbeta, safe_div
from .model.signature import repair_field, signature

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from typing import Any

    from .analysis.summary import Analysis
    from .metrics.discontinuous import DiscontinuousScores
    from .metrics.muc import MucResult
    from .metrics.sweep import Sweep
    from .model.vocab import TagVocab
    from .plan import MucOptions, Plan

__all__ = ["MISFIT_SHARE", "Counts", "ExactScores", "RepairStats", "Result"]
__all__ += ["Score", "Settings", "TokenStats", "fbeta", "match_of"]


@frozen
class ExactScores:
    """Exact-match entity scores: micro (the headline), macro, support-weighted, and per type.

    ``counts`` is the additive state; everything else derives from it.
    """

    counts: Mapping[str, Counts]
    beta: float = 1.0
    micro: Score = field(init=False)
    macro: Score = field(init=False)
    weighted: Score = field(init=False)
    per_type: Mapping[str, Score] = field(init=False)

    def __post_init__(self) -> None:
        per_type = {name: c.score(self.beta) for name, c in sorted(self.counts.items())}
        total = sum(self.counts.values(), Counts())
        micro = total.score(self.beta)
        scores = list(per_type.values())
        n = len(scores)
        support = [c.gold for c in (self.counts[name] for name in per_type)]
        weight_sum = sum(support)

        def mean(values: Iterable[float]) -> float:
            return safe_div(sum(values), n)

        def weighted(values: Iterable[float]) -> float:
            return safe_div(sum(v * w for v, w in zip(values, support, strict=True)), weight_sum)

        beta_set = self.beta != 1

        def averaged(average: Callable[[Iterable[float]], float]) -> Score:
            return Score(
                average(s.precision for s in scores),
                average(s.recall for s in scores),
                average(s.f1 for s in scores),
                total.tp,
                total.fp,
                total.fn,
                average(s.fbeta or 0.0 for s in scores) if beta_set else None,
            )

        macro = averaged(mean)
        weighted_score = averaged(weighted)
        object.__setattr__(self, "per_type", per_type)
        object.__setattr__(self, "micro", micro)
        object.__setattr__(self, "macro", macro)
        object.__setattr__(self, "weighted", weighted_score)

    def __add__(self, other: ExactScores) -> ExactScores:
        merged = dict(self.counts)
        for name, c in other.counts.items():
            merged[name] = merged.get(name, Counts()) + c
        return ExactScores(merged, self.beta)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"micro", "macro", "weighted", "per_type": {TYPE: ...}}``."""
        return {
            "micro": self.micro.to_dict(),
            "macro": self.macro.to_dict(),
            "weighted": self.weighted.to_dict(),
            "per_type": {name: s.to_dict() for name, s in self.per_type.items()},
        }


def match_of(overlap: MucOptions | None) -> str:
    """How entities were matched, for the signature: ``exact``, or ``exact, muc (...)``."""
    return "exact" if overlap is None else f"exact, muc ({overlap.describe()})"


@frozen
class Settings:
    """Everything that changes the numbers; the signature is rendered from it.

    ``tag_format`` is ``None`` when it was to be inferred but no entity tag was read; such a
    result merges with one of any tag format (and, with an inferred scheme, of any scheme).
    """

    scheme: str
    scheme_inferred: bool
    tag_format: str | None
    outside: str
    repair: str
    beta: float = 1.0
    match: str = "exact"
    average: str = "micro"
    version: str = __version__
    source: str = "tags"
    statistics: tuple[str, ...] = ()  # the bootstrap's signature fields, when asked for
    pred_scheme: str | None = None  # the predictions' scheme, when it is not ``scheme`` (``IOBES (auto)``)
    labels: tuple[str, ...] = ()  # the label map's and type filters' fields (`LabelMap.fields`), when used
    flatten: str | None = None  # the flattening policy both sides' spans went through, if any

    def __post_init__(self) -> None:
        options.beta(self.beta)

    @classmethod
    def of_plan(
        cls, plan: Plan, scheme: str | None, pred_scheme: str | None, vocab: TagVocab | None, source: str
    ) -> Settings:
        """The settings of ``plan``, with what the run found: the schemes (``None``: spans) and tag format.

        ``vocab``: the tags read (its tag format, outside tag); ``source``: ``tags``, or the span format.
        """
        t, labels = plan.tagging, plan.labels.fields() if plan.labels else ()
        if scheme is None:
            fmt, outside, policy = None, "-", "none"
        else:
            assert vocab is not None
            fmt, outside, policy = vocab.format.describe() if vocab.format else None, vocab.outside, t.policy
        return cls(
            scheme=scheme or "-",
            scheme_inferred=scheme is not None and t.inferred,
            tag_format=fmt,
            outside=outside,
            repair=policy,
            beta=plan.metrics.beta,
            match=match_of(plan.metrics.overlap),
            source=source,
            pred_scheme=None if pred_scheme is None else pred_scheme + " (auto)" * t.pred_inferred,
            labels=labels,
            flatten=plan.reading.flatten if scheme is None else None,
        )

    def signature(self, repairs: int | None = None) -> str:
        """Render the signature, e.g. ``nerve 0.1.0 | scheme IOB2 (auto) | ... | avg micro``."""
        tags = self.source == "tags"
        return signature(
            self._scheme_field() if tags else None,
            f"tags {self.tag_format or 'B-X'} {self.outside}" if tags else f"spans {self.source}",
            repair_field(self.repair, repairs) if tags else None,
            f"match {self.match}",
            f"flatten {self.flatten}" if self.flatten else None,
            *self.labels,
            f"beta {self.beta:g}" if self.beta != 1 else None,
            f"avg {self.average}",
            *self.statistics,
            version=self.version,
        )

    def _scheme_field(self) -> str:
        """``scheme IOB2 (auto)``, or with two schemes ``scheme gold IOB1 pred IOBES (auto)``."""
        gold = self.scheme + (" (auto)" if self.scheme_inferred else "")
        return f"scheme {gold}" if self.pred_scheme is None else f"scheme gold {gold} pred {self.pred_scheme}"

    def combine(self, other: Settings) -> Settings | None:
        """The settings of two merged results, or ``None`` if their numbers are not comparable."""
        if self == other:
            return self
        for vacuous, informative in ((self, other), (other, self)):
            comparable = vacuous.scheme_inferred or vacuous.scheme == informative.scheme
            filled = replace(vacuous, scheme=informative.scheme, tag_format=informative.tag_format)
            if vacuous.tag_format is None and comparable and filled == informative:
                return informative
        return None


#: The share of the entities (gold and predicted) that repairs may reach before a given scheme
#: that differs from the one nerve infers is said not to fit (`Result.warnings`). Ill-formed
#: predictions of a good tagger stay well below it; a scheme that does not fit repairs nearly
#: every entity (IOBES on IOB2 tags: each entity no E or S closes).
MISFIT_SHARE = 0.05


@frozen
class Result:
    """The result of `nerve.score`: exact entity scores, token accuracy and repairs.

    Attributes:
        settings: what the numbers depend on.
        tokens: token accuracy on the raw tags.
        exact: exact-match entity scores.
        repairs: invalid transitions found (and repaired by the policy).
        sentences: how many sentences were scored.
        documents: how many documents were scored (1 when the input has no ``-DOCSTART-``).
        muc: MUC's modes, when asked for.
        analysis: the error analysis (`nerve.analysis.summary.Analysis`), when asked for.
        notes: per side (``"gold"``, ``"pred"``), what the reader of a span format read but left
            out of the spans, or converted, counted by kind (`nerve.model.spans.SpanArray.notes`).
        discontinuous: exact scores over discontinuous entities only, when either side has one
            (`nerve.metrics.discontinuous`); ``None`` otherwise.
        hallucinated: the predictions listed without offsets and not found in their text
            (``entity-list``), by type: their texts in file order, each a false positive of its type.
        sweep: P/R/F1 at each confidence threshold of the predictions, when asked for (`nerve.metrics.sweep`).
    """

    settings: Settings
    tokens: TokenStats
    exact: ExactScores
    repairs: RepairStats
    sentences: int = 0
    documents: int = 0
    muc: MucResult | None = None
    analysis: Analysis | None = None
    notes: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    discontinuous: DiscontinuousScores | None = None
    hallucinated: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    sweep: Sweep | None = None

    @classmethod
    def of(
        cls,
        plan: Plan,
        totals: ExactTotals,
        vocab: TagVocab | None = None,
        *,
        source: str = "tags",
        notes: Mapping[str, Mapping[str, int]] | None = None,
        discontinuous: DiscontinuousScores | None = None,
        hallucinated: Mapping[str, tuple[str, ...]] | None = None,
    ) -> Result:
        """The result of a run's ``totals`` under ``plan``: the one place a `Result` is assembled.

        Tags read with ``vocab``, or spans of the format ``source`` (``totals.scheme`` is ``None``).
        """
        scheme = totals.scheme.name if totals.scheme is not None else None
        pred = totals.pred_scheme.name if totals.pred_scheme is not None else None
        return cls(
            settings=Settings.of_plan(plan, scheme, pred, vocab, source),
            tokens=totals.tokens,
            exact=ExactScores(totals.counts, plan.metrics.beta),
            repairs=totals.repairs,
            sentences=totals.sentences,
            documents=totals.documents,
            muc=totals.muc,
            notes=notes or {},
            discontinuous=discontinuous,
            hallucinated=hallucinated or {},
        )

    @property
    def micro(self) -> Score:
        """The headline: micro-averaged exact-match scores."""
        return self.exact.micro

    @property
    def macro(self) -> Score:
        """The mean of the per-type exact-match scores."""
        return self.exact.macro

    @property
    def weighted(self) -> Score:
        """The per-type scores averaged with the gold counts as weights."""
        return self.exact.weighted

    @property
    def per_type(self) -> Mapping[str, Score]:
        """Exact-match scores of each entity type, by name."""
        return self.exact.per_type

    @property
    def signature(self) -> str:
        """The line to print with every score, naming everything that changes it."""
        return self.settings.signature(self.repairs.total)

    @property
    def warnings(self) -> tuple[str, ...]:
        """What may make the numbers mislead, one sentence each (the CLI prints them on stderr).

        A given scheme that does not fit the tags: more repairs than `MISFIT_SHARE` of the gold
        and predicted entities, where nerve infers another scheme from the tags.
        """
        r, micro = self.repairs, self.exact.micro
        entities = micro.gold + micro.predicted
        if self.settings.scheme_inferred or r.total <= MISFIT_SHARE * entities:
            return ()
        if r.fits in (None, self.settings.scheme):
            return ()
        share = f" ({r.total / entities:.0%}, over {MISFIT_SHARE:.0%})" if entities else ""
        return (
            f"{options.setting('scheme', self.settings.scheme)} does not fit these tags: "
            f"{r.total:,} repairs for {entities:,} entities{share}; nerve infers {r.fits} from them "
            f"(use {options.setting('scheme', r.fits)}, or leave the scheme out)",
        )

    def merge(self, other: Result) -> Result:
        """Combine the results of two shards scored with the same settings."""
        if not isinstance(other, Result):
            raise InputError("other", None, f"expected a Result to merge, got {type(other).__name__}")
        settings = self.settings.combine(other.settings)
        if settings is None:
            msg = f"cannot merge results with different settings: {self.signature!r} vs {other.signature!r}"
            raise NerveError(msg)
        if self.sweep is not None or other.sweep is not None:  # its curves do not add up
            raise NerveError("cannot merge results with a threshold sweep: sweep the whole corpus at once")
        return replace(
            self,
            settings=settings,
            tokens=self.tokens + other.tokens,
            exact=self.exact + other.exact,
            repairs=self.repairs + other.repairs,
            sentences=self.sentences + other.sentences,
            documents=self.documents + other.documents,
            muc=self.muc + other.muc if self.muc is not None and other.muc is not None else None,
            analysis=_merge_analysis(self.analysis, other.analysis),
            notes=_merge_notes(self.notes, other.notes),
            discontinuous=_merge_discontinuous(self.discontinuous, other.discontinuous),
            hallucinated={
                t: self.hallucinated.get(t, ()) + other.hallucinated.get(t, ())
                for t in {**self.hallucinated, **other.hallucinated}
            },
        )

    __add__ = merge

    def to_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``nerve score --output json`` (``tokens`` null for spans)."""
        d: dict[str, Any] = {
            "signature": self.signature,
            "tokens": self.tokens.to_dict() if self.settings.source == "tags" else None,
            "exact": self.exact.to_dict(),
            "repairs": self.repairs.to_dict(),
        }
        if self.muc is not None:
            d["muc"] = self.muc.to_dict()
        if self.analysis is not None:
            d.update(self.analysis.to_dict())
        if self.notes:
            d["notes"] = {side: dict(counts) for side, counts in self.notes.items()}
        if self.discontinuous is not None:
            d["discontinuous"] = self.discontinuous.to_dict()
        if self.hallucinated:
            d["hallucinated"] = {t: {"count": len(v), "texts": list(v)} for t, v in self.hallucinated.items()}
        if self.sweep is not None:
            d["sweep"] = self.sweep.to_dict()
        if self.warnings:
            d["warnings"] = list(self.warnings)
        return d


def _merge_discontinuous(
    a: DiscontinuousScores | None, b: DiscontinuousScores | None
) -> DiscontinuousScores | None:
    """Two shards' discontinuous-only scores added up; a shard without any adds nothing."""
    if a is None or b is None:
        return a if b is None else b
    return a + b


def _merge_notes(
    a: Mapping[str, Mapping[str, int]], b: Mapping[str, Mapping[str, int]]
) -> dict[str, dict[str, int]]:
    """The notes of two results added up, side by side and kind by kind."""
    out: dict[str, dict[str, int]] = {side: dict(counts) for side, counts in a.items()}
    for side, counts in b.items():
        mine = out.setdefault(side, {})
        for kind, n in counts.items():
            mine[kind] = mine.get(kind, 0) + n
    return out


def _merge_analysis(a: Analysis | None, b: Analysis | None) -> Analysis | None:
    """The analyses of two shards added up; both or neither must have one."""
    if a is None and b is None:
        return None
    if a is None or b is None:
        raise NerveError("cannot merge a result with an analysis and one without: analyse both or neither")
    return a.merge(b)
