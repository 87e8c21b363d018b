"""The compiled engine's functions (csrc/): their types, for mypy; `nerve._engine` loads the module."""

from collections.abc import Callable
from typing import Any

def abi() -> int:
    """The ``Py_LIMITED_API`` version the module was compiled against."""

# csrc/conll.c: the CoNLL column counter (nerve.io.tags.conll_c)
def conll_counter(
    comments: bool,
    check_tokens: bool,
    policy: int,
    bad_start: bytes,
    bad_end: bytes,
    resolve: Callable[[bytes], tuple[int, int, int, int, int] | None],
) -> object:
    """A new counter: the policy's number, discard's tables (50 bytes each), the resolver of new tags."""

def conll_count_file(
    counter: object,
    read_gold: Callable[[int], bytes],
    read_pred: Callable[[int], bytes] | None,
    gold_delimiter: int,
    pred_delimiter: int,
    block: int,
) -> str | None:
    """Count one file pair (``read_pred`` ``None``: a merged file); ``None``, or why the numpy engine must."""

def conll_totals(counter: object) -> tuple[Any, ...]:
    """The counts once every file is read: see `nerve.io.tags.conll_c.ColumnTotals`."""

def conll_sniff_tab(head: bytes) -> bool:
    """Whether a file's first bytes are tab-separated (`nerve.io.tags.delimiters.sniff_delimiter`)."""
