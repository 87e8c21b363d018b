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

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from itertools import combinations

from ._engine import speedups
from .analysis.agree_formulas import (
    ONE_LABEL,
    agreement_of,
    alpha_of,
    cohen_of,
    fleiss_of,
)
from .analysis.agree_result import (
    AGREE_CATEGORIES,
    Agreement,
    Annotator,
    Disagreement,
    Disagreements,
    LazyRows,
    PairScores,
)
from .compiled_agree_draws import bootstrap_tasks
from .compiled_agree_read import Column, FlatColumn, FlatRead
from .compiled_agree_tasks import Done, Task, run_tasks
from .plan import InstanceQuery, Metrics, MucOptions, Plan, Statistics
from .results import Result

__all__ = ["measured_flat"]

Named = list[tuple[str, FlatColumn]]  # each annotator's name and column
Scored = tuple[Result, bytes]  # a pair's result and its exact matches by document

Mark = tuple[str | None, str]


def _ints(b: bytes) -> list[int]:
    """int64 bytes as a list."""
    return memoryview(b).cast("q").tolist()


def _pair(read: FlatRead, a: FlatColumn, b: FlatColumn, labels: tuple[bytes, bytes]) -> Scored:
    """A pair scored as `nerve.score` scores it, and its exact tp, fp and fn by document (int64).

    The result comes from the compiled matcher. The entities both annotators hold are counted apart
    (`agree_apart`): the matcher sees only the rest. ``labels``: both columns' labels in one list
    of types.
    """
    from .compiled_spans import columns_result

    engine = speedups()
    assert engine is not None
    rest_a, rest_b, same, exact = engine.agree_apart(a.spans, b.spans, *labels, len(a.names), read.n_docs)
    gold, pred = (*rest_a, a.names, read.n_docs), (*rest_b, b.names, read.n_docs)
    result = columns_result(
        gold, pred, Plan(metrics=Metrics(1.0, MucOptions())), "conll", pairs=False, same=same
    )
    assert result is not None
    return result, exact


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


def _tasks(
    read: FlatRead, columns: Named, stats: Statistics | None, query: InstanceQuery, types: list[str]
) -> list[Task]:
    """The steps of `measured_flat` as tasks (`run_tasks`), first first.

    Each column decoded and its labels put in one list of types; the disagreements (they need only
    the columns: taken first, they leave the end to the bootstrap, which both threads share); the
    token counts (label pairs, labels and pairs of equal labels by document); each pair scored; the
    bootstrap (`bootstrap_tasks`).
    """
    engine = speedups()
    assert engine is not None
    where = {t: i for i, t in enumerate(types)}
    m, k = len(columns), len(types) + 1
    together = list(combinations(range(m), 2))

    def decoded(c: FlatColumn, done: Done) -> Column:
        c.decode()
        return (*c.spans[:3], engine.agree_relabel(c.spans[3], [where[t] for t in c.names]))

    def sides(done: Done) -> list[Column]:
        return [done["column", a] for a in range(m)]

    def scored(i: int, j: int, done: Done) -> Scored:
        labels = (done["column", i][3], done["column", j][3])
        return _pair(read, columns[i][1], columns[j][1], labels)

    def listed(done: Done) -> Disagreements:
        return _disagreements(read, columns, sides(done), types, query)

    everything = [("column", a) for a in range(m)]
    out: list[Task] = [(("column", a), (), partial(decoded, c)) for a, (_, c) in enumerate(columns)]
    out.append(("disagreements", everything, listed))
    out.append(("tokens", everything, lambda done: engine.agree_tokens(sides(done), read.doc_start, k)))
    out += [(("pair", i, j), (("column", i), ("column", j)), partial(scored, i, j)) for i, j in together]
    return out + bootstrap_tasks(stats, [("pair", i, j) for i, j in together], m, k)


def measured_flat(
    read: FlatRead, columns: list[tuple[str, FlatColumn]], stats: Statistics | None, query: InstanceQuery
) -> Agreement:
    """The agreement of the columns (see the module); `HandOver` where a column breaks its scheme."""
    m = len(columns)
    types = sorted({t for _, c in columns for t in c.names})
    k = len(types) + 1
    done = run_tasks(_tasks(read, columns, stats, query, types))
    matrices, same_b, by_label_b = done["tokens"]
    results = [done["pair", i, j][0] for i, j in combinations(range(m), 2)]
    pairs = _pairs(read, columns, results, matrices, k)
    same, by_label = _ints(same_b), _ints(by_label_b)
    tokens = read.tokens
    totals = [sum(by_label[c::k]) for c in range(k)]
    fleiss_value = fleiss_of(totals, sum(same) + m * tokens, tokens, m)
    s = [0] * (m - 1)
    s[m - 2] = sum(same)
    alpha_value = alpha_of([sum(totals), *s, *totals], m)
    people, warnings = _annotators(read, columns)
    intervals = done["intervals"]
    found = agreement_of(pairs, types, (fleiss_value, tokens), alpha_value, intervals, (read.n_docs, tokens))
    return replace(found, annotators=people, disagreements=done["disagreements"], warnings=warnings)


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
