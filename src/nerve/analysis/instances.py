"""Instance lists: every error as a row, with where it is and what it says.

In: the `Aligned` corpus and its `Categories`. Out: `Instances`, one `Instance` per error: each gold
entity that is not correct (a type, boundary or boundary_type pair, with its prediction, or a
missed entity) and each spurious prediction. A row gives the document, the sentence, the file and
line (tagged input; for brat input, the document's ``.ann`` file), the offsets (token offsets
within the sentence for tagged input, the file's offsets within the document for span files), the
category and its detail (boundary subtype, or
``overlapping``), both types and texts, and a context window of tokens with the gold entity (or
the prediction) in ``[[...]]``.

Rows can be filtered by category and type (a row matches a type when its gold or its predicted
type is one of them), sorted by position or by frequency (within each category, the surface forms
that occur most often first: the most-missed forms lead the missed rows), and capped per category.
`Instances.totals` counts the rows per category before the cap, so a capped list says what it left out.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..errors import InputError
from ..io.tools.brat_files import brat_documents
from .aligned import Aligned
from .errors import BOUNDARY, CATEGORIES, CORRECT, MISSED, SPURIOUS, Categories
from .query import SORTS, InstanceQuery, check_query

if TYPE_CHECKING:
    from ..model.arrays import Int

__all__ = [
    "SORTS",
    "Instance",
    "InstanceQuery",
    "Instances",
    "instances",
    "instances_of",
]  # SORTS, InstanceQuery: from query


@frozen
class Instance:
    """One error. Offsets are half-open; a side without an entity has ``None`` there."""

    category: str
    detail: str
    document: int
    sentence: int
    source: str
    line: int | None
    gold_type: str | None
    pred_type: str | None
    gold_start: int | None
    gold_end: int | None
    pred_start: int | None
    pred_end: int | None
    gold_text: str | None
    pred_text: str | None
    context: str | None

    def to_dict(self) -> dict[str, Any]:
        """The row as a flat mapping (the JSONL and CSV fields, in this order)."""
        return asdict(self)


FIELDS = tuple(Instance.__dataclass_fields__)


@frozen
class Instances:
    """The rows kept, and how many errors of each category matched the filters before the cap."""

    rows: list[Instance]
    totals: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        """``{"totals": {category: n}, "shown": {category: n}, "rows": [...]}``."""
        shown = Counter(r.category for r in self.rows)
        return {
            "totals": self.totals,
            "shown": {c: shown.get(c, 0) for c in self.totals},
            "rows": [r.to_dict() for r in self.rows],
        }


class _Text:
    """Entity texts and context windows: of tokens for tagged input, of document texts for spans."""

    def __init__(self, aligned: Aligned, context: int):
        self.aligned, self.context = aligned, context
        tokens = aligned.tokens
        self.words: list[str] | None = None
        none: Int = np.zeros(0, dtype=np.int64)
        self.bounds: tuple[Int, Int] = (none, none)
        if tokens is not None and tokens.words is not None:
            self.words = [tokens.vocabulary[i] for i in tokens.words.tolist()]
            self.bounds = tokens.sentence_bounds()

    def _document(self, doc: int) -> str | tuple[str, ...] | None:
        texts = self.aligned.texts
        return texts[doc] if texts is not None and doc < len(texts) else None

    def text(self, doc: int, start: int, end: int) -> str | None:
        """What offsets ``start``..``end`` cover (tokens joined by spaces), if known."""
        if self.words is not None:
            return " ".join(self.words[start:end])
        text = self._document(doc)
        if isinstance(text, str):
            return text[start:end]
        return " ".join(text[start:end]) if text is not None else None

    def window(self, doc: int, sentence: int, start: int, end: int) -> str | None:
        """The entity in ``[[...]]`` with ``context`` words (tokens) on each side, if known."""
        k = self.context
        if self.words is not None:
            lo = max(int(self.bounds[0][sentence]), start - k)
            hi = min(int(self.bounds[1][sentence]), end + k)
            w = self.words
            return " ".join([*w[lo:start], "[[" + " ".join(w[start:end]) + "]]", *w[end:hi]])
        text = self._document(doc)
        if text is None:
            return None
        if isinstance(text, str):
            before = text[:start].split()[-k:] if k else []
            after = text[end:].split()[:k] if k else []
            return " ".join([*before, f"[[{text[start:end]}]]", *after])
        return " ".join(
            [*text[max(0, start - k) : start], "[[" + " ".join(text[start:end]) + "]]", *text[end : end + k]]
        )


class _Rows:
    """Makes the `Instance` of a gold entity (with its partner) or of a spurious prediction."""

    def __init__(self, aligned: Aligned, cats: Categories, context: int):
        self.aligned, self.cats, self.text = aligned, cats, _Text(aligned, context)
        self.files = _brat_files(aligned)
        self.sentences = (aligned.sentence_of(aligned.gold), aligned.sentence_of(aligned.pred))
        self.base = self.text.bounds[0] if self.text.words is not None else None

    def side(self, spans: Any, j: int, shift: int) -> tuple[str | None, int | None, int | None, str | None]:
        """Type, offsets within the sentence, and text of row ``j`` of ``spans`` (none for -1)."""
        if j < 0:
            return None, None, None, None
        a, b = int(spans.start[j]), int(spans.end[j])
        text = self.text.text(int(spans.doc[j]), a, b)
        return self.aligned.labels[int(spans.label[j])], a - shift, b - shift, text

    def detail(self, gi: int, pi: int, code: int) -> str:
        """The boundary subtype of a pair, or ``overlapping`` for an unpaired entity that overlaps."""
        cats = self.cats
        if gi >= 0 and cats.boundary[gi] >= 0:
            return BOUNDARY[int(cats.boundary[gi])]
        if gi >= 0 and code == MISSED and cats.gold_overlapping[gi]:
            return "overlapping"
        if gi < 0 and cats.pred_overlapping[pi]:
            return "overlapping"
        return ""

    def row(self, gi: int, pi: int) -> Instance:
        """The row of gold entity ``gi`` and prediction ``pi`` (either may be -1)."""
        g, p, tokens = self.aligned.gold, self.aligned.pred, self.aligned.tokens
        first, k, which = (g, gi, 0) if gi >= 0 else (p, pi, 1)
        s, e = int(first.start[k]), int(first.end[k])
        sentence = int(self.sentences[which][k])
        shift = int(self.base[sentence]) if self.base is not None else 0
        code = int(self.cats.gold[gi]) if gi >= 0 else SPURIOUS
        gt, gs, ge, gx = self.side(g, gi, shift)
        pt, ps, pe, px = self.side(p, pi, shift)
        return Instance(
            category=CATEGORIES[code],
            detail=self.detail(gi, pi, code),
            document=int(first.doc[k]),
            sentence=sentence,
            source=self.files[which][int(first.doc[k])] if self.files else self.aligned.sources[which],
            line=int(tokens.line[s]) if tokens is not None else None,
            gold_type=gt,
            pred_type=pt,
            gold_start=gs,
            gold_end=ge,
            pred_start=ps,
            pred_end=pe,
            gold_text=gx,
            pred_text=px,
            context=self.text.window(int(first.doc[k]), sentence, s, e),
        )


def _brat_files(aligned: Aligned) -> tuple[list[str], list[str]] | None:
    """The ``.ann`` file of each document on each side, for brat input; ``None`` for other input.

    Predicted documents are paired with the gold ones by name (`nerve.io.tools.brat_files`).
    """
    gold, pred = aligned.sources
    if aligned.tokens is not None or not (os.path.isdir(gold) or gold.endswith(".ann")):
        return None
    try:
        keys = [key for key, _, _ in brat_documents(gold)]
    except InputError:  # changed since it was read: the directory names the documents
        return None
    if len(keys) != aligned.n_docs:
        return None

    def files(root: str) -> list[str]:
        if not os.path.isdir(root):
            return [root] * len(keys)
        return [os.path.join(root, *key.split("/")) + ".ann" for key in keys]

    return files(gold), files(pred)


def _rows(aligned: Aligned, cats: Categories, keep_gold: Int, keep_pred: Int, context: int) -> list[Instance]:
    """The rows of gold entities ``keep_gold`` (with their partners) and spurious ``keep_pred``."""
    make = _Rows(aligned, cats, context)
    out = [make.row(i, int(cats.gold_partner[i])) for i in keep_gold.tolist()]
    return out + [make.row(-1, i) for i in keep_pred.tolist()]


def instances(
    aligned: Aligned,
    cats: Categories,
    *,
    categories: Sequence[str] | None = None,
    types: Sequence[str] | None = None,
    per_category: int | None = None,
    sort: str = "position",
    context: int = 5,
) -> Instances:
    """The error rows of ``aligned``, filtered, sorted and capped (see the module)."""
    asked = (
        tuple(categories) if categories is not None else None,
        tuple(types) if types is not None else None,
    )
    return instances_of(aligned, cats, InstanceQuery(*asked, per_category, sort, context))


def instances_of(aligned: Aligned, cats: Categories, query: InstanceQuery) -> Instances:
    """The error rows ``query`` asks for: `instances`, its options in one record."""
    types, per_category, sort, context = query.types, query.per_category, query.sort, query.context
    wanted = check_query(query.categories, sort, per_category, context)
    codes = np.asarray([CATEGORIES.index(c) for c in wanted], dtype=np.int64)
    g, p = aligned.gold, aligned.pred
    keep_g = np.isin(cats.gold, codes[codes != SPURIOUS])
    keep_p = (cats.pred == SPURIOUS) & bool((codes == SPURIOUS).any())
    if CORRECT not in codes:
        keep_g &= cats.gold != CORRECT
    if types:
        ids = np.asarray([i for i, n in enumerate(aligned.labels) if n in set(types)], dtype=np.int64)
        partner = np.where(cats.gold_partner >= 0, cats.gold_partner, 0)
        partner_type = np.where(cats.gold_partner >= 0, p.label[partner] if len(p) else -1, -1)
        keep_g &= np.isin(g.label, ids) | np.isin(partner_type, ids)
        keep_p &= np.isin(p.label, ids)
    # Position order: document, then offset; gold rows and spurious rows interleaved by position.
    rows = _rows(aligned, cats, np.flatnonzero(keep_g), np.flatnonzero(keep_p), context)
    rows.sort(key=lambda r: (r.document, r.sentence, _first(r)))
    totals = Counter(r.category for r in rows)
    if sort == "frequency":
        surface = Counter((r.category, _surface(r)) for r in rows)
        rows.sort(key=lambda r: (wanted.index(r.category), -surface[(r.category, _surface(r))], _surface(r)))
    if per_category is not None:
        taken: Counter[str] = Counter()
        kept = []
        for r in rows:
            if taken[r.category] < per_category:
                taken[r.category] += 1
                kept.append(r)
        rows = kept
    return Instances(rows, {c: totals.get(c, 0) for c in wanted})


def _first(r: Instance) -> int:
    return r.gold_start if r.gold_start is not None else r.pred_start or 0


def _surface(r: Instance) -> str:
    """The text a row is about: the gold entity's, or the prediction's for a spurious row."""
    text = r.gold_text if r.gold_type is not None else r.pred_text
    if text is not None:
        return text
    side = (
        ("gold", r.gold_type, r.gold_start, r.gold_end)
        if r.gold_type
        else ("pred", r.pred_type, r.pred_start, r.pred_end)
    )
    return f"{side[0]}:{side[1]}:{side[2]}-{side[3]}"
