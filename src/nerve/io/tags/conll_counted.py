"""The compiled engine's CoNLL reader, as the ``conll`` record names it: files in, exact totals out.

In: the gold and prediction files (paths; a merged file and ``None``; or a stream's bytes) and the
run's plan. Out: ``(totals, vocab, notes)`` (`nerve.model.counts.ExactTotals`, the `TagVocab` of the
tags' format and outside tag, and the reading notes), what the numpy engine ends with; or ``None``:
the numpy engine reads the input, and gives the result or its error (`nerve.compiled`).

The C core (`nerve.io.tags.conll_c`) counts; the scheme is inferred and the repairs counted here in
plain Python, over the 50 pair codes (`nerve.model.pairs`), so this road imports no numpy.

Runs it leaves to the numpy engine (``None``): ``gold_annotator``/``pred_annotator`` (options of span
exports, which the numpy road refuses for tags), a label map or a type filter, MUC metrics, two schemes
(``gold_scheme``/``pred_scheme``), an encoding other than UTF-8, a stream (the numpy road keeps its
bytes, and comes back here: `nerve.api.compiled`), the ``error`` policy once an invalid transition is
found (its message lists them), and every input `nerve.io.tags.conll_c` hands over. Runs with
analysis, bootstrap or span options never reach it (`nerve.compiled.route`).
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Mapping, Sequence

from ...errors import NerveError
from ...model.counts import Counts, ExactTotals, RepairStats, SchemeEvidence, TokenStats
from ...model.schemes import BEGIN, CONTINUES, END, KIND_NAMES, OPENS, OUT, SCHEMES, Scheme, infer_scheme
from ...model.vocab import TagVocab
from .conll_c import SENTENCES_NOTE, ColumnTotals, File, count_columns

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Counted", "applies", "column_totals", "count_file_pairs", "read_counted", "scheme_tables"]

_CODES = range(50)
Notes = Mapping[str, Mapping[str, int]]
Counted = tuple[ExactTotals, TagVocab, Notes]


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


def applies(plan: Any) -> bool:
    """Whether the C engine counts what ``plan`` (a `nerve.plan.Plan`) asks for (see the docstring)."""
    t, r = plan.tagging, plan.reading
    return (
        not plan.labels
        and getattr(r, "gold_annotator", None) is None  # span exports' options: numpy refuses them
        and getattr(r, "pred_annotator", None) is None
        and plan.metrics.overlap is None
        and t.pred_scheme == "same"
        and t.policy in ("begin", "discard", "error", "conlleval")
        and codecs.lookup(plan.reading.encoding).name == "utf-8"
    )


def _count(
    files: Sequence[tuple[File, File | None]], plan: Any, scheme: Scheme | None
) -> ColumnTotals | None:
    """The core's counts of ``files`` (decoded under ``scheme`` for ``discard``), or ``None``."""
    t, r = plan.tagging, plan.reading
    tables = (bytes(50), bytes(50))
    if scheme is not None and t.policy == "discard":
        bad_start, bad_end = scheme_tables(scheme)
        tables = (bytes(bad_start), bytes(bad_end))
    return count_columns(
        files,
        comments=r.comments,
        check_tokens=r.check_tokens,
        delimiter=r.delimiter,
        tag_format=t.fmt,
        scheme=scheme,
        outside=t.outside,
        policy=t.policy,
        tables=tables,
        workers=r.workers,
    )


def column_totals(files: Sequence[tuple[File, File | None]], plan: Any) -> ColumnTotals | None:
    """The core's counts under the plan's scheme, for parts; ``None`` for ``error`` with problems."""
    t = plan.tagging
    totals = _count(files, plan, t.scheme)
    problems = totals is not None and t.policy == "error" and t.scheme is not None
    if problems and _repairs(totals, t.scheme, "error", False).total:  # type: ignore[arg-type]
        return None  # the numpy engine lists them
    return totals


def count_file_pairs(files: Sequence[tuple[File, File | None]], plan: Any) -> Counted | None:
    """``(totals, vocab, notes)`` of ``files`` under ``plan``, counted in C; ``None``: numpy's turn."""
    if not applies(plan):
        return None
    t = plan.tagging
    try:
        totals = _count(files, plan, t.scheme)
        if totals is None:
            return None
        bare = totals.format is not None and totals.format.position == "bare"
        found = _evidence(totals)
        scheme = t.scheme or (
            SCHEMES["IO"] if bare else infer_scheme(found.letters, found.b_after_other, found.e_before_other)
        )
        repairs = _repairs(totals, scheme, t.policy, t.scheme is not None or t.needs_scheme)
        if repairs.total and t.policy == "error":
            return None  # the numpy engine lists the invalid transitions
        if repairs.total and t.policy == "discard" and t.scheme is None:
            totals = _count(files, plan, scheme)  # decoded again, now that the scheme is known
            if totals is None:
                return None
    except NerveError:
        return None  # the numpy engine raises it, with its message
    return _totals(totals, scheme, repairs, t.policy)


def _totals(totals: ColumnTotals, scheme: Scheme, repairs: RepairStats, policy: str) -> Counted:
    """What `nerve.metrics.exact.ExactAccumulator.finish` and the numpy reader's notes would say."""
    notes = {"pred": {SENTENCES_NOTE: totals.unpaired_docs}} if totals.unpaired_docs else {}
    exact = ExactTotals(
        _counts(totals, policy),
        TokenStats(totals.tokens, totals.correct),
        repairs,
        scheme,
        totals.sentences,
        totals.documents,
    )
    return exact, TagVocab(totals.format, None, totals.outside), notes


def read_counted(gold: object, pred: object, plan: Any) -> Counted | None:
    """The ``conll`` record's compiled reader (`nerve.compiled`): files by name; streams go to numpy."""
    if not isinstance(gold, str | os.PathLike) or not isinstance(pred, str | os.PathLike | None):
        return None  # a stream is read once: the numpy road keeps it and asks `nerve.api.compiled`
    return count_file_pairs([(os.fspath(gold), None if pred is None else os.fspath(pred))], plan)
