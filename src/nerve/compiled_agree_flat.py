"""The numbers and rows of `nerve.agree` on the compiled path, from the C core's counts, without numpy.

In: the file the C core read and each picked annotator's decoded column
(`nerve.compiled_agree`). Out: the whole `Agreement` the numpy engine gives
(`nerve.api.agree_measure`, `nerve.api.agree` and `nerve.api.agree_rows`): every pair as
`nerve.score` scores it, the kappas, Fleiss' kappa and alpha from whole-number counts through
`nerve.analysis.agree_formulas`, the bootstrap drawn as numpy draws it, the annotators and their
repairs, and the disagreements, whose rows are built when read (`LazyRows`).

Every annotator of a CoNLL file labels every token of every document: each token has all ``m``
labels, so Fleiss' kappa counts every token and alpha's parts have one ``S`` column, ``S_m``.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import combinations

from ._engine import speedups
from .analysis.agree_formulas import (
    ONE_LABEL,
    agreement_of,
    alpha_of,
    cohen_of,
    degenerate_flag,
    document_flags,
    f1_of,
    fleiss_of,
)
from .analysis.agree_result import (
    AGREE_CATEGORIES,
    AgreeBootstrap,
    Agreement,
    Annotator,
    Disagreement,
    Disagreements,
    LazyRows,
    PairScores,
)
from .analysis.units import Flag, check_memory
from .compiled_agree_read import Column, FlatColumn, FlatRead
from .errors import plural
from .io.tags.agree_scan import both
from .plan import InstanceQuery, Metrics, MucOptions, Plan, Statistics
from .results import Result

__all__ = ["measured_flat"]

Named = list[tuple[str, FlatColumn]]  # each annotator's name and column
Scored = tuple[Result, bytes]  # a pair's result and its exact matches by document
Todo = tuple[int, int, int]  # a pair's place and its two columns

Mark = tuple[str | None, str]


def _ints(b: bytes) -> list[int]:
    """int64 bytes as a list."""
    return memoryview(b).cast("q").tolist()


def _results(
    read: FlatRead, columns: Named, labels: list[bytes], todo: Iterator[Todo], out: list[Scored]
) -> None:
    """The pairs taken from ``todo`` scored as `nerve.score` scores them, each put at its place in ``out``.

    Each pair's result comes from the compiled matcher, with its exact tp, fp and fn by document
    (int64). The entities both annotators of a pair hold are counted apart (`agree_apart`): the matcher sees
    only the rest. ``labels``: each column's labels in one list of types. Two threads take pairs
    from one ``todo`` (its ``next`` is atomic): whichever is free takes the next.
    """
    from .compiled_spans import columns_result

    engine = speedups()
    assert engine is not None
    plan = Plan(metrics=Metrics(1.0, MucOptions()))
    for p, i, j in todo:
        (_, a), (_, b) = columns[i], columns[j]
        rest_a, rest_b, same, exact = engine.agree_apart(
            a.spans, b.spans, labels[i], labels[j], len(a.names), read.n_docs
        )
        gold, pred = (*rest_a, a.names, read.n_docs), (*rest_b, b.names, read.n_docs)
        result = columns_result(gold, pred, plan, "conll", pairs=False, same=same)
        assert result is not None
        out[p] = (result, exact)


def _pairs(
    read: FlatRead, columns: Named, results: list[Result], matrices: bytes, k: int
) -> list[PairScores]:
    """Every pair's scores, with its Cohen's kappa from its label-pair counts."""
    out = []
    for p, (i, j) in enumerate(combinations(range(len(columns)), 2)):
        result = results[p]
        assert result.muc is not None
        partial = result.muc.modes["partial"]
        matrix = _ints(matrices[p * k * k * 8 : (p + 1) * k * k * 8])
        kappa, n = cohen_of(matrix, k), sum(matrix)
        why = None if kappa is not None else (ONE_LABEL if n else "no token both annotated")
        scores = (result.micro, partial.overall, dict(result.per_type), dict(partial.per_type))
        out.append(PairScores(columns[i][0], columns[j][0], *scores, kappa, n, read.n_docs, why))
    return out


def _bounds(values: list[float | None], confidence: float) -> tuple[float, float] | None:
    """The percentile interval of resampled values; ``None`` if undefined somewhere or never varying."""
    from .analysis.agree_draws import any_differs, quantiles

    if not values or any(v is None for v in values):
        return None
    known = [v for v in values if v is not None]
    return quantiles(known, confidence) if any_differs(known) else None


def _intervals(
    values: bytes, shape: tuple[int, int], n_pairs: int, m: int, stats: Statistics
) -> tuple[tuple[float, float] | None, tuple[float, float] | None, AgreeBootstrap]:
    """The intervals of the mean pairwise F1 and of alpha from resampled documents (`agree_intervals`).

    ``values``: `_document_values` (int64, units x columns).
    """
    from .analysis.agree_draws import any_differs, resampled_flat

    n, seed, level = stats.resamples, stats.seed, stats.confidence
    units, columns = shape
    flags: tuple[Flag, ...] = document_flags(units)
    check_memory(n, columns, plural(columns, "column"))
    if units < 2:
        return None, None, AgreeBootstrap(n, seed, level, units, flags)
    f1s: list[float | None] = []
    alphas: list[float | None] = []
    engine = speedups()
    assert engine is not None
    for total in resampled_flat(engine, values, shape, n, seed):
        f1 = 0.0
        for p in range(n_pairs):
            f1 += f1_of(total[3 * p], total[3 * p + 1], total[3 * p + 2])
        f1s.append(f1 / max(n_pairs, 1))
        alphas.append(alpha_of(total[3 * n_pairs :], m))
    found = []
    for name, drawn in (("mean pairwise F1", f1s), ("alpha", alphas)):
        known = [v for v in drawn if v is not None]
        if drawn and len(known) == len(drawn) and not any_differs(known):
            found.append(degenerate_flag(name))
    info = AgreeBootstrap(n, seed, level, units, flags + tuple(found))
    return _bounds(f1s, level), _bounds(alphas, level), info


def _document_values(
    exact: bytes, same: list[int], by_label: list[int], counts: tuple[int, int, int]
) -> tuple[bytes, tuple[int, int]]:
    """Per document (int64, a row each): each pair's tp, fp and fn, then alpha's parts; and the shape.

    Alpha's parts are ``[n, S_2..S_m, n_c...]``: every token has all m labels, so only ``S_m`` (the
    document's pairs of equal labels) is not 0. ``exact``: each pair's tp, fp and fn by document.
    """
    n_pairs, m, k = counts
    n_docs = len(same)
    width = 3 * n_pairs + m + k
    flat = array("q", bytes(8 * n_docs * width))
    ex = memoryview(exact).cast("q")
    for p in range(n_pairs):
        for j in range(3):
            at = p * 3 * n_docs + j
            flat[3 * p + j :: width] = array("q", ex[at : at + 3 * n_docs : 3])
    base = 3 * n_pairs
    flat[base::width] = array("q", [sum(by_label[d * k : (d + 1) * k]) for d in range(n_docs)])
    flat[base + m - 1 :: width] = array("q", same)
    for c in range(k):
        flat[base + m + c :: width] = array("q", by_label[c::k])
    return flat.tobytes(), (n_docs, width)


def _scored(
    read: FlatRead, columns: Named, sides: list[Column], k: int
) -> tuple[list[PairScores], bytes, bytes, bytes]:
    """The pairs' scores and kappas, the token counts, and the pairs' exact matches by document.

    The token counts are each document's pairs of equal labels and its labels. Two threads: the C
    matcher and counts release the GIL.
    """
    engine = speedups()
    assert engine is not None
    together = list(combinations(range(len(columns)), 2))
    todo = iter([(p, i, j) for p, (i, j) in enumerate(together)])
    labels = [side[3] for side in sides]
    scored: list[Scored] = [(None, b"")] * len(together)  # type: ignore[list-item]

    def counted() -> tuple[bytes, bytes, bytes]:
        tokens = engine.agree_tokens(sides, read.doc_start, k)
        _results(read, columns, labels, todo, scored)
        return tokens

    (matrices, same_b, by_label_b), _ = both(counted, lambda: _results(read, columns, labels, todo, scored))
    pairs = _pairs(read, columns, [result for result, _ in scored], matrices, k)
    return pairs, same_b, by_label_b, b"".join(exact for _, exact in scored)


def measured_flat(
    read: FlatRead, columns: list[tuple[str, FlatColumn]], stats: Statistics | None, query: InstanceQuery
) -> Agreement:
    """The agreement of the decoded columns (see the module)."""
    engine = speedups()
    assert engine is not None
    m = len(columns)
    types = sorted({t for _, c in columns for t in c.names})
    k = len(types) + 1
    where = {t: i for i, t in enumerate(types)}
    sides: list[Column] = [
        (*c.spans[:3], engine.agree_relabel(c.spans[3], [where[t] for t in c.names])) for _, c in columns
    ]
    pairs, same_b, by_label_b, exact_b = _scored(read, columns, sides, k)
    same, by_label = _ints(same_b), _ints(by_label_b)
    tokens = read.tokens
    totals = [sum(by_label[c::k]) for c in range(k)]
    fleiss_value = fleiss_of(totals, sum(same) + m * tokens, tokens, m)
    s = [0] * (m - 1)
    s[m - 2] = sum(same)
    alpha_value = alpha_of([sum(totals), *s, *totals], m)

    def drawn() -> tuple[tuple[float, float] | None, tuple[float, float] | None, AgreeBootstrap | None]:
        if stats is None:
            return None, None, None
        values, shape = _document_values(exact_b, same, by_label, (len(pairs), m, k))
        return _intervals(values, shape, len(pairs), m, stats)

    # two threads: the C resampling and the C votes release the GIL
    (f1_interval, alpha_interval, info), disagreements = both(
        drawn, lambda: _disagreements(read, columns, sides, types, query)
    )
    people, warnings = _annotators(read, columns)
    intervals = (f1_interval, alpha_interval, info)
    found = agreement_of(pairs, types, (fleiss_value, tokens), alpha_value, intervals, (read.n_docs, tokens))
    return replace(found, annotators=people, disagreements=disagreements, warnings=warnings)


def _annotators(
    read: FlatRead, columns: list[tuple[str, FlatColumn]]
) -> tuple[tuple[Annotator, ...], tuple[str, ...]]:
    """Each annotator, with what reading changed (the repairs), and the warnings that name them."""
    out: list[Annotator] = []
    warnings: list[str] = []
    for name, c in columns:
        notes = {
            f"invalid transitions repaired by beginning an entity ({k})": n for k, n in c.repairs.items() if n
        }
        out.append(Annotator(name, read.path, c.count, read.n_docs, (), notes))
        warnings.extend(f"annotator {name}: {n} {why}" for why, n in notes.items())
    return tuple(out), tuple(warnings)


def _document_names(n: int) -> list[str]:
    """``doc0001``, ``doc0002``... as `nerve.api.convert_input.default_names` names documents."""
    width = max(4, len(str(n)))
    return [f"doc{i + 1:0{width}d}" for i in range(n)]


class _Words:
    """The tokens' words, read from the file when a row needs them (all at once once many rows do)."""

    def __init__(self, read: FlatRead) -> None:
        self.read, self.base = read, memoryview(read.doc_start).cast("q")
        self.all: list[str] | None = None
        self.reads = 0

    def words(self, lo: int, hi: int) -> list[str]:
        if self.all is None:
            self.reads += 1
            if self.reads < _READS:
                return self.read.words(lo, hi)
            self.all = self.read.words(0, self.read.tokens)  # a whole listing: every word decoded once, in C
        return self.all[lo:hi]

    def text(self, doc: int, start: int, end: int) -> str:
        base = self.base[doc]
        return " ".join(self.words(base + start, base + end))

    def context(self, doc: int, start: int, end: int, inner: str | None, k: int) -> str:
        base, stop = self.base[doc], self.base[doc + 1]
        left = " ".join(self.words(max(base, base + start - k), base + start))
        right = " ".join(self.words(base + end, min(stop, base + end + k)))
        return " ".join(part for part in (left, f"[[{inner or ''}]]", right) if part)


_READS = 4096  # reads of words before all of them are decoded at once (a table reads ~400)


def _disagreements(
    read: FlatRead,
    columns: list[tuple[str, FlatColumn]],
    sides: list[Column],
    types: list[str],
    query: InstanceQuery,
) -> Disagreements:
    """Every disagreeing cluster counted by category; those ``query`` picks listed, built when read."""
    from .analysis.agree_draws import flat_votes

    engine = speedups()
    assert engine is not None
    names = [n for n, _ in columns]
    votes = flat_votes(engine, sides)
    apart, kinds = votes.apart, votes.kinds
    tally = Counter(kinds)
    counts = {c: tally[i] for i, c in enumerate(AGREE_CATEGORIES)}
    cluster = votes.cluster

    def rows_of(i: int) -> range:  # the votes of disagreement i (the votes are sorted by cluster)
        c = apart[i]
        return range(bisect_left(cluster, c), bisect_right(cluster, c))

    wanted = {AGREE_CATEGORIES.index(c) for c in query.categories or AGREE_CATEGORIES}
    picked: Sequence[int] = range(len(kinds))
    if len(wanted) < len(AGREE_CATEGORIES):
        picked = [i for i in picked if kinds[i] in wanted]
    label = votes.label
    if query.types:
        typed = {i for i, t in enumerate(types) if t in query.types}
        picked = [i for i in picked if any(label[r] in typed for r in rows_of(i))]
    words = _Words(read)
    doc, start, end = votes.doc, votes.start, votes.end

    def extent(i: int) -> tuple[int, int, int]:
        rows = rows_of(i)
        return doc[rows[0]], start[rows[0]], max(end[r] for r in rows)

    if query.sort == "frequency":
        surface = {i: words.text(*extent(i)) for i in picked}
        often = Counter(surface.values())
        picked = sorted(picked, key=lambda i: -often[surface[i]])
    picked = _capped(picked, kinds, query.per_category)
    documents = _document_names(read.n_docs)

    def build(r: int) -> Disagreement:
        i = picked[r]
        rows = rows_of(i)
        d, s, e = extent(i)
        said = [((words.text(doc[v], start[v], end[v]), types[label[v]]), votes.voters[v]) for v in rows]
        marks: dict[str, tuple[Mark, ...]] = {}
        for a, name in enumerate(names):
            bit = 1 << a
            marks[name] = tuple(mark for mark, who in said if who & bit)
        text = said[0][0][0] if len(said) == 1 else words.text(d, s, e)
        context = words.context(d, s, e, text, query.context)
        return Disagreement(documents[d], s, e, AGREE_CATEGORIES[kinds[i]], text, context, marks)

    return Disagreements(len(apart), counts, LazyRows(len(picked), build))


def _capped(picked: Sequence[int], kinds: list[int], cap: int | None) -> Sequence[int]:
    """The first ``cap`` of each category among ``picked``, in order (all without a cap)."""
    if cap is None:
        return picked
    seen: Counter[int] = Counter()
    kept = []
    for i in picked:
        seen[kinds[i]] += 1
        if seen[kinds[i]] <= cap:
            kept.append(i)
    return kept
