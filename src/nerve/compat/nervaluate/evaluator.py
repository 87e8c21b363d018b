"""nervaluate 1.2.1's `Evaluator`, scored with nerve's matching (see `nerve.compat.nervaluate`)."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError, OptionError
from ...metrics.muc import MucOptions, Outcomes, count_all, mode_scores
from .entities import EvaluationIndices, EvaluationResult
from .loaders import LOADERS, Loaded, infer_loader, load

if TYPE_CHECKING:
    from ...model.arrays import Int

__all__ = ["STRATEGIES", "EvaluationIndices", "EvaluationResult", "Evaluator"]

#: nervaluate's strategy names for nerve's modes, in nervaluate's order.
STRATEGIES = {"strict": "strict", "partial": "partial", "ent_type": "type", "exact": "exact"}


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
            raise OptionError("min_overlap_percentage", "must be between 1.0 and 100.0")
        self.tags = tags
        self.min_overlap_percentage = min_overlap_percentage
        self.options = MucOptions(min_gold_share=min_overlap_percentage / 100.0, matching=matching)
        if loader == "default":
            loader = infer_loader(true)
        if loader == "list":
            if len(true) != len(pred):
                raise InputError("pred", None, "Number of predicted documents does not equal true")
            for i, (t, p) in enumerate(zip(true, pred, strict=True)):
                if len(t) != len(p):
                    raise InputError(
                        "pred", None, f"Document {i} has different lengths: true={len(t)}, pred={len(p)}"
                    )
        if loader not in LOADERS:
            raise OptionError("loader", f"Unknown loader: {loader}")
        self.true = LOADERS[loader](true)
        self.pred = LOADERS[loader](pred)
        if len(self.true) != len(self.pred):
            raise InputError("pred", None, "Number of predicted documents does not equal true")

    def evaluate(self) -> dict[str, Any]:
        """Counts and scores per strategy, overall and per tag, and the indices of each outcome."""
        wanted = set(self.tags)
        used = sorted({e[0] for docs in (self.true, self.pred) for doc in docs for e in doc} & wanted)
        ids = {tag: i for i, tag in enumerate(used)}
        gold, pred = load(self.true, ids), load(self.pred, ids)
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
            overall_indices[strategy] = indices(outcomes[mode], gold, pred, position)
            for tag in used:
                row = scores.per_type.get(tag)
                entities[tag][strategy] = EvaluationResult.of(row) if row else EvaluationResult()
                tag_id = ids[tag]
                entity_indices[tag][strategy] = indices(
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
            raise OptionError("mode", "Invalid mode: must be one of {'overall', 'entities'}")
        if mode == "entities" and scenario not in STRATEGIES:
            raise OptionError(
                "scenario", "Invalid scenario: must be one of {'strict', 'ent_type', 'partial', 'exact'}"
            )
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
            raise OptionError("mode", "Invalid mode: must be one of {'overall', 'entities'}")
        if mode == "entities" and scenario not in STRATEGIES:
            raise OptionError(
                "scenario", "Invalid scenario: must be one of {'strict', 'ent_type', 'partial', 'exact'}"
            )
        results = self.evaluate()
        if mode == "overall":
            named = [(s, results["overall"][s]) for s in sorted(STRATEGIES)]
        else:
            named = [(tag, results["entities"][tag][scenario]) for tag in sorted(results["entities"])]
        return [
            [name, r.correct, r.incorrect, r.partial, r.missed, r.spurious, r.precision, r.recall, r.f1]
            for name, r in named
        ]


def indices(
    o: Outcomes, gold: Loaded, pred: Loaded, position: str, tag: int | None = None
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
