"""seqeval's ``metrics.sequence_labeling``: the scores, the report, the token metrics, ``get_entities``.

In: gold and predicted tags, one list per sentence, and seqeval's keyword arguments. Out: seqeval
1.2.2's results, in its types (numpy scalars and arrays, a string or a dictionary). The entity
counts come from `nerve.score` (`nerve.compat.seqeval.counts` says how each mode decodes), the
scores from them with seqeval's arithmetic (`nerve.compat.seqeval.prf`).
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Sequence
from typing import Any

from ..counts import decode_flat, flat_tags
from ..prf import precision_recall_fscore
from .v1 import checked_counts, report_from_counts

__all__ = [
    "accuracy_score",
    "classification_report",
    "f1_score",
    "get_entities",
    "performance_measure",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
]

Tags = Sequence[Sequence[str]]
STRICT_WITHOUT_SCHEME = (
    "mode='strict' is ignored without scheme=, as seqeval's f1_score, precision_score and "
    "recall_score ignore it: these are the default (conlleval-like) mode's scores; pass scheme= "
    "(IOB2, for instance) for strict scores"
)


def precision_recall_fscore_support(
    y_true: Tags,
    y_pred: Tags,
    *,
    average: str | None = None,
    warn_for: Collection[str] = ("precision", "recall", "f-score"),
    beta: float = 1.0,
    sample_weight: object = None,
    zero_division: object = "warn",
    suffix: bool = False,
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and gold support per type or averaged, in seqeval's default mode.

    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> p, r, f, s = precision_recall_fscore_support(y_true, y_pred, average=None)
    >>> p.tolist(), s.tolist()
    ([0.0, 1.0], [1, 1])
    """
    return _scores(y_true, y_pred, average, None, None, suffix, zero_division, sample_weight, warn_for, beta)


def _scores(
    y_true: Tags,
    y_pred: Tags,
    average: str | None,
    mode: str | None,
    scheme: object,
    suffix: bool,
    zero_division: object,
    sample_weight: object,
    warn_for: Collection[str],
    beta: float = 1.0,
) -> tuple[Any, Any, Any, Any]:
    if mode == "strict" and not scheme:
        warnings.warn(STRICT_WITHOUT_SCHEME, UserWarning, stacklevel=3)
        mode = None
    counts = checked_counts(
        y_true, y_pred, mode, False, scheme, suffix, average, zero_division, sample_weight, beta
    )
    return precision_recall_fscore(
        counts, average=average, warn_for=warn_for, beta=beta, zero_division=zero_division
    )


def f1_score(
    y_true: Tags,
    y_pred: Tags,
    *,
    average: str | None = "micro",
    suffix: bool = False,
    mode: str | None = None,
    sample_weight: object = None,
    zero_division: object = "warn",
    scheme: object = None,
) -> Any:
    """The F1 score of the entities: micro-averaged, or ``average`` None (per type), macro, weighted.

    ``mode="strict"`` with a ``scheme`` decodes in that scheme and drops ill-formed entities; the
    default is seqeval's conlleval-like mode. ``mode="strict"`` without ``scheme`` gives the default
    mode's score with a ``UserWarning``, as seqeval's ``*_score`` functions silently do.

    >>> y_true = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "O", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> float(f1_score(y_true, y_pred)), float(f1_score(y_true, y_pred, average="macro"))
    (0.6666666666666666, 0.75)
    >>> f1_score(y_true, y_pred, average=None).tolist()
    [0.5, 1.0]
    """
    scores = _scores(
        y_true, y_pred, average, mode, scheme, suffix, zero_division, sample_weight, ("f-score",)
    )
    return scores[2]


def precision_score(
    y_true: Tags,
    y_pred: Tags,
    *,
    average: str | None = "micro",
    suffix: bool = False,
    mode: str | None = None,
    sample_weight: object = None,
    zero_division: object = "warn",
    scheme: object = None,
) -> Any:
    """The precision of the entities (correct / predicted), with `f1_score`'s arguments."""
    scores = _scores(
        y_true, y_pred, average, mode, scheme, suffix, zero_division, sample_weight, ("precision",)
    )
    return scores[0]


def recall_score(
    y_true: Tags,
    y_pred: Tags,
    *,
    average: str | None = "micro",
    suffix: bool = False,
    mode: str | None = None,
    sample_weight: object = None,
    zero_division: object = "warn",
    scheme: object = None,
) -> Any:
    """The recall of the entities (correct / gold), with `f1_score`'s arguments."""
    scores = _scores(y_true, y_pred, average, mode, scheme, suffix, zero_division, sample_weight, ("recall",))
    return scores[1]


def accuracy_score(y_true: Sequence[Any], y_pred: Sequence[Any]) -> float:
    """The share of tokens whose predicted tag equals the gold tag (0.0 for no tokens).

    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> accuracy_score(y_true, y_pred)
    0.8
    """
    true, pred = flat_tags(y_true, y_pred)
    return int((true == pred).sum()) / len(true) if len(true) else 0.0


def performance_measure(y_true: Sequence[Any], y_pred: Sequence[Any]) -> dict[str, int]:
    """Token counts as seqeval gives them: TP, FP, FN and TN over tags, ``O`` being the negative tag.

    TP: equal tags, not both ``O``; FP: a predicted tag other than ``O`` that differs from the
    gold one; FN: a gold tag other than ``O`` predicted ``O``; TN: both ``O``.

    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "O", "B-ORG"], ["B-PER", "I-PER", "O", "B-PER"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "O"], ["B-PER", "I-PER", "O", "B-MISC"]]
    >>> performance_measure(y_true, y_pred)
    {'TP': 3, 'FP': 3, 'FN': 1, 'TN': 4}
    """
    true, pred = flat_tags(y_true, y_pred)
    same, true_o, pred_o = true == pred, true == "O", pred == "O"
    return {
        "TP": int((same & ~(true_o & pred_o)).sum()),
        "FP": int((~same & ~pred_o).sum()),
        "FN": int((~true_o & pred_o).sum()),
        "TN": int((true_o & pred_o).sum()),
    }


def get_entities(seq: Sequence[Any], suffix: bool = False) -> list[tuple[str, int, int]]:
    """The entities of ``seq`` (a list of tags, or of sentences) as ``(type, start, end)``.

    ``end`` is inclusive; a list of sentences is numbered as if flattened with an ``O`` after each
    sentence, as seqeval does. The type of a bare ``B`` or ``I`` is ``_``.

    >>> get_entities(["B-PER", "I-PER", "O", "B-LOC"])
    [('PER', 0, 1), ('LOC', 3, 3)]
    """
    return decode_flat(seq, suffix)


def classification_report(
    y_true: Tags,
    y_pred: Tags,
    digits: int = 2,
    suffix: bool = False,
    output_dict: bool = False,
    mode: str | None = None,
    sample_weight: object = None,
    zero_division: object = "warn",
    scheme: object = None,
) -> Any:
    """The text report: precision, recall, F1 and gold support per type, then three averages.

    With ``output_dict=True``, ``{TYPE | "micro avg" | "macro avg" | "weighted avg": {"precision",
    "recall", "f1-score", "support"}}`` with numpy values. The entities are decoded once.

    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> print(classification_report(y_true, y_pred))
                  precision    recall  f1-score   support
    <BLANKLINE>
            MISC       0.00      0.00      0.00         1
             PER       1.00      1.00      1.00         1
    <BLANKLINE>
       micro avg       0.50      0.50      0.50         2
       macro avg       0.50      0.50      0.50         2
    weighted avg       0.50      0.50      0.50         2
    <BLANKLINE>
    """
    counts = checked_counts(y_true, y_pred, mode, False, scheme, suffix, None, zero_division, sample_weight)
    return report_from_counts(counts, digits, output_dict, zero_division)
