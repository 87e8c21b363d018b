"""The compiled engine's functions (csrc/): their types, for mypy; `nerve._engine` loads the module."""

from collections.abc import Callable, Iterable
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
    """The counts once every file is read (`nerve.io.tags.conll_c.ColumnTotals`), and a column count.

    The last item is the gold side's column count (-1: no token line), which the two halves of one
    file compare (`nerve.io.tags.conll_c`).
    """

def conll_sniff_tab(head: bytes) -> bool:
    """Whether a file's first bytes are tab-separated (`nerve.io.tags.delimiters.sniff_delimiter`)."""

# csrc/columns.c: HIPE and CoNLL-U lines (nerve.io.tags.column_scan)
def scan_columns(data: bytes, mode: int, block: int = ..., /) -> tuple[bytes, bytes, bytes, bytes] | int:
    """The lines of a HIPE (0) or CoNLL-U (1) file, or the code of why not.

    The lines: start, end (int64), kind (int8), width (int32).
    """

def cells(data: bytes, start: bytes, end: bytes, k: int, width: int, /) -> tuple[bytes, bytes]:
    """Where cell ``k`` (of ``width``, tab-separated) of each line ``[start, end)`` is (int64)."""

def intern(data: bytes, start: bytes, end: bytes, k: int, width: int, /) -> tuple[list[bytes], bytes]:
    """The distinct strings of the ranges in the order met, and the int64 index of each among them."""

# csrc/brat.c: brat documents of plain entities (nerve.io.tools.brat_batch)
def brat_plain(
    ann: bytes, text: bytes, counts: bytes, text_len: bytes, /
) -> tuple[bytes, bytes, bytes, bytes, bytes] | None:
    """Each line's start, end, type range (int64) and each document's slow flag (uint8); or None."""

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
    want_pairs: bool = ...,
) -> tuple[list[int], list[int], list[int], list[int] | None, list[tuple[int, int, int]] | None] | str:
    """Exact matches, per-type counts and the four MUC modes' counts of span columns, or why not.

    Without ``want_pairs`` the matched pairs come back as an empty list.
    """

# csrc/agree.c: a CoNLL file of several tag columns (nerve.io.tags.agree_scan, nerve.compiled_agree_read)
def agree_map(path: str, /) -> tuple[object, int] | None:
    """The file mapped read-only (a mapping the other functions take as data) and its size, or None."""

def agree_slice(data: object, lo: int, hi: int, /) -> bytes:
    """``data[lo:hi]`` (bytes or a mapping), clipped to the data."""

def agree_scan(
    data: object, start: int, end: int, /
) -> tuple[int, bytes, object, int, list[list[bytes]], int, int, int] | str:
    """The lines of ``data[start:end]``, or why the numpy engine must read it.

    Documents, their first tokens (int64), the scan (its arrays kept in C), the tokens, each
    column's distinct tags, the column count, whether tokens come before the first ``-DOCSTART-``
    line, and the ``-DOCSTART-`` lines.
    """

def agree_parts(scan: object, /) -> tuple[bytes, bytes, list[bytes]]:
    """A scan's sentence starts (uint8), words' starts (int64) and each column's tag ids (uint16)."""

def agree_remap(ids: bytes, mapping: list[int], /) -> bytes:
    """uint16 ids through ``mapping``."""

def agree_decode(
    parts: list[tuple[object, list[int] | None]], column: int, kind: bytes, type: bytes, doc_start: bytes, /
) -> tuple[list[int], bytearray, bytearray, bytearray, bytearray]:
    """One column of the scans ``parts``: its transitions by pair code and its entities.

    Each part's tag ids are mapped to the column's (or None: they are). The entities: doc, start,
    end, type (int64).
    """

def agree_tokens(
    columns: list[tuple[bytes, bytes, bytes, bytes]], doc_start: bytes, k: int, /
) -> tuple[bytes, bytes, bytes]:
    """Each pair's k x k label pairs, each document's pairs of equal labels and its labels (int64)."""

def agree_relabel(label: bytes | bytearray, mapping: list[int], /) -> bytes:
    """int64 labels through ``mapping``."""

def agree_votes(columns: list[tuple[bytes, bytes, bytes, bytes]], /) -> tuple[bytes, ...] | None:
    """The votes of flat, sorted columns, or ``None``.

    Every distinct entity (doc, start, end, label), who marked it (uint64 bits), its cluster; the
    clusters apart and their categories (int64).
    """

def agree_apart(
    a: tuple[bytes, bytes, bytes, bytes],
    b: tuple[bytes, bytes, bytes, bytes],
    a_label: bytes,
    b_label: bytes,
    k: int,
    n_docs: int,
    /,
) -> tuple[
    tuple[bytearray, bytearray, bytearray, bytearray],
    tuple[bytearray, bytearray, bytearray, bytearray],
    list[int],
    bytes,
]:
    """Two flat columns less the entities both hold, and what those hold.

    How many of them each of a's labels has, and the pair's exact tp, fp and fn by document (int64).
    """

def agree_values(exacts: list[bytes], same: bytes, by_label: bytes, m: int, k: int, /) -> bytes:
    """The bootstrap's values by document (int64 rows): each pair's tp, fp, fn, then alpha's parts."""

def agree_resample(values: bytes, units: int, k: int, n: int, words: tuple[int, int, int, int], /) -> bytes:
    """The int64 column sums of ``n`` resamples of ``values`` (units x k), drawn as numpy's default_rng."""

def agree_words(data: object, scans: list[object], lo: int, hi: int, /) -> list[str]:
    """The words of tokens ``lo`` to ``hi`` (each from its start to the first blank), decoded."""
