"""The optimal text assignments of every (document, category) cell, in bounded memory.

In: `TextPairs` (both sides' entities with shared category ids), which metrics are wanted and
OI-Nerval's threshold. Out: `CellResults`, per cell ``doc * n_cat + category``: the saving of the
optimal character and word assignments (Σ (1 - cost) over the pairs taken; a cell's errors are
``max(gold, pred) - saving``) and OI-Nerval's true positives.

Entities pair only within a cell: a pair of two categories, or with a dummy, costs 1 and saves
nothing, so the padded assignment of a document decomposes exactly into one assignment per cell.
Costs are exact (float64, ``min(distance / gold length, 1)``), never rounded.

- Small cells (fewer than `BIG` pairs) are paired in batches of whole cells, cut after about
  `CHUNK` pairs (a batch holds less than ``CHUNK + BIG`` pairs); only the pairs that can save
  something (cost < 1, or within the threshold for OI-Nerval) are kept, and
  `nerve.matching.assignment` solves the batch's cells before the next batch is paired. Memory is
  one batch, however many documents there are.
- A large cell is one dense cost block, filled by rapidfuzz's ``cdist`` a band of gold rows at a
  time (with a distance cutoff, so hopeless pairs stop early), and solved by scipy's
  ``linear_sum_assignment``; its OI-Nerval matching is a maximum matching of the sparse graph of
  pairs within the threshold. Memory is one cell's block (8 bytes a pair), never all the pairs
  of a document, nor the pairs of two cells at once. A block of more than `MAX_BLOCK` pairs
  (1 GiB) is refused before anything is paired, with the option that makes cells smaller
  (documents of one sentence): such a cell would also take hours to solve exactly.

``progress``, when given, is called with the number of pairs done so far and the total.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..errors import NerveError
from ..options import setting
from .assignment import best_edges, max_matching
from .text import TextPairs, as_symbols, distances

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Float, Int

    Progress = Callable[[int, int], None]

__all__ = ["BIG", "CHUNK", "MAX_BLOCK", "CellResults", "cell_results"]

#: Cells with at least this many (gold, pred) pairs are solved as one dense block each.
BIG = 1 << 18
#: Pairs whose distances are computed at once (a batch of small cells, or a band of a block).
CHUNK = 1 << 21
#: The most pairs one cell may have: its dense float64 block takes 1 GiB.
MAX_BLOCK = 1 << 27


@frozen
class CellResults:
    """Per (document, category) cell: assignment savings and OI-Nerval true positives."""

    char_saving: Float
    word_saving: Float
    nerval_tp: Int


def _objects(items: Sequence[Any]) -> npt.NDArray[Any]:
    out = np.empty(len(items), dtype=object)
    out[:] = list(items) if not isinstance(items, list) else items
    return out


def _lengths(items: Sequence[Any]) -> Int:
    return np.fromiter(map(len, items), dtype=np.int64, count=len(items))


@frozen
class _Side:
    """One side's texts and word symbols, as object arrays, with their lengths."""

    text: npt.NDArray[Any]
    words: npt.NDArray[Any]  # the texts themselves when word errors are not wanted
    text_len: Int
    words_len: Int


def _sides(prep: TextPairs, errors: bool) -> tuple[_Side, _Side]:
    g_words, p_words = (
        as_symbols(prep.gold.text, prep.pred.text) if errors else (prep.gold.text, prep.pred.text)
    )
    sides = []
    for texts, words in ((prep.gold.text, g_words), (prep.pred.text, p_words)):
        sides.append(_Side(_objects(texts), _objects(words), _lengths(texts), _lengths(words)))
    return sides[0], sides[1]


def cell_results(
    prep: TextPairs, *, errors: bool, threshold: float | None, progress: Progress | None = None
) -> CellResults:
    """Savings of the optimal assignments (when ``errors``) and OI-Nerval matches (with a threshold)."""
    size = prep.n_cells
    out = CellResults(np.zeros(size), np.zeros(size), np.zeros(size, dtype=np.int64))
    g_cell, p_cell = prep.cells()
    g_n = np.bincount(g_cell, minlength=size).astype(np.int64)
    p_n = np.bincount(p_cell, minlength=size).astype(np.int64)
    pairs = g_n * p_n
    if threshold is not None and threshold >= 1.0:  # every pair of a cell matches
        out.nerval_tp[:] = np.minimum(g_n, p_n)
        threshold = None
    if not errors and threshold is None:
        return out
    big = pairs >= BIG
    _check_blocks(prep, g_n, p_n, pairs)
    gold, pred = _sides(prep, errors)
    total, done = int(pairs.sum()), int(pairs[~big].sum())
    _small(out, gold, pred, (g_cell, p_cell), ~big, errors, threshold)
    if progress is not None:
        progress(done, total)
    for cell in np.flatnonzero(big).tolist():
        rows, cols = np.flatnonzero(g_cell == cell), np.flatnonzero(p_cell == cell)
        _big(out, cell, gold, pred, (rows, cols), errors, threshold)
        done += int(pairs[cell])
        if progress is not None:
            progress(done, total)
    return out


def _check_blocks(prep: TextPairs, g_n: Int, p_n: Int, pairs: Int) -> None:
    """Refuse a cell whose dense block would exceed `MAX_BLOCK` pairs (``g_n * p_n``), naming the fix."""
    if not (pairs > MAX_BLOCK).any():
        return
    cell = int(np.argmax(pairs))
    doc, cat = divmod(cell, max(prep.n_cat, 1))
    name = prep.names[cat] if prep.names else "(untyped)"
    size = int(pairs[cell]) * 8 / 2**30
    raise NerveError(
        f"document {doc + 1}, category {name}: {int(g_n[cell]):,} gold and {int(p_n[cell]):,} predicted "
        f"entities; their exact assignment needs a {size:.1f} GiB cost block (at most 1 GiB): "
        f"score shorter documents ({setting('documents', 'sentence')}, or smaller files in a directory)"
    )


def _chunks(g_key: Int, p_key: Int) -> tuple[Int, Int, Int, Int, list[tuple[int, int]]]:
    """Gold and predicted entities sorted by key, each gold's range of equal-key predictions, batches.

    A batch is a range of the sorted golds that starts at a new key (no key is split between
    two batches), the first after `CHUNK` pairs more than the batch before.
    """
    g_order = np.argsort(g_key, kind="stable")
    p_order = np.argsort(p_key, kind="stable")
    gs, ps = g_key[g_order], p_key[p_order]
    lo = np.searchsorted(ps, gs, side="left")
    n = np.searchsorted(ps, gs, side="right") - lo
    ends = np.cumsum(n)
    total = int(ends[-1]) if ends.shape[0] else 0
    cuts = np.searchsorted(ends, np.arange(CHUNK, total, CHUNK), side="right")
    key_starts = (
        np.flatnonzero(np.r_[True, gs[1:] != gs[:-1]]) if gs.shape[0] else np.zeros(0, dtype=np.int64)
    )
    at = np.searchsorted(key_starts, cuts, side="left")
    cuts = np.where(
        at < key_starts.shape[0], key_starts[np.minimum(at, key_starts.shape[0] - 1)], gs.shape[0]
    )
    bounds = np.unique(np.r_[0, cuts, g_order.shape[0]]).tolist()
    return g_order, p_order, lo, n, list(pairwise(bounds))


def _small(
    out: CellResults,
    gold: _Side,
    pred: _Side,
    cells: tuple[Int, Int],
    small: npt.NDArray[np.bool_],
    errors: bool,
    threshold: float | None,
) -> None:
    """Pair the small cells in batches of whole cells; keep the pairs that can count, solve each batch."""
    g_idx = np.flatnonzero(small[cells[0]])
    p_idx = np.flatnonzero(small[cells[1]])
    g_order, p_order, lo, n, batches = _chunks(cells[0][g_idx], cells[1][p_idx])
    size = out.char_saving.shape[0]
    for a, b in batches:
        counts = n[a:b]
        g = g_idx[np.repeat(g_order[a:b], counts)]
        offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        p = p_idx[p_order[np.repeat(lo[a:b], counts) + offsets]]
        char = _cost(distances(gold.text[g], pred.text[p]), gold.text_len[g])
        if threshold is not None:
            ok = np.flatnonzero(char <= threshold)
            r = g[ok][max_matching(g[ok], p[ok])]
            out.nerval_tp[:] += np.bincount(cells[0][r], minlength=size)
        if errors:
            _assign(out.char_saving, cells[0], (g, p, char))
            word = np.zeros(g.shape[0])
            differ = np.flatnonzero(char > 0)  # equal texts have equal words
            d = distances(gold.words[g[differ]], pred.words[p[differ]])
            word[differ] = _cost(d, gold.words_len[g[differ]])
            _assign(out.word_saving, cells[0], (g, p, word))


def _assign(saving: Float, g_cell: Int, pairs: tuple[Int, Int, Float]) -> None:
    """Add to each cell's saving the best assignment of the pairs that save something (cost < 1)."""
    useful = np.flatnonzero(pairs[2] < 1.0)
    r, c, cost = pairs[0][useful], pairs[1][useful], pairs[2][useful]
    chosen = best_edges(r, c, 1.0 - cost)
    saving += np.bincount(g_cell[r[chosen]], weights=1.0 - cost[chosen], minlength=saving.shape[0])


def _cost(d: npt.NDArray[Any], length: Int) -> Float:
    """``min(d / gold length, 1)``, the cost of pairs of edit distance ``d``."""
    return np.minimum(d / np.maximum(length, 1), 1.0)


def _block(gold: npt.NDArray[Any], g_len: Int, pred: npt.NDArray[Any]) -> Float:
    """The dense cost block of a cell, a band of gold rows at a time.

    Distances past a band's longest gold length minus one are cut off by rapidfuzz: such pairs
    cost 1 either way.
    """
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import cdist

    block = np.empty((gold.shape[0], pred.shape[0]))
    step = max(1, CHUNK // max(pred.shape[0], 1))
    for lo in range(0, gold.shape[0], step):
        band = slice(lo, lo + step)
        cutoff = max(int(g_len[band].max()) - 1, 0)
        d = cdist(
            list(gold[band]),
            list(pred),
            scorer=Levenshtein.distance,
            score_cutoff=cutoff,
            dtype=np.int32,
            workers=-1,
        )
        block[band] = _cost(d, g_len[band][:, None])
    return block


def _big(
    out: CellResults,
    cell: int,
    gold: _Side,
    pred: _Side,
    members: tuple[Int, Int],
    errors: bool,
    threshold: float | None,
) -> None:
    """Solve one large cell as a dense block: the assignments, then the OI-Nerval matching."""
    rows, cols = members
    block = _block(gold.text[rows], gold.text_len[rows], pred.text[cols])
    if threshold is not None:
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import maximum_bipartite_matching

        graph = csr_matrix(block <= threshold)
        out.nerval_tp[cell] = int((maximum_bipartite_matching(graph, perm_type="column") >= 0).sum())
    if not errors:
        return
    out.char_saving[cell] += _assigned_saving(block)
    del block
    words = _block(gold.words[rows], gold.words_len[rows], pred.words[cols])
    out.word_saving[cell] += _assigned_saving(words)


def _assigned_saving(block: Float) -> float:
    """Σ (1 - cost) of a minimum-cost assignment of the block's smaller side.

    Padding the block to a square with dummies of cost 1 adds the same cost to every
    assignment, so the rectangular assignment is the padded one.
    """
    from scipy.optimize import linear_sum_assignment

    r, c = linear_sum_assignment(block)
    return float((1.0 - block[r, c]).sum())
