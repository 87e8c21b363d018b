"""The ``nerve`` metric for Hugging Face ``evaluate``: ``evaluate.load(metric_path())``, offline.

In: ``predictions`` and ``references``, one list of tags per sentence, and the options of evaluate's
``seqeval`` metric (``suffix``, ``scheme``, ``mode``, ``sample_weight``, ``zero_division``). Out:
seqeval's keys with seqeval's numbers, plus nerve's ``counts``, ``signature`` and ``repairs``; see
`nerve.integrations.hf_evaluate.compute`, which does the work.
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

from nerve.integrations.hf_evaluate import CITATION, DESCRIPTION, compute

_INPUTS = """
Args:
    predictions: the predicted tags, a list of tags per sentence.
    references: the gold tags, as many lists of as many tags.
    suffix: tags name the type first (``PER-B``).
    scheme: ``IOB1``, ``IOB2``, ``IOE1``, ``IOE2``, ``IOBES`` or ``BILOU`` (with ``mode="strict"``).
    mode: None (conlleval-like) or ``"strict"``.
    sample_weight: refused (seqeval 1.2.2 never uses it).
    zero_division: ``"warn"``, 0 or 1: the score of a zero denominator.
Returns:
    ``{TYPE: {"precision", "recall", "f1", "number"}}``, ``overall_precision``, ``overall_recall``,
    ``overall_f1``, ``overall_accuracy``, and nerve's ``counts``, ``signature`` and ``repairs``.
"""


class Nerve(evaluate.Metric):  # type: ignore[misc]  # evaluate has no type hints
    """Entity scores with seqeval's inputs and keys, computed by nerve."""

    def _info(self) -> Any:
        tags = datasets.Sequence(datasets.Value("string", id="label"), id="sequence")
        return evaluate.MetricInfo(
            description=DESCRIPTION,
            citation=CITATION,
            inputs_description=_INPUTS,
            features=datasets.Features({"predictions": tags, "references": tags}),
            homepage="https://pypi.org/project/nerve/",
        )

    def _compute(self, predictions: Any, references: Any, **options: Any) -> dict[str, Any]:
        return compute(predictions, references, **options)
