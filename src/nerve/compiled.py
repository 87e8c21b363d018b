"""Which engine counts a run, decided in one place, and the compiled engine's road to a `Result`.

In: the input (a file name or a byte stream) and the `Plan` of a run. Out: `route`, the compiled
reader that counts it, or ``None`` where the numpy engine does (`nerve.api.scored`); and `count`,
the run's `Result` counted by that reader, or ``None`` to hand the run over to numpy. Nothing on
this road imports numpy: the plan, the sniffing of the file's head, the compiled reader, the
totals (`nerve.model.counts.ExactTotals`), `Result.of` and the renderers do without it, so a plain
``nerve score file.conll`` on the compiled engine never loads it.

The compiled reader is the ``accelerated`` field of the ``conll`` format's record
(`nerve.io.formats.conll`). It is called ``reader(gold, pred, plan)`` and returns ``(totals,
vocab, notes)``: the `ExactTotals` numpy's reader would end with, the `TagVocab` of the tags read
(its tag format and outside tag) and the reading notes; or ``None`` when it meets anything it does
not handle, and the numpy engine then reads the whole input, giving its result or its error.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from ._engine import speedups
from .io import formats
from .io.progress import file_bytes, reporting
from .results import Result

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from typing import Any

    from .model.counts import ExactTotals
    from .model.vocab import TagVocab
    from .plan import Plan

__all__ = ["Counted", "Reader", "count", "route"]

Notes = Mapping[str, Mapping[str, int]]
#: What the compiled reader ends with: the totals, the vocabulary of the tags read, the notes.
Counted = tuple["ExactTotals", "TagVocab", Notes]
#: The compiled reader: gold, prediction (or ``None``) and the plan in; `Counted`, or ``None`` to hand over.
Reader = Callable[["Any", "Any", "Plan"], "Counted | None"]


def route(gold: object, pred: object, plan: Plan) -> Reader | None:
    """The compiled reader that counts this run, or ``None``: the numpy engine counts it.

    The one place the engine is chosen. The compiled one counts a run when it is built and not
    turned off (``NERVE_NO_SPEEDUPS=1``), the ``conll`` record has a compiled reader, the run
    asks for exact scores alone (no MUC, analysis or bootstrap, no option of span files or
    datasets), and its input is a CoNLL file or stream: a file named, sniffed as ``conll``
    (or ``--format conll``), or a byte stream such as stdin; a prediction file likewise. Every
    other run (directories included) is numpy's. The reader may still hand a run over.
    """
    reader = formats.format_named("conll").accelerated
    if reader is None or speedups() is None or not _exact_only(plan):
        return None
    if not all(_conll(side, plan.reading.input_format) for side in (gold, pred) if side is not None):
        return None
    return reader


def _exact_only(plan: Plan) -> bool:
    """Whether ``plan`` asks for exact scores of tags alone: what the compiled reader counts."""
    r = plan.reading
    spans = (r.offsets, r.column, r.flatten, r.pattern) != (None, None, None, None) or r.lenient
    spans = spans or (r.gold_format, r.pred_format) != (None, None) or bool(r.outputs.given())  # each side's
    reader = r.reader.given("spans_key", "tag_column", "label_names", "subwords") is not None
    analysed = plan.analysing.asked or plan.statistics is not None
    return not (spans or reader or analysed or plan.metrics.overlap is not None or plan.metrics.sweep)


def _conll(side: object, named: str | None) -> bool:
    """Whether ``side`` is read as CoNLL: a stream, or a file (no dataset) that sniffs so."""
    if named not in (None, "conll"):
        return False
    if not isinstance(side, str | os.PathLike):
        return hasattr(side, "read") and not isinstance(side, list | tuple)
    path = os.fspath(side)
    if not os.path.isfile(path) or path.endswith((".parquet", ".arrow")):
        return False  # a directory or a missing file: numpy's reader pairs them or names the error
    return named == "conll" or formats.sniff(path) == "conll"


def count(gold: object, pred: object, plan: Plan) -> Result | None:
    """The result of the run on the compiled engine, or ``None``: numpy counts it.

    CoNLL input goes to the reader `route` picks; span files to `nerve.compiled_spans.count_spans`.
    """
    reader = route(gold, pred, plan)
    if reader is None:
        if speedups() is None:
            return None
        from .compiled_spans import count_spans  # span files: their own compiled road, or None

        return count_spans(gold, pred, plan)
    progress = plan.output.progress
    with reporting(progress, file_bytes((gold, pred)) if progress else 0):
        counted = reader(gold, pred, plan)
    if counted is None:
        return None
    totals, vocab, notes = counted
    return Result.of(plan, totals, vocab, notes=notes)
