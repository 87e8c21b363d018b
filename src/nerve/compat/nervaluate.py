"""A drop-in for nervaluate 1.2.1's `Evaluator`, with optimal one-to-one matching by default.

Replace ``from nervaluate import Evaluator`` with ``from nerve.compat.nervaluate import
Evaluator``: the arguments, the loaders (``"list"``, ``"conll"``, ``"dict"``, ``"default"``) and the
result of `Evaluator.evaluate` are nervaluate's::

    {"overall": {"strict"|"partial"|"ent_type"|"exact": EvaluationResult},
     "entities": {TAG: {strategy: EvaluationResult}},
     "overall_indices": {strategy: EvaluationIndices},
     "entity_indices": {TAG: {strategy: EvaluationIndices}}}

`summary_report` and `results_to_csv` print the same tables. What differs by default:

- **Matching is one optimal one-to-one assignment** per document (`nerve.muc`), the same for all
  four strategies, so the counts do not depend on the order of the lists. nervaluate takes the
  predictions in list order, and each takes the first gold entity it overlaps, so an exact
  prediction listed after a worse one can be counted spurious.
- **Per-tag rows come from that one matching.** A pair is counted under the gold entity's tag
  on the gold side (correct/incorrect/partial/missed, summing to ``possible``) and under the
  predicted tag on the predicted side (``actual``, with ``spurious``); precision uses the
  predicted side. The rows add up to the overall row. nervaluate re-scores lists filtered by
  tag, so a type confusion is a miss plus a spurious entity in its tag rows even where the
  overall row counts it correct.
- **Indices** are positions in the caller's lists, before entities of other tags are dropped.
- ``min_overlap_percentage`` is the same criterion (the overlap as a share of the gold entity),
  computed exactly.
- With no documents at all every count is 0 (nervaluate returns empty dictionaries).

``matching="greedy"`` reproduces nervaluate 1.2.1 instead: its counts, its per-tag rows, its
indices (positions in the tag-filtered lists) and its floating-point overlap test. Tags other
than O, B-X and I-X are refused by the list and CoNLL loaders (nervaluate lets E-X and S-X
continue an entity of type X). `summary_report_indices` is not offered.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]
    Bool = npt.NDArray[np.bool_]

from ..api import decode
from ..matching.overlap import in_order
from ..metrics.muc import MucCounts, MucOptions, Outcomes, count_all, mode_scores
from ..model.spans import SpanArray

__all__ = ["EvaluationIndices", "EvaluationResult", "Evaluator"]

#: nervaluate's strategy names for nerve's modes, in nervaluate's order.
STRATEGIES = {"strict": "strict", "partial": "partial", "ent_type": "type", "exact": "exact"}


@dataclass
class EvaluationResult:
    """nervaluate's counts and scores of one strategy, overall or for one tag."""

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    missed: int = 0
    spurious: int = 0
    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    actual: int = 0
    possible: int = 0

    @classmethod
    def of(cls, c: MucCounts) -> EvaluationResult:
        """The result of nerve's counts: gold-side counts, with ``actual`` from the predicted side."""
        return cls(c.cor, c.inc, c.par, c.mis, c.spu, c.precision, c.recall, c.f1, c.act, c.pos)


@dataclass
class EvaluationIndices:
    """``(document index, entity index)`` of each outcome: predictions, and gold entities for missed."""

    correct_indices: list[tuple[int, int]] = field(default_factory=list)
    incorrect_indices: list[tuple[int, int]] = field(default_factory=list)
    partial_indices: list[tuple[int, int]] = field(default_factory=list)
    missed_indices: list[tuple[int, int]] = field(default_factory=list)
    spurious_indices: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class _Loaded:
    """The entities of one side, sorted for matching, and three list positions of each."""

    spans: SpanArray  # sorted by document, start, end and tag
    index: Int  # position in the caller's document list
    kept: Int  # position among the document's entities of the evaluated tags
    in_tag: Int  # position among the document's entities of the same tag


def _infer_loader(true: Any) -> str:
    if isinstance(true, str):
        return "conll"
    if isinstance(true, list) and true and isinstance(true[0], list):
        first = next((doc[0] for doc in true if isinstance(doc, list) and doc), None)
        return "dict" if isinstance(first, dict) else "list"
    raise ValueError("Could not infer loader from input type")


def _check_tags(docs: Sequence[Sequence[str]]) -> None:
    for doc in docs:
        if not isinstance(doc, list):
            raise ValueError("Each document must be a list of tags")
    for tag in {t for doc in docs for t in doc}:
        if not isinstance(tag, str):
            raise ValueError(f"Invalid tag type: {type(tag)}")
        if tag != "O" and not tag.startswith(("B-", "I-")):
            raise ValueError(f"Invalid tag format: {tag}")


def _from_tags(docs: Sequence[Sequence[str]]) -> list[list[tuple[str, int, int]]]:
    """Entities ``(label, start, inclusive end)`` of B-/I- tags, as nervaluate's loaders read them.

    An I- tag after O or after another type opens an entity: nerve's ``begin`` repair of IOB2.
    """
    _check_tags(docs)
    out: list[list[tuple[str, int, int]]] = [[] for _ in docs]
    nonempty = [i for i, doc in enumerate(docs) if doc]
    if nonempty:
        for span in decode([docs[i] for i in nonempty], scheme="IOB2", repair="begin", tag_format="B-X"):
            out[nonempty[span.seq]].append((span.label, span.start, span.end - 1))
    return out


def _from_conll(data: Any) -> list[list[tuple[str, int, int]]]:
    if not isinstance(data, str):
        raise ValueError("ConllLoader expects string input")
    if not data:
        return []
    docs: list[list[str]] = []
    rows: list[list[int]] = []  # the line offset of each tag, blank lines skipped as nervaluate does
    for doc in data.rstrip().split("\n\n"):
        tags, offsets = [], []
        for offset, line in enumerate(doc.split("\n")):
            if not line.strip():
                continue
            parts = line.split("\t")
            if len(parts) < 2:
                raise ValueError(f"Invalid CoNLL format: line '{line}' does not contain a tab separator")
            tags.append(parts[1])
            offsets.append(offset)
        docs.append(tags)
        rows.append(offsets)
    return [
        [(label, offsets[s], offsets[e]) for label, s, e in doc]
        for doc, offsets in zip(_from_tags(docs), rows, strict=True)
    ]


def _from_dicts(data: Any) -> list[list[tuple[str, int, int]]]:
    if not isinstance(data, list):
        raise ValueError("DictLoader expects list input")
    out = []
    for doc in data:
        if not isinstance(doc, list):
            raise ValueError("Each document must be a list of entity dictionaries")
        entities = []
        for entity in doc:
            if not isinstance(entity, dict):
                raise ValueError(f"Invalid entity type: {type(entity)}")
            if not all(key in entity for key in ("label", "start", "end")):
                raise ValueError("Entity missing required keys: {'label', 'start', 'end'}")
            label, start, end = entity["label"], entity["start"], entity["end"]
            if not isinstance(label, str):
                raise ValueError("Entity label must be a string")
            if not isinstance(start, int) or not isinstance(end, int):
                raise ValueError("Entity start and end must be integers")
            if not 0 <= start <= end:
                raise ValueError(f"Expected 0 <= start <= end (end inclusive), but got {entity}")
            entities.append((label, start, end))
        out.append(entities)
    return out


def _arrays(docs: list[list[tuple[str, int, int]]], tags: dict[str, int]) -> _Loaded:
    rows = []
    for d, doc in enumerate(docs):
        kept = 0
        per_tag: dict[str, int] = {}
        for i, (label, start, end) in enumerate(doc):
            if label in tags:
                n = per_tag.get(label, 0)
                per_tag[label] = n + 1
                rows.append((d, start, end + 1, tags[label], i, kept, n))
                kept += 1
    a = np.asarray(rows, dtype=np.int64).reshape(-1, 7)
    spans, order = in_order(SpanArray(a[:, 0], a[:, 1], a[:, 2], a[:, 3], tuple(tags), len(docs)))
    return _Loaded(spans, a[order, 4], a[order, 5], a[order, 6])


class Evaluator:
    r"""nervaluate 1.2.1's `Evaluator`, scored with nerve's matching.

    Args:
        true: the gold entities, in the form ``loader`` reads.
        pred: the predicted entities, the same way.
        tags: the entity types to score; entities of other types are left out on both sides.
        loader: ``"list"`` (BIO tag lists), ``"conll"`` (a string of ``token\\ttag`` lines,
            documents separated by blank lines), ``"dict"`` (lists of ``{"label", "start",
            "end"}`` with inclusive ends) or ``"default"`` (inferred from ``true``).
        min_overlap_percentage: the share of the gold entity, in percent (1 to 100), that an
            overlap must cover.
        matching: ``"optimal"``, or ``"greedy"`` for nervaluate 1.2.1's own counts.
    """

    def __init__(
        self,
        true: Any,
        pred: Any,
        tags: list[str],
        loader: str = "default",
        min_overlap_percentage: float = 1.0,
        matching: str = "optimal",
    ) -> None:
        if not 1.0 <= min_overlap_percentage <= 100.0:
            raise ValueError("min_overlap_percentage must be between 1.0 and 100.0")
        self.tags = tags
        self.min_overlap_percentage = min_overlap_percentage
        self.options = MucOptions(min_gold_share=min_overlap_percentage / 100.0, matching=matching)
        if loader == "default":
            loader = _infer_loader(true)
        if loader == "list":
            if len(true) != len(pred):
                raise ValueError("Number of predicted documents does not equal true")
            for i, (t, p) in enumerate(zip(true, pred, strict=True)):
                if len(t) != len(p):
                    raise ValueError(f"Document {i} has different lengths: true={len(t)}, pred={len(p)}")
        readers = {"list": _from_tags_checked, "conll": _from_conll, "dict": _from_dicts}
        if loader not in readers:
            raise ValueError(f"Unknown loader: {loader}")
        self.true = readers[loader](true)
        self.pred = readers[loader](pred)
        if len(self.true) != len(self.pred):
            raise ValueError("Number of predicted documents does not equal true")

    def evaluate(self) -> dict[str, Any]:
        """Counts and scores per strategy, overall and per tag, and the indices of each outcome."""
        wanted = set(self.tags)
        used = sorted({e[0] for docs in (self.true, self.pred) for doc in docs for e in doc} & wanted)
        ids = {tag: i for i, tag in enumerate(used)}
        gold, pred = _arrays(self.true, ids), _arrays(self.pred, ids)
        # Greedy matching takes the entities in list order: their order among the kept ones.
        tallies = count_all(gold.spans, pred.spans, len(used), self.options, positions=(gold.kept, pred.kept))
        by_type, total = tallies.by_type, tallies.total
        outcomes, typed = tallies.outcomes, tallies.typed
        greedy = self.options.matching == "greedy"
        overall: dict[str, EvaluationResult] = {}
        entities: dict[str, dict[str, EvaluationResult]] = {tag: {} for tag in used}
        overall_indices: dict[str, EvaluationIndices] = {}
        entity_indices: dict[str, dict[str, EvaluationIndices]] = {tag: {} for tag in used}
        for strategy, mode in STRATEGIES.items():
            scores = mode_scores(mode, by_type[mode], used, total=total[mode])
            overall[strategy] = EvaluationResult.of(scores.overall)
            position = "kept" if greedy else "index"
            overall_indices[strategy] = _indices(outcomes[mode], gold, pred, position)
            for tag in used:
                row = scores.per_type.get(tag)
                entities[tag][strategy] = EvaluationResult.of(row) if row else EvaluationResult()
                tag_id = ids[tag]
                entity_indices[tag][strategy] = _indices(
                    typed[mode], gold, pred, "in_tag" if greedy else "index", tag_id
                )
        return {
            "overall": overall,
            "entities": entities,
            "overall_indices": overall_indices,
            "entity_indices": entity_indices,
        }

    def summary_report(self, mode: str = "overall", scenario: str = "strict", digits: int = 2) -> str:
        """Render nervaluate's text table: all strategies (``mode="overall"``) or one per tag."""
        rows = self._rows(mode, scenario)
        headers = ["correct", "incorrect", "partial", "missed", "spurious", "precision", "recall", "f1-score"]
        # nervaluate measures the header row too, whose first cell is "correct".
        width = max(max(len(str(r[0])) for r in [headers, *rows]), digits)
        head_fmt = "{:>{width}s} " + " {:>11}" * len(headers)
        report = f"Scenario: {scenario if mode == 'entities' else 'all'}\n\n"
        report += head_fmt.format("", *headers, width=width) + "\n\n"
        row_fmt = "{:>{width}s} " + " {:>11}" * 5 + " {:>11.{digits}f}" * 3 + "\n"
        for row in rows:
            report += row_fmt.format(*row, width=width, digits=digits)
        return report

    def results_to_csv(
        self, mode: str = "overall", scenario: str = "strict", file_path: str | None = None
    ) -> str | None:
        """Write nervaluate's CSV: one row per strategy, or per tag for one strategy."""
        results = self.evaluate()
        if mode not in ("overall", "entities"):
            raise ValueError("Invalid mode: must be one of {'overall', 'entities'}")
        if mode == "entities" and scenario not in STRATEGIES:
            raise ValueError("Invalid scenario: must be one of {'strict', 'ent_type', 'partial', 'exact'}")
        first = "Strategy" if mode == "overall" else "Entity"
        data: list[list[Any]] = [
            [
                first,
                "Correct",
                "Incorrect",
                "Partial",
                "Missed",
                "Spurious",
                "Precision",
                "Recall",
                "F1-Score",
            ]
        ]
        items = (
            results["overall"].items()
            if mode == "overall"
            else ((tag, r[scenario]) for tag, r in results["entities"].items())
        )
        for name, r in items:
            data.append(
                [name, r.correct, r.incorrect, r.partial, r.missed, r.spurious, r.precision, r.recall, r.f1]
            )
        if file_path:
            with open(file_path, "w", newline="", encoding="utf-8") as f:
                csv.writer(f).writerows(data)
            return None
        out = io.StringIO()
        csv.writer(out).writerows(data)
        return out.getvalue()

    def _rows(self, mode: str, scenario: str) -> list[list[Any]]:
        if mode not in ("overall", "entities"):
            raise ValueError("Invalid mode: must be one of {'overall', 'entities'}")
        if mode == "entities" and scenario not in STRATEGIES:
            raise ValueError("Invalid scenario: must be one of {'strict', 'ent_type', 'partial', 'exact'}")
        results = self.evaluate()
        if mode == "overall":
            named = [(s, results["overall"][s]) for s in sorted(STRATEGIES)]
        else:
            named = [(tag, results["entities"][tag][scenario]) for tag in sorted(results["entities"])]
        return [
            [name, r.correct, r.incorrect, r.partial, r.missed, r.spurious, r.precision, r.recall, r.f1]
            for name, r in named
        ]


def _from_tags_checked(data: Any) -> list[list[tuple[str, int, int]]]:
    if not isinstance(data, list):
        raise ValueError("ListLoader expects list input")
    return _from_tags(data)


def _indices(
    o: Outcomes, gold: _Loaded, pred: _Loaded, position: str, tag: int | None = None
) -> EvaluationIndices:
    """The outcomes' ``(document, position)`` lists, sorted, for all tags or for one tag id.

    Matched and spurious entries are positions of predictions, missed ones of gold entities.
    """
    g_side, p_side = gold.spans, pred.spans
    g_pos, p_pos = getattr(gold, position), getattr(pred, position)

    def pairs(doc: Int, pos: Int, mask: Int) -> list[tuple[int, int]]:
        return sorted(zip(doc[mask].tolist(), pos[mask].tolist(), strict=True))

    inc = ~o.cor & ~o.par
    g_ok = np.ones(g_side.doc.shape[0], dtype=np.bool_) if tag is None else g_side.label == tag
    p_ok = np.ones(p_side.doc.shape[0], dtype=np.bool_) if tag is None else p_side.label == tag
    md, mp = p_side.doc[o.pred], p_pos[o.pred]
    in_tag = g_ok[o.gold]  # pairs go by the gold entity's tag, as the gold-side counts do
    return EvaluationIndices(
        pairs(md, mp, o.cor & in_tag),
        pairs(md, mp, inc & in_tag),
        pairs(md, mp, o.par & in_tag),
        pairs(g_side.doc, g_pos, o.unmatched_gold & g_ok),
        pairs(p_side.doc, p_pos, o.unmatched_pred & p_ok),
    )
