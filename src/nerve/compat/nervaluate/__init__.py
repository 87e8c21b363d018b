"""A drop-in for nervaluate 1.2.1's `Evaluator`, with optimal one-to-one matching by default.

Replace ``from nervaluate import Evaluator`` with ``from nerve.compat.nervaluate import
Evaluator``: the arguments, the loaders (``"list"``, ``"conll"``, ``"dict"``, ``"default"``) and the
result of `Evaluator.evaluate` are nervaluate's::

    {"overall": {"strict"|"partial"|"ent_type"|"exact": EvaluationResult},
     "entities": {TAG: {strategy: EvaluationResult}},
     "overall_indices": {strategy: EvaluationIndices},
     "entity_indices": {TAG: {strategy: EvaluationIndices}}}

`summary_report` and `results_to_csv` print the same tables. What differs by default:

- **Matching is one optimal one-to-one assignment** per document (`nerve.matching`), the same for all
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
`EvaluationResult.compute_metrics` recomputes a row from its counts as nervaluate's does.

The modules are nervaluate's: `evaluator` (`Evaluator`, the path nervaluate's README imports),
`entities` (the result types) and `loaders`.
"""

from .entities import EvaluationIndices, EvaluationResult
from .evaluator import Evaluator

__all__ = ["EvaluationIndices", "EvaluationResult", "Evaluator"]
