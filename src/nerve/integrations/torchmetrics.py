"""A torchmetrics ``Metric`` for exact entity scores, summed across processes by torch.distributed.

Its states are the additive counts of `nerve.StreamingMetric` as tensors on the metric's device
(transition counts, per-type gold, predicted and matched chunks, token counts), each reduced
with ``sum``: under DDP or Lightning, ``compute`` gives what one process would give on all the
data. Batches are decoded on their device (`nerve.tagging.torch_decode`).

`EntityScore` computes a dict of scores; `EntityF1`, `EntityPrecision`, `EntityRecall` and
`TokenAccuracy` (or ``EntityScore(..., key=...)``) compute one scalar tensor, which is what
Lightning's ``self.log`` and ``self.log_dict`` (with a ``MetricCollection``) take.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import options
from ..errors import NerveError, plural
from ..model.pairs import N_CODES
from ..plan import stream_plan
from ..results import Result
from ..streaming.metric import StreamingMetric
from ..streaming.tensors import prepare_batch
from ..tagging.torch_decode import (
    CORRECT,
    FIXED,
    HOLES,
    INVALID,
    SENTENCES,
    TOKENS,
    batch_counts,
    has_bad_input,
    import_torch,
)

torch = import_torch()
try:
    from torchmetrics import Metric
except ImportError:
    raise NerveError("the torchmetrics integration needs torchmetrics: pip install torchmetrics") from None

__all__ = ["KEYS", "EntityF1", "EntityPrecision", "EntityRecall", "EntityScore", "TokenAccuracy"]

#: The scores `EntityScore.compute` returns, and the values of its ``key``.
KEYS = ("precision", "recall", "f1", "accuracy")


class EntityScore(Metric):
    """Exact-match entity precision, recall and F1 as a torchmetrics metric.

    Args:
        labels: the tag of each id (a list, or a mapping such as ``config.id2label``).
        scheme: as for `nerve.StreamingMetric`.
        repair: as for `nerve.StreamingMetric`.
        tag_format: as for `nerve.StreamingMetric`.
        outside: as for `nerve.StreamingMetric`.
        ignore_index: as for `nerve.StreamingMetric`.
        beta: as for `nerve.StreamingMetric`.
        validate: check every batch for ids outside the label list, bad lengths and (with
            ``repair="error"``) invalid transitions, naming the row and position; this reads
            one number back per batch. With ``False`` such batches are counted on the device
            and `compute` raises.
        key: one of `KEYS`: `compute` returns that score alone, a scalar tensor (what
            Lightning's ``self.log`` needs); ``None`` (the default) returns them all in a dict.
        kwargs: passed to ``torchmetrics.Metric`` (``sync_on_compute``, ``process_group``...).

    ``update(preds, target, lengths=None)`` takes id tensors of shape ``(batch, length)``;
    ``compute()`` returns micro ``precision``, ``recall``, ``f1`` and token ``accuracy`` as
    float64 tensors; `result` the whole `nerve.Result`.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    default_key: str | None = None  # the scalar subclasses' score

    def __init__(
        self,
        labels: Sequence[str] | Mapping[int, str],
        *,
        scheme: str = "auto",
        repair: str = "begin",
        tag_format: str | None = None,
        outside: str = "O",
        ignore_index: int | None = -100,
        beta: float = 1.0,
        validate: bool = True,
        key: str | None = None,
        **kwargs: Any,
    ):
        key = self.default_key if key is None else key
        if key is not None:
            options.one_of(key, KEYS, "key")
        super().__init__(**kwargs)
        self.key = key
        plan = stream_plan(scheme, repair, tag_format, outside, beta)
        self._stream = StreamingMetric.planned(labels, plan, ignore_index)
        self._validate = validate
        size, n_types = len(self._stream.vocab), len(self._stream.vocab.type_names)
        self._sizes = (size, n_types)
        self.add_state("counts", torch.zeros(FIXED, dtype=torch.int64), dist_reduce_fx="sum")
        for name in ("gold", "pred", "matched"):
            self.add_state(name, torch.zeros(n_types, dtype=torch.int64), dist_reduce_fx="sum")
        for name in ("gold_transitions", "pred_transitions"):
            self.add_state(name, torch.zeros(N_CODES + size, dtype=torch.int64), dist_reduce_fx="sum")

    def update(self, preds: Any, target: Any, lengths: Any = None) -> None:
        """Add a batch of predicted and gold ids, shape ``(batch, length)``."""
        batch = self._update_count - 1  # torchmetrics counts this call already
        gold, pred, lens = prepare_batch(target, preds, lengths, batch)
        stream = self._stream
        tables = stream.device_tables(gold.device)
        counts = batch_counts(gold, pred, lens, stream.ignore_index, tables, stream.policy)
        if self._validate and has_bad_input(counts[:FIXED].cpu().numpy()):
            # The host check names the row and position, and raises.
            stream.update_host(gold, pred, lens, batch)
            stream.reset()
        self._add(counts)

    def _add(self, counts: Any) -> None:
        size, n = self._sizes
        self.counts += counts[:FIXED]
        at = FIXED
        self.gold += counts[at : at + n]
        self.pred += counts[at + n : at + 2 * n]
        self.matched += counts[at + 2 * n : at + 3 * n]
        at += 3 * n
        self.gold_transitions += counts[at : at + N_CODES + size]
        self.pred_transitions += counts[at + N_CODES + size :]

    def result(self) -> Result:
        """The whole `nerve.Result` of the counts (synced across processes when distributed)."""
        with self.sync_context(
            should_sync=self._to_sync, distributed_available=self.distributed_available_fn
        ):
            return self._result()

    def _result(self) -> Result:
        state = {name: getattr(self, name).cpu().numpy() for name in self._defaults}
        counts = state["counts"]
        if has_bad_input(counts):
            bad = plural(int(counts[: HOLES + 1].sum()), "bad id or length", "bad ids or lengths")
            invalid = plural(int(counts[INVALID]), "invalid transition")
            raise NerveError(
                f"the batches had {bad} and {invalid} (counted with validate=False; validate=True names them)"
            )
        stream = self._stream.empty_copy()
        stream.accumulator.add_counts(
            state["gold_transitions"],
            state["pred_transitions"],
            state["gold"],
            state["pred"],
            state["matched"],
            int(counts[TOKENS]),
            int(counts[CORRECT]),
            int(counts[SENTENCES]),
        )
        return stream.compute()

    def compute(self) -> Any:
        """Micro precision, recall, F1 and token accuracy as float64 tensors (only ``key`` if set)."""
        r = self._result()
        values = {
            "precision": r.micro.precision,
            "recall": r.micro.recall,
            "f1": r.micro.f1,
            "accuracy": r.tokens.accuracy,
        }
        if self.key is not None:
            return torch.tensor(values[self.key], dtype=torch.float64, device=self.counts.device)
        return {k: torch.tensor(v, dtype=torch.float64, device=self.counts.device) for k, v in values.items()}


class EntityF1(EntityScore):
    """Micro F1 as a scalar tensor: ``EntityScore(labels, ..., key="f1")``."""

    default_key = "f1"


class EntityPrecision(EntityScore):
    """Micro precision as a scalar tensor: ``EntityScore(labels, ..., key="precision")``."""

    default_key = "precision"


class EntityRecall(EntityScore):
    """Micro recall as a scalar tensor: ``EntityScore(labels, ..., key="recall")``."""

    default_key = "recall"


class TokenAccuracy(EntityScore):
    """Token accuracy (on the raw tags) as a scalar tensor: ``EntityScore(labels, ..., key="accuracy")``."""

    default_key = "accuracy"
