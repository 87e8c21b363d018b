"""The counts of the MUC-5 / SemEval-2013 modes, and the scores derived from them.

In: count arrays indexed by type id (or document id), as `nerve.metrics.muc.tally` makes them.
Out: `MucCounts` per mode, overall and per type (`ModeScores`), with precision, recall and F1,
and the average over documents (`DocumentMacro`). Counts add up across shards.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, field

from .._frozen import frozen
from ..model.counts import fbeta, safe_div
from ..plan import MucOptions

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (3 ms)
if TYPE_CHECKING:
    from typing import Any

    from ..model.arrays import Int

__all__ = [
    "FIELDS",
    "MODES",
    "Columns",
    "DocumentMacro",
    "ModeScores",
    "MucCounts",
    "MucResult",
    "document_macro",
    "mode_scores",
    "scores_of_lists",
]

Columns = dict[str, "Int"]
_HALF_CREDIT = {"strict": 0.0, "exact": 0.0, "partial": 0.5, "type": 0.5}
#: The modes, in their order everywhere.
MODES = tuple(_HALF_CREDIT)


@frozen
class MucCounts:
    """Outcome counts of one mode, for all entities or for one type.

    ``cor``, ``inc`` and ``par`` are counted on the gold side (they make up POS with ``mis``);
    ``pred_cor``, ``pred_inc`` and ``pred_par`` on the predicted side (ACT with ``spu``). The two
    sides are equal for the totals; for a type they differ when a pair joins two types, by
    ``cross``, so that ``act == cor + inc + par + spu + cross``.
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
    def cross(self) -> int:
        """What ACT has beyond COR + INC + PAR + SPU: pairs that join this type to another.

        This type's predictions paired with another type's gold entity (in ACT, on the predicted
        side) less this type's gold entities paired with another type's prediction (in COR, INC
        or PAR, on the gold side): ``act == cor + inc + par + spu + cross``. Zero for the totals,
        and for a type no pair joins to another; negative when more of its gold entities went to
        predictions of other types than the other way round.
        """
        return self.pred_cor + self.pred_inc + self.pred_par - (self.cor + self.inc + self.par)

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
        """The JSON form: ``cor, inc, par, mis, spu, cross, pos, act, precision, recall, f1``."""
        keys = ("cor", "inc", "par", "mis", "spu", "cross", "pos", "act", "precision", "recall", "f1")
        return {k: getattr(self, k) for k in keys}


FIELDS = ("cor", "inc", "par", "mis", "spu", "pred_cor", "pred_inc", "pred_par")


@frozen
class DocumentMacro:
    """Precision, recall and F1 averaged over the documents that have entities."""

    precision: float
    recall: float
    f1: float
    documents: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return asdict(self)


@frozen
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


def document_macro(mode: str, columns: Columns) -> DocumentMacro:
    """Average precision, recall and F1 over documents (arrays indexed by document id).

    Documents with neither gold nor predicted entities are left out: they have nothing to score.
    The sums are exact before rounding (`math.fsum`), so the order of the documents cannot change
    the last digit.
    """
    import numpy as np

    n = max(v.shape[0] for v in columns.values())
    full = {f: np.pad(v, (0, n - v.shape[0])) for f, v in columns.items()}
    scores = [MucCounts(mode, *(int(full[f][d]) for f in FIELDS)) for d in range(n)]
    scored = [c for c in scores if c.pos or c.act]
    k = len(scored)
    return DocumentMacro(
        safe_div(math.fsum(c.precision for c in scored), k),
        safe_div(math.fsum(c.recall for c in scored), k),
        safe_div(math.fsum(c.f1 for c in scored), k),
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


def scores_of_lists(mode: str, columns: Sequence[Sequence[int]], names: Sequence[str]) -> ModeScores:
    """`mode_scores` of counts given as one list of ints per field of `FIELDS`, indexed by type id.

    The overall counts are the sums over the types (as with optimal matching, where the totals
    and the types share one matching); no document average. Needs no numpy.
    """
    rows = {name: MucCounts(mode, *(values[i] for values in columns)) for i, name in enumerate(names)}
    rows = {name: c for name, c in sorted(rows.items()) if c.pos or c.act}
    return ModeScores(MucCounts(mode, *map(sum, columns)), rows)


@frozen
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
            import numpy as np

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
