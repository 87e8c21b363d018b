"""Scoring CoNLL files on the compiled engine: which runs it takes, and the `Result` of its counts.

In: the inputs and the plan of `nerve.api.pipeline.score_input`. Out: the `Result`, the same as the
numpy engine's, or ``None``: the numpy engine reads the input (and gives the result or its error).

The compiled engine (the ``conll`` format's ``accelerated`` reader, `nerve.io.tags.conll_c`) counts
exact entity scores under every scheme (``auto`` included) and every repair policy. These runs
go to the numpy engine instead: anything that needs the entities or tokens themselves (the
analysis: ``--errors``, ``--instances``, ``--confusion-matrix``, slices, the bootstrap, and
`nerve.score_aligned`), the MUC metrics (``--metrics muc``), a label map or a type filter, two
schemes (``--gold-scheme``/``--pred-scheme``), an encoding other than UTF-8, tags given as lists
or a `TaggedCorpus`, a Hugging Face dataset, and the ``error`` policy once an invalid transition
is found (its message lists them). ``--workers`` does not apply: the C core reads in one thread.
The inputs the core hands over are listed in `nerve.io.tags.conll_c`.

The scheme inference and the repair counts are done here in plain Python, over 50 pair codes.
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence

from ..errors import NerveError
from ..io import formats
from ..io.tags.conll_c import ColumnTotals
from ..metrics.exact import ExactAccumulator, ExactTotals
from ..model.counts import Counts, RepairStats, SchemeEvidence, TokenStats
from ..model.schemes import BEGIN, CONTINUES, END, KIND_NAMES, OPENS, OUT, SCHEMES, Scheme, infer_scheme
from ..model.vocab import TagVocab
from ..plan import Plan
from ..results import Result
from .sources import Input

__all__ = ["compiled_counts", "compiled_result", "scheme_tables"]

_CODES = range(50)


def _kinds(code: int) -> tuple[int, int, bool]:
    """The kinds of the previous and the current tag of a pair code, and whether their types are the same."""
    return code // 10, code // 2 % 5, code % 2 == 1


def scheme_tables(scheme: Scheme) -> tuple[list[bool], list[bool]]:
    """``bad_start`` and ``bad_end`` of `nerve.model.pairs.code_tables`, by pair code, without numpy."""
    bad_start, bad_end = [], []
    for code in _CODES:
        kp, kc, same_type = _kinds(code)
        cont = kp in OPENS and kc in CONTINUES and same_type
        same = same_type and kp != OUT and kc != OUT
        ok_start = kc in scheme.begins or (kc in scheme.begins_after_same and same)
        ok_end = kp in scheme.ends or (kp in scheme.ends_before_same and same)
        bad_start.append(kc != OUT and not cont and not ok_start)
        bad_end.append(kp != OUT and not cont and not ok_end)
    return bad_start, bad_end


def _evidence(totals: ColumnTotals) -> SchemeEvidence:
    """What the scheme is inferred from (`nerve.metrics.transitions.evidence`)."""
    seen = [g + p > 0 for g, p in zip(*totals.codes, strict=True)]
    b_after, e_before = False, False
    for code in _CODES:
        kp, kc, same_type = _kinds(code)
        other = not (same_type and kp != OUT and kc != OUT)
        b_after |= seen[code] and kc == BEGIN and other
        e_before |= seen[code] and kp == END and other
    bare = totals.format is not None and totals.format.position == "bare"
    return SchemeEvidence(totals.letters, b_after, e_before, bare)


def _repairs(totals: ColumnTotals, scheme: Scheme, policy: str, evidence: bool) -> RepairStats:
    """The invalid transitions of each side under ``scheme``, by kind (`ExactAccumulator` counts the same)."""
    bad_start, bad_end = scheme_tables(scheme)
    invalid = [s or e for s, e in zip(bad_start, bad_end, strict=True)]
    kinds: dict[str, int] = {}
    for codes in totals.codes:
        for code in _CODES:
            if invalid[code] and codes[code]:
                kp, kc, _ = _kinds(code)
                key = f"{KIND_NAMES[kp]} -> {KIND_NAMES[kc]}"
                kinds[key] = kinds.get(key, 0) + codes[code]
    gold, pred = (sum(c for c, bad in zip(codes, invalid, strict=True) if bad) for codes in totals.codes)
    found = _evidence(totals) if evidence else None
    return RepairStats(policy, gold, pred, dict(sorted(kinds.items())), found)


def _counts(totals: ColumnTotals, policy: str) -> dict[str, Counts]:
    """Per-type counts, as `ExactAccumulator.finish` names them (conlleval: the empty type first)."""
    if policy == "conlleval":
        names, (gold, pred, matched) = ["", *totals.type_names], totals.perl
    else:
        names, gold, pred, matched = totals.type_names, totals.gold, totals.pred, totals.matched
    counts: dict[str, Counts] = {}
    for i, name in enumerate(names):
        g, p, m = (a[i] if i < len(a) else 0 for a in (gold, pred, matched))
        if g or p:
            counts[name] = counts.get(name, Counts()) + Counts(m, p - m, g - m)
    return counts


def _applies(plan: Plan) -> bool:
    """Whether the compiled engine counts what ``plan`` asks for (see the module's docstring)."""
    t = plan.tagging
    return (
        not plan.labels
        and plan.metrics.overlap is None
        and t.pred_scheme == "same"
        and t.policy in ("begin", "discard", "error", "conlleval")
        and codecs.lookup(plan.reading.encoding).name == "utf-8"
    )


def _count(
    files: Sequence[tuple[str | bytes, str | bytes | None]], plan: Plan, scheme: Scheme | None
) -> ColumnTotals | None:
    """The core's counts of ``files`` (decoded under ``scheme`` for ``discard``), or ``None``."""
    accelerated = formats.format_named("conll").accelerated
    if accelerated is None:
        return None
    t, r = plan.tagging, plan.reading
    tables = (bytes(50), bytes(50))
    if scheme is not None and t.policy == "discard":
        tables = (bytes(scheme_tables(scheme)[0]), bytes(scheme_tables(scheme)[1]))
    found: ColumnTotals | None = accelerated(
        files,
        comments=r.comments,
        check_tokens=r.check_tokens,
        delimiter=r.delimiter,
        tag_format=t.fmt,
        scheme=scheme,
        outside=t.outside,
        policy=t.policy,
        tables=tables,
    )
    return found


def compiled_result(inputs: Sequence[Input], plan: Plan) -> Result | None:
    """The result of ``inputs`` under ``plan`` counted by the compiled engine, or ``None`` (numpy's turn)."""
    files = [each.files() for each in inputs]
    if not _applies(plan) or any(f is None for f in files):
        return None
    t = plan.tagging
    pairs = [f for f in files if f is not None]
    try:
        totals = _count(pairs, plan, t.scheme)
        if totals is None:
            return None
        bare = totals.format is not None and totals.format.position == "bare"
        scheme = t.scheme or (SCHEMES["IO"] if bare else infer_scheme(*_inferred(totals)))
        repairs = _repairs(totals, scheme, t.policy, t.scheme is not None or t.needs_scheme)
        if repairs.total and t.policy == "error":
            return None  # the numpy engine lists the invalid transitions
        if repairs.total and t.policy == "discard" and t.scheme is None:
            totals = _count(pairs, plan, scheme)  # decoded again, now that the scheme is known
            if totals is None:
                return None
    except NerveError:
        return None  # the numpy engine raises it, with its message
    return _result(totals, scheme, repairs, plan)


def _inferred(totals: ColumnTotals) -> tuple[frozenset[str], bool, bool]:
    found = _evidence(totals)
    return found.letters, found.b_after_other, found.e_before_other


def _result(totals: ColumnTotals, scheme: Scheme, repairs: RepairStats, plan: Plan) -> Result:
    """The `Result` of the core's counts, as `nerve.api.pipeline.result_of` assembles the numpy engine's."""
    notes: dict[str, dict[str, int]] = {}
    if totals.unpaired_docs:
        from ..io.tags.conll_align import SENTENCES_NOTE

        notes["pred"] = {SENTENCES_NOTE: totals.unpaired_docs}
    exact = ExactTotals(
        _counts(totals, plan.tagging.policy),
        TokenStats(totals.tokens, totals.correct),
        repairs,
        scheme,
        totals.sentences,
        totals.documents,
    )
    vocab = TagVocab(totals.format, None, totals.outside)
    return Result.of(plan, exact, vocab, notes=notes)


def compiled_counts(inputs: Sequence[Input], plan: Plan) -> ExactAccumulator | None:
    """`nerve.api.pipeline.count_inputs`'s accumulator, filled by the C engine (a part, on a Dask worker).

    ``None`` where the numpy engine must count (as for `compiled_result`, and for ``conlleval``,
    whose state the accumulator cannot take, and ``error`` with an invalid transition).
    """
    import numpy as np

    t = plan.tagging
    files = [each.files() for each in inputs]
    if not inputs or not _applies(plan) or t.policy == "conlleval" or any(f is None for f in files):
        return None
    try:
        totals = _count([f for f in files if f is not None], plan, t.scheme)
        if totals is None or (
            t.policy == "error" and t.scheme and _repairs(totals, t.scheme, "error", False).total
        ):
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
