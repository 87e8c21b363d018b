"""The numpy array types that nerve's annotations name, declared once.

In: nothing. Out: type aliases for the arrays that flow between layers: `Int` (``int64``: offsets,
ids, counts), `Bool` (masks), `Float` (scores, costs), `Bytes` (``uint8``: raw file bytes), `Ids`
(``int32``: tag ids), `Codes` (``int8``: transition and kind codes) and `ObjectArray` (labels,
attributes). Modules import them under ``TYPE_CHECKING`` only, so nothing here runs at import time.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = ["Bool", "Bytes", "Codes", "Float", "Ids", "Int", "ObjectArray"]

Int: TypeAlias = npt.NDArray[np.int64]
Bool: TypeAlias = npt.NDArray[np.bool_]
Float: TypeAlias = npt.NDArray[np.float64]
Bytes: TypeAlias = npt.NDArray[np.uint8]
Ids: TypeAlias = npt.NDArray[np.int32]
Codes: TypeAlias = npt.NDArray[np.int8]
ObjectArray: TypeAlias = npt.NDArray[np.object_]
