"""Whether a prediction dataset's rows are the gold dataset's rows, in the gold's order.

In: the pyarrow tables of a gold and a prediction dataset (`nerve.io.hf`) with as many rows,
paired by position. Out: nothing when every row pairs; otherwise the `InputError` of the first
row whose ``tokens`` or ``id`` (where both tables have the column) is not the gold row's,
worded as for span files (`nerve.io.pairing`). The columns are compared by pyarrow, whole (no
Python loop per row or token); only a mismatch reads rows into Python, to say where they differ
and which gold row has that one.
"""

from __future__ import annotations

from typing import Any

from ..pairing import doc_keys, first_mismatch

__all__ = ["check_rows"]

#: The columns that say which row is which, where both datasets have them.
ROW_KEYS = ("id", "tokens")


def check_rows(gold: Any, pred: Any, g_path: str, p_path: str) -> None:
    """Refuse ``pred`` when a row's ``tokens`` or ``id`` is not the gold row's.

    Raises:
        InputError: the first such row, its id, where the tokens differ, and the fix.
    """
    import pyarrow.compute as pc

    shared = [c for c in ROW_KEYS if c in gold.column_names and c in pred.column_names]
    same = True
    for name in shared:
        a, b = gold.column(name), pred.column(name)
        if a.type != b.type:
            continue
        if name == "tokens":
            lengths = pc.list_value_length(a)
            if not pc.all(pc.equal(lengths, pc.list_value_length(b))).as_py():
                same = False
                break
            a, b = pc.list_flatten(a), pc.list_flatten(b)
        if len(a) and not pc.all(pc.fill_null(pc.equal(a, b), True)).as_py():
            same = False
            break
    if same:
        return
    keys = [_keys(table, path, shared) for table, path in ((gold, g_path), (pred, p_path))]
    err = first_mismatch(keys[0], keys[1])
    if err is not None:
        raise err


def _keys(table: Any, path: str, shared: list[str]) -> Any:
    """The `nerve.io.pairing.DocKeys` of a table's rows (read into Python: a mismatch was found)."""
    tokens = table.column("tokens").to_pylist() if "tokens" in shared else [None] * table.num_rows
    ids = table.column("id").to_pylist() if "id" in shared else None
    return doc_keys(path, tokens, ids, noun="row")
