"""The ``attr:NAME`` slice: entities banded by the value of their own attribute NAME.

In: the `Aligned` corpus, whose spans carry per-entity metadata (`SpanArray.attributes`: brat's
attributes and normalisations, ``attr:Negated``, ``attr:norm:Wikipedia``), and the slice name.
Out: the bands (the values seen on either side, sorted, then ``(none)``) and the band of every
gold and predicted entity, for `nerve.analysis.slices`.

A gold entity is placed by its gold value (recall), a predicted one by its predicted value
(precision); an entity without the attribute goes to ``(none)``. The two entities of an exactly
matched pair can carry different values, so the slice is split as ``nesting`` is: each band
counts its matched predictions apart from its matched gold entities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import options
from ..errors import OptionError
from ..model.spans import SpanArray
from .aligned import Aligned

if TYPE_CHECKING:
    from ..model.arrays import Int, ObjectArray

__all__ = ["NONE_BAND", "PREFIX", "attribute_bands"]

PREFIX = "attr:"
#: The band of the entities without the attribute.
NONE_BAND = "(none)"


def _column(spans: SpanArray, name: str) -> ObjectArray:
    column = (spans.attributes or {}).get(name)
    return np.full(len(spans), None, dtype=object) if column is None else column


def attribute_bands(aligned: Aligned, slice_name: str) -> tuple[tuple[str, ...], Int, Int]:
    """The bands of ``attr:NAME`` and the band of each gold and each predicted entity.

    Raises:
        OptionError: when neither side's entities carry the attribute NAME.
    """
    name = slice_name[len(PREFIX) :]
    sides = (aligned.gold, aligned.pred)
    if not any(s.attributes is not None and name in s.attributes for s in sides):
        have = sorted({k for s in sides for k in (s.attributes or {})})
        listed = ", ".join(have) if have else "none (brat attributes and normalisations are read as such)"
        raise OptionError(options.flag("slices"), f"no entity has the attribute {name!r}; they have {listed}")
    both = np.concatenate([_column(aligned.gold, name), _column(aligned.pred, name)])
    held = both != None  # noqa: E711 (elementwise, on an object column)
    values, inverse = np.unique(both[held].astype(str), return_inverse=True)
    keys = np.full(len(both), len(values), dtype=np.int64)
    keys[held] = inverse
    ng = len(aligned.gold)
    return (*values.tolist(), NONE_BAND), keys[:ng], keys[ng:]
