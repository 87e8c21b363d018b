"""The resampling unit, and what too few units do to the statistics drawn from them.

In: the unit asked for (``auto``, ``document`` or ``sentence``) and how many documents and
sentences the corpus has; or the resampled values of statistics. Out: the unit to resample
(`choose_unit`), the flags of a corpus with too few units, each saying what to do
(`unit_flags`), which statistics vary across the resamples (`varies`: one that never varies has
no interval and no p-value, ``None``, shown as ``n/a``), and the refusal of more resamples than
memory holds (`check_memory`).

``auto`` resamples documents when there are at least `MIN_UNITS` of them, and sentences
otherwise: most CoNLL test files hold one document, whose one resample is the corpus itself.
Span files have no sentences: ``auto`` takes their documents, however few.
"""

from __future__ import annotations

from .._frozen import frozen
from ..errors import OptionError, plural
from ..options import flag, setting

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (3 ms)
if TYPE_CHECKING:
    from typing import Any

    from ..model.arrays import Bool, Float

__all__ = [
    "BYTES_PER_VALUE",
    "MEMORY_BUDGET",
    "MIN_UNITS",
    "Flag",
    "check_memory",
    "choose_unit",
    "unit_flags",
    "varies",
]

MIN_UNITS = 20  # fewer units than this: ``auto`` takes sentences, and intervals are flagged unreliable
MEMORY_BUDGET = 4 * 2**30  # bytes the resampled scores may take
# bytes held at the peak per resample and column (totals, scores, the quantile's copy), measured
# at 76 to 122 (types of the bootstrap; systems of compare 66 to 108), with two columns more for
# the averages
BYTES_PER_VALUE = 112


@frozen
class Flag:
    """A case that makes intervals unreliable or not computable, said rather than hidden.

    Attributes:
        kind: ``no_units``, ``one_unit``, ``few_units``, ``no_gold`` or ``degenerate``.
        type: the entity type it concerns, or ``None`` for the whole corpus (or an average).
        message: what it means and, where something can be done, what.
    """

    kind: str
    type: str | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "type", "message"}``."""
        return {"kind": self.kind, "type": self.type, "message": self.message}


def choose_unit(unit: str, documents: int, sentences: bool) -> str:
    """The unit to resample: ``unit``, or for ``auto`` documents when there are `MIN_UNITS` or more.

    ``sentences``: whether the corpus has sentences (tagged input; span files have none).
    """
    if unit != "auto":
        return unit
    return "document" if documents >= MIN_UNITS or not sentences else "sentence"


def _fix(unit: str, sentences: bool) -> str:
    """What to do about too few units."""
    if unit == "document" and sentences:
        return f"resample sentences ({setting('unit', 'sentence')})"
    if unit == "document":
        return "span files have no sentences to resample: score more documents"
    return "score a larger corpus"


def unit_flags(units: int, unit: str, sentences: bool) -> list[tuple[str, str]]:
    """``(kind, message)`` of fewer than `MIN_UNITS` units: ``no_units``, ``one_unit`` or ``few_units``.

    ``sentences``: whether the corpus has sentences, which the message suggests resampling.
    """
    fix = _fix(unit, sentences)
    if units == 0:
        return [("no_units", f"no {unit}s: nothing to resample, so intervals and p-values are n/a; {fix}")]
    if units == 1:
        detail = f"one {unit} only: every resample is the corpus itself, so intervals and p-values are n/a"
        return [("one_unit", f"{detail}; {fix}")]
    if units < MIN_UNITS:
        detail = (
            f"only {plural(units, unit)}: intervals and p-values from fewer than {MIN_UNITS} {unit}s "
            "are unreliable"
        )
        return [("few_units", f"{detail}; {fix}")]
    return []


def varies(values: Float) -> Bool:
    """Whether each statistic takes more than one value across the resamples (the first axis)."""
    import numpy as np  # here: agreement's compiled path imports this module without numpy

    if values.shape[0] == 0:
        return np.zeros(values.shape[1:], dtype=np.bool_)
    return np.asarray((values != values[:1]).any(axis=0), dtype=np.bool_)


def check_memory(n: int, columns: int, what: str) -> None:
    """Refuse ``n`` resamples of ``columns`` scores (``what``: ``"9 types"``) beyond `MEMORY_BUDGET`.

    Raises:
        OptionError: for ``bootstrap``, with the most resamples that fit.
    """
    per_resample = (columns + 2) * BYTES_PER_VALUE
    if n * per_resample <= MEMORY_BUDGET:
        return
    fit = MEMORY_BUDGET // per_resample
    need = f"{n * per_resample / 2**30:,.1f} GiB"
    detail = (
        f"{n:,} resamples of {what} need about {need} of memory, more than the "
        f"{MEMORY_BUDGET // 2**30} GiB nerve allows: at most {fit:,} resamples fit"
    )
    raise OptionError(flag("bootstrap"), detail)
