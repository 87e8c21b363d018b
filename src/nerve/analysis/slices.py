"""Slices: exact-match precision, recall and F1 of parts of the corpus.

In: the `Aligned` corpus, the slice names (`nerve.options.slices`), and for ``seen`` a training
file's entities (`surfaces.Train`), for the meta slices the documents' attributes
(`sidecars.Meta`). Out: `Slices`, one `SliceRow` (gold, predicted and exactly matched counts, and
P/R/F1 as fractions) per band of every slice, and per-unit counts for confidence intervals.

The slices and their bands:

- ``length``: the entity's length, 1, 2, 3, 4 or 5+ (tokens for CoNLL input; for span files the
  difference of the offsets, in the file's own units, characters or tokens: ``length_unit`` says
  ``offsets`` then).
- ``type``: the entity's type (its counts are those of ``result.per_type``).
- ``sentence_length``: the length in tokens of the sentence holding the entity: 1-10, 11-20,
  21-40, 41+ (CoNLL input only).
- ``document``: the document, numbered from 0 in file order.
- ``frequency``: how often the entity's surface form (its words, compared exactly) is the
  surface of a gold entity of the corpus, of any type: 0, 1, 2-5, 6-20, 21+ (CoNLL input only).
- ``seen``: ``seen`` when the entity's (surface, type) is that of an entity of the training file,
  else ``unseen`` (CoNLL input only).
- ``meta:NAME``: the value of the document attribute NAME in the sidecar.
- ``nesting``: the entity's role among the entities of its own side (`nerve.model.nesting.roles`):
  ``flat``, ``outermost`` or ``inner``. A matched pair can straddle two roles, so each band also
  counts its matched predictions (``pred_tp``): recall is tp / gold, precision pred_tp / pred.
- ``attr:NAME``: the entity's own value of its attribute NAME, split so (`nerve.analysis.attr_slices`).

Where an entity goes: every slice is a function of the entity's own document, span and type, so
a predicted entity is placed by its own span exactly as a gold entity is (a prediction's surface
is looked up in the gold and training counts too; one no gold entity has goes to band ``0`` of
``frequency``). So precision is meaningful in every band, and an exactly matched pair always
falls in one band: tp, gold and predicted counts add up over the bands of any slice to the
corpus's exact-match counts. Duplicated spans match at most once each, as in exact scoring.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import options
from .._frozen import frozen
from ..errors import OptionError
from ..matching.exact import exact_matched
from ..model.counts import Counts, Score, fbeta
from ..model.nesting import ROLES, roles
from .aligned import Aligned
from .attr_slices import PREFIX, attribute_bands
from .sidecars import Meta, read_meta
from .surfaces import Train, TrainReading, read_train, seen, surface_ids

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int

__all__ = [
    "SliceKeys",
    "SliceRow",
    "Slices",
    "slice_counts",
    "slice_files",
    "slice_keys",
    "slice_unit_counts",
]

LENGTH_BANDS = ("1", "2", "3", "4", "5+")
SENTENCE_BANDS = ((11, 21, 41), ("1-10", "11-20", "21-40", "41+"))
FREQUENCY_BANDS = ((1, 2, 6, 21), ("0", "1", "2-5", "6-20", "21+"))
TOKEN_SLICES = ("sentence_length", "frequency", "seen")  # they need the tokens of CoNLL input
SPLIT_SLICES = ("nesting",)  # the two entities of a matched pair can fall in different bands


@frozen
class SliceRow:
    """The exact-match counts of one band of a slice, and its scores (fractions in 0..1)."""

    gold: int
    pred: int
    tp: int
    pred_tp: int | None = None  # matched predictions, where they differ from matched gold (nesting)

    @property
    def fp(self) -> int:
        """Predictions in the band without an exact match."""
        return self.pred - (self.tp if self.pred_tp is None else self.pred_tp)

    @property
    def fn(self) -> int:
        """Gold entities in the band without an exact match."""
        return self.gold - self.tp

    @property
    def score(self) -> Score:
        """Precision (tp / pred), recall (tp / gold) and F1, as exact counts score them."""
        score = Counts(self.tp, self.fp, self.fn).score()
        if self.pred_tp is None:
            return score
        precision = Counts(self.pred_tp, self.fp, self.fn).score().precision  # pred_tp / pred
        return replace(score, precision=precision, f1=fbeta(precision, score.recall))

    @property
    def precision(self) -> float:
        """The share of predictions matched (0 when nothing was predicted)."""
        return self.score.precision

    @property
    def recall(self) -> float:
        """The share of gold entities matched (0 when there is nothing to find)."""
        return self.score.recall

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall."""
        return self.score.f1

    def to_dict(self) -> dict[str, Any]:
        """``{"gold", "pred", "tp", "precision", "recall", "f1"}``, and ``pred_tp`` where counted."""
        return {
            "gold": self.gold,
            "pred": self.pred,
            "tp": self.tp,
            **({} if self.pred_tp is None else {"pred_tp": self.pred_tp}),
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


@frozen(eq=False)
class SliceKeys:
    """The band of every entity in one slice.

    Attributes:
        name: the slice (``length``, ``meta:genre``...).
        labels: the bands, in order.
        gold: the band (index into ``labels``) of each gold entity.
        pred: the band of each predicted entity.
    """

    name: str
    labels: tuple[str, ...]
    gold: Int
    pred: Int


@frozen(eq=False)
class Slices:
    """The counts of every band of every slice asked for.

    Attributes:
        rows: slice name to band to `SliceRow`, in the order asked for and band order.
        length_unit: what ``length`` counts: ``tokens``, or ``offsets`` (a span file's units).
        keys: the band of every entity per slice (not in ``to_dict``), for `unit_counts`.
        matched: whether each gold and each predicted entity is exactly matched (not in ``to_dict``).
        intervals: bootstrap intervals by slice and band (`nerve.analysis.slice_intervals`),
            when asked for; ``to_dict`` gives each band's as ``"ci"``.
    """

    rows: dict[str, dict[str, SliceRow]]
    length_unit: str = "tokens"
    keys: dict[str, SliceKeys] = field(default_factory=dict, repr=False)
    matched: tuple[Bool, Bool] | None = field(default=None, repr=False)
    intervals: dict[str, Any] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"slices": {SLICE: {BAND: {"gold", "pred", "tp", "precision", "recall", "f1"}}}}``.

        With intervals, each band also has ``"ci": {"precision"|"recall"|"f1": [low, high]}``.

        With ``length``, ``"slices_length_unit"`` (``tokens`` or ``offsets``) too.
        """
        ci = self.intervals or {}
        out: dict[str, Any] = {"slices": {}}
        for n, bands in self.rows.items():
            rows = {b: r.to_dict() for b, r in bands.items()}
            for b, interval in ci.get(n, {}).items():
                rows[b]["ci"] = interval.to_dict()
            out["slices"][n] = rows
        if "length" in self.rows:
            out["slices_length_unit"] = self.length_unit
        return out

    def unit_counts(self, aligned: Aligned, name: str, unit: str) -> tuple[tuple[str, ...], Int]:
        """`slice_unit_counts` of the slice ``name`` of this corpus, from the kept bands."""
        assert self.matched is not None
        return _unit_counts(aligned, self.keys[name], self.matched, unit)


def _bands(values: Int, edges: Sequence[int]) -> Int:
    return np.searchsorted(np.asarray(edges, dtype=np.int64), values, side="right").astype(np.int64)


def _both(aligned: Aligned, fn: Any) -> tuple[Int, Int]:
    return fn(aligned.gold), fn(aligned.pred)


def slice_keys(
    aligned: Aligned, name: str, train: Train | None = None, meta: Meta | None = None
) -> SliceKeys:
    """The band of every gold and predicted entity in the slice ``name`` (see the module docstring).

    Raises:
        OptionError: a slice that needs the tokens (or words) of CoNLL input on input without
            them, ``seen`` without ``train``, a meta slice without ``meta`` or its attribute.
    """
    _check_input(aligned, name)
    tokens = aligned.tokens
    if name == "length":
        return SliceKeys(name, LENGTH_BANDS, *_both(aligned, lambda s: np.minimum(s.end - s.start, 5) - 1))
    if name == "type":
        labels = tuple(sorted(aligned.labels))
        rank = np.asarray([labels.index(t) for t in aligned.labels], dtype=np.int64)
        return SliceKeys(name, labels, *_both(aligned, lambda s: rank[s.label] if rank.shape[0] else s.label))
    if name == "document":
        return SliceKeys(name, tuple(map(str, range(aligned.n_docs))), aligned.gold.doc, aligned.pred.doc)
    if name == "sentence_length":
        assert tokens is not None
        first, last = tokens.sentence_bounds()
        size = last - first
        edges, labels = SENTENCE_BANDS
        g, p = _both(aligned, lambda s: _bands(size[tokens.sentence[s.start]], edges))
        return SliceKeys(name, labels, g, p)
    if name == "frequency":
        return _frequency(aligned)
    if name == "seen":
        if train is None:
            raise OptionError(
                options.flag("slices"), f"seen needs a training file: give {options.setting('train', 'FILE')}"
            )
        assert tokens is not None
        assert tokens.words is not None
        words, vocabulary, labels = tokens.words, tokens.vocabulary, aligned.labels
        g, p = _both(aligned, lambda s: (~seen(words, vocabulary, labels, s, train)).astype(np.int64))
        return SliceKeys(name, ("seen", "unseen"), g, p)
    if name == "nesting":
        return SliceKeys(name, ROLES, *_both(aligned, roles))
    if name.startswith(PREFIX):
        return SliceKeys(name, *attribute_bands(aligned, name))
    return _meta(aligned, name, meta)


def _check_input(aligned: Aligned, name: str) -> None:
    """Refuse a slice that needs the sentences or words of CoNLL input on input without them."""
    tokens = aligned.tokens
    if name in TOKEN_SLICES and (tokens is None or (tokens.words is None and name != "sentence_length")):
        what = "sentences" if name == "sentence_length" else "words"
        detail = f"{name} needs the {what} of CoNLL input, which this input does not have"
        raise OptionError(options.flag("slices"), detail)


def _frequency(aligned: Aligned) -> SliceKeys:
    """Bands of how many gold entities share each entity's surface form."""
    assert aligned.tokens is not None
    assert aligned.tokens.words is not None
    gold, pred = aligned.gold, aligned.pred
    ids = surface_ids(
        aligned.tokens.words, np.concatenate([gold.start, pred.start]), np.concatenate([gold.end, pred.end])
    )
    ng = len(gold)
    counts = np.bincount(ids[:ng], minlength=int(ids.max(initial=-1)) + 1)
    edges, labels = FREQUENCY_BANDS
    return SliceKeys("frequency", labels, _bands(counts[ids[:ng]], edges), _bands(counts[ids[ng:]], edges))


def _meta(aligned: Aligned, name: str, meta: Meta | None) -> SliceKeys:
    """Bands of a document attribute: its values, sorted."""
    column = name.partition(":")[2]
    if meta is None:
        raise OptionError(
            options.flag("slices"),
            f"{name} needs a sidecar of document attributes: give {options.setting('meta', 'FILE')}",
        )
    if column not in meta.columns:
        have = ", ".join(meta.columns) or "none"
        raise OptionError(options.flag("slices"), f"{meta.source} has no attribute {column!r}; it has {have}")
    values = meta.columns[column]
    labels = tuple(sorted(set(values)))
    index = {v: i for i, v in enumerate(labels)}
    per_doc = np.asarray([index[v] for v in values], dtype=np.int64)  # one step per document
    g, p = _both(aligned, lambda s: per_doc[s.doc] if per_doc.shape[0] else s.doc)
    return SliceKeys(name, labels, g, p)


def _expand(names: Sequence[str], meta: Meta | None) -> list[str]:
    """``meta`` as one ``meta:NAME`` slice per attribute of the sidecar."""
    out: list[str] = []
    for name in names:
        out += [f"meta:{c}" for c in meta.columns] if name == "meta" and meta is not None else [name]
    return list(dict.fromkeys(out))


def slice_counts(
    aligned: Aligned,
    names: Sequence[str],
    train: Train | None = None,
    meta: Meta | None = None,
) -> Slices:
    """The counts of every band of the slices ``names`` (``meta`` is every attribute of ``meta``).

    ``length`` counts tokens for CoNLL input and offsets for span files.
    """
    matched = exact_matched(aligned.gold, aligned.pred)
    keys = {n: slice_keys(aligned, n, train, meta) for n in _expand(names, meta)}
    rows = {}
    for name, k in keys.items():
        size = len(k.labels)
        sides = (k.gold, k.pred, k.gold[matched[0]], k.pred[matched[1]])
        g, p, t, pt = ([int(x) for x in np.bincount(b, minlength=size)] for b in sides)
        split = name in SPLIT_SLICES or name.startswith(PREFIX)  # a matched pair can straddle two bands
        rows[name] = {b: SliceRow(g[i], p[i], t[i], pt[i] if split else None) for i, b in enumerate(k.labels)}
    unit = "tokens" if aligned.tokens is not None else "offsets"
    return Slices(rows, unit, keys, matched)


def slice_files(
    aligned: Aligned,
    names: Sequence[str],
    train: str | os.PathLike[str] | None,
    meta: str | os.PathLike[str] | None,
    reading: TrainReading,
) -> Slices:
    """`slice_counts`, with the training file and the sidecar read from their paths.

    The training file is read as ``reading`` says. The input is checked to have what the slices
    need before either file is read.
    """
    for name in names:
        _check_input(aligned, name)
    found = read_train(os.fspath(train), reading) if train is not None else None
    attributes = read_meta(os.fspath(meta), aligned.n_docs) if meta is not None else None
    return slice_counts(aligned, names, found, attributes)


def _unit_counts(
    aligned: Aligned, keys: SliceKeys, matched: tuple[Bool, Bool], unit: str
) -> tuple[tuple[str, ...], Int]:
    n_units, size = aligned.n_units(unit), len(keys.labels)
    out = np.zeros((n_units, size, 3), dtype=np.int64)
    gold_unit = aligned.unit_of(aligned.gold, unit)
    cells = [
        (gold_unit * size + keys.gold, None),
        (aligned.unit_of(aligned.pred, unit) * size + keys.pred, None),
        (gold_unit * size + keys.gold, matched[0]),
    ]
    for i, (cell, keep) in enumerate(cells):
        chosen = cell if keep is None else cell[keep]
        out[:, :, i] = np.bincount(chosen, minlength=n_units * size).reshape(n_units, size)
    return keys.labels, out


def slice_unit_counts(
    aligned: Aligned, slice_name: str, unit: str, train: Train | None = None, meta: Meta | None = None
) -> tuple[tuple[str, ...], Int]:
    """The bands of one slice (``meta:NAME``, not ``meta``), and its (units x bands x 3) matrix.

    The matrix holds the (gold, pred, tp) counts of each band in each unit.

    ``unit`` is ``"document"`` or ``"sentence"`` (`Aligned.unit_of`), the resampling unit of a
    bootstrap: summing the matrix over units gives the slice's counts. A matched pair is counted
    in its gold entity's unit (both are in the same one). The matrix is dense: units x bands x 3
    int64, which for ``document`` slices is documents squared.
    """
    keys = slice_keys(aligned, slice_name, train, meta)
    return _unit_counts(aligned, keys, exact_matched(aligned.gold, aligned.pred), unit)
