"""Scoring inside training loops: a streaming metric over batches of tag ids, tensors or tags.

`StreamingMetric` keeps only additive counts (an `ExactAccumulator`): per-type gold, predicted
and matched entities, token counts, and the (previous tag, tag) transition tables the scheme is
inferred from and repairs are counted from. So updating batch by batch, in any split, gives the
one-shot result, and two metrics merge exactly (shards, processes, GPUs).

A batch is gold and predicted ids of shape ``(batch, length)``, as lists, numpy arrays or torch
tensors, with ``lengths`` and/or an ignore index (``-100`` by default, Hugging Face's mark for
padding and sub-word positions) saying which positions count; every row is one sentence. Ids
index the label list. Lists of tag strings (one list per sentence) are taken too.

Torch tensors on an accelerator are decoded on their own device (`nerve.tensors`): only a vector
of counts comes back to the host, one transfer per buffer of batches. Tensors on the CPU are read
through numpy without a copy and take the array path, which is several times faster there than
the static-shape tensor decoder (``device_decode=True`` picks that decoder for them anyway).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError, InvalidSequenceError, NerveError, Problem, SchemeError
from ..io.conll import TagBlock, iter_lists
from ..metrics.exact import ExactAccumulator, TransitionTable, infer_from
from ..model.schemes import Scheme, TagFormat, get_scheme
from ..model.vocab import TagVocab
from ..results import ExactScores, Result, Settings
from ..tagging.decode import get_policy

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]

__all__ = ["LabelMap", "StreamingMetric"]

Labels = Sequence[str] | Mapping[int, str]

# Id batches are buffered and decoded together once this many tokens wait (or when the counts
# are read): one pass over many batches costs far less than one pass per batch.
FLUSH_TOKENS = 1 << 17


class LabelMap:
    """A label list (id -> tag) turned into ids of a `TagVocab`.

    Args:
        labels: the tag of each id, as a list (``labels[i]``) or a mapping such as a Hugging
            Face ``config.id2label``. Ids missing from a mapping are out of range.
        vocab: the vocabulary the tags are added to.
    """

    def __init__(self, labels: Labels, vocab: TagVocab):
        if isinstance(labels, Mapping):
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


def _to_numpy(x: Any, what: str, batch: int) -> np.ndarray[Any, Any]:
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


def _is_torch(x: Any) -> bool:
    return type(x).__module__.startswith("torch") and hasattr(x, "device")


def _needs_torch(x: Any) -> bool:
    """Whether ``x`` is a tensor numpy cannot view: off the CPU, or not of integers."""
    if not _is_torch(x):
        return False
    return x.device.type != "cpu" or x.is_floating_point() or x.is_complex() or str(x.dtype) == "torch.bool"


def _numpy_view(x: Any) -> Any:
    """A CPU tensor as a numpy array sharing its memory; anything else as it is."""
    return x.detach().numpy() if _is_torch(x) else x


def _unsigned(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Integers viewed as unsigned ones of the same width."""
    return a.view(f"u{a.dtype.itemsize}")


def _is_tag_lists(x: Any) -> bool:
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


def _rows_block(gold: npt.NDArray[np.int32], pred: npt.NDArray[np.int32], per_row: Int) -> TagBlock:
    """The ids of rows laid end to end as a block, each row a sentence (empty rows vanish)."""
    n = gold.shape[0]
    sentence_start = np.zeros(n, dtype=np.bool_)
    offsets = np.cumsum(per_row) - per_row
    sentence_start[offsets[per_row > 0]] = True
    line = np.arange(1, n + 1, dtype=np.int64)
    return TagBlock(gold, pred, sentence_start, np.zeros(n, dtype=np.bool_), line, line)


def check_batch(
    gold: np.ndarray[Any, Any],
    pred: np.ndarray[Any, Any],
    lengths: Any,
    ignore_index: int | None,
    n_labels: int,
    batch: int,
) -> np.ndarray[Any, Any]:
    """Check shapes, lengths and ids of a batch; return the mask of positions that count.

    Raises:
        InputError: naming the batch, and the row and position where it applies.
    """
    where = f"batch {batch}"
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
        lens = np.asarray(lengths.cpu() if _is_torch(lengths) else lengths)
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
            raise InputError(
                where,
                None,
                f"row {r}, position {c}: {name} id {int(a[r, c])} is not in the label list "
                f"(0..{n_labels - 1})",
            )
    return mask


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
        from ..options import tag_format as _parse_tag_format

        policy = get_policy(repair)
        if policy == "conlleval":
            raise NerveError(
                "the conlleval policy carries state from one sentence to the next; stream with begin, "
                "discard or error"
            )
        if beta <= 0:
            raise NerveError(f"Expected beta > 0, but got {beta}")
        fmt = _parse_tag_format(tag_format, outside)
        fixed = None if scheme.lower() == "auto" else get_scheme(scheme)
        vocab = TagVocab(fmt, fixed, outside)
        label_map = LabelMap(labels, vocab) if labels is not None else None
        self.inferred = fixed is None
        if fixed is None and policy in ("discard", "error"):
            if label_map is None:
                raise NerveError(f"the {policy} policy decodes with the scheme: give scheme= or labels=")
            fixed = _scheme_of_labels(vocab)
        self.labels = label_map
        self.policy = policy
        self.scheme: Scheme | None = fixed
        self.ignore_index = ignore_index
        self.beta = beta
        self.device_decode = device_decode
        self._vocab = vocab
        self.batches = 0
        self._device_tables: dict[str, Any] = {}
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
        self._tensor_pending: list[tuple[Any, Any, Any, int]] = []
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
            from ..tagging.torch_decode import flush_tensors

            pending, self._tensor_pending = self._tensor_pending, []
            self._pending_tokens = 0
            flush_tensors(self, pending)
        if not self._pending:
            return
        g = np.concatenate([x[0] for x in self._pending])
        p = np.concatenate([x[1] for x in self._pending])
        per_row = np.concatenate([x[2] for x in self._pending])
        self._pending = []
        self._pending_tokens = 0
        self._acc.update(_rows_block(g, p, per_row))

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
            InvalidSequenceError: with ``repair="error"``, the batch's invalid transitions.
        """
        batch = self.batches
        if type(gold) is np.ndarray and type(pred) is np.ndarray:  # the common case, first
            self._update_numpy(gold, pred, lengths, batch)
        elif _is_tag_lists(gold) or _is_tag_lists(pred):
            if lengths is not None:
                raise InputError(f"batch {batch}", None, "lengths apply to ids, not to lists of tags")
            (block,) = iter_lists(gold, pred, self._vocab)
            self._add(block, None)
        elif self.device_decode is None and not any(map(_needs_torch, (gold, pred, lengths))):
            # CPU tensors are read through numpy, without a copy.
            g = _to_numpy(_numpy_view(gold), "gold ids", batch)
            p = _to_numpy(_numpy_view(pred), "predicted ids", batch)
            self._update_numpy(g, p, _numpy_view(lengths), batch)
        elif _is_torch(gold) or _is_torch(pred):
            from ..tagging.torch_decode import prepare_batch, update_from_tensors

            g_t, p_t, n_t = prepare_batch(gold, pred, lengths, batch)
            if self.device_decode is False:
                self._update_host(g_t, p_t, n_t, batch)
            else:
                update_from_tensors(self, g_t, p_t, n_t, batch)
        else:
            g = _to_numpy(gold, "gold ids", batch)
            p = _to_numpy(pred, "predicted ids", batch)
            self._update_numpy(g, p, lengths, batch)
        self.batches += 1

    def _label_map(self, batch: int) -> LabelMap:
        if self.labels is None:
            raise InputError(f"batch {batch}", None, "ids need a label list: StreamingMetric(labels=[...])")
        return self.labels

    def _update_host(self, gold: Any, pred: Any, lengths: Any, batch: int) -> None:
        """Add a batch of tensors (from `prepare_batch`) copied to the host, checked there."""
        g, p = gold.detach().cpu().numpy(), pred.detach().cpu().numpy()
        self._update_numpy(g, p, None if lengths is None else lengths.detach().cpu().numpy(), batch)

    def _update_numpy(
        self, gold: np.ndarray[Any, Any], pred: np.ndarray[Any, Any], lengths: Any, batch: int
    ) -> None:
        label_map = self._label_map(batch)
        if self.policy != "error" and self._fast_path(gold, pred, lengths, label_map):
            return
        mask = check_batch(gold, pred, lengths, self.ignore_index, len(label_map), batch)
        if gold.ndim == 1:
            gold, pred = gold[None, :], pred[None, :]
        lookup = label_map.lookup
        holes = np.argwhere(
            mask & ((lookup[np.where(mask, gold, 0)] < 0) | (lookup[np.where(mask, pred, 0)] < 0))
        )
        if holes.shape[0]:
            r, c = (int(v) for v in holes[0])
            raise InputError(f"batch {batch}", None, f"row {r}, position {c}: id not in the label mapping")
        self._add(_rows_block(lookup[gold[mask]], lookup[pred[mask]], mask.sum(axis=1)), (mask, batch))

    def _fast_path(
        self, gold: np.ndarray[Any, Any], pred: np.ndarray[Any, Any], lengths: Any, label_map: LabelMap
    ) -> bool:
        """Buffer a well-formed batch for decoding later, with as few array passes as it takes.

        Returns False for anything unusual, which `check_batch` then examines and names.
        """
        if (
            gold.ndim != 2
            or pred.shape != gold.shape
            or gold.dtype.kind not in "iu"
            or pred.dtype.kind not in "iu"
        ):
            return False
        b, t = gold.shape
        ignore = self.ignore_index
        mask = gold != ignore if ignore is not None else np.ones((b, t), dtype=np.bool_)
        if lengths is not None:
            lens = np.asarray(lengths)
            if (
                lens.shape != (b,)
                or lens.dtype.kind not in "iu"
                or (b and (lens.min() < 0 or lens.max() > t))
            ):
                return False
            mask &= np.arange(t) < lens[:, None]
        g = gold[mask]
        p = pred[mask]
        n = len(label_map)
        # Read as unsigned, a negative id is a huge one: one maximum per side checks the range.
        if g.shape[0] and (_unsigned(g).max() >= n or _unsigned(p).max() >= n):
            return False
        lookup = label_map.lookup
        g, p = lookup[g], lookup[p]
        if label_map.has_holes and g.shape[0] and min(g.min(), p.min()) < 0:
            return False
        self._pending.append((g, p, mask.sum(axis=1)))
        self._pending_tokens += g.shape[0]
        if self._pending_tokens >= self.flush_tokens:
            self._flush()
        return True

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
        vocab = self._vocab
        settings = Settings(
            scheme=totals.scheme.name,
            scheme_inferred=self.inferred,
            tag_format=vocab.format.describe() if vocab.format is not None else None,
            outside=vocab.outside,
            repair=self.policy,
            beta=self.beta,
        )
        return Result(
            settings=settings,
            tokens=totals.tokens,
            exact=ExactScores(totals.counts, self.beta),
            repairs=totals.repairs,
            sentences=totals.sentences,
            documents=totals.documents,
        )


def _scheme_of_labels(vocab: TagVocab) -> Scheme:
    """The scheme the label list's letters make (IOB2 for B and I, IOBES for B, I, E, S...)."""
    table = TransitionTable()
    size = len(vocab)
    ids = np.arange(size, dtype=np.int32)
    # Every tag once, each its own sentence: the letters are seen, no transition between tags.
    start = np.ones(size, dtype=np.bool_)
    table.add(ids, start, np.zeros(size, dtype=np.int32), size)
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
