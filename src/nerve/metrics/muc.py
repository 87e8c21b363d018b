"""Partial-match evaluation: the MUC-5 / SemEval-2013 modes strict, exact, partial and type.

Gold and predicted entities of each document are paired by one optimal one-to-one assignment
(`match_document`), the same for every mode. It prefers, lexicographically: pairs with the same
span and type, then the same span, then overlap with the same type, then any overlap; ties go to
the larger total overlap. Spans are sorted before matching, so the result does not depend on the
order of the input lists. Each pair is then a COR, INC or PAR in each mode; unpaired gold
entities are MIS and unpaired predictions SPU.

Per-type rows come from the same pairs: gold-side counts (COR/INC/PAR/MIS) are kept under the
gold entity's type and predicted-side counts (COR/INC/PAR/SPU) under the predicted entity's type,
so the per-type POS and ACT add up to the totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..model.counts import fbeta, safe_div
from ..model.spans import Span

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]
    Bool = npt.NDArray[np.bool_]

__all__ = [
    "FIELDS",
    "MODES",
    "ModeScores",
    "MucCounts",
    "MucOptions",
    "MucResult",
    "match_document",
    "muc_columns",
    "muc_score",
]

MODES = ("strict", "exact", "partial", "type")
MATCHINGS = ("optimal", "greedy")
GREEDY_GOLD_SHARE = 0.01  # nervaluate's default min_overlap_percentage, 1 %
Columns = dict[str, "Int"]
_HALF_CREDIT = {"strict": 0.0, "exact": 0.0, "partial": 0.5, "type": 0.5}

SpanLike = Span | tuple[int, int, str]


@dataclass(frozen=True)
class MucCounts:
    """Outcome counts of one mode, for all entities or for one type.

    ``cor``, ``inc`` and ``par`` are counted on the gold side (they make up POS with ``mis``);
    ``pred_cor``, ``pred_inc`` and ``pred_par`` on the predicted side (ACT with ``spu``). The two
    sides are equal for the totals; for a type they differ when a pair joins two types.
    """

    mode: str
    cor: int = 0
    inc: int = 0
    par: int = 0
    mis: int = 0
    spu: int = 0
    pred_cor: int = 0
    pred_inc: int = 0
    pred_par: int = 0

    def __add__(self, other: MucCounts) -> MucCounts:
        if other.mode != self.mode:
            raise ValueError(f"cannot add counts of modes {self.mode} and {other.mode}")
        return MucCounts(
            self.mode,
            *(getattr(self, f) + getattr(other, f) for f in FIELDS),
        )

    @property
    def pos(self) -> int:
        """Gold entities: COR + INC + PAR + MIS."""
        return self.cor + self.inc + self.par + self.mis

    @property
    def act(self) -> int:
        """Predicted entities: COR + INC + PAR + SPU."""
        return self.pred_cor + self.pred_inc + self.pred_par + self.spu

    @property
    def precision(self) -> float:
        """(COR + w·PAR) / ACT, with w = ½ in partial and type modes and 0 otherwise."""
        return safe_div(self.pred_cor + _HALF_CREDIT[self.mode] * self.pred_par, self.act)

    @property
    def recall(self) -> float:
        """(COR + w·PAR) / POS."""
        return safe_div(self.cor + _HALF_CREDIT[self.mode] * self.par, self.pos)

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall (0.0 when both are 0)."""
        return fbeta(self.precision, self.recall)

    @property
    def und(self) -> float:
        """Undergeneration, MIS / POS."""
        return safe_div(self.mis, self.pos)

    @property
    def ovg(self) -> float:
        """Overgeneration, SPU / ACT."""
        return safe_div(self.spu, self.act)

    @property
    def sub(self) -> float:
        """Substitution, INC / (COR + INC)."""
        return safe_div(self.inc, self.cor + self.inc)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``cor, inc, par, mis, spu, pos, act, precision, recall, f1``."""
        return {
            "cor": self.cor,
            "inc": self.inc,
            "par": self.par,
            "mis": self.mis,
            "spu": self.spu,
            "pos": self.pos,
            "act": self.act,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


FIELDS = ("cor", "inc", "par", "mis", "spu", "pred_cor", "pred_inc", "pred_par")


@dataclass(frozen=True)
class DocumentMacro:
    """Precision, recall and F1 averaged over the documents that have entities."""

    precision: float
    recall: float
    f1: float
    documents: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "documents": self.documents,
        }


@dataclass(frozen=True)
class ModeScores:
    """The counts of one mode: overall and per type; the document-macro average if asked for."""

    overall: MucCounts
    per_type: Mapping[str, MucCounts]
    document_macro: DocumentMacro | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"overall": C, "per_type": {TYPE: C}}``, and ``"document_macro"`` if computed."""
        d = {
            "overall": self.overall.to_dict(),
            "per_type": {k: v.to_dict() for k, v in self.per_type.items()},
        }
        if self.document_macro is not None:
            d["document_macro"] = self.document_macro.to_dict()
        return d


@dataclass(frozen=True)
class MucOptions:
    """How the MUC modes are computed.

    Overlap means sharing a position, and also reaching ``min_iou`` and covering
    ``min_gold_share`` of the gold span when those are set; ``document_average`` adds the
    average over documents to the micro totals.
    """

    min_iou: float | None = None
    min_gold_share: float | None = None
    document_average: bool = False
    matching: str = "optimal"

    def __post_init__(self) -> None:
        for name in ("min_iou", "min_gold_share"):
            value = getattr(self, name)
            if value is not None and not 0 < value <= 1:
                raise ValueError(f"Expected {name} in (0, 1], but got {value}")
        if self.matching not in MATCHINGS:
            raise ValueError(f"Expected matching among {', '.join(MATCHINGS)}, but got {self.matching!r}")

    @property
    def gold_share(self) -> float | None:
        """The minimum share of the gold span; greedy matching defaults to nervaluate's 1 %."""
        if self.min_gold_share is None and self.matching == "greedy":
            return GREEDY_GOLD_SHARE
        return self.min_gold_share

    def describe(self) -> str:
        """For the signature, e.g. ``overlap any`` or ``greedy, overlap gold-share>=0.01``."""
        parts = []
        if self.min_iou is not None:
            parts.append(f"iou>={self.min_iou:g}")
        if self.gold_share is not None:
            parts.append(f"gold-share>={self.gold_share:g}")
        text = "overlap " + (",".join(parts) or "any")
        if self.matching == "greedy":
            text = "greedy as nervaluate 1.2.1, " + text
        return text + (", document average" if self.document_average else "")


@dataclass(frozen=True)
class MucResult:
    """The four modes, and the pairs of the matching as (document, gold index, pred index).

    ``pairs`` is empty with greedy matching, where every mode pairs differently.
    """

    modes: Mapping[str, ModeScores]
    pairs: list[tuple[int, int, int]] = field(default_factory=list)
    overlap: MucOptions = field(default_factory=MucOptions)
    per_document: Mapping[str, Columns] | None = field(default=None, repr=False, compare=False)

    def __add__(self, other: MucResult) -> MucResult:
        per_document = None
        if self.per_document is not None and other.per_document is not None:
            per_document = {
                m: {f: np.concatenate([self.per_document[m][f], other.per_document[m][f]]) for f in FIELDS}
                for m in MODES
            }
        modes = {}
        for mode in MODES:
            a, b = self.modes[mode], other.modes[mode]
            rows = dict(a.per_type)
            for name, c in b.per_type.items():
                rows[name] = rows[name] + c if name in rows else c
            macro = document_macro(mode, per_document[mode]) if per_document is not None else None
            modes[mode] = ModeScores(a.overall + b.overall, dict(sorted(rows.items())), macro)
        return MucResult(modes, [], self.overlap, per_document)

    def to_dict(self) -> dict[str, Any]:
        """``{"strict": ..., "exact": ..., "partial": ..., "type": ...}``."""
        return {mode: self.modes[mode].to_dict() for mode in MODES}


@dataclass(frozen=True)
class _Side:
    """Spans of every document as parallel arrays, sorted by (document, start, end, type)."""

    doc: Int
    start: Int
    end: Int
    label: Int
    index: Int  # the position in the caller's list of its document

    @classmethod
    def of(cls, start: Int, end: Int, label: Int) -> _Side:
        """Spans of one document, already sorted by start."""
        n = start.shape[0]
        return cls(np.zeros(n, dtype=np.int64), start, end, label, np.arange(n))


def _side(docs: Sequence[Iterable[SpanLike]], labels: dict[str, int]) -> _Side:
    rows: list[tuple[int, int, int, int, int]] = []
    for d, spans in enumerate(docs):
        for i, span in enumerate(spans):
            s, e, name = (span.start, span.end, span.label) if isinstance(span, Span) else span
            if not 0 <= s < e:
                raise ValueError(f"document {d}, span {i}: expected 0 <= start < end, but got ({s}, {e})")
            rows.append((d, int(s), int(e), labels.setdefault(str(name), len(labels)), i))
    arr = np.asarray(rows, dtype=np.int64).reshape(-1, 5)
    return _sorted_side(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], arr[:, 4])


def _sorted_side(doc: Int, start: Int, end: Int, label: Int, index: Int) -> _Side:
    order = np.lexsort((label, end, start, doc))
    return _Side(doc[order], start[order], end[order], label[order], index[order])


def muc_columns(
    gold: tuple[Int, Int, Int, Int],
    pred: tuple[Int, Int, Int, Int],
    names: Sequence[str],
    n_docs: int,
    options: MucOptions,
) -> MucResult:
    """`muc_score` for spans already in arrays.

    Each side is ``(doc, start, end, label id)``, label ids indexing ``names``, in list order
    (which only greedy matching looks at); pairs are reported by position in these arrays.
    """

    def side(cols: tuple[Int, Int, Int, Int]) -> _Side:
        doc = cols[0]
        return _sorted_side(*cols, np.arange(doc.shape[0], dtype=np.int64))

    g_side, p_side = side(gold), side(pred)
    docs = (g_side.doc, p_side.doc, n_docs) if options.document_average else None
    return _result(count_all(g_side, p_side, len(names), options, docs), g_side, p_side, names, options)


def _candidates(gold: _Side, pred: _Side) -> tuple[Int, Int]:
    """Every (gold row, pred row) pair of one document whose spans share a position."""
    if not gold.doc.shape[0] or not pred.doc.shape[0]:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    width = int(max(gold.end.max(), pred.end.max())) + 1
    p_start = pred.doc * width + pred.start
    # Predictions start in order; a running maximum of their ends bounds which can reach a gold.
    p_reach = np.maximum.accumulate(pred.doc * width + pred.end)
    hi = np.searchsorted(p_start, gold.doc * width + gold.end, side="left")
    lo = np.searchsorted(p_reach, gold.doc * width + gold.start, side="right")
    lo = np.minimum(lo, hi)
    n = hi - lo
    g = np.repeat(np.arange(gold.doc.shape[0]), n)
    p = np.repeat(lo, n) + (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n))
    keep = (pred.doc[p] == gold.doc[g]) & (pred.start[p] < gold.end[g]) & (pred.end[p] > gold.start[g])
    return g[keep], p[keep]


def split_edges(rows: Int, cols: Int) -> tuple[npt.NDArray[np.bool_], Int, Int]:
    """Split the edges ``rows[k] - cols[k]`` of a bipartite graph for matching.

    Returns whether each edge is alone (shares no node with another edge), the indices of the
    other edges, and the connected component of each of those.
    """
    alone = (np.bincount(rows)[rows] == 1) & (np.bincount(cols)[cols] == 1)
    rest = np.flatnonzero(~alone)
    row_nodes, r = np.unique(rows[rest], return_inverse=True)
    col_nodes, c = np.unique(cols[rest], return_inverse=True)
    n = row_nodes.shape[0]
    return alone, rest, _components(r.reshape(-1), n + c.reshape(-1), n + col_nodes.shape[0])


def _components(a: Int, b: Int, size: int) -> Int:
    """The connected component (its smallest node) of each edge ``a[i] - b[i]`` of a graph."""
    label = np.arange(size)
    while True:
        low = np.minimum(label[a], label[b])
        new = label.copy()
        np.minimum.at(new, a, low)
        np.minimum.at(new, b, low)
        new = new[new]  # jump to the representative's representative
        if np.array_equal(new, label):
            return label[a]
        label = new


def _hungarian(weight: npt.NDArray[np.float64]) -> list[tuple[int, int]]:
    """A maximum-weight assignment of a small dense matrix (rows <= columns).

    The shortest-augmenting-path Hungarian method with potentials, O(rows² · columns).
    """
    n, m = weight.shape
    cost = (weight.max(initial=0.0) - weight).tolist()
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    owner = [0] * (m + 1)  # the row assigned to each column, 1-based; 0 = none
    way = [0] * (m + 1)
    for row in range(1, n + 1):
        owner[0] = row
        col = 0
        least = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[col] = True
            r, delta, nxt = owner[col], inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    reduced = cost[r - 1][j - 1] - u[r] - v[j]
                    if reduced < least[j]:
                        least[j], way[j] = reduced, col
                    if least[j] < delta:
                        delta, nxt = least[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            col = nxt
            if owner[col] == 0:
                break
        while col:
            prev = way[col]
            owner[col] = owner[prev]
            col = prev
    return [(owner[j] - 1, j - 1) for j in range(1, m + 1) if owner[j]]


def _assign(g: Int, p: Int, weight: npt.NDArray[np.float64]) -> Bool:
    """Choose a maximum-weight set of edges that share no node; return which edges are chosen.

    Most edges join a gold and a predicted span that overlap nothing else: they are chosen
    outright. The rest are solved one connected component at a time.
    """
    chosen = np.zeros(g.shape[0], dtype=np.bool_)
    if not g.shape[0]:
        return chosen
    alone, rest, component = split_edges(g, p)
    chosen[alone] = True
    if not rest.shape[0]:
        return chosen
    order = np.argsort(component, kind="stable")
    bounds = np.flatnonzero(np.diff(component[order])) + 1
    edges = rest[order]
    g_of, p_of, w_of = g[edges].tolist(), p[edges].tolist(), weight[edges].tolist()
    start = 0
    for stop in [*bounds.tolist(), edges.shape[0]]:
        # Components are small: plain Python is faster here than numpy calls.
        rows = sorted(set(g_of[start:stop]))
        cols = sorted(set(p_of[start:stop]))
        r_at = {r: i for i, r in enumerate(rows)}
        c_at = {c: i for i, c in enumerate(cols)}
        matrix = np.zeros((len(rows), len(cols)))
        for k in range(start, stop):
            matrix[r_at[g_of[k]], c_at[p_of[k]]] = w_of[k]
        transposed = matrix.shape[0] > matrix.shape[1]
        dense = matrix.T if transposed else matrix
        if dense.shape[0] <= 32:
            pairs = _hungarian(dense)
        else:
            from scipy.optimize import linear_sum_assignment

            r, c = linear_sum_assignment(dense, maximize=True)
            pairs = list(zip(r.tolist(), c.tolist(), strict=True))
        picked = {(b, a) if transposed else (a, b) for a, b in pairs}
        for k in range(start, stop):
            a, b = r_at[g_of[k]], c_at[p_of[k]]
            if (a, b) in picked and matrix[a, b] > 0:
                chosen[edges[k]] = True
        start = stop
    return chosen


def _edges(gold: _Side, pred: _Side, options: MucOptions) -> tuple[Int, Int, Int]:
    """The overlapping (gold row, pred row) pairs that pass the options' thresholds, and overlaps."""
    g, p = _candidates(gold, pred)
    overlap = np.minimum(gold.end[g], pred.end[p]) - np.maximum(gold.start[g], pred.start[p])
    keep = np.ones(g.shape[0], dtype=np.bool_)
    if options.min_iou is not None:
        union = np.maximum(gold.end[g], pred.end[p]) - np.minimum(gold.start[g], pred.start[p])
        keep &= overlap >= options.min_iou * union
    share = options.gold_share
    if share is not None:
        length = gold.end[g] - gold.start[g]
        if options.matching == "greedy":
            # nervaluate's own test, in percent and floating point, so borderline cases agree.
            keep &= (overlap / length) * 100.0 >= round(share * 100.0, 9)
        else:
            keep &= overlap >= share * length
    return g[keep], p[keep], overlap[keep]


def _optimal(gold: _Side, pred: _Side, g: Int, p: Int, overlap: Int) -> Bool:
    """Which edges the optimal one-to-one matching chooses."""
    same_span = (gold.start[g] == pred.start[p]) & (gold.end[g] == pred.end[p])
    same_type = gold.label[g] == pred.label[p]
    tier = np.where(same_span, np.where(same_type, 4, 3), np.where(same_type, 2, 1))
    # Lexicographic weights: one pair of a tier outweighs any number of pairs of lower tiers
    # (there are fewer than `base` edges), and all overlaps together weigh less than one pair.
    base = float(g.shape[0] + 1)
    weight = base**tier + overlap / (float(overlap.sum()) + 1.0)
    return _assign(g, p, weight)


def _greedy(gold: _Side, pred: _Side, g: Int, p: Int) -> dict[str, Bool]:
    """Which edges nervaluate 1.2.1 pairs in each mode.

    Predictions are taken in list order; each takes one gold that no earlier prediction took:
    in strict, exact and partial the first in list order with the same span (and type, in
    strict), else the first it overlaps; in type the same-typed one with the closest boundaries,
    else the first of another type. An edge alone in its component is taken in every mode;
    the rest are walked component by component.
    """
    chosen: dict[str, Bool] = {mode: np.zeros(g.shape[0], dtype=np.bool_) for mode in MODES}
    if not g.shape[0]:
        return chosen
    alone, rest, component = split_edges(g, p)
    for mode in MODES:
        chosen[mode][alone] = True
    if not rest.shape[0]:
        return chosen
    gr, pr = g[rest], p[rest]
    # Within a component: predictions in list order, and each one's golds in list order.
    order = np.lexsort((gold.index[gr], gold.doc[gr], pred.index[pr], pred.doc[pr], component))
    edges = rest[order]
    ge, pe = g[edges], p[edges]
    same_span = ((gold.start[ge] == pred.start[pe]) & (gold.end[ge] == pred.end[pe])).tolist()
    same_type = (gold.label[ge] == pred.label[pe]).tolist()
    distance = (np.abs(gold.start[ge] - pred.start[pe]) + np.abs(gold.end[ge] - pred.end[pe])).tolist()
    g_of, p_of = ge.tolist(), pe.tolist()
    exact = {
        "strict": [s and t for s, t in zip(same_span, same_type, strict=True)],
        "exact": same_span,
        "partial": same_span,
    }
    cuts = [*(np.flatnonzero(np.diff(component[order])) + 1).tolist(), len(g_of)]
    for mode in MODES:
        picked: list[int] = []
        start = 0
        for stop in cuts:
            # Plain Python: components are small, and this is nervaluate's loop restricted to one.
            taken: set[int] = set()
            k = start
            while k < stop:
                j = k
                while j < stop and p_of[j] == p_of[k]:
                    j += 1
                choice = -1
                if mode == "type":
                    best, other = -1, -1
                    for e in range(k, j):
                        if g_of[e] in taken:
                            continue
                        if same_type[e]:
                            if best < 0 or distance[e] < distance[best]:
                                best = e
                        elif other < 0:
                            other = e
                    choice = best if best >= 0 else other
                else:
                    first = -1
                    hit = exact[mode]
                    for e in range(k, j):
                        if g_of[e] in taken:
                            continue
                        if hit[e]:
                            choice = e
                            break
                        if first < 0:
                            first = e
                    if choice < 0:
                        choice = first
                if choice >= 0:
                    taken.add(g_of[choice])
                    picked.append(choice)
                k = j
            start = stop
        chosen[mode][edges[picked]] = True
    return chosen


@dataclass(frozen=True)
class Outcomes:
    """The pairs of one mode's matching, and which of them are COR and which PAR."""

    gold: Int  # matched gold rows
    pred: Int  # matched pred rows
    unmatched_gold: Bool
    unmatched_pred: Bool
    cor: Bool
    par: Bool


def _outcomes(g_side: _Side, p_side: _Side, g: Int, p: Int, mode: str) -> Outcomes:
    same_span = (g_side.start[g] == p_side.start[p]) & (g_side.end[g] == p_side.end[p])
    same_type = g_side.label[g] == p_side.label[p]
    unmatched_g = np.ones(g_side.doc.shape[0], dtype=np.bool_)
    unmatched_p = np.ones(p_side.doc.shape[0], dtype=np.bool_)
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
    g_side: _Side, p_side: _Side, options: MucOptions
) -> tuple[dict[str, Outcomes], dict[str, Outcomes]]:
    """Match the two sides and classify every pair, for each mode: for the totals, and by type.

    With greedy matching each type is also matched on its own, as nervaluate computes its
    per-type rows; optimal matching has one matching for the totals and the types alike. The
    overlapping pairs are found once for both.
    """
    g, p, overlap = _edges(g_side, p_side, options)
    if options.matching == "greedy":
        same = g_side.label[g] == p_side.label[p]
        out = []
        for eg, ep in ((g, p), (g[same], p[same])):
            chosen = _greedy(g_side, p_side, eg, ep)
            out.append({mode: _outcomes(g_side, p_side, eg[c], ep[c], mode) for mode, c in chosen.items()})
        return out[0], out[1]
    picked = _optimal(g_side, p_side, g, p, overlap)
    g, p = g[picked], p[picked]
    overall = {mode: _outcomes(g_side, p_side, g, p, mode) for mode in MODES}
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


@dataclass(frozen=True)
class Tallies:
    """Count arrays per mode: by type id, in total (one entry), and by document if asked for."""

    by_type: dict[str, Columns]
    total: dict[str, Columns]
    by_document: dict[str, Columns] | None
    outcomes: dict[str, Outcomes]  # of the matching for the totals
    typed: dict[str, Outcomes]  # of the matching for the per-type rows (the same unless greedy)


def count_all(
    g_side: _Side, p_side: _Side, n_types: int, options: MucOptions, docs: tuple[Int, Int, int] | None = None
) -> Tallies:
    """Match and count, by type and in total; by document too when ``docs`` gives each row's.

    The arrays add up across documents and blocks, so streamed input is counted exactly.
    """
    outcomes, typed = classify(g_side, p_side, options)
    by_type = tally(typed, g_side.label, p_side.label, n_types)
    zeros_g = np.zeros(g_side.doc.shape[0], dtype=np.int64)
    zeros_p = np.zeros(p_side.doc.shape[0], dtype=np.int64)
    total = tally(outcomes, zeros_g, zeros_p, 1)
    by_document = tally(outcomes, docs[0], docs[1], docs[2]) if docs is not None else None
    return Tallies(by_type, total, by_document, outcomes, typed)


def document_macro(mode: str, columns: Columns) -> DocumentMacro:
    """Average precision, recall and F1 over documents (arrays indexed by document id).

    Documents with neither gold nor predicted entities are left out: they have nothing to score.
    """
    n = max(v.shape[0] for v in columns.values())
    full = {f: np.pad(v, (0, n - v.shape[0])) for f, v in columns.items()}
    scores = [MucCounts(mode, *(int(full[f][d]) for f in FIELDS)) for d in range(n)]
    scored = [c for c in scores if c.pos or c.act]
    k = len(scored)
    return DocumentMacro(
        safe_div(sum(c.precision for c in scored), k),
        safe_div(sum(c.recall for c in scored), k),
        safe_div(sum(c.f1 for c in scored), k),
        k,
    )


def mode_scores(
    mode: str,
    columns: Columns,
    names: Sequence[str],
    per_document: Columns | None = None,
    total: Columns | None = None,
) -> ModeScores:
    """Turn count arrays indexed by type id into per-type and overall `MucCounts`.

    The overall counts are ``total`` (one entry per field) when given, else the sum of the types.
    With counts indexed by document id, the document-macro average is computed too.
    """

    def at(field: str, i: int) -> int:
        values = columns[field]
        return int(values[i]) if i < values.shape[0] else 0

    rows = {name: MucCounts(mode, *(at(f, i) for f in FIELDS)) for i, name in enumerate(names)}
    rows = {name: c for name, c in sorted(rows.items()) if c.pos or c.act}
    overall = MucCounts(mode, *(int((total or columns)[f].sum()) for f in FIELDS))
    macro = document_macro(mode, per_document) if per_document is not None else None
    return ModeScores(overall, rows, macro)


def _result(
    tallies: Tallies, g_side: _Side, p_side: _Side, names: Sequence[str], options: MucOptions
) -> MucResult:
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
        pairs = sorted(
            zip(
                g_side.doc[o.gold].tolist(),
                g_side.index[o.gold].tolist(),
                p_side.index[o.pred].tolist(),
                strict=True,
            )
        )
    return MucResult(modes, pairs, options, by_doc)


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
    if len(gold) != len(pred):
        raise ValueError(
            f"Expected as many predicted documents as gold ones, but got {len(pred)} and {len(gold)}"
        )
    options = MucOptions(min_iou, min_gold_share, document_average, matching)
    labels: dict[str, int] = {}
    g_side, p_side = _side(gold, labels), _side(pred, labels)
    names = sorted(labels, key=labels.__getitem__)
    docs = (g_side.doc, p_side.doc, len(gold)) if document_average else None
    return _result(count_all(g_side, p_side, len(names), options, docs), g_side, p_side, names, options)
