"""seqeval's ``metrics.v1``: scores in a named scheme, strictly (seqeval's ``mode="strict"``).

In: gold and predicted tag lists and a scheme (a class of `nerve.compat.seqeval.scheme`, seqeval's
own, or a name; without one, the scheme seqeval's ``auto_detect`` finds in the gold tags). Out:
seqeval's results. Entities are decoded by `nerve.score` with ``repair="discard"``, which drops
every entity that starts or ends in a way the scheme forbids, as seqeval's strict mode does.
`report_from_counts` builds both modes' reports.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ....errors import OptionError
from ..counts import EntityCounts, check_mode, entity_counts
from ..prf import UndefinedMetricWarning, check_options, precision_recall_fscore, warn_sample_weight
from ..reporters import DictReporter, StringReporter

__all__ = [
    "UndefinedMetricWarning",
    "checked_counts",
    "classification_report",
    "precision_recall_fscore_support",
    "report_from_counts",
]

Tags = Sequence[Sequence[str]]
AVERAGE_ROWS = ("micro", "macro", "weighted")


def precision_recall_fscore_support(
    y_true: Tags,
    y_pred: Tags,
    *,
    average: str | None = None,
    warn_for: Collection[str] = ("precision", "recall", "f-score"),
    beta: float = 1.0,
    sample_weight: object = None,
    zero_division: object = "warn",
    scheme: object = None,
    suffix: bool = False,
    **kwargs: Any,
) -> tuple[Any, Any, Any, Any]:
    """Precision, recall, F-beta and gold support per type (``average=None``) or averaged, strictly.

    ``average`` is None, ``"micro"``, ``"macro"`` or ``"weighted"``; ``zero_division`` is
    ``"warn"`` (0 and an `UndefinedMetricWarning`), 0 or 1. ``kwargs`` (seqeval's cached
    entities) are accepted and not needed.

    >>> from nerve.compat.seqeval.scheme import IOB2
    >>> y_true = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    >>> [float(x) for x in precision_recall_fscore_support(y_true, y_pred, average="macro", scheme=IOB2)]
    [0.5, 0.5, 0.5, 2.0]
    """
    counts = checked_counts(
        y_true, y_pred, None, True, scheme, suffix, average, zero_division, sample_weight, beta
    )
    return precision_recall_fscore(
        counts, average=average, warn_for=warn_for, beta=beta, zero_division=zero_division
    )


def checked_counts(
    y_true: Tags,
    y_pred: Tags,
    mode: str | None,
    strict: bool,
    scheme: object,
    suffix: bool,
    average: str | None,
    zero_division: object,
    sample_weight: object,
    beta: float = 1.0,
) -> EntityCounts:
    """The entities counted, strictly or in ``mode``, once seqeval's options are checked.

    ``average``, ``zero_division`` and ``beta`` are checked first, then ``mode`` (unless
    ``strict``); ``sample_weight`` is warned about.
    """
    check_options(average, zero_division, beta)
    strict = strict or check_mode(mode)
    warn_sample_weight(sample_weight)
    return entity_counts(y_true, y_pred, strict=strict, scheme=scheme, suffix=suffix)


def report_from_counts(counts: EntityCounts, digits: int, output_dict: bool, zero_division: object) -> Any:
    """The report of ``counts``: a row per type, then the micro, macro and weighted averages.

    Raises:
        OptionError: ``digits`` that is not a whole number >= 0.
    """
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 0:
        raise OptionError("digits", f"expected a whole number >= 0, but got {digits!r}")
    if output_dict:
        reporter: DictReporter | StringReporter = DictReporter()
    else:
        width = max(max(map(len, counts.names), default=0), len("weighted avg"), digits)
        reporter = StringReporter(width=width, digits=digits)
    p, r, f1, s = precision_recall_fscore(counts, average=None, zero_division=zero_division)
    for row in zip(counts.names, p, r, f1, s, strict=True):
        reporter.write(*row)
    reporter.write_blank()
    for average in AVERAGE_ROWS:
        scores = precision_recall_fscore(counts, average=average, zero_division=zero_division)
        reporter.write(f"{average} avg", *scores)
    reporter.write_blank()
    return reporter.report()


def classification_report(
    y_true: Tags,
    y_pred: Tags,
    *,
    sample_weight: object = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: object = "warn",
    suffix: bool = False,
    scheme: object = None,
) -> Any:
    """The text report of the strict scores (a dictionary with ``output_dict=True``).

    Without ``scheme`` it is the one seqeval's ``auto_detect`` finds in ``y_true``.

    >>> from nerve.compat.seqeval.scheme import IOB2
    >>> y_true, y_pred = [["B-NP", "I-NP", "O"]], [["I-NP", "I-NP", "O"]]
    >>> print(classification_report(y_true, y_pred, scheme=IOB2, zero_division=0))
                  precision    recall  f1-score   support
    <BLANKLINE>
              NP       0.00      0.00      0.00         1
    <BLANKLINE>
       micro avg       0.00      0.00      0.00         1
       macro avg       0.00      0.00      0.00         1
    weighted avg       0.00      0.00      0.00         1
    <BLANKLINE>
    """
    counts = checked_counts(y_true, y_pred, None, True, scheme, suffix, None, zero_division, sample_weight)
    return report_from_counts(counts, digits, output_dict, zero_division)
