"""The compiled engine's functions (csrc/): their types, for mypy; `nerve._engine` loads the module."""

from collections.abc import Callable, Iterable

def abi() -> int:
    """The ``Py_LIMITED_API`` version the module was compiled against."""

def read_spans(
    pieces: Iterable[bytes], format: int, units: int
) -> (
    tuple[
        int,
        tuple[bytearray, bytearray, bytearray, bytearray, list[str], int],
        tuple[bytearray, bytearray, bytearray, bytearray, list[str], int] | None,
    ]
    | str
):
    """The span columns of nervaluate JSON (format 0) or JSONL (1, pieces of whole lines), or why not."""

def muc_count(
    gold: tuple[bytearray, bytearray, bytearray, bytearray],
    pred: tuple[bytearray, bytearray, bytearray, bytearray],
    pred_map: list[int],
    rank: list[int],
    n_docs: int,
    want_muc: bool,
    solver: Callable[[bytes, bytes, bytes, bytes], bytes],
) -> tuple[list[int], list[int], list[int], list[int] | None, list[tuple[int, int, int]] | None] | str:
    """Exact matches, per-type counts and the four MUC modes' counts of span columns, or why not."""
