"""seqeval's ``metrics`` package: the functions ``from seqeval.metrics import ...`` gives.

In: tag lists and seqeval's arguments. Out: seqeval's results (`sequence_labeling` has them all;
`v1` the strict-mode ``precision_recall_fscore_support`` and ``classification_report``).
"""

from .sequence_labeling import (
    accuracy_score,
    classification_report,
    f1_score,
    performance_measure,
    precision_score,
    recall_score,
)

__all__ = [
    "accuracy_score",
    "classification_report",
    "f1_score",
    "performance_measure",
    "precision_score",
    "recall_score",
]
