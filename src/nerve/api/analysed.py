"""The analysis parts that need more than the `Aligned` corpus: slices read a training file and a sidecar.

In: a scored `Result`, its `Aligned` corpus, the slice names (checked by `nerve.options.slices`),
the ``train`` and ``meta`` files, and the `Plan` the corpus was read with. Out: the
`Slices`, the training file read as the corpus was (its scheme too, when fixed or needed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..analysis.aligned import Aligned
from ..analysis.slices import Slices, slice_files
from ..analysis.surfaces import TrainReading
from ..plan import Plan
from ..results import Result

__all__ = ["slice_table"]


def slice_table(
    result: Result, aligned: Aligned, names: Sequence[str], train: Any, meta: Any, plan: Plan
) -> Slices | None:
    """The slices ``names`` of ``aligned`` (``None`` for none); the training file read as ``plan`` reads."""
    if not names:
        return None
    s = result.settings  # the training file is read as the corpus was, with its scheme
    fixed = s.scheme if not s.scheme_inferred or s.repair != "begin" else None
    r, t = plan.reading, plan.tagging
    how = TrainReading(fixed, s.repair, t.fmt, t.outside, r.comments, r.encoding, r.delimiter)
    return slice_files(aligned, names, train, meta, how)
