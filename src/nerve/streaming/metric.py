"""Scoring inside training loops: a streaming metric over batches of tag ids, tensors or tags.

`StreamingMetric` keeps only additive counts (an `ExactAccumulator`): per-type gold, predicted
and matched entities, token counts, and the transition counts (by pair code and tag) the scheme is
inferred from and repairs are counted from. So updating batch by batch, in any split, gives the
one-shot result, and two metrics merge exactly (shards, processes, GPUs).

A batch is gold and predicted ids of shape ``(batch, length)``, as lists, numpy arrays or torch
tensors, with ``lengths`` and/or an ignore index (``-100`` by default, Hugging Face's mark for
padding and sub-word positions) saying which positions count; every row is one sentence. Ids
index the label list. Lists of tag strings (one list per sentence) are taken too.

Batches are checked in `nerve.streaming.batches`. Torch tensors on an accelerator are decoded on
their own device (`nerve.streaming.tensors`): only a vector of counts comes back to the host, one
transfer per buffer of batches. Tensors on the CPU are read
through numpy without a copy and take the array path, which is several times faster there than
the static-shape tensor decoder (``device_decode=True`` picks that decoder for them anyway).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import numpy as np

from .. import options
from ..errors import InputError, InvalidSequenceError, NerveError, OptionError, Problem
from ..io.tags.lists import iter_lists
from ..metrics.exact import ExactAccumulator, TransitionTable, infer_from
from ..model.blocks import TagBlock
from ..model.schemes import Scheme, TagFormat
from ..model.vocab import TagVocab
from ..plan import Plan, stream_plan
from ..results import Result
from ..tagging.torch_decode import DeviceTables
from .batches import (
    Batch,
    LabelList,
    Labels,
    checked_block,
    is_tag_lists,
    is_torch,
    needs_torch,
    numpy_view,
    rows_block,
    to_numpy,
    well_formed_ids,
)
from .tensors import Pending, copy_batch, decode_pending, prepare_batch, tables_for

__all__ = ["LabelList", "StreamingMetric"]

# Id batches are buffered and decoded together once this many tokens wait (or when the counts
# are read): one pass over many batches costs far less than one pass per batch.
FLUSH_TOKENS = 1 << 17


class StreamingMetric:
    """Exact entity scores accumulated over batches: ``update`` per batch, ``compute`` at the end.

    Args:
        labels: the tag of each id (a list, or a mapping such as ``config.id2label``); needed
            for ids and tensors, not for tag strings.
        scheme: ``"auto"`` (inferred at `compute` from the transitions seen) or a scheme name.
            ``discard`` and ``error`` need it while decoding: with ``"auto"`` it is inferred from
            the label list's letters.
        repair: ``"begin"``, ``"discard"`` or ``"error"`` (``conlleval`` carries state from one
            sentence to the next, so it cannot be split into batches).
        tag_format: how tags are spelled (``"B-X"``, ``"X-B"``...); inferred when ``None``.
        outside: the outside tag.
        ignore_index: the gold id of positions that do not count (padding, sub-words), or
            ``None``.
        beta: the beta of the F-score reported besides F1.
        device_decode: where torch tensors are decoded. ``None``: on their device when it is
            an accelerator, through numpy when it is the CPU (faster there); ``True``: always
            with tensor operations on their device; ``False``: always copied to the host.

    >>> m = StreamingMetric(labels=["O", "B-PER", "I-PER"])
    >>> m.update([[1, 2, 0, -100]], [[1, 2, 0, 0]])
    >>> m.compute().micro.f1
    1.0
    """

    def __init__(
        self,
        labels: Labels | None = None,
        *,
        scheme: str = "auto",
        repair: str = "begin",
        tag_format: str | TagFormat | None = None,
        outside: str = "O",
        ignore_index: int | None = -100,
        beta: float = 1.0,
        device_decode: bool | None = None,
    ):
        plan = stream_plan(scheme, repair, tag_format, outside, beta)
        self._start(labels, plan, ignore_index, device_decode)

    @classmethod
    def planned(
        cls,
        labels: Labels | None,
        plan: Plan,
        ignore_index: int | None = -100,
        device_decode: bool | None = None,
    ) -> StreamingMetric:
        """The metric of ``plan``'s `Tagging` and `Metrics` (`nerve.plan.stream_plan` makes them)."""
        metric = cls.__new__(cls)
        metric._start(labels, plan, ignore_index, device_decode)
        return metric

    def _start(
        self, labels: Labels | None, plan: Plan, ignore_index: int | None, device_decode: bool | None
    ) -> None:
        """Set up for ``plan``: the scheme of the label list when ``discard`` or ``error`` needs it."""
        tagging, beta = plan.tagging, plan.metrics.beta
        policy, fixed, fmt = tagging.policy, tagging.scheme, tagging.fmt
        vocab = TagVocab(fmt, fixed, tagging.outside)
        label_map = LabelList(labels, vocab) if labels is not None else None
        self.inferred = fixed is None
        if fixed is None and policy in ("discard", "error"):
            if label_map is None:
                detail = f"the {policy} policy decodes with the scheme: give scheme= or labels="
                raise OptionError(options.flag("scheme"), detail)
            fixed = _scheme_of_labels(vocab)
        self.labels = label_map
        self.plan = replace(plan, tagging=replace(tagging, scheme=fixed))  # what the signature says
        self.policy = policy
        self.scheme: Scheme | None = fixed
        self.ignore_index = ignore_index
        self.beta = beta
        self.device_decode = device_decode
        self._vocab = vocab
        self.batches = 0
        self._device_tables: dict[str, DeviceTables] = {}
        self.flush_tokens = FLUSH_TOKENS
        self.reset()

    @property
    def vocab(self) -> TagVocab:
        """The tag vocabulary (grows when tag strings bring new tags)."""
        return self._vocab

    @property
    def accumulator(self) -> ExactAccumulator:
        """The additive counts (buffered batches are decoded first)."""
        self._flush()
        return self._acc

    def reset(self) -> None:
        """Forget every batch (the label list and settings stay)."""
        self._acc = ExactAccumulator(self._vocab, self.policy, self.scheme, ("<gold>", "<pred>"))
        self._pending: list[tuple[Any, Any, Any]] = []
        self._tensor_pending: list[Pending] = []
        self._pending_tokens = 0
        self.batches = 0

    def __getstate__(self) -> dict[str, Any]:
        self._flush()
        state = dict(self.__dict__)
        state["_device_tables"] = {}
        return state

    def _flush(self) -> None:
        """Decode the buffered id batches: arrays as one block, tensors by device and width."""
        if self._tensor_pending:
            pending, self._tensor_pending = self._tensor_pending, []
            self._pending_tokens = 0
            for counts, items in decode_pending(pending, self.device_tables, self.ignore_index, self.policy):
                if counts is None:
                    for g, p, n, batch in items:  # the host check names the row and position, and raises
                        self.update_host(g, p, n, batch)
                else:
                    self._acc.add_counts(**counts)
        if not self._pending:
            return
        g = np.concatenate([x[0] for x in self._pending])
        p = np.concatenate([x[1] for x in self._pending])
        per_row = np.concatenate([x[2] for x in self._pending])
        self._pending = []
        self._pending_tokens = 0
        self._acc.update(rows_block(g, p, per_row))

    def device_tables(self, device: Any) -> DeviceTables:
        """The tensor decoder's tables on ``device``, built once per device and vocabulary size."""
        return tables_for(
            self._device_tables, self._vocab, self.scheme, self._label_map(self.batches), device
        )

    def empty_copy(self) -> StreamingMetric:
        """A metric with the same settings and label list, and no counts."""
        new = copy.copy(self)
        new._device_tables = {}
        new.reset()
        return new

    def update(self, gold: Any, pred: Any, lengths: Any = None) -> None:
        """Add one batch: gold and predicted ids (or tag lists), and optionally row lengths.

        Raises:
            InputError: shapes that differ, lengths outside the rows, ids outside the label
                list, devices that differ; the message names the batch, row and position.
                Predicted ids that hold the ``ignore_index`` (which only gold ids carry) ask
                whether the arguments are swapped: this takes gold first, torchmetrics' metrics
                take predictions first.
            InvalidSequenceError: with ``repair="error"``, the batch's invalid transitions.
        """
        batch = self.batches
        if type(gold) is np.ndarray and type(pred) is np.ndarray:  # the common case, first
            self._update_numpy(gold, pred, lengths, batch)
        elif is_tag_lists(gold) or is_tag_lists(pred):
            if lengths is not None:
                raise InputError(f"batch {batch}", None, "lengths apply to ids, not to lists of tags")
            (block,) = iter_lists(gold, pred, self._vocab)
            self._add(block, None)
        elif self.device_decode is None and not any(map(needs_torch, (gold, pred, lengths))):
            # CPU tensors are read through numpy, without a copy.
            g = to_numpy(numpy_view(gold), "gold ids", batch)
            p = to_numpy(numpy_view(pred), "predicted ids", batch)
            self._update_numpy(g, p, numpy_view(lengths), batch)
        elif is_torch(gold) or is_torch(pred):
            g_t, p_t, n_t = prepare_batch(gold, pred, lengths, batch)
            if self.device_decode is False:
                self.update_host(g_t, p_t, n_t, batch)
            else:
                self._update_tensors(g_t, p_t, n_t, batch)
        else:
            g = to_numpy(gold, "gold ids", batch)
            p = to_numpy(pred, "predicted ids", batch)
            self._update_numpy(g, p, lengths, batch)
        self.batches += 1

    def _label_map(self, batch: int) -> LabelList:
        if self.labels is None:
            raise InputError(f"batch {batch}", None, "ids need a label list: StreamingMetric(labels=[...])")
        return self.labels

    def update_host(self, gold: Any, pred: Any, lengths: Any, batch: int) -> None:
        """Add a batch of tensors (from `prepare_batch`) copied to the host, checked there.

        Raises:
            InputError: bad input, naming the batch, row and position.
            InvalidSequenceError: with ``repair="error"``, the batch's invalid transitions.
        """
        g, p = gold.detach().cpu().numpy(), pred.detach().cpu().numpy()
        self._update_numpy(g, p, None if lengths is None else lengths.detach().cpu().numpy(), batch)

    def _update_tensors(self, gold: Any, pred: Any, lengths: Any, batch: int) -> None:
        """Buffer one batch of tensors (from `prepare_batch`) on its device; decode when enough wait.

        Batches of one device and width are decoded together: one call of the tensor decoder and
        one transfer for many batches. With ``repair="error"`` each batch is decoded at once, so
        that its invalid transitions are raised by its own update.
        """
        self._label_map(batch)  # ids need a label list
        self._tensor_pending.append(copy_batch(gold, pred, lengths, batch))
        self._pending_tokens += gold.numel()
        if self.policy == "error" or self._pending_tokens >= self.flush_tokens:
            self._flush()

    def _update_numpy(
        self, gold: np.ndarray[Any, Any], pred: np.ndarray[Any, Any], lengths: Any, batch: int
    ) -> None:
        label_map = self._label_map(batch)
        one = Batch(gold, pred, lengths, batch)
        if self.policy != "error":
            ids = well_formed_ids(one, self.ignore_index, label_map)
            if ids is not None:  # buffered for decoding later
                self._pending.append(ids)
                self._pending_tokens += ids[0].shape[0]
                if self._pending_tokens >= self.flush_tokens:
                    self._flush()
                return
        block, mask = checked_block(one, self.ignore_index, label_map)
        self._add(block, (mask, batch))

    def _add(self, block: TagBlock, where: tuple[np.ndarray[Any, Any], int] | None) -> None:
        """Count one block; with ``error``, raise its problems (positions named by ``where``)."""
        self._flush()  # in order, though counts would not mind
        if self.policy != "error":
            self._acc.update(block)
            return
        trial = ExactAccumulator(self._vocab, self.policy, self.scheme, ("<gold>", "<pred>"))
        trial.update(block)
        if trial.problems:
            assert self.scheme is not None
            raise InvalidSequenceError(_locate(trial.problems, where), self.scheme.name)
        self._acc.absorb(trial)

    def merge(self, other: StreamingMetric) -> StreamingMetric:
        """Add the counts of another metric with the same settings (in place); returns self."""
        if not isinstance(other, StreamingMetric):
            raise InputError(
                "other", None, f"expected a StreamingMetric to merge, got {type(other).__name__}"
            )
        if (self.policy, self.scheme, self.beta) != (other.policy, other.scheme, other.beta):
            raise NerveError("only metrics with the same scheme, repair policy and beta merge")
        self._flush()
        self._acc.absorb(other.accumulator)
        self.batches += other.batches
        return self

    def compute(self) -> Result:
        """The result so far, as `nerve.score` gives it (sentences are the rows seen)."""
        self._flush()
        totals = self._acc.finish()
        return Result.of(self.plan, totals, self._vocab)


def _scheme_of_labels(vocab: TagVocab) -> Scheme:
    """The scheme the label list's letters make (IOB2 for B and I, IOBES for B, I, E, S...)."""
    table = TransitionTable()
    size = len(vocab)
    ids = np.arange(size, dtype=np.int32)
    # Every tag once, each its own sentence: the letters are seen, no transition between tags.
    start = np.ones(size, dtype=np.bool_)
    table.add(ids, start, vocab)
    return infer_from(vocab, [table])


def _locate(problems: list[Problem], where: tuple[np.ndarray[Any, Any], int] | None) -> list[Problem]:
    """Problems with their batch and row as the source, and the position in the row (from 0) as the line."""
    if where is None:
        return [Problem("<tags>", p.line, p.side, p.previous, p.tag, p.message) for p in problems]
    mask, batch = where
    rows, cols = np.nonzero(mask)
    out = []
    for p in problems:
        r, c = int(rows[p.line - 1]), int(cols[p.line - 1])
        out.append(Problem(f"batch {batch}, row {r}", c, p.side, p.previous, p.tag, p.message))
    return out
