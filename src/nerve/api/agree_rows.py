"""The rows `nerve.agree` lists and writes: the disagreements, and the consensus.

In: the annotators' `Votes` (`nerve.analysis.agree_votes`) and their `AnnotatorSpans`. Out: the
disagreements as instances (text, context, who marked what), filtered as ``--instances`` filters
errors (categories, types, a cap per category, the order, words of context either side); and the
`Consensus`, its ties listed, written with the writers of `nerve convert` when ``out`` is given.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from functools import partial
from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from .. import options
from ..analysis.agree_query import check_agree_query
from ..analysis.agree_result import Consensus, Disagreement, Disagreements
from ..analysis.agree_votes import AGREE_CATEGORIES, Votes, categories_of, consensus
from ..errors import OptionError, plural
from ..io import formats
from ..model import nesting
from ..model.spans import SpanArray
from ..plan import Converting, InstanceQuery
from .agree_input import AnnotatorSpans
from .convert_input import TAG_FORMATS, Corpus
from .convert_write import write_corpus

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int

__all__ = ["check_agree_query", "consensus_of", "disagreements_of"]

Mark = tuple[str | None, str]  # an entity's text and type


class _Texts:
    """The texts of entities and their contexts, the documents' token offsets read into Python once."""

    def __init__(self, ann: AnnotatorSpans) -> None:
        self.texts, self.words = ann.texts, ann.tokens.words
        self.base = ann.tokens.doc_start.tolist()

    def text(self, doc: int, start: int, end: int) -> str | None:
        if self.texts is not None:
            return self.texts[doc][start:end]
        base = self.base[doc]
        if end - start == 1:  # " ".join of one word is the word
            return self.words[base + start]
        return " ".join(self.words[base + start : base + end])

    def context(self, doc: int, start: int, end: int, inner: str | None, words: int) -> str:
        """The text ``inner`` of ``start:end`` with ``words`` words either side, it in ``[[ ]]``."""
        if self.texts is not None:
            text = self.texts[doc]
            left = " ".join(_words_before(text, start, words)) if words else ""
            right = " ".join(_words_after(text, end, words)) if words else ""
        else:
            base, stop = self.base[doc], self.base[doc + 1]
            left = " ".join(self.words[max(base, base + start - words) : base + start])
            right = " ".join(self.words[base + end : min(stop, base + end + words)])
        return " ".join(part for part in (left, f"[[{inner or ''}]]", right) if part)


def _words_before(text: str, start: int, words: int) -> list[str]:
    """The last ``words`` whole words of ``text[:start]``, from a window widened until it holds them."""
    reach = 64 * words
    while True:
        low = max(0, start - reach)
        found = text[low:start].split()
        if low == 0 or len(found) > words:  # more than asked: the first, maybe cut, is not taken
            return found[-words:]
        reach *= 2


def _words_after(text: str, end: int, words: int) -> list[str]:
    """The first ``words`` whole words of ``text[end:]``, from a window widened until it holds them."""
    reach = 64 * words
    while True:
        found = text[end : end + reach].split()
        if end + reach >= len(text) or len(found) > words:
            return found[:words]
        reach *= 2


def _picked(votes: Votes, apart: Int, kinds: Int, query: InstanceQuery) -> Int:
    """The disagreeing clusters (their places in ``apart``) that ``query``'s categories and types pick."""
    wanted = [AGREE_CATEGORIES.index(c) for c in query.categories or AGREE_CATEGORIES]
    keep = np.isin(kinds, wanted)
    if query.types:
        typed = np.isin(np.asarray(votes.labels, dtype=object), list(query.types))
        hit = typed[votes.label] if len(votes.labels) else np.zeros(0, dtype=np.bool_)
        n = int(votes.cluster[-1]) + 1 if len(votes.cluster) else 0
        keep &= np.bincount(votes.cluster, weights=hit, minlength=n)[apart] > 0
    return np.flatnonzero(keep)


def _capped(kinds: Int, cap: int | None) -> Int:
    """The places of the first ``cap`` of each category in ``kinds`` (all without a cap), in order."""
    if cap is None:
        return np.arange(kinds.shape[0], dtype=np.int64)
    by_kind = np.argsort(kinds, kind="stable")
    sorted_kinds = kinds[by_kind]
    first = np.searchsorted(sorted_kinds, sorted_kinds)  # where each one's category begins
    rank = np.empty(kinds.shape[0], dtype=np.int64)
    rank[by_kind] = np.arange(kinds.shape[0]) - first
    return np.flatnonzero(rank < cap)


class _Rows:
    """The disagreement rows of some clusters, built from Python lists of just their votes."""

    def __init__(self, votes: Votes, ann: AnnotatorSpans, clusters: Int) -> None:
        n = int(votes.cluster[-1]) + 1 if len(votes.cluster) else 0
        first = np.searchsorted(votes.cluster, np.arange(n + 1))
        lo, hi = first[clusters], first[clusters + 1]
        ends = np.maximum.reduceat(votes.end, first[:-1]) if n else np.zeros(0, dtype=np.int64)
        # the votes are sorted by start within a document: a cluster starts at its first entity's
        self.doc, self.start = votes.doc[lo].tolist(), votes.start[lo].tolist()
        self.end = ends[clusters].tolist()
        sizes = hi - lo
        rows = np.repeat(lo - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        self.bounds = np.cumsum(np.concatenate([[0], sizes])).tolist()
        names = [votes.labels[i] for i in votes.label[rows].tolist()]
        docs, starts, ends_ = votes.doc[rows].tolist(), votes.start[rows].tolist(), votes.end[rows].tolist()
        texts = self.texts = _Texts(ann)
        self.marks = [(texts.text(d, s, e), y) for d, s, e, y in zip(docs, starts, ends_, names, strict=True)]
        self.who = _bits(votes.voters[rows])
        self.present = [
            [(1 << a, name) for a, (name, here) in enumerate(zip(ann.names, column, strict=True)) if here]
            for column in ann.present.T.tolist()
        ]
        self.patterns: dict[
            tuple[object, ...], list[tuple[str, Callable[[list[Mark]], tuple[Mark, ...]]]]
        ] = {}
        self.ann = ann

    def text(self, i: int) -> str | None:
        return self.texts.text(self.doc[i], self.start[i], self.end[i])

    def row(self, i: int, category: str, words: int) -> Disagreement:
        ann, doc, start, end = self.ann, self.doc[i], self.start[i], self.end[i]
        lo, hi = self.bounds[i], self.bounds[i + 1]
        marks: dict[str, tuple[Mark, ...]]
        if hi - lo == 1:  # most clusters: one entity, marked by some
            one: tuple[Mark, ...] = (self.marks[lo],)
            who = self.who[lo]
            marks = {name: one if who & bit else () for bit, name in self.present[doc]}
        else:  # who marked what: the same few patterns recur, each worked out once
            here = self.present[doc]
            key = (tuple(self.who[lo:hi]), sum(bit for bit, _ in here))  # who marked what, who could
            takes = self.patterns.get(key)
            if takes is None:
                takes = self.patterns[key] = _takes(self.who[lo:hi], here)
            ms = self.marks[lo:hi]
            marks = {name: take(ms) for name, take in takes}
        text = self.text(i)
        context = self.texts.context(doc, start, end, text, words)
        return Disagreement(ann.documents[doc], start, end, category, text, context, marks)


def _takes(
    who: list[int], here: list[tuple[int, str]]
) -> list[tuple[str, Callable[[list[Mark]], tuple[Mark, ...]]]]:
    """For each annotator ``here`` (bit, name), what picks their marks from a cluster's, in order."""
    out: list[tuple[str, Callable[[list[Mark]], tuple[Mark, ...]]]] = []
    for bit, name in here:
        mine = [r for r, w in enumerate(who) if w & bit]
        out.append((name, itemgetter(*mine) if len(mine) > 1 else partial(_one_or_none, mine)))
    return out


def _one_or_none(mine: list[int], marks: list[Mark]) -> tuple[Mark, ...]:
    return (marks[mine[0]],) if mine else ()


def _bits(voters: Bool) -> list[int]:
    """Who marked each entity, as one int each: bit ``a`` for annotator ``a``."""
    if voters.shape[1] <= 62:
        return list((voters.astype(np.int64) @ np.left_shift(1, np.arange(voters.shape[1]))).tolist())
    return [sum(1 << a for a, v in enumerate(row) if v) for row in voters.tolist()]


def disagreements_of(votes: Votes, ann: AnnotatorSpans, query: InstanceQuery) -> Disagreements:
    """Every disagreeing cluster counted by category; those ``query`` picks listed."""
    apart, kinds = categories_of(votes)
    counts = {
        c: int(n) for c, n in zip(AGREE_CATEGORIES, np.bincount(kinds, minlength=4).tolist(), strict=True)
    }
    picked = _picked(votes, apart, kinds, query)
    if query.sort == "frequency":  # the most frequent surfaces first; by position within one
        rows = _Rows(votes, ann, apart[picked])
        surface = [rows.text(i) for i in range(picked.shape[0])]
        often = Counter(surface)
        picked = picked[sorted(range(len(picked)), key=lambda i: -often[surface[i]])]
    listed = picked[_capped(kinds[picked], query.per_category)]
    rows = _Rows(votes, ann, apart[listed])
    categories = [AGREE_CATEGORIES[k] for k in kinds[listed].tolist()]
    out = tuple(rows.row(i, c, query.context) for i, c in enumerate(categories))
    return Disagreements(int(apart.shape[0]), counts, out)


def consensus_of(
    votes: Votes, ann: AnnotatorSpans, rule: str, out: str | os.PathLike[str] | None, to: str | None
) -> Consensus:
    """The consensus of ``rule``, its ties named, written to ``out`` (in ``to``) when given."""
    spans, tie = consensus(votes, rule)
    texts = _Texts(ann)
    tied = tuple(
        (
            ann.documents[int(votes.doc[r])],
            texts.text(int(votes.doc[r]), int(votes.start[r]), int(votes.end[r])),
            votes.labels[int(votes.label[r])],
            tuple(n for a, n in enumerate(ann.names) if votes.voters[r, a]),
        )
        for r in tie.nonzero()[0].tolist()
    )
    written = None
    if out is not None:
        written = _write(spans, ann, os.fspath(out), to)
    return Consensus(rule, len(spans), len(tied), tied, written)


def _write(spans: SpanArray, ann: AnnotatorSpans, out: str, to: str | None) -> str:
    """Write the consensus ``spans`` to ``out`` in ``to`` (or the format its extension names)."""
    target = to or {".conll": "conll", ".jsonl": "jsonl"}.get(os.path.splitext(out)[1], "jsonl")
    options.one_of(target, formats.targets(), "to")
    nested = int(np.count_nonzero(nesting.roles(spans) != 0)) if target in TAG_FORMATS else 0
    if nested:  # convert's fix, --flatten, is not an option of agree: name the targets that hold them
        detail = (
            f"{out}: {plural(nested, 'entity', 'entities')} of the consensus nest or overlap, which "
            f"{target} tags cannot hold; {options.setting('to', 'jsonl')} or {options.setting('to', 'brat')} "
            "writes them all"
        )
        raise OptionError(options.flag("to"), detail)
    if ann.texts is not None:
        corpus = Corpus(spans, list(ann.texts), None, list(ann.documents), "jsonl")
    else:
        corpus = Corpus(spans, None, ann.tokens, list(ann.documents), "conll")
    write_corpus(corpus, (ann.sources[0], out), Converting(target, "IOB2"))
    return out
