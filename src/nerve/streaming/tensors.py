"""Torch tensor batches for the streaming metric: checked, kept on their device, decoded together.

In: gold and predicted id tensors of shape ``(batch, length)`` and optional row lengths. Out:
count vectors from the tensor decoder (`nerve.tagging.torch_decode`), one transfer to the host per
group of batches of one device and width, split into the arguments of
`ExactAccumulator.add_counts`; or the batches of a group that holds bad input, for the host
check that names the row and position.

This module is what ``nerve.tensors`` was: the decoder's functions it calls (`DeviceTables`,
`batch_counts`, `has_bad_input`, `import_torch`, `split_counts`) are still found here under that old
path. The layout of the count vector (``CORRECT``, ``FIXED``...) has one home,
`nerve.tagging.torch_decode`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError
from ..model.schemes import Scheme
from ..model.vocab import TagVocab
from ..tagging.decode import DecodeRules
from ..tagging.torch_decode import (
    DeviceTables,
    batch_counts,
    has_bad_input,
    import_torch,
    split_counts,
)
from .batches import LabelList, shape_problem

if TYPE_CHECKING:
    import torch

__all__ = [
    "DeviceTables",
    "Pending",
    "batch_counts",
    "copy_batch",
    "decode_pending",
    "has_bad_input",
    "import_torch",
    "prepare_batch",
    "split_counts",
    "tables_for",
]

Pending = tuple[Any, Any, Any, int]  # gold, pred, lengths or None, and the batch's number


def _as_tensor(x: Any, like: torch.Tensor, what: str, batch: int) -> torch.Tensor:
    torch = import_torch()
    if isinstance(x, torch.Tensor):
        if x.device != like.device and not (what == "lengths" and x.device.type == "cpu"):
            raise InputError(
                f"batch {batch}", None, f"{what} are on {x.device}, but the gold ids are on {like.device}"
            )
        return x.to(like.device)
    try:
        return torch.as_tensor(np.asarray(x), device=like.device)
    except (ValueError, TypeError):
        raise InputError(
            f"batch {batch}", None, f"{what}: rows of different lengths or mixed types"
        ) from None


def prepare_batch(
    gold: Any, pred: Any, lengths: Any, batch: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
    """Gold and predicted ids as 2-D integer tensors on one device, and lengths there too.

    Raises:
        InputError: shapes, dtypes or devices that do not fit, naming the batch.
    """
    torch = import_torch()
    where = f"batch {batch}"
    if not isinstance(gold, torch.Tensor):
        gold = _as_tensor(gold, pred, "gold ids", batch)
    pred = _as_tensor(pred, gold, "predicted ids", batch)
    if gold.ndim == 1 and pred.ndim == 1:
        gold, pred = gold[None, :], pred[None, :]
    problem = shape_problem(tuple(gold.shape), tuple(pred.shape))
    if problem:
        raise InputError(where, None, problem)
    for name, a in (("gold ids", gold), ("predicted ids", pred)):
        if a.dtype.is_floating_point or a.dtype.is_complex or a.dtype == torch.bool:
            raise InputError(where, None, f"{name}: expected integers, got {a.dtype}")
    lens = None
    if lengths is not None:
        lens = _as_tensor(lengths, gold, "lengths", batch)
        if lens.shape != (gold.shape[0],):
            raise InputError(
                where,
                None,
                f"lengths: expected shape ({gold.shape[0]},) (one per row), got {tuple(lens.shape)}",
            )
        if lens.dtype.is_floating_point or lens.dtype == torch.bool:
            raise InputError(where, None, f"lengths: expected integers, got {lens.dtype}")
    return gold, pred, lens


def tables_for(
    cache: dict[str, DeviceTables], vocab: TagVocab, scheme: Scheme | None, labels: LabelList, device: Any
) -> DeviceTables:
    """The tables of ``vocab`` on ``device``, from ``cache`` while the vocabulary keeps its size."""
    key = str(device)
    tables = cache.get(key)
    if tables is None or tables.size != len(vocab):
        tables = DeviceTables.build(vocab, DecodeRules.of(vocab, scheme), labels.lookup, device)
        cache[key] = tables
    return tables


def copy_batch(gold: Any, pred: Any, lengths: Any, batch: int) -> Pending:
    """A batch (from `prepare_batch`) cloned on its device.

    So a caller that reuses its tensors in place cannot change what is counted.
    """
    return gold.clone(), pred.clone(), None if lengths is None else lengths.clone(), batch


def decode_pending(
    pending: list[Pending], tables_on: Callable[[Any], DeviceTables], ignore_index: int | None, policy: str
) -> Iterator[tuple[dict[str, Any] | None, list[Pending]]]:
    """Decode buffered batches, grouped by device and width: one `batch_counts` call per group.

    Yields, per group, the counts as the arguments of `ExactAccumulator.add_counts` and the
    group's batches; or ``None`` and the batches, when the group holds bad input (ids outside
    the label list, bad lengths, invalid transitions under ``error``): checked on the host one by
    one, in order, the first bad one raises, naming its batch, row and position.
    """
    torch = import_torch()
    groups: dict[tuple[str, int], list[Pending]] = {}
    for item in pending:
        groups.setdefault((str(item[0].device), int(item[0].shape[1])), []).append(item)
    for items in groups.values():
        gold = torch.cat([g for g, _, _, _ in items])
        pred = torch.cat([p for _, p, _, _ in items])
        lens = None
        if any(n is not None for _, _, n, _ in items):
            width = gold.shape[1]
            lens = torch.cat(
                [
                    n.to(g.device) if n is not None else torch.full((g.shape[0],), width, device=g.device)
                    for g, _, n, _ in items
                ]
            )
        tables = tables_on(gold.device)
        with torch.no_grad():
            counts = batch_counts(gold, pred, lens, ignore_index, tables, policy).cpu().numpy()
        yield (None if has_bad_input(counts) else split_counts(counts, tables)), items
