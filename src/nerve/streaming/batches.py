"""Batches for the streaming metric: label lists, shapes, lengths and ids checked, rows laid end to end.

In: gold and predicted ids of shape ``(batch, length)`` (lists, numpy arrays, CPU tensors viewed
through numpy), optional row lengths, an ignore index and a label list. Out: the vocabulary ids of
the positions that count as a `TagBlock` (each row a sentence), or an `InputError` that names the
batch, row and position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..errors import InputError, OptionError, SchemeError
from ..io.tags.conll import TagBlock
from ..model.vocab import TagVocab

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Int

__all__ = [
    "SWAPPED",
    "Batch",
    "LabelList",
    "Labels",
    "check_batch",
    "checked_block",
    "is_tag_lists",
    "is_torch",
    "needs_torch",
    "numpy_view",
    "rows_block",
    "shape_problem",
    "to_numpy",
    "well_formed_ids",
]

Labels = Sequence[str] | Mapping[int, str]


class LabelList:
    """A label list (id -> tag) turned into ids of a `TagVocab`.

    Args:
        labels: the tag of each id, as a list (``labels[i]``) or a mapping such as a Hugging
            Face ``config.id2label``. Ids missing from a mapping are out of range.
        vocab: the vocabulary the tags are added to.
    """

    def __init__(self, labels: Labels, vocab: TagVocab):
        if isinstance(labels, str | bytes) or not isinstance(labels, Mapping | Sequence | np.ndarray):
            detail = f"expected a list of tags (or a mapping of ids to tags), got {type(labels).__name__}"
            raise OptionError("labels", detail)
        if isinstance(labels, Mapping):
            if not all(
                isinstance(k, int | np.integer | str) and str(k).lstrip("-").isdigit() for k in labels
            ):
                raise OptionError("labels", "a mapping's keys must be label ids (whole numbers)")
            keys = [int(k) for k in labels]
            if any(k < 0 for k in keys):
                raise SchemeError(f"label ids must be 0 or more, got {min(keys)}")
            tags: list[str | None] = [None] * (max(keys, default=-1) + 1)
            for k, v in labels.items():
                tags[int(k)] = v
        else:
            tags = list(labels)
        not_str = next((t for t in tags if t is not None and not isinstance(t, str)), None)
        if not_str is not None:
            raise SchemeError(f"labels must be tag strings, got {type(not_str).__name__} {not_str!r}")
        known = [t for t in tags if t is not None]
        ids = vocab.add(known)
        if (ids < 0).any():
            bad = known[int(np.argmin(ids))]
            raise SchemeError(f"label list: {vocab.explain(bad)}")
        lookup = np.full(len(tags), -1, dtype=np.int32)
        lookup[[i for i, t in enumerate(tags) if t is not None]] = ids
        self.tags = tags
        self.lookup = lookup  # label id -> vocab id, -1 for a hole in a mapping
        self.has_holes = bool((lookup < 0).any())

    def __len__(self) -> int:
        return len(self.tags)


def to_numpy(x: Any, what: str, batch: int) -> np.ndarray[Any, Any]:
    """Lists and numpy arrays of ids as a numpy array (torch tensors are handled elsewhere)."""
    try:
        a = np.asarray(x)
    except ValueError:
        raise InputError(f"batch {batch}", None, f"{what}: rows of different lengths; pad them") from None
    if a.dtype == object:
        raise InputError(
            f"batch {batch}", None, f"{what}: rows of different lengths or mixed types; pad them"
        )
    return a.astype(np.int64) if a.size == 0 else a  # [[], []] reads as floats


def is_torch(x: Any) -> bool:
    """Whether ``x`` is a torch tensor (without importing torch)."""
    return type(x).__module__.startswith("torch") and hasattr(x, "device")


def needs_torch(x: Any) -> bool:
    """Whether ``x`` is a tensor numpy cannot view: off the CPU, or not of integers."""
    if not is_torch(x):
        return False
    return x.device.type != "cpu" or x.is_floating_point() or x.is_complex() or str(x.dtype) == "torch.bool"


def numpy_view(x: Any) -> Any:
    """A CPU tensor as a numpy array sharing its memory; anything else as it is."""
    return x.detach().numpy() if is_torch(x) else x


def _unsigned(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Integers viewed as unsigned ones of the same width."""
    return a.view(f"u{a.dtype.itemsize}")


def is_tag_lists(x: Any) -> bool:
    """Whether ``x`` is a list of lists of tag strings."""
    if isinstance(x, (list, tuple)):
        for row in x:
            if isinstance(row, str):
                return True
            if isinstance(row, (list, tuple)) and row:
                return isinstance(row[0], str)
    return False


_ARGMAX = "; take the argmax over the last axis of logits first"


def shape_problem(gold: tuple[int, ...], pred: tuple[int, ...]) -> str | None:
    """What is wrong with the shapes of gold and predicted ids (2-D, equal), or ``None``."""
    if len(gold) != 2:
        hint = _ARGMAX if len(gold) == 3 else ""
        return f"gold ids: expected shape (batch, length), got {gold}{hint}"
    if pred != gold:
        hint = _ARGMAX if len(pred) == 3 else ""
        return f"predicted ids: expected shape {gold} (the gold ids' shape), got {pred}{hint}"
    return None


def rows_block(gold: npt.NDArray[np.int32], pred: npt.NDArray[np.int32], per_row: Int) -> TagBlock:
    """The ids of rows laid end to end as a block, each row a sentence (empty rows vanish)."""
    n = gold.shape[0]
    sentence_start = np.zeros(n, dtype=np.bool_)
    offsets = np.cumsum(per_row) - per_row
    sentence_start[offsets[per_row > 0]] = True
    line = np.arange(1, n + 1, dtype=np.int64)
    return TagBlock(gold, pred, sentence_start, np.zeros(n, dtype=np.bool_), line, line)


#: The hint for predictions that carry the gold side's ``ignore_index`` (-100, which a model's argmax
#: never gives): each ecosystem keeps its order, and the two are easy to mix up.
SWAPPED = (
    "; it is the ignore_index, which only the gold ids carry: arguments swapped? "
    "(StreamingMetric.update takes gold, pred; the torchmetrics metrics' update takes preds, target)"
)


@frozen
class Batch:
    """One update's arrays: gold and predicted ids, each row's length (or ``None``), and its number."""

    gold: np.ndarray[Any, Any]
    pred: np.ndarray[Any, Any]
    lengths: Any
    number: int


def check_batch(one: Batch, ignore_index: int | None, n_labels: int) -> np.ndarray[Any, Any]:
    """Check shapes, lengths and ids of a batch; return the mask of positions that count.

    Raises:
        InputError: naming the batch, and the row and position where it applies.
    """
    gold, pred, lengths = one.gold, one.pred, one.lengths
    where = f"batch {one.number}"
    if gold.ndim == 1:
        gold = gold[None, :]
        pred = pred[None, :] if pred.ndim == 1 else pred
    problem = shape_problem(tuple(gold.shape), tuple(pred.shape))
    if problem:
        raise InputError(where, None, problem)
    for name, a in (("gold ids", gold), ("predicted ids", pred)):
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise InputError(where, None, f"{name}: expected integers, got {a.dtype}")
    b, t = gold.shape
    mask = np.ones((b, t), dtype=np.bool_)
    if lengths is not None:
        lens = np.asarray(lengths.cpu() if is_torch(lengths) else lengths)
        if lens.ndim == 0 or lens.size != b:
            raise InputError(where, None, f"lengths: expected shape ({b},) (one per row), got {lens.shape}")
        lens = lens.reshape(-1)
        if lens.size and not np.issubdtype(lens.dtype, np.integer):
            raise InputError(where, None, f"lengths: expected integers, got {lens.dtype}")
        bad = np.flatnonzero((lens < 0) | (lens > t))
        if bad.shape[0]:
            r = int(bad[0])
            raise InputError(
                where, None, f"row {r}: length {int(lens[r])} is not within 0..{t} (the sequence length)"
            )
        mask &= np.arange(t)[None, :] < lens[:, None]
    if ignore_index is not None:
        mask &= gold != ignore_index
    for name, a in (("gold", gold), ("predicted", pred)):
        bad_at = np.argwhere(mask & ((a < 0) | (a >= n_labels)))
        if bad_at.shape[0]:
            r, c = (int(v) for v in bad_at[0])
            found = int(a[r, c])
            detail = f"row {r}, position {c}: {name} id {found} is not in the label list (0..{n_labels - 1})"
            swapped = name == "predicted" and ignore_index is not None and found == ignore_index
            raise InputError(where, None, detail + (SWAPPED if swapped else ""))
    return mask


def checked_block(
    one: Batch, ignore_index: int | None, label_map: LabelList
) -> tuple[TagBlock, np.ndarray[Any, Any]]:
    """The counted positions of a batch as a block, and their mask, after every check.

    Raises:
        InputError: what `check_batch` finds, or an id missing from a label mapping.
    """
    mask = check_batch(one, ignore_index, len(label_map))
    gold, pred = one.gold, one.pred
    if gold.ndim == 1:
        gold, pred = gold[None, :], pred[None, :]
    lookup = label_map.lookup
    holes = np.argwhere(
        mask & ((lookup[np.where(mask, gold, 0)] < 0) | (lookup[np.where(mask, pred, 0)] < 0))
    )
    if holes.shape[0]:
        r, c = (int(v) for v in holes[0])
        raise InputError(f"batch {one.number}", None, f"row {r}, position {c}: id not in the label mapping")
    return rows_block(lookup[gold[mask]], lookup[pred[mask]], mask.sum(axis=1)), mask


def well_formed_ids(
    one: Batch, ignore_index: int | None, label_map: LabelList
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], Int] | None:
    """The vocabulary ids of a well-formed batch's counted positions, and their number per row.

    Checks with as few array passes as it takes; ``None`` for anything unusual, which
    `checked_block` then examines and names.
    """
    gold, pred, lengths = one.gold, one.pred, one.lengths
    if (
        gold.ndim != 2
        or pred.shape != gold.shape
        or gold.dtype.kind not in "iu"
        or pred.dtype.kind not in "iu"
    ):
        return None
    b, t = gold.shape
    mask = gold != ignore_index if ignore_index is not None else np.ones((b, t), dtype=np.bool_)
    if lengths is not None:
        lens = np.asarray(lengths)
        if lens.shape != (b,) or lens.dtype.kind not in "iu" or (b and (lens.min() < 0 or lens.max() > t)):
            return None
        mask &= np.arange(t) < lens[:, None]
    g = gold[mask]
    p = pred[mask]
    n = len(label_map)
    # Read as unsigned, a negative id is a huge one: one maximum per side checks the range.
    if g.shape[0] and (_unsigned(g).max() >= n or _unsigned(p).max() >= n):
        return None
    lookup = label_map.lookup
    g, p = lookup[g], lookup[p]
    if label_map.has_holes and g.shape[0] and min(g.min(), p.min()) < 0:
        return None
    return g, p, mask.sum(axis=1)
