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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .. import options
from ..errors import InputError, NerveError, OptionError
from ..io.label_maps import label_map as read_label_map
from ..metrics.exact import ExactAccumulator, infer_from
from ..metrics.muc import MucOptions
from ..model.labels import LabelMap
from ..model.schemes import Scheme, TagFormat
from ..results import Result
from .pipeline import count_inputs, muc_options, result_of, scheme_pair
from .sources import Input, Tags

__all__ = ["Plan", "count_documents", "count_files", "finish", "plan", "transitions", "with_scheme"]


@dataclass(frozen=True)
class Plan:
    """The checked settings every part is counted with (sent to each worker)."""

    policy: str
    scheme: Scheme | None
    pred_scheme: Scheme | str | None
    fmt: TagFormat | None
    outside: str
    beta: float
    overlap: MucOptions | None
    labels: LabelMap | None
    comments: bool
    encoding: str
    check_tokens: bool
    delimiter: str | None
    inferred: bool  # the gold scheme was "auto" (still so once `with_scheme` fixed it)
    pred_inferred: bool

    @property
    def needs_scheme(self) -> bool:
        """Whether the scheme must be inferred from all parts before they are counted."""
        return self.scheme is None and self.policy in ("discard", "error") and self.pred_scheme == "same"


def plan(
    *,
    scheme: str = "auto",
    repair: str = "begin",
    tag_format: str | TagFormat | None = None,
    outside: str = "O",
    beta: float = 1.0,
    comments: bool = False,
    encoding: str = "utf-8",
    check_tokens: bool = True,
    metrics: str | Sequence[str] = ("exact",),
    min_iou: float | None = None,
    min_gold_share: float | None = None,
    document_average: bool = False,
    matching: str = "optimal",
    delimiter: str | None = None,
    label_map: str | os.PathLike[str] | Mapping[str, str] | None = None,
    types: str | Sequence[str] | None = None,
    ignore_types: str | Sequence[str] | None = None,
    gold_scheme: str | None = None,
    pred_scheme: str | None = None,
) -> Plan:
    """Check `nerve.score`'s options of tagged input once, as `nerve.score` does, into a `Plan`."""
    labels = read_label_map(label_map, types, ignore_types)
    policy = options.repair(repair)
    if policy == "conlleval":
        detail = "conlleval's rules carry state from one sentence to the next, so its counts cannot be "
        raise OptionError(options.flag("repair"), detail + "split into parts: use begin, discard or error")
    overlap = muc_options(metrics, policy, min_iou, min_gold_share, document_average, matching)
    beta = options.beta(beta)
    options.encoding(encoding)
    fmt, fixed = options.tag_format(tag_format, outside), options.scheme(scheme)
    fixed, other = scheme_pair(fixed, gold_scheme, pred_scheme, policy)
    reading = (comments, encoding, check_tokens, delimiter)
    return Plan(
        policy, fixed, other, fmt, outside, beta, overlap, labels, *reading, fixed is None, other is None
    )


def _count(p: Plan, inputs: list[Input]) -> ExactAccumulator:
    if p.needs_scheme:
        raise ValueError("the scheme must be inferred from every part first: call with_scheme")
    args = (p.policy, p.scheme, p.fmt, p.outside, p.overlap)
    return count_inputs(inputs[0], inputs[1:], None, *args, labels=p.labels, pred_scheme=p.pred_scheme)


def _inputs(p: Plan, files: Sequence[tuple[str, str | None]]) -> list[Input]:
    return [Input(g, q, p.comments, p.encoding, p.check_tokens, delimiter=p.delimiter) for g, q in files]


def count_files(p: Plan, files: Sequence[tuple[str, str | None]]) -> ExactAccumulator:
    """The counts of files read one after another: ``(merged file, None)`` or ``(gold, prediction)``."""
    return _count(p, _inputs(p, files))


def count_documents(p: Plan, documents: Iterable[tuple[Tags, Tags]]) -> ExactAccumulator | None:
    """The counts of documents, each ``(gold sentences, predicted sentences)`` of tag lists (``None``: none).

    Each document is counted as one, as each file of a directory is.
    """
    inputs = [Input(_sentences(g), _sentences(q), False, "utf-8", p.check_tokens) for g, q in documents]
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
    first = replace(p, policy="begin", scheme=None, pred_scheme="same", overlap=None, labels=None)
    return _count(first, _inputs(p, files))


def with_scheme(p: Plan, parts: Iterable[ExactAccumulator | None]) -> Plan:
    """The plan with the scheme inferred from every part's transitions together (`transitions`)."""
    total = _total(parts)
    return replace(p, scheme=infer_from(total.vocab, [total.gold_table, total.pred_table]))


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
    return result_of(_total(parts), p.inferred, p.pred_inferred, p.policy, p.beta, p.overlap, p.labels)
