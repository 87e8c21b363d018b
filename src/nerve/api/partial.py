"""Scoring in parts: each file (or list of documents) counted apart, the counts added, finished once.

In: the options of `nerve.score` for tagged input (`plan`), then the parts, one at a time and in any
process: files, gold and prediction pairs, or documents of tag lists. Out: one `ExactAccumulator`
per part (additive counts, picklable), and from all of them, in order, the `Result` that
`nerve.score` gives reading the same files one after another as one corpus, each file starting a
document (as it reads a directory), signature included. `nerve.integrations.dask` maps the parts
onto workers.

One scheme for all parts: with ``auto`` it is inferred at the end from every part's transitions
together (the accumulators keep them), as for one corpus, never part by part. The ``discard`` and
``error`` policies need it while decoding: then a first pass counts each part's transitions
(`transitions`) and `with_scheme` infers it from all of them before the parts are counted.
``conlleval``'s rules carry state from one sentence to the next and are refused.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from .. import options
from ..errors import InputError, NerveError, OptionError
from ..metrics.exact import ExactAccumulator, infer_from
from ..plan import ANALYSIS, Plan, refuse
from ..results import Result
from .compiled import compiled_counts
from .pipeline import count_inputs, result_of
from .planned import plan_of
from .sources import Input, Tags

__all__ = ["Plan", "count_documents", "count_files", "finish", "plan", "transitions", "with_scheme"]


#: The options of `nerve.score` that scoring in parts does not take: it counts tags read from files.
NOT_IN_PARTS: tuple[str, ...] = (*ANALYSIS, "bootstrap", "seed", "confidence", "unit", "input_format")
NOT_IN_PARTS += ("offsets", "column", "pattern", "reader", "flatten", "lenient", "workers", "progress")


def plan(**keywords: Any) -> Plan:
    """Check `nerve.score`'s options of tagged input once, as `nerve.score` does, into a `Plan`."""
    refuse(keywords, "plan", NOT_IN_PARTS)
    if keywords.get("repair") == "conlleval":
        detail = "conlleval's rules carry state from one sentence to the next, so its counts cannot be "
        raise OptionError(options.flag("repair"), detail + "split into parts: use begin, discard or error")
    return plan_of(**keywords)


def _count(p: Plan, inputs: list[Input]) -> ExactAccumulator:
    if p.tagging.needs_scheme:
        raise ValueError("the scheme must be inferred from every part first: call with_scheme")
    return compiled_counts(inputs, p) or count_inputs(inputs[0], inputs[1:], None, p)


def _inputs(p: Plan, files: Sequence[tuple[str, str | None]]) -> list[Input]:
    r = p.reading
    return [Input(g, q, r.comments, r.encoding, r.check_tokens, delimiter=r.delimiter) for g, q in files]


def count_files(p: Plan, files: Sequence[tuple[str, str | None]]) -> ExactAccumulator:
    """The counts of files read one after another: ``(merged file, None)`` or ``(gold, prediction)``."""
    return _count(p, _inputs(p, files))


def count_documents(p: Plan, documents: Iterable[tuple[Tags, Tags]]) -> ExactAccumulator | None:
    """The counts of documents, each ``(gold sentences, predicted sentences)`` of tag lists (``None``: none).

    Each document is counted as one, as each file of a directory is.
    """
    check = p.reading.check_tokens
    inputs = [Input(_sentences(g), _sentences(q), False, "utf-8", check) for g, q in documents]
    return _count(p, inputs) if inputs else None


def _sentences(side: Tags) -> list[list[str]]:
    """A document's side as lists (a frame's cells may be arrays); a string is refused, not read as a path."""
    if isinstance(side, (str, bytes, os.PathLike)):
        found = repr(side)[:60]
        detail = f"expected a document's sentences as lists of tags, got a string {found}"
        raise InputError("<documents>", None, detail + " (a dataframe column of lists turned into strings?)")
    return [list(sentence) for sentence in side]


def transitions(p: Plan, files: Sequence[tuple[str, str | None]]) -> ExactAccumulator:
    """The first pass of `with_scheme`: the files' tag transitions (counted under ``begin``)."""
    tagging = replace(p.tagging, policy="begin", scheme=None, pred_scheme="same")
    first = replace(p, tagging=tagging, metrics=replace(p.metrics, overlap=None), labels=None)
    return _count(first, _inputs(p, files))


def with_scheme(p: Plan, parts: Iterable[ExactAccumulator | None]) -> Plan:
    """The plan with the scheme inferred from every part's transitions together (`transitions`)."""
    total = _total(parts)
    scheme = infer_from(total.vocab, [total.gold_table, total.pred_table])
    return replace(p, tagging=replace(p.tagging, scheme=scheme))


def _total(parts: Iterable[ExactAccumulator | None]) -> ExactAccumulator:
    counted = [a for a in parts if a is not None]
    if not counted:
        raise NerveError("nothing to score: no file and no document was given")
    total = counted[0]
    for other in counted[1:]:
        total.absorb(other)
    return total


def finish(p: Plan, parts: Iterable[ExactAccumulator | None]) -> Result:
    """The `Result` of the parts' counts added up in order (they are modified)."""
    return result_of(_total(parts), p)
