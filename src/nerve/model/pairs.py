"""Codes for (previous tag, tag) pairs, so decoding tables stay small however many types there are.

Whether a tag continues the previous tag's entity, and whether a scheme allows the transition,
depends only on the two tags' kinds (outside, begin, inside, end, single) and on whether their
types are the same. A pair of tag ids is therefore coded as one small integer,

    ``code = 10 * kind(previous) + 2 * kind(tag) + (type(previous) == type(tag))``,

and every table (`code_tables`) and every count of transitions is indexed by the code: 50
entries, where tables indexed by (previous id, id) would grow with the square of the number of
tags (a corpus with 6,000 types would need gigabytes).

For an outside tag the type bit does not matter to any table; `SAME` says which codes are pairs
of two entity tags of one type, the meaning the scheme rules give "same".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .schemes import OUT, Scheme, continuation_table

if TYPE_CHECKING:
    import numpy.typing as npt

    from .arrays import Bool, Int

__all__ = ["KIND_OF_PREVIOUS", "KIND_OF_TAG", "N_CODES", "N_KINDS", "SAME", "code_tables", "pair_codes"]

N_KINDS = 5
N_CODES = N_KINDS * N_KINDS * 2

_code = np.arange(N_CODES)
KIND_OF_PREVIOUS: Int = (_code // (2 * N_KINDS)).astype(np.int64)
KIND_OF_TAG: Int = (_code // 2 % N_KINDS).astype(np.int64)
SAME: Bool = (_code % 2 == 1) & (KIND_OF_PREVIOUS != OUT) & (KIND_OF_TAG != OUT)


def pair_codes(
    previous: npt.NDArray[np.integer], ids: npt.NDArray[np.integer], kinds: npt.NDArray[np.int8], types: Int
) -> npt.NDArray[np.int8]:
    """The code of each pair (``previous[i]``, ``ids[i]``) of tag ids, given each id's kind and type."""
    code = kinds.take(previous) * np.int8(2 * N_KINDS)
    code += kinds.take(ids) * np.int8(2)
    code += types.take(previous) == types.take(ids)
    return code


def code_tables(scheme: Scheme | None) -> tuple[Bool, Bool, Bool]:
    """``(continues, bad_start, bad_end)`` of `Scheme.transition_tables`, indexed by pair code.

    Without a scheme only the shared continuation rule applies and nothing is invalid.
    """
    # Two tags of every kind, one of type 0 and one of type 1: every code is one of their pairs.
    kinds = np.tile(np.arange(N_KINDS, dtype=np.int8), 2)
    types = np.repeat(np.arange(2, dtype=np.int64), N_KINDS)
    tables: tuple[Bool, Bool, Bool]
    if scheme is None:
        none: Bool = np.zeros((2 * N_KINDS, 2 * N_KINDS), dtype=np.bool_)
        tables = (continuation_table(kinds, types), none, none)
    else:
        tables = scheme.transition_tables(kinds, types)
    column = KIND_OF_TAG + N_KINDS * (1 - _code % 2)  # same type: column of type 0, else type 1
    cont, bad_start, bad_end = (t[KIND_OF_PREVIOUS, column] for t in tables)
    return cont, bad_start, bad_end
