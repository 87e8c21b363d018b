"""Decoding batches of tag ids with torch, on the tensors' own device (CPU or CUDA).

Pure functions on tensors: a batch of shape ``(batch, length)`` is decoded with whole-batch
tensor operations and no compaction, so shapes stay static: the previous and next counted
position of each position come from running maxima and minima of position indices, chunk starts
and ends from the continuation table indexed by pair code (`nerve.model.pairs`), and each
chunk's end from a running minimum over end positions. Matched, gold and predicted chunks per
type, the transition counts, token counts and any bad input are gathered into one vector of
counts: the only transfer to the host.

Bad input (ids outside the label list, lengths outside the rows, invalid transitions under
``error``) is only counted here; the streaming metric then checks the batch on the host, which
names the row and position (`nerve.streaming.tensors`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._frozen import frozen
from ..errors import NerveError
from ..model.pairs import N_CODES, N_KINDS
from ..model.schemes import OUT
from .decode import DecodeRules

if TYPE_CHECKING:
    import torch

    from ..model.vocab import TagVocab

__all__ = [
    "CORRECT",
    "FIXED",
    "HOLES",
    "INVALID",
    "SENTENCES",
    "TOKENS",
    "DeviceTables",
    "batch_counts",
    "has_bad_input",
    "import_torch",
    "split_counts",
]


def import_torch() -> Any:
    """Import torch, or say how to install it."""
    try:
        import torch
    except ImportError:
        raise NerveError("torch tensors need torch: pip install torch torchmetrics") from None
    return torch


@frozen
class DeviceTables:
    """The label lookup, the pair-code tables and the tag kinds of a vocabulary, on one device."""

    lookup: torch.Tensor  # label id -> vocab id (-1 for a hole in a label mapping)
    continues: torch.Tensor  # pair code -> bool (`nerve.model.pairs`)
    bad_start: torch.Tensor
    bad_end: torch.Tensor
    invalid: torch.Tensor  # bad_start | bad_end: what ``error`` reports
    inside: torch.Tensor  # vocab id -> not the outside kind
    kinds: torch.Tensor  # vocab id -> kind, as int64
    types: torch.Tensor  # vocab id -> type id, n_types for the outside tag
    size: int
    n_types: int

    @classmethod
    def build(
        cls, vocab: TagVocab, rules: DecodeRules, lookup: np.ndarray[Any, Any], device: Any
    ) -> DeviceTables:
        """Tables for ``vocab`` under ``rules``, with label ids mapped by ``lookup``, on ``device``."""
        torch = import_torch()
        kinds, types = rules.kinds, rules.types
        n_types = len(vocab.type_names)

        def t(a: np.ndarray[Any, Any]) -> Any:
            return torch.as_tensor(np.ascontiguousarray(a).reshape(-1), device=device)

        return cls(
            lookup=t(lookup.astype(np.int64)),
            continues=t(rules.continues),
            bad_start=t(rules.bad_start),
            bad_end=t(rules.bad_end),
            invalid=t(rules.invalid),
            inside=t(kinds != OUT),
            kinds=t(kinds.astype(np.int64)),
            types=t(np.where(types < 0, n_types, types).astype(np.int64)),
            size=rules.size,
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
    predicted and matched chunks per type, then the gold and predicted transition counts (by pair
    code, then by vocabulary id, as `nerve.tagging.decode.transition_counts` lays them out).
    """
    torch = import_torch()
    b, t = gold.shape
    if b == 0 or t == 0:
        size, n_types = tables.size, tables.n_types
        return torch.zeros(FIXED + 3 * n_types + 2 * (N_CODES + size), dtype=torch.int64, device=gold.device)
    ids = _mapped_ids(gold, pred, lengths, ignore_index, tables)
    places = _Places.of(ids.mask)
    g_start, g_end, g_type, g_trans, g_invalid = _side(ids.gold, places, tables, policy)
    p_start, p_end, p_type, p_trans, p_invalid = _side(ids.pred, places, tables, policy)
    matched = g_start & p_start & (g_type == p_type) & (g_end == p_end)
    n_types = tables.n_types

    def per_type(flags: Any, typ: Any) -> Any:
        return torch.bincount(torch.where(flags, typ, n_types).reshape(-1), minlength=n_types + 1)[:n_types]

    mask = ids.mask
    fixed = torch.stack(
        [
            ids.bad_lengths,
            ids.bad_gold,
            ids.bad_pred,
            ids.holes,
            mask.sum(),
            (mask & (ids.gold == ids.pred)).sum(),
            mask.any(dim=1).sum(),
            g_invalid + p_invalid,
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


@frozen
class _Ids:
    """A batch's vocabulary ids (0 where a position does not count), and its bad input counted."""

    gold: torch.Tensor
    pred: torch.Tensor
    mask: torch.Tensor  # the positions that count
    bad_lengths: torch.Tensor
    bad_gold: torch.Tensor
    bad_pred: torch.Tensor
    holes: torch.Tensor


def _mapped_ids(
    gold: torch.Tensor,
    pred: torch.Tensor,
    lengths: torch.Tensor | None,
    ignore_index: int | None,
    tables: DeviceTables,
) -> _Ids:
    """The positions that count, label ids mapped to vocabulary ids, and bad ids counted."""
    torch = import_torch()
    b, t = gold.shape
    device = gold.device
    n_labels = tables.lookup.shape[0]
    pos = torch.arange(t, device=device)
    mask = torch.ones((b, t), dtype=torch.bool, device=device)
    bad_lengths = torch.zeros((), dtype=torch.int64, device=device)
    if lengths is not None:
        bad_lengths = ((lengths < 0) | (lengths > t)).sum().long()
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
    return _Ids(g, p, mask, bad_lengths, bad_gold, bad_pred, holes)


@frozen
class _Places:
    """The previous and next counted position of every position (-1 and t at the row's edges)."""

    mask: torch.Tensor
    pos: torch.Tensor  # 0 .. t - 1
    prev_pos: torch.Tensor
    next_pos: torch.Tensor
    has_prev: torch.Tensor
    has_next: torch.Tensor
    final: torch.Tensor  # counted positions with no counted position after them

    @classmethod
    def of(cls, mask: torch.Tensor) -> _Places:
        torch = import_torch()
        b, t = mask.shape
        device = mask.device
        pos = torch.arange(t, device=device)
        last_at = torch.cummax(torch.where(mask, pos, -1), dim=1).values
        edge = torch.full((b, 1), -1, device=device, dtype=torch.int64)
        prev_pos = torch.cat([edge, last_at[:, :-1]], dim=1)
        first_at = _run_min(mask, pos, t)
        next_pos = torch.cat([first_at[:, 1:], torch.full_like(edge, t)], dim=1)
        has_next = next_pos < t
        return cls(mask, pos, prev_pos, next_pos, prev_pos >= 0, has_next, mask & ~has_next)


def _run_min(flags: Any, pos: Any, t: int) -> Any:
    """For each position, the first position at or after it where ``flags`` is set (or t)."""
    torch = import_torch()
    return torch.cummin(torch.where(flags, pos, t).flip(1), dim=1).values.flip(1)


def _side(ids: torch.Tensor, places: _Places, tables: DeviceTables, policy: str) -> tuple[Any, ...]:
    """One side's chunk starts, chunk end of each position, type ids, transitions, invalid count."""
    torch = import_torch()
    t = ids.shape[1]
    size, mask = tables.size, places.mask
    prev = torch.where(places.has_prev, ids.gather(1, places.prev_pos.clamp(min=0)), 0)
    nxt = torch.where(places.has_next, ids.gather(1, places.next_pos.clamp(max=t - 1)), 0)
    into, out_of = _codes(prev, ids, tables), _codes(ids, nxt, tables)
    inside = tables.inside[ids] & mask
    start = inside & ~tables.continues[into]
    last = inside & ~tables.continues[out_of]
    end_at = _run_min(last, places.pos, t)
    if policy == "discard":
        bad_end = tables.bad_end[out_of] & last
        start &= ~(tables.bad_start[into] | bad_end.gather(1, end_at.clamp(max=t - 1)))
    invalid = torch.zeros((), dtype=torch.int64, device=ids.device)
    if policy == "error":
        bad = tables.invalid
        invalid = (mask & bad[into]).sum() + (places.final & bad[out_of]).sum()
    # Pairs into counted positions, and out of each row's last one (nxt is 0 there: the outside tag).
    pairs = torch.cat(
        [torch.where(mask, into, N_CODES).reshape(-1), torch.where(places.final, out_of, N_CODES).reshape(-1)]
    )
    by_code = torch.bincount(pairs, minlength=N_CODES + 1)[:N_CODES]
    by_tag = torch.bincount(torch.where(mask, ids, size).reshape(-1), minlength=size + 1)[:size]
    by_tag[0] += places.final.sum()  # the outside tag after each row
    return start, end_at, tables.types[ids], torch.cat([by_code, by_tag]), invalid


def _codes(previous: Any, ids: Any, tables: DeviceTables) -> Any:
    """The pair code of each (previous, id) pair (`nerve.model.pairs.pair_codes`)."""
    kinds, types = tables.kinds, tables.types
    return kinds[previous] * (2 * N_KINDS) + kinds[ids] * 2 + (types[previous] == types[ids]).long()


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
        "gold_transitions": counts[at + 3 * n : at + 3 * n + N_CODES + s],
        "pred_transitions": counts[at + 3 * n + N_CODES + s : at + 3 * n + 2 * (N_CODES + s)],
        "tokens": int(counts[TOKENS]),
        "correct": int(counts[CORRECT]),
        "sentences": int(counts[SENTENCES]),
    }
