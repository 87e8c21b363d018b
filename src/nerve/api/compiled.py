"""The compiled engine for what `nerve.compiled.route` leaves to the numpy road: directories, streams, parts.

In: the `Input`s of `nerve.api.pipeline.score_input` (the pairs of a directory, or a stream's bytes,
kept) or of `nerve.api.partial` (a part, on a Dask worker), and the plan. Out: the `Result`, or the
`ExactAccumulator` of a part, counted by the C core (`nerve.io.tags.conll_counted`); or ``None``:
the numpy engine counts them. Which runs and inputs the C core leaves to numpy is said there and in
`nerve.io.tags.conll_c`; scoring in parts also leaves ``conlleval`` to it, whose state the
accumulator cannot take.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import NerveError
from ..io.tags.conll_c import File
from ..io.tags.conll_counted import applies, count_file_pairs
from ..metrics.exact import ExactAccumulator
from ..model.vocab import TagVocab
from ..plan import Plan
from ..results import Result
from .sources import Input

__all__ = ["compiled_counts", "compiled_result"]


def _files(inputs: Sequence[Input]) -> list[tuple[File, File | None]] | None:
    files = [each.files() for each in inputs]
    return None if not files or any(f is None for f in files) else [f for f in files if f is not None]


def compiled_result(inputs: Sequence[Input], plan: Plan) -> Result | None:
    """The result of ``inputs`` under ``plan`` counted by the compiled engine, or ``None`` (numpy's turn)."""
    files = _files(inputs)
    found = count_file_pairs(files, plan) if files is not None else None
    if found is None:
        return None
    totals, vocab, notes = found
    return Result.of(plan, totals, vocab, notes=notes)


def compiled_counts(inputs: Sequence[Input], plan: Plan) -> ExactAccumulator | None:
    """`nerve.api.pipeline.count_inputs`'s accumulator, filled by the C engine (a part, on a Dask worker).

    ``None`` where the numpy engine must count (as for `compiled_result`, and for ``conlleval``,
    whose state the accumulator cannot take, and ``error`` with an invalid transition).
    """
    import numpy as np

    from ..io.tags.conll_counted import column_totals

    t = plan.tagging
    files = _files(inputs)
    if files is None or not applies(plan) or t.policy == "conlleval":
        return None
    try:
        totals = column_totals(files, plan)
        if totals is None:
            return None
        vocab = TagVocab(t.fmt, t.scheme, t.outside)
        if vocab.add(totals.tags).tolist() != list(range(len(totals.tags))):
            return None  # not the ids the core counted with
    except NerveError:
        return None
    acc = ExactAccumulator(vocab, t.policy, t.scheme, inputs[0].sources)
    gold_tr, pred_tr = (
        np.asarray(c + u, dtype=np.int64) for c, u in zip(totals.codes, totals.used, strict=True)
    )
    gold, pred, matched = (np.asarray(a, dtype=np.int64) for a in (totals.gold, totals.pred, totals.matched))
    acc.add_counts(gold_tr, pred_tr, gold, pred, matched, totals.tokens, totals.correct, totals.sentences)
    acc.documents += totals.documents
    return acc
