"""The Hugging Face ``evaluate`` metric: seqeval's inputs and keys, scored by nerve, loaded offline.

``evaluate.load(metric_path())`` loads the metric script shipped in this package
(``evaluate_metric/nerve/nerve.py``), so nothing is downloaded. The script is a thin
``evaluate.Metric``; the work is `compute`, which needs neither evaluate nor datasets.

In: ``predictions`` and ``references``, one list of tags per sentence, and seqeval's options
``suffix``, ``scheme``, ``mode``, ``sample_weight`` and ``zero_division`` (what evaluate's
``seqeval`` metric takes). Out: evaluate's seqeval keys (``{TYPE: {"precision", "recall", "f1",
"number"}}``, ``overall_precision``, ``overall_recall``, ``overall_f1``, ``overall_accuracy``), with
seqeval 1.2.2's numbers (`nerve.compat.seqeval` decodes as each ``mode`` does), plus nerve's
``counts`` (tp, fp, fn, gold, predicted; overall and ``per_type``), ``signature`` and ``repairs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..api import score
from ..compat.seqeval.counts import EntityCounts, check_mode, decoding, flat_tags
from ..compat.seqeval.metrics.v1 import report_from_counts
from ..compat.seqeval.prf import check_options
from ..errors import InputError, OptionError
from ..results import Result

__all__ = ["CITATION", "DESCRIPTION", "NERVE_KEYS", "compute", "metric_path"]

#: The keys nerve adds to seqeval's.
NERVE_KEYS = ("counts", "signature", "repairs")

DESCRIPTION = (
    "Entity-level precision, recall and F1 of tagged sequences (IOB1, IOB2, IOE1, IOE2, IOBES, BILOU), "
    "with the inputs and keys of the seqeval metric, computed by nerve, plus nerve's counts, "
    "signature and repairs."
)
CITATION = "nerve: an evaluation toolkit for named-entity recognition (https://pypi.org/project/nerve/)"


def metric_path() -> str:
    """The directory of the metric script: ``evaluate.load(metric_path())`` works offline."""
    return str(Path(__file__).resolve().parent / "evaluate_metric" / "nerve")


def _counts(result: Result) -> EntityCounts:
    """The seqeval per-type rows (sorted names, types with a gold or predicted entity) from a result."""
    rows = sorted((n or "_", c.gold, c.predicted, c.tp) for n, c in result.exact.counts.items())
    rows = [r for r in rows if r[1] or r[2]]
    columns = [np.array([r[k] for r in rows], dtype=np.int64) for k in (1, 2, 3)]
    return EntityCounts([r[0] for r in rows], *columns)


def _nerve_counts(result: Result) -> dict[str, Any]:
    """The counts nerve adds: the micro totals, and ``per_type``."""
    keys = ("tp", "fp", "fn", "gold", "predicted")
    overall = result.exact.micro.to_dict()
    out: dict[str, Any] = {k: overall[k] for k in keys}
    out["per_type"] = {
        name: {k: s[k] for k in keys}
        for name, s in ((n, result.exact.per_type[n].to_dict()) for n in sorted(result.exact.per_type))
    }
    return out


def _seqeval_keys(counts: EntityCounts, zero_division: object) -> dict[str, Any]:
    """The keys of evaluate's seqeval (all but ``overall_accuracy``), by seqeval's arithmetic."""
    report = report_from_counts(counts, 2, True, zero_division)
    overall = report.pop("micro avg")
    report.pop("macro avg")
    report.pop("weighted avg")
    out: dict[str, Any] = {
        name: {
            "precision": float(s["precision"]),
            "recall": float(s["recall"]),
            "f1": float(s["f1-score"]),
            "number": int(s["support"]),
        }
        for name, s in report.items()
    }
    out["overall_precision"] = float(overall["precision"])
    out["overall_recall"] = float(overall["recall"])
    out["overall_f1"] = float(overall["f1-score"])
    return out


def compute(
    predictions: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    *,
    suffix: bool = False,
    scheme: str | None = None,
    mode: str | None = None,
    sample_weight: Sequence[float] | None = None,
    zero_division: str | int = "warn",
) -> dict[str, Any]:
    """Score ``predictions`` against ``references`` as evaluate's ``seqeval`` metric does, with nerve.

    ``mode=None`` decodes conlleval-like (nerve's ``repair="begin"``), ``mode="strict"`` drops the
    entities ``scheme`` (or the scheme seqeval detects) does not allow (``repair="discard"``);
    ``suffix`` reads ``PER-B`` tags; ``zero_division`` (``"warn"``, 0 or 1) is the score of a zero
    denominator. ``sample_weight`` is refused: seqeval 1.2.2 takes it and never uses it.

    With ``mode=None`` and no ``scheme``, tags of the letters B, I and O are decoded in the scheme
    nerve infers (IOB2 or IOB1), so the signature names it and ``repairs`` counts the ill-formed
    entities only (an ``I-X`` that begins one); tags with E or S among those letters are decoded
    as IOBES (seqeval's default mode knows those letters). The counts are seqeval's either way.

    >>> out = compute([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]])
    >>> out["overall_f1"], out["PER"].get("number"), out["counts"].get("tp")
    (1.0, 1, 1)

    Raises:
        OptionError: a ``mode``, ``scheme`` or ``zero_division`` seqeval does not have, or a
            ``sample_weight``.
        InputError: sentences of different lengths, tags nerve cannot read, or a type named as
            a key of the result (``counts``, ``overall_f1``...).
    """
    if sample_weight is not None:
        detail = "is not supported: seqeval 1.2.2 (behind evaluate's seqeval) accepts it and never uses it"
        raise OptionError("sample_weight", detail)
    check_options(None, zero_division)
    strict = check_mode(mode)
    flat_tags(references, predictions)  # the lengths must agree, sentence by sentence
    named, repair = decoding(references, predictions, strict=strict, scheme=scheme, suffix=suffix)
    result = score(
        references, predictions, scheme=named, repair=repair, tag_format="X-B" if suffix else "B-X"
    )
    counts = _counts(result)
    clash = sorted(
        set(counts.names) & set(NERVE_KEYS) | {n for n in counts.names if n.startswith("overall_")}
    )
    if clash:
        detail = f"has the entity type {clash[0]!r}, which is also the name of a key of the result"
        raise InputError("<references>", None, detail)
    out = _seqeval_keys(counts, zero_division)
    out["overall_accuracy"] = result.tokens.accuracy
    out["counts"] = _nerve_counts(result)
    out["signature"] = result.signature
    out["repairs"] = result.repairs.to_dict()
    return out
