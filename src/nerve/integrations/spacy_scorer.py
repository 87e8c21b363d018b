"""A spaCy scorer, ``nerve.ner_scorer.v1``: spaCy's entity scores from nerve, and MUC's modes.

In a pipeline config::

    [components.ner.scorer]
    @scorers = "nerve.ner_scorer.v1"
    spans_key = null      # doc.ents; or a span group's key (doc.spans[KEY])
    muc = false           # true adds MUC's strict, exact, partial and type modes
    min_iou = null        # MUC's overlap thresholds, as for nerve.score
    min_gold_share = null

spaCy finds the name through the ``spacy_scorers`` entry point of the installed package; importing
this module (which imports spaCy) registers it too. `score_examples` scores without the registry.

In: spaCy ``Example``s. Each prediction is projected onto the reference's tokens as spaCy's
``get_ner_prf`` does (first to last aligned token); with ``doc.ents`` an example whose reference
has no entity annotation is skipped, and a prediction over reference tokens with missing
annotation (``ENT_IOB`` 0) is neither right nor wrong; with a span group, an example whose
reference has no such group is skipped. These are counted (``ignored`` in the nerve key), never
dropped unsaid. Out: spaCy's keys (``ents_p``, ``ents_r``, ``ents_f``, ``ents_per_type`` as
``{TYPE: {"p", "r", "f"}}``, or ``spans_KEY_p``...; ``None`` when there was no entity at all),
``PREFIX_muc_MODE_p/r/f`` with ``muc``, and ``PREFIX_nerve``: the signature, counts and ignored.

Exact scores equal spaCy's own scorer's, except that a span repeated in a span group counts each
time here (spaCy's ``score_spans`` keeps a set).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..api import score_spans
from ..errors import NerveError, OptionError
from ..metrics.muc import MucOptions
from ..model.spans import SpanArray

try:
    from spacy.util import registry
except ImportError:
    raise NerveError("the spaCy scorer needs spaCy: pip install spacy") from None

__all__ = ["SCORER", "make_scorer", "score_examples"]

#: The name in ``spacy.registry.scorers``.
SCORER = "nerve.ner_scorer.v1"

Columns = tuple[Any, Any, Any]  # start, end, label hash (int64 arrays)
IOB_MISSING, IOB_INSIDE, IOB_BEGIN = 0, 1, 3


def _ents(doc: Any) -> Columns:
    """The entities of ``doc.ents`` from the token columns (B=3 starts one, I=1 goes on)."""
    columns = np.asarray(doc.to_array(["ENT_IOB", "ENT_TYPE"]), dtype=np.uint64).reshape(-1, 2)
    iob = columns[:, 0].astype(np.int64)
    starts = np.flatnonzero(iob == IOB_BEGIN)
    stops = np.append(np.flatnonzero(iob != IOB_INSIDE), len(iob))
    ends = stops[np.searchsorted(stops, starts, side="right")]
    return starts, ends, columns[starts, 1]


def _group(doc: Any, key: str) -> Columns:
    """The spans of the group ``doc.spans[key]`` (none when the doc has no such group)."""
    group = doc.spans.get(key, ())
    rows = np.array([(s.start, s.end, s.label) for s in group], dtype=np.uint64).reshape(-1, 3)
    return rows[:, 0].astype(np.int64), rows[:, 1].astype(np.int64), rows[:, 2]


def _project(example: Any, columns: Columns) -> tuple[Columns, int]:
    """Predicted spans on the reference's tokens, as ``get_ner_prf`` projects them; and how many had none."""
    start, end, label = columns
    x2y = example.alignment.x2y
    lengths = np.asarray(x2y.lengths, dtype=np.int64)
    data = np.asarray(x2y.data, dtype=np.int64)
    cum = np.concatenate(([0], np.cumsum(lengths)))
    lo, hi = cum[start], cum[end]
    keep = hi > lo
    starts, ends = data[lo[keep]], data[hi[keep] - 1] + 1
    return (starts, ends, label[keep]), int((~keep).sum())


def _example_spans(example: Any, spans_key: str | None) -> tuple[Columns, Columns, int] | None:
    """Gold and projected predicted spans of one example, and the predictions ignored; None: skipped."""
    ref = example.reference
    if spans_key is None:
        if not ref.has_annotation("ENT_IOB"):
            return None
        (start, end, label), lost = _project(example, _ents(example.predicted))
        missing = np.concatenate(([0], np.cumsum(ref.to_array("ENT_IOB") == IOB_MISSING)))
        known = missing[end] == missing[start]
        return _ents(ref), (start[known], end[known], label[known]), lost + int((~known).sum())
    if spans_key not in ref.spans:
        return None
    pred, lost = _project(example, _group(example.predicted, spans_key))
    return _group(ref, spans_key), pred, lost


def _columns(parts: list[Columns], names: dict[int, str]) -> SpanArray:
    """One SpanArray of the documents' columns, one document per part, labels named by ``names``."""
    if not parts:
        none = np.zeros(0, dtype=np.int64)
        return SpanArray(none, none, none, none, (), 0)
    doc = np.repeat(np.arange(len(parts), dtype=np.int64), [len(p[0]) for p in parts])
    start, end = (np.concatenate([p[k] for p in parts]).astype(np.int64) for k in (0, 1))
    hashes, label = np.unique(np.concatenate([p[2] for p in parts]).astype(np.uint64), return_inverse=True)
    labels = tuple(names[int(h)] for h in hashes)
    return SpanArray(doc, start, end, label.astype(np.int64).reshape(-1), labels, len(parts))


def score_examples(
    examples: Iterable[Any],
    *,
    spans_key: str | None = None,
    muc: bool = False,
    min_iou: float | None = None,
    min_gold_share: float | None = None,
) -> dict[str, Any]:
    """Score spaCy ``Example``s with nerve: spaCy's keys, MUC's modes with ``muc``, and nerve's.

    The entities are ``doc.ents``, or the span group ``spans_key``; offsets are the reference's tokens.
    """
    if not muc and (min_iou is not None or min_gold_share is not None):
        raise OptionError(
            "min_iou" if min_iou is not None else "min_gold_share", "applies with muc=true only"
        )
    overlap = MucOptions(min_iou=min_iou, min_gold_share=min_gold_share) if muc else None
    gold: list[Columns] = []
    pred: list[Columns] = []
    ignored = {"examples": 0, "predictions": 0}
    names: dict[int, str] = {}  # label hash -> name, each read from its own doc's vocabulary
    for example in examples:
        spans = _example_spans(example, spans_key)
        if spans is None:
            ignored["examples"] += 1
            continue
        for side, doc in ((spans[0], example.reference), (spans[1], example.predicted)):
            names.update({h: doc.vocab.strings[h] for h in map(int, np.unique(side[2])) if h not in names})
        gold.append(spans[0])
        pred.append(spans[1])
        ignored["predictions"] += spans[2]
    g, p = _columns(gold, names), _columns(pred, names)
    result = score_spans(g, p, overlap=overlap, source="spacy")
    return _scores(result, "ents" if spans_key is None else f"spans_{spans_key}", ignored)


def _scores(result: Any, prefix: str, ignored: dict[str, int]) -> dict[str, Any]:
    """The spaCy keys of a result (None where nothing was found or predicted), MUC's and nerve's."""
    micro = result.micro
    empty = micro.tp + micro.fp + micro.fn == 0
    out: dict[str, Any] = {
        f"{prefix}_p": None if empty else micro.precision,
        f"{prefix}_r": None if empty else micro.recall,
        f"{prefix}_f": None if empty else micro.f1,
        f"{prefix}_per_type": None
        if empty
        else {n: {"p": s.precision, "r": s.recall, "f": s.f1} for n, s in result.per_type.items()},
    }
    counts = result.exact.micro.to_dict()
    nerve: dict[str, Any] = {
        "signature": result.signature,
        "counts": {k: counts[k] for k in ("tp", "fp", "fn", "gold", "predicted")},
    }
    if result.muc is not None:
        nerve["muc"] = {}
        for mode, values in result.muc.to_dict().items():
            overall = values["overall"]
            out.update({f"{prefix}_muc_{mode}_{k[0]}": overall[k] for k in ("precision", "recall", "f1")})
            nerve["muc"][mode] = overall
    nerve["ignored"] = ignored
    out[f"{prefix}_nerve"] = nerve
    return out


def make_scorer(
    spans_key: str | None = None,
    muc: bool = False,
    min_iou: float | None = None,
    min_gold_share: float | None = None,
) -> Callable[..., dict[str, Any]]:
    """The scorer a pipeline component calls: ``scorer(examples, **cfg)``.

    A component passes its own settings as keywords (spaCy's convention); of them only ``spans_key``
    is read (a span categorizer's key, when the config gives none), and it must agree with the
    config's. The others are the component's, for its own scorer, and are not scores' options.
    """
    MucOptions(min_iou=min_iou, min_gold_share=min_gold_share)  # checked when the pipeline is built

    def scorer(examples: Iterable[Any], **cfg: Any) -> dict[str, Any]:
        key = cfg.get("spans_key", spans_key) if spans_key is None else spans_key
        if cfg.get("spans_key", key) != key:
            detail = f"the config's {spans_key!r} differs from the component's {cfg['spans_key']!r}"
            raise OptionError("spans_key", detail)
        return score_examples(
            examples, spans_key=key, muc=muc, min_iou=min_iou, min_gold_share=min_gold_share
        )

    return scorer


registry.scorers.register(SCORER, func=make_scorer)  # what ``@spacy.registry.scorers(SCORER)`` does
