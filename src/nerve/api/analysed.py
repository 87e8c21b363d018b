"""The analysis parts that need more than the `Aligned` corpus: slices read a training file and a sidecar.

In: a scored `Result`, its `Aligned` corpus, the slice names (checked by `nerve.options.slices`),
the ``train`` and ``meta`` files, and the reading options the corpus was read with. Out: the
`Slices`, the training file read as the corpus was (its scheme too, when fixed or needed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..analysis.aligned import Aligned
from ..analysis.slices import Slices, slice_files
from ..analysis.surfaces import TrainReading
from ..results import Result

__all__ = ["READING", "slice_table"]

READING = {"tag_format": None, "outside": "O", "comments": False, "encoding": "utf-8", "delimiter": None}


def slice_table(
    result: Result, aligned: Aligned, names: Sequence[str], train: Any, meta: Any, reading: Mapping[str, Any]
) -> Slices | None:
    """The slices ``names`` of ``aligned`` (``None`` for none), ``reading`` as for `nerve.score`.

    The reading options `READING` names are taken from ``reading``, or their defaults.
    """
    if not names:
        return None
    s = result.settings  # the training file is read as the corpus was, with its scheme
    fixed = s.scheme if not s.scheme_inferred or s.repair != "begin" else None
    how = TrainReading(fixed, s.repair, **{k: reading.get(k, v) for k, v in READING.items()})
    return slice_files(aligned, names, train, meta, how)
