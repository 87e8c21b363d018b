"""Span files scored by the compiled engine: read, matched and counted in C, without numpy.

In: a nervaluate or JSONL file holding both sides, and the plan of the run. Out: `count_spans`,
the `Result` that the numpy engine (`nerve.api.pipeline.spans_result`) makes of the same file, or
``None`` where this road does not apply and the numpy engine scores the run: the compiled engine
off; any option beyond the format, the offset units and plain MUC (labels, flattening, lenient
texts, a column or a span group, options of tags, the analysis, the bootstrap, the threshold
sweep; MUC with
``min_iou``, ``min_gold_share``, greedy matching or the document average); a prediction file;
or an input the compiled reader hands over (`nerve.io.json.compiled`). A JSONL file that numpy
reads in pieces (`nerve.io.json.jsonl_chunks`) is read and scored piece by piece here too, the
results merged as numpy merges them. Groups of overlapping spans that are more than one span
against one or several go to the general solver (`nerve.matching.overlap.best_tiered`), the only
place numpy is imported.
"""

from __future__ import annotations

import os

from ._engine import speedups
from .io.json.compiled import Columns, read_columns
from .io.json.jsonl_chunks import CHUNK_BYTES, line_chunks
from .io.sources import read_bytes
from .metrics.muc_counts import FIELDS, MODES, MucResult, scores_of_lists
from .model.counts import Counts, ExactTotals, RepairStats, TokenStats
from .plan import MucOptions, Plan, Reading
from .results import Result

__all__ = ["columns_result", "count_spans", "solve_groups"]


def count_spans(gold: object, pred: object, plan: Plan, kind: str | None = None) -> Result | None:
    """The result of span file ``gold`` on the compiled engine, or ``None`` (see the module).

    ``kind``: the format when known, else ``--format``, else sniffed from the file.
    """
    if speedups() is None or pred is not None or not isinstance(gold, str | os.PathLike) or not _plain(plan):
        return None
    path = os.fspath(gold)
    if not os.path.isfile(path):
        return None
    kind = kind or plan.reading.input_format or _sniffed(path)
    offsets = plan.reading.offsets
    if not (
        (kind == "nervaluate" and offsets is None) or (kind == "jsonl" and offsets in (None, "char", "token"))
    ):
        return None
    if kind == "jsonl" and os.path.getsize(path) > CHUNK_BYTES:
        return _in_pieces(path, offsets, plan)
    data = read_bytes(path, "a span file")
    sides = read_columns((data[3:] if data.startswith(b"\xef\xbb\xbf") else data,), kind, offsets)
    if sides is None or sides[1] is None:
        return None
    return columns_result(sides[0], sides[1], plan, kind)


def _plain(plan: Plan) -> bool:
    """Whether ``plan`` asks for nothing but a span format, offset units and plain MUC."""
    r = plan.reading
    if r != Reading(input_format=r.input_format, offsets=r.offsets, workers=r.workers):
        return False
    if plan.tagging.given or plan.labels or plan.analysing.asked or plan.statistics is not None:
        return False
    return plan.metrics.overlap in (None, MucOptions()) and not plan.metrics.sweep


def _sniffed(path: str) -> str:
    from .io.sniff import sniff_format

    return sniff_format(path)


def _in_pieces(path: str, offsets: str | None, plan: Plan) -> Result | None:
    """The result of a JSONL file that numpy reads in pieces: each piece's, merged as numpy merges them."""
    total = None
    for data, _ in line_chunks(path, CHUNK_BYTES):
        sides = read_columns((data,), "jsonl", offsets)
        part = (
            None if sides is None or sides[1] is None else columns_result(sides[0], sides[1], plan, "jsonl")
        )
        if part is None:
            return None
        total = part if total is None else total.merge(part)
    return total


def columns_result(
    gold: Columns, pred: Columns, plan: Plan, source: str, pairs: bool = True, same: list[int] | None = None
) -> Result | None:
    """`spans_result` of two sides' columns (no labels, no flattening), or ``None`` to hand over.

    ``pairs=False``: the MUC result's matched pairs are left empty (for counts alone: `nerve.agree`).
    ``same``: by gold type, entities both sides hold that were taken out of both columns beforehand
    (`nerve.agree`'s flat columns, where such a pair overlaps nothing else): each counts as a hit
    and, in every MUC mode, as COR on both sides.
    """
    engine = speedups()
    if engine is None or gold[5] != pred[5]:  # another number of documents: the usual path says so
        return None
    names = list(gold[4])
    index = {name: i for i, name in enumerate(names)}
    for name in pred[4]:
        if name not in index:
            index[name] = len(names)
            names.append(name)
    rank = [0] * len(names)
    for r, i in enumerate(sorted(range(len(names)), key=names.__getitem__)):
        rank[i] = r
    overlap = plan.metrics.overlap
    pred_map = [index[name] for name in pred[4]]
    want_muc = overlap is not None
    out = engine.muc_count(gold[:4], pred[:4], pred_map, rank, gold[5], want_muc, solve_groups, pairs)
    if isinstance(out, str):
        return None
    hits, g_count, p_count, muc_counts, matched = out
    for i, c in enumerate(same or ()):
        hits[i] += c
        g_count[i] += c
        p_count[i] += c
        for m in range(len(MODES) if muc_counts is not None else 0):
            muc_counts[(m * len(FIELDS)) * len(names) + i] += c  # cor
            muc_counts[(m * len(FIELDS) + 5) * len(names) + i] += c  # pred_cor
    counts = {
        name: Counts(hits[i], p_count[i] - hits[i], g_count[i] - hits[i]) for i, name in enumerate(names)
    }
    muc = None
    if overlap is not None and muc_counts is not None and matched is not None:
        n, k = len(names), len(FIELDS)
        modes = {
            mode: scores_of_lists(
                mode, [muc_counts[(m * k + f) * n : (m * k + f + 1) * n] for f in range(k)], names
            )
            for m, mode in enumerate(MODES)
        }
        muc = MucResult(modes, matched, overlap, None)
    totals = ExactTotals(counts, TokenStats(), RepairStats("none"), None, 0, gold[5], muc)
    return Result.of(plan, totals, source=source, notes={}, discontinuous=None)


def solve_groups(g: bytes, p: bytes, overlap: bytes, tier: bytes) -> bytes:
    """The general solver's choice of the edges of groups that are not one span against others."""
    import numpy as np

    from .matching.overlap import best_tiered

    g_, p_, o_, t_ = (np.frombuffer(b, dtype=np.int64) for b in (g, p, overlap, tier))
    return best_tiered(g_, p_, t_, o_).astype(np.uint8).tobytes()
