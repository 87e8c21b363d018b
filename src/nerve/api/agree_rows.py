"""The rows `nerve.agree` lists and writes: the disagreements, and the consensus.

In: the annotators' `Votes` (`nerve.analysis.agree_votes`) and their `Annotations`. Out: the
disagreements as instances (text, context, who marked what), filtered as ``--instances`` filters
errors (categories, types, a cap per category, the order, words of context either side); and the
`Consensus`, its ties listed, written with the writers of `nerve convert` when ``out`` is given.
"""

from __future__ import annotations

import os
from collections import Counter

from .. import options
from ..analysis.agree_result import Consensus, Disagreement, Disagreements
from ..analysis.agree_votes import AGREE_CATEGORIES, Votes, clusters_apart, consensus
from ..errors import OptionError
from ..io import formats
from ..model.spans import SpanArray
from ..plan import Converting, InstanceQuery
from .agree_input import Annotations
from .convert_input import Corpus
from .convert_write import write_corpus

__all__ = ["check_agree_query", "consensus_of", "disagreements_of"]


def check_agree_query(query: InstanceQuery | None) -> InstanceQuery:
    """The query (every category by default); categories other than `AGREE_CATEGORIES` refused."""
    if query is None:
        return InstanceQuery(categories=AGREE_CATEGORIES)
    wanted = query.categories or AGREE_CATEGORIES
    for c in wanted:
        if c not in AGREE_CATEGORIES:
            detail = f"agreement lists the categories {', '.join(AGREE_CATEGORIES)}, got {c!r}"
            raise OptionError(options.flag("categories"), detail)
    return InstanceQuery(tuple(wanted), query.types, query.per_category, query.sort, query.context)


def _text(ann: Annotations, doc: int, start: int, end: int) -> str | None:
    if ann.texts is not None:
        return ann.texts[doc][start:end]
    base = int(ann.tokens.doc_start[doc])
    return " ".join(ann.tokens.words[base + start : base + end])


def _context(ann: Annotations, doc: int, start: int, end: int, words: int) -> str:
    """The cluster's text with ``words`` words either side, the cluster in ``[[ ]]``."""
    if ann.texts is not None:
        text, reach = ann.texts[doc], 64 * words  # a window wide enough for that many words
        left = " ".join(text[max(0, start - reach) : start].split()[-words:]) if words else ""
        right = " ".join(text[end : end + reach].split()[:words]) if words else ""
    else:
        base, stop = int(ann.tokens.doc_start[doc]), int(ann.tokens.doc_start[doc + 1])
        left = " ".join(ann.tokens.words[max(base, base + start - words) : base + start])
        right = " ".join(ann.tokens.words[base + end : min(stop, base + end + words)])
    inner = _text(ann, doc, start, end) or ""
    return " ".join(part for part in (left, f"[[{inner}]]", right) if part)


class _Columns:
    """The votes as Python lists, read once for the rows (not once per row from numpy)."""

    def __init__(self, votes: Votes, ann: Annotations) -> None:
        self.doc, self.start, self.end = votes.doc.tolist(), votes.start.tolist(), votes.end.tolist()
        self.label = [votes.labels[i] for i in votes.label.tolist()]
        self.voters = votes.voters.tolist()
        self.present = ann.present.T.tolist()
        self.ann = ann

    def extent(self, rows: list[int]) -> tuple[int, int, int]:
        return self.doc[rows[0]], min(self.start[r] for r in rows), max(self.end[r] for r in rows)

    def row(self, category: str, rows: list[int], words: int) -> Disagreement:
        ann = self.ann
        doc, start, end = self.extent(rows)
        marks = {}
        for a, name in enumerate(ann.names):
            if self.present[doc][a]:
                mine = [r for r in rows if self.voters[r][a]]
                marks[name] = tuple(
                    (_text(ann, doc, self.start[r], self.end[r]), self.label[r]) for r in mine
                )
        text, context = _text(ann, doc, start, end), _context(ann, doc, start, end, words)
        return Disagreement(ann.documents[doc], start, end, category, text, context, marks)


def _capped(picked: list[tuple[str, list[int]]], cap: int | None) -> list[tuple[str, list[int]]]:
    """The first ``cap`` of each category (all without a cap), in order."""
    if cap is None:
        return picked
    taken: Counter[str] = Counter()
    kept = []
    for c, rows in picked:
        taken[c] += 1
        if taken[c] <= cap:
            kept.append((c, rows))
    return kept


def disagreements_of(votes: Votes, ann: Annotations, query: InstanceQuery) -> Disagreements:
    """Every disagreeing cluster counted by category; those ``query`` picks listed."""
    found = clusters_apart(votes)
    by_category = Counter(category for _, category, _ in found)
    cols = _Columns(votes, ann)
    wanted = set(query.categories or AGREE_CATEGORIES)
    types = set(query.types) if query.types else None
    picked = [
        (c, rows)
        for _, c, rows in found
        if c in wanted and (types is None or any(cols.label[r] in types for r in rows))
    ]
    if query.sort == "frequency":  # the most frequent surfaces first; by position within one
        surface = [_text(ann, *cols.extent(rows)) for _, rows in picked]
        often = Counter(surface)
        order = sorted(range(len(picked)), key=lambda i: -often[surface[i]])
        picked = [picked[i] for i in order]
    listed = [cols.row(c, rows, query.context) for c, rows in _capped(picked, query.per_category)]
    counts = {c: by_category[c] for c in AGREE_CATEGORIES}
    return Disagreements(len(found), counts, tuple(listed))


def consensus_of(
    votes: Votes, ann: Annotations, rule: str, out: str | os.PathLike[str] | None, to: str | None
) -> Consensus:
    """The consensus of ``rule``, its ties named, written to ``out`` (in ``to``) when given."""
    spans, tie = consensus(votes, rule)
    tied = tuple(
        (
            ann.documents[int(votes.doc[r])],
            _text(ann, int(votes.doc[r]), int(votes.start[r]), int(votes.end[r])),
            votes.labels[int(votes.label[r])],
            tuple(n for a, n in enumerate(ann.names) if votes.voters[r, a]),
        )
        for r in tie.nonzero()[0].tolist()
    )
    written = None
    if out is not None:
        written = _write(spans, ann, os.fspath(out), to)
    return Consensus(rule, len(spans), len(tied), tied, written)


def _write(spans: SpanArray, ann: Annotations, out: str, to: str | None) -> str:
    """Write the consensus ``spans`` to ``out`` in ``to`` (or the format its extension names)."""
    target = to or {".conll": "conll", ".jsonl": "jsonl"}.get(os.path.splitext(out)[1], "jsonl")
    options.one_of(target, formats.targets(), "to")
    if ann.texts is not None:
        corpus = Corpus(spans, list(ann.texts), None, list(ann.documents), "jsonl")
    else:
        corpus = Corpus(spans, None, ann.tokens, list(ann.documents), "conll")
    write_corpus(corpus, (ann.sources[0], out), Converting(target, "IOB2"))
    return out
