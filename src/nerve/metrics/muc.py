"""Partial-match evaluation: the MUC-5 / SemEval-2013 modes strict, exact, partial and type.

Gold and predicted entities of each document are paired by one optimal one-to-one assignment
(`nerve.matching.overlap`), the same for every mode: it prefers, lexicographically, pairs with
the same span and type, then the same span, then overlap with the same type, then any overlap;
ties go to the larger total overlap, then to the first pair in the order of document, start, end
and type name, so the result does not depend on the order of the input lists. Each pair is then
a COR, INC or PAR in each mode; unpaired gold entities are MIS and unpaired predictions SPU.

Per-type rows come from the same pairs: gold-side counts (COR/INC/PAR/MIS) are kept under the
gold entity's type and predicted-side counts (COR/INC/PAR/SPU) under the predicted entity's type,
so the per-type POS and ACT add up to the totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..errors import InputError, plural
from ..io.json.span_lists import span_triple
from ..matching.assignment import split_edges
from ..matching.greedy import greedy_edges
from ..matching.overlap import in_order, optimal_edges, overlap_edges, same_spans
from ..model.quoting import is_list, quote
from ..model.spans import Span, SpanArray
from ..plan import MucOptions
from .muc_counts import (
    FIELDS,
    MODES,
    Columns,
    DocumentMacro,
    ModeScores,
    MucCounts,
    MucResult,
    document_macro,
    mode_scores,
)

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int

__all__ = [
    "FIELDS",
    "MODES",
    "DocumentMacro",
    "ModeScores",
    "MucCounts",
    "MucOptions",
    "MucResult",
    "Outcomes",
    "count_all",
    "document_macro",
    "match_document",
    "mode_scores",
    "muc_columns",
    "muc_score",
    "split_edges",
    "tally",
]

SpanLike = Span | tuple[int, int, str]


@frozen
class Outcomes:
    """The pairs of one mode's matching, and which of them are COR and which PAR."""

    gold: Int  # matched gold rows
    pred: Int  # matched pred rows
    unmatched_gold: Bool
    unmatched_pred: Bool
    cor: Bool
    par: Bool


def outcomes(gold: SpanArray, pred: SpanArray, g: Int, p: Int, mode: str) -> Outcomes:
    """Classify the pairs ``g[k] - p[k]`` in one mode (discontinuous spans: by their pieces)."""
    same_span = same_spans(gold, pred, g, p)
    same_type = gold.label[g] == pred.label[p]
    unmatched_g = np.ones(len(gold), dtype=np.bool_)
    unmatched_p = np.ones(len(pred), dtype=np.bool_)
    unmatched_g[g] = False
    unmatched_p[p] = False
    none = np.zeros_like(same_span)
    cor, par = {
        "strict": (same_span & same_type, none),
        "exact": (same_span, none),
        "partial": (same_span, ~same_span),
        "type": (same_type, none),
    }[mode]
    return Outcomes(g, p, unmatched_g, unmatched_p, cor, par)


def classify(
    gold: SpanArray, pred: SpanArray, options: MucOptions, positions: tuple[Int, Int] | None = None
) -> tuple[dict[str, Outcomes], dict[str, Outcomes]]:
    """Match the two sides and classify every pair, for each mode: for the totals, and by type.

    Both sides are sorted (`nerve.matching.overlap.in_order`); ``positions`` gives each row's
    position in the caller's lists, which only greedy matching looks at (``None``: the rows are
    in list order). With greedy matching each type is also matched on its own, as nervaluate
    computes its per-type rows; optimal matching has one matching for the totals and the types
    alike. The overlapping pairs are found once for both.
    """
    greedy = options.matching == "greedy"
    g, p, overlap = overlap_edges(gold, pred, options.min_iou, options.gold_share, percent_test=greedy)
    if greedy:
        if positions is None:
            positions = (np.arange(len(gold)), np.arange(len(pred)))
        same = gold.label[g] == pred.label[p]
        out = []
        for eg, ep in ((g, p), (g[same], p[same])):
            chosen = greedy_edges(gold, pred, positions, eg, ep)
            out.append({mode: outcomes(gold, pred, eg[c], ep[c], mode) for mode, c in chosen.items()})
        return out[0], out[1]
    picked = optimal_edges(gold, pred, g, p, overlap)
    g, p = g[picked], p[picked]
    overall = {mode: outcomes(gold, pred, g, p, mode) for mode in MODES}
    return overall, overall


def tally(outcomes: Mapping[str, Outcomes], gold_key: Int, pred_key: Int, size: int) -> dict[str, Columns]:
    """Count outcomes per mode, grouped by a key of each row (a type id, a document id...).

    Gold-side counts go by the gold row's key, predicted-side counts by the predicted row's.
    """

    def count(keys: Int, mask: Bool) -> Int:
        return np.bincount(keys[mask], minlength=size).astype(np.int64)

    columns = {}
    for mode, o in outcomes.items():
        gk, pk = gold_key[o.gold], pred_key[o.pred]
        inc = ~o.cor & ~o.par
        columns[mode] = {
            "cor": count(gk, o.cor),
            "inc": count(gk, inc),
            "par": count(gk, o.par),
            "mis": count(gold_key, o.unmatched_gold),
            "spu": count(pred_key, o.unmatched_pred),
            "pred_cor": count(pk, o.cor),
            "pred_inc": count(pk, inc),
            "pred_par": count(pk, o.par),
        }
    return columns


@frozen
class Tallies:
    """Count arrays per mode: by type id, in total (one entry), and by document if asked for."""

    by_type: dict[str, Columns]
    total: dict[str, Columns]
    by_document: dict[str, Columns] | None
    outcomes: dict[str, Outcomes]  # of the matching for the totals
    typed: dict[str, Outcomes]  # of the matching for the per-type rows (the same unless greedy)


def count_all(
    gold: SpanArray,
    pred: SpanArray,
    n_types: int,
    options: MucOptions,
    docs: tuple[Int, Int, int] | None = None,
    positions: tuple[Int, Int] | None = None,
) -> Tallies:
    """Match and count, by type and in total; by document too when ``docs`` gives each row's.

    The sides are sorted, with label ids below ``n_types``; ``positions`` as for `classify`.
    The arrays add up across documents and blocks, so streamed input is counted exactly.
    """
    overall, typed = classify(gold, pred, options, positions)
    by_type = tally(typed, gold.label, pred.label, n_types)
    zeros_g = np.zeros(len(gold), dtype=np.int64)
    zeros_p = np.zeros(len(pred), dtype=np.int64)
    total = tally(overall, zeros_g, zeros_p, 1)
    by_document = tally(overall, docs[0], docs[1], docs[2]) if docs is not None else None
    return Tallies(by_type, total, by_document, overall, typed)


def _result(
    gold: SpanArray, pred: SpanArray, positions: tuple[Int, Int], names: Sequence[str], options: MucOptions
) -> MucResult:
    """Match, count and score sorted sides; pairs are reported by ``positions``."""
    docs = (gold.doc, pred.doc, gold.n_docs) if options.document_average else None
    tallies = count_all(gold, pred, len(names), options, docs, positions)
    by_doc = tallies.by_document
    modes = {
        mode: mode_scores(
            mode, tallies.by_type[mode], names, by_doc[mode] if by_doc else None, tallies.total[mode]
        )
        for mode in MODES
    }
    pairs = []
    if options.matching == "optimal":
        o = tallies.outcomes["strict"]
        g_pos, p_pos = positions
        columns = (gold.doc[o.gold].tolist(), g_pos[o.gold].tolist(), p_pos[o.pred].tolist())
        pairs = sorted(zip(*columns, strict=True))
    return MucResult(modes, pairs, options, by_doc)


def muc_columns(gold: SpanArray, pred: SpanArray, options: MucOptions) -> MucResult:
    """`muc_score` for spans already in columns.

    Types are matched by name: both sides are put in one vocabulary, gold's types first, then
    the others (`SpanArray.relabel`). Within a document spans keep their column order (which
    only greedy matching looks at); pairs are reported by position in these columns.
    Discontinuous spans bring their pieces (``fragments``).
    """
    pred = pred.relabel(gold.labels)
    gold = gold.relabel(pred.labels)
    g_side, g_pos = in_order(gold)
    p_side, p_pos = in_order(pred)
    return _result(g_side, p_side, (g_pos, p_pos), pred.labels, options)


def match_document(
    gold: Sequence[SpanLike],
    pred: Sequence[SpanLike],
    *,
    min_iou: float | None = None,
    min_gold_share: float | None = None,
) -> list[tuple[int, int]]:
    """The optimal one-to-one pairs of one document, as (gold index, pred index), sorted.

    Spans overlap when they share a position (half-open: touching spans do not), and, if given,
    when their intersection over union is at least ``min_iou`` and covers at least
    ``min_gold_share`` of the gold span.
    """
    return [
        (gi, pi)
        for _, gi, pi in muc_score([gold], [pred], min_iou=min_iou, min_gold_share=min_gold_share).pairs
    ]


def _span(span: Any, where: str) -> tuple[int, int, str]:
    """``(start, end, label)`` of a `Span` or a triple, checked: integer offsets, a string label."""
    if isinstance(span, Span):
        return span.start, span.end, span.label
    s, e, name = span_triple(span, where, "a Span or (start, end, label)")
    if not 0 <= s < e:
        raise InputError(where, None, f"expected 0 <= start < end, but got ({s}, {e})")
    return int(s), int(e), name


def _spans(docs: Sequence[Iterable[SpanLike]], labels: Sequence[str], side: str) -> tuple[SpanArray, Int]:
    """The spans of each document as sorted columns, and each one's index in its document."""
    lists = []
    for d, spans in enumerate(docs):
        if not is_list(spans, iterable=True):
            raise InputError(f"{side}: document {d}", None, f"expected a list of spans, got {quote(spans)}")
        lists.append([_span(span, f"{side}: document {d}, span {i}") for i, span in enumerate(spans)])
    spans = SpanArray.from_documents(lists, labels)
    first = np.cumsum([0, *map(len, lists)])[:-1]
    index = np.arange(len(spans)) - first[spans.doc] if len(spans) else spans.doc
    ordered, order = in_order(spans)
    return ordered, index[order]


def muc_score(
    gold: Sequence[Iterable[SpanLike]],
    pred: Sequence[Iterable[SpanLike]],
    *,
    min_iou: float | None = None,
    min_gold_share: float | None = None,
    document_average: bool = False,
    matching: str = "optimal",
) -> MucResult:
    """Score documents of predicted spans against gold spans in the four SemEval-2013 modes.

    Args:
        gold: one sequence of spans per document: `Span` objects or ``(start, end, label)``
            with half-open offsets (tokens or characters, the same for both sides).
        pred: the predicted spans, one sequence per document, aligned with ``gold``.
        min_iou: also require this intersection over union for an overlap.
        min_gold_share: also require the overlap to cover this share of the gold span.
        document_average: also average precision, recall and F1 over documents
            (`ModeScores.document_macro`; documents without entities are left out).
        matching: ``"optimal"`` (the default), or ``"greedy"`` to reproduce nervaluate 1.2.1:
            its list-order matching, per-type rows matched type by type, and its default
            minimum overlap of 1 % of the gold span unless ``min_gold_share`` is given.
    """
    for side, docs in (("gold", gold), ("pred", pred)):
        if not is_list(docs):
            raise InputError(side, None, f"expected one list of spans per document, got {quote(docs)}")
    if len(gold) != len(pred):
        raise InputError("pred", None, f"has {plural(len(pred), 'document')}, but the gold has {len(gold)}")
    options = MucOptions(min_iou, min_gold_share, document_average, matching)
    g_side, g_index = _spans(gold, (), "gold")
    p_side, p_index = _spans(pred, g_side.labels, "pred")
    g_side = replace(g_side, labels=p_side.labels)
    return _result(g_side, p_side, (g_index, p_index), p_side.labels, options)
