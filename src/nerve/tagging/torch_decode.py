"""Decoding batches of tag ids with torch, on the tensors' own device (CPU or CUDA).

A batch of shape ``(batch, length)`` is decoded with whole-batch tensor operations and no
compaction, so shapes stay static: the previous and next counted position of each position come
from running maxima and minima of position indices, chunk starts and ends from the
continuation table indexed by (previous id, id), and each chunk's end from a running minimum
over end positions. Matched, gold and predicted chunks per type, the transition tables, token
counts and any bad input are gathered into one vector of counts: the only transfer to the host.

Bad input (ids outside the label list, lengths outside the rows, invalid transitions under
``error``) is detected on the device; the batch is then moved to the host and checked there,
which names the row and position (`nerve.streaming.check_batch`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError, NerveError
from ..streaming.metric import shape_problem

if TYPE_CHECKING:
    import torch

    from ..streaming.metric import StreamingMetric

__all__ = [
    "DeviceTables",
    "batch_counts",
    "flush_tensors",
    "has_bad_input",
    "import_torch",
    "prepare_batch",
    "split_counts",
    "tables_for",
    "update_from_tensors",
]


def import_torch() -> Any:
    """Import torch, or say which extra installs it."""
    try:
        import torch
    except ImportError:
        raise NerveError('torch tensors need torch: pip install "nerve[torch]"') from None
    return torch


@dataclass(frozen=True)
class DeviceTables:
    """The label lookup and the (previous id, id) tables of a vocabulary, on one device."""

    lookup: torch.Tensor  # label id -> vocab id (-1 for a hole in a label mapping)
    continues: torch.Tensor  # flattened (size * size) bool
    bad_start: torch.Tensor
    bad_end: torch.Tensor
    invalid: torch.Tensor  # bad_start | bad_end: what ``error`` reports
    inside: torch.Tensor  # vocab id -> not the outside kind
    types: torch.Tensor  # vocab id -> type id, n_types for the outside tag
    size: int
    n_types: int

    @classmethod
    def build(cls, metric: StreamingMetric, device: Any) -> DeviceTables:
        """Tables for ``metric``'s vocabulary and label list, on ``device``."""
        torch = import_torch()
        from ..model.schemes import OUT, continuation_table

        vocab = metric.vocab
        assert metric.labels is not None
        kinds, types = vocab.kinds, vocab.types
        size, n_types = len(vocab), len(vocab.type_names)
        if metric.scheme is not None:
            cont, bad_start, bad_end = metric.scheme.transition_tables(kinds, types)
        else:
            cont = continuation_table(kinds, types)
            bad_start = bad_end = np.zeros((size, size), dtype=np.bool_)

        def t(a: np.ndarray[Any, Any]) -> Any:
            return torch.as_tensor(np.ascontiguousarray(a).reshape(-1), device=device)

        return cls(
            lookup=t(metric.labels.lookup.astype(np.int64)),
            continues=t(cont),
            bad_start=t(bad_start),
            bad_end=t(bad_end),
            invalid=t(bad_start | bad_end),
            inside=t(kinds != OUT),
            types=t(np.where(types < 0, n_types, types).astype(np.int64)),
            size=size,
            n_types=n_types,
        )


# Positions of the fixed part of the count vector.
BAD_LENGTHS, BAD_GOLD, BAD_PRED, HOLES, TOKENS, CORRECT, SENTENCES, INVALID = range(8)
FIXED = 8


def batch_counts(
    gold: torch.Tensor,
    pred: torch.Tensor,
    lengths: torch.Tensor | None,
    ignore_index: int | None,
    tables: DeviceTables,
    policy: str,
) -> torch.Tensor:
    """The counts of one ``(batch, length)`` batch as one int64 vector on the batch's device.

    Layout: the `FIXED` scalars (bad lengths, bad gold ids, bad predicted ids, ids missing from
    a label mapping, tokens, correct tokens, sentences, invalid transitions), then gold,
    predicted and matched chunks per type, then the gold and predicted transition tables.
    """
    torch = import_torch()
    b, t = gold.shape
    device = gold.device
    n_labels = tables.lookup.shape[0]
    size, n_types = tables.size, tables.n_types
    if b == 0 or t == 0:
        return torch.zeros(FIXED + 3 * n_types + 2 * size * size, dtype=torch.int64, device=device)
    pos = torch.arange(t, device=device)
    mask = torch.ones((b, t), dtype=torch.bool, device=device)
    zero = torch.zeros((), dtype=torch.int64, device=device)
    bad_lengths = zero
    if lengths is not None:
        bad_lengths = ((lengths < 0) | (lengths > t)).sum()
        mask &= pos[None, :] < lengths[:, None]
    if ignore_index is not None:
        mask &= gold != ignore_index
    gold = gold.long()
    pred = pred.long()
    bad_gold = (mask & ((gold < 0) | (gold >= n_labels))).sum()
    bad_pred = (mask & ((pred < 0) | (pred >= n_labels))).sum()
    g = tables.lookup[gold.clamp(0, max(n_labels - 1, 0))]
    p = tables.lookup[pred.clamp(0, max(n_labels - 1, 0))]
    holes = (mask & ((g < 0) | (p < 0))).sum()
    g = torch.where(mask, g.clamp(min=0), 0)
    p = torch.where(mask, p.clamp(min=0), 0)

    # The previous and next counted position of every position (-1 and t at the row's edges).
    last_at = torch.cummax(torch.where(mask, pos, -1), dim=1).values
    prev_pos = torch.cat([torch.full((b, 1), -1, device=device, dtype=torch.int64), last_at[:, :-1]], dim=1)
    first_at = torch.cummin(torch.where(mask, pos, t).flip(1), dim=1).values.flip(1)
    next_pos = torch.cat([first_at[:, 1:], torch.full((b, 1), t, device=device, dtype=torch.int64)], dim=1)
    has_prev, has_next = prev_pos >= 0, next_pos < t
    final = mask & ~has_next

    def run_min(flags: Any) -> Any:
        """For each position, the first position at or after it where ``flags`` is set (or t)."""
        return torch.cummin(torch.where(flags, pos, t).flip(1), dim=1).values.flip(1)

    sides = []
    invalid = zero
    for ids in (g, p):
        prev = torch.where(has_prev, ids.gather(1, prev_pos.clamp(min=0)), 0)
        nxt = torch.where(has_next, ids.gather(1, next_pos.clamp(max=t - 1)), 0)
        into, out_of = prev * size + ids, ids * size + nxt
        inside = tables.inside[ids] & mask
        start = inside & ~tables.continues[into]
        last = inside & ~tables.continues[out_of]
        end_at = run_min(last)
        if policy == "discard":
            bad_end = tables.bad_end[out_of] & last
            start &= ~(tables.bad_start[into] | bad_end.gather(1, end_at.clamp(max=t - 1)))
        if policy == "error":
            bad = tables.invalid
            invalid = invalid + (mask & bad[into]).sum() + (final & bad[ids * size]).sum()
        outside_key = torch.full_like(into, size * size)
        pairs = torch.cat(
            [
                torch.where(mask, into, outside_key).reshape(-1),
                torch.where(final, ids * size, outside_key).reshape(-1),
            ]
        )
        transitions = torch.bincount(pairs, minlength=size * size + 1)[: size * size]
        sides.append((start, end_at, tables.types[ids], transitions))

    (g_start, g_end, g_type, g_trans), (p_start, p_end, p_type, p_trans) = sides
    matched = g_start & p_start & (g_type == p_type) & (g_end == p_end)

    def per_type(flags: Any, typ: Any) -> Any:
        return torch.bincount(torch.where(flags, typ, n_types).reshape(-1), minlength=n_types + 1)[:n_types]

    fixed = torch.stack(
        [
            bad_lengths.long(),
            bad_gold,
            bad_pred,
            holes,
            mask.sum(),
            (mask & (g == p)).sum(),
            mask.any(dim=1).sum(),
            invalid,
        ]
    )
    return torch.cat(
        [
            fixed,
            per_type(g_start, g_type),
            per_type(p_start, p_type),
            per_type(matched, g_type),
            g_trans,
            p_trans,
        ]
    )


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


def tables_for(metric: StreamingMetric, device: Any) -> DeviceTables:
    """The metric's tables on ``device``, built once per device and vocabulary size."""
    key = str(device)
    tables = metric._device_tables.get(key)
    if tables is None or tables.size != len(metric.vocab):
        tables = DeviceTables.build(metric, device)
        metric._device_tables[key] = tables
    return tables


def has_bad_input(counts: np.ndarray[Any, Any]) -> bool:
    """Whether a count vector saw bad ids or lengths, or invalid transitions under ``error``."""
    return bool(counts[: HOLES + 1].any() or counts[INVALID])


def split_counts(counts: np.ndarray[Any, Any], tables: DeviceTables) -> dict[str, Any]:
    """A host count vector as the arguments of `StreamingMetric.add_counts`."""
    n, s = tables.n_types, tables.size
    at = FIXED
    return {
        "gold": counts[at : at + n],
        "pred": counts[at + n : at + 2 * n],
        "matched": counts[at + 2 * n : at + 3 * n],
        "gold_transitions": counts[at + 3 * n : at + 3 * n + s * s].reshape(s, s),
        "pred_transitions": counts[at + 3 * n + s * s : at + 3 * n + 2 * s * s].reshape(s, s),
        "tokens": int(counts[TOKENS]),
        "correct": int(counts[CORRECT]),
        "sentences": int(counts[SENTENCES]),
    }


def update_from_tensors(metric: StreamingMetric, gold: Any, pred: Any, lengths: Any, batch: int) -> None:
    """Buffer one batch of tensors (from `prepare_batch`) on its device; decode when enough wait.

    Batches of one device and width are decoded together (`flush_tensors`): one call of
    `batch_counts` and one transfer for many batches. They are cloned, so a caller that reuses
    its tensors in place cannot change what was counted. With ``repair="error"`` each batch is
    decoded at once, so that its invalid transitions are raised by its own update.
    """
    metric._label_map(batch)  # ids need a label list
    lens = None if lengths is None else lengths.clone()
    metric._tensor_pending.append((gold.clone(), pred.clone(), lens, batch))
    metric._pending_tokens += gold.numel()
    if metric.policy == "error" or metric._pending_tokens >= metric.flush_tokens:
        metric._flush()


def flush_tensors(metric: StreamingMetric, pending: list[tuple[Any, Any, Any, int]]) -> None:
    """Decode buffered tensor batches, grouped by device and width, and add their counts.

    If a group holds bad input, its batches are checked on the host one by one, in order: the
    first bad one raises, naming its batch, row and position.
    """
    torch = import_torch()
    groups: dict[tuple[str, int], list[tuple[Any, Any, Any, int]]] = {}
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
        tables = tables_for(metric, gold.device)
        with torch.no_grad():
            counts = batch_counts(gold, pred, lens, metric.ignore_index, tables, metric.policy).cpu().numpy()
        if has_bad_input(counts):
            for g, p, n, batch in items:  # the host check names the row and position, and raises
                metric._update_host(g, p, n, batch)
            continue
        metric._acc.add_counts(**split_counts(counts, tables))
