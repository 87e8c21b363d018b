"""Decoding tag ids into entities, and the named policies for sequences a scheme does not allow.

Policies:

- ``begin`` (default): a tag that cannot continue the open entity begins a new one.
- ``conlleval``: conlleval.pl's own start/end-of-chunk rules and its correct-chunk state machine
  (see `nerve.conlleval`).
- ``discard``: entities that start or end in a way the scheme forbids are dropped.
- ``error``: every invalid transition is reported and nothing is scored.

Every invalid transition is counted whatever the policy, from a table of transition counts, so a
result always says how much repairing its numbers rest on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import Problem, SchemeError
from ..model.schemes import KIND_NAMES, OUT, Scheme
from ..model.vocab import TagVocab

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]
    Bool = npt.NDArray[np.bool_]
    Ids = npt.NDArray[np.int32]

__all__ = [
    "REPAIR_POLICIES",
    "Chunks",
    "chunk_validity",
    "decode_ids",
    "get_policy",
    "invalid_positions",
    "neighbours",
    "pair_keys",
    "transition_counts",
]


REPAIR_POLICIES = ("begin", "conlleval", "discard", "error")


def get_policy(name: str) -> str:
    """Check that ``name`` is a repair policy and return it."""
    if name not in REPAIR_POLICIES:
        msg = f"Expected a repair policy among {', '.join(REPAIR_POLICIES)}, but got {name!r}"
        raise SchemeError(msg)
    return name


@dataclass(frozen=True)
class Chunks:
    """Entities decoded from a block: half-open token ranges of the block, and type ids."""

    start: Int
    end: Int
    type: Int

    def __len__(self) -> int:
        return int(self.start.shape[0])

    def select(self, keep: Bool) -> Chunks:
        """The chunks where ``keep`` is true."""
        return Chunks(self.start[keep], self.end[keep], self.type[keep])


def neighbours(ids: Ids, sentence_start: Bool) -> tuple[Ids, Ids]:
    """The tag before and after each token, with the outside tag (id 0) across sentence breaks."""
    n = ids.shape[0]
    prev = np.zeros(n, dtype=np.int32)
    nxt = np.zeros(n, dtype=np.int32)
    if n:
        prev[1:] = ids[:-1]
        nxt[:-1] = ids[1:]
        first = np.flatnonzero(sentence_start)
        prev[first] = 0
        nxt[first[1:] - 1] = 0
    return prev, nxt


def pair_keys(prev: Ids, ids: Ids, size: int) -> npt.NDArray[np.integer]:
    """``prev * size + ids``: a flat index into a (size, size) table, in 32 bits when it fits."""
    if size * size < 2**31:
        return prev.astype(np.int32, copy=False) * np.int32(size) + ids.astype(np.int32, copy=False)
    return prev.astype(np.int64) * size + ids


def decode_ids(
    ids: Ids,
    prev: Ids,
    continues: Bool,
    kinds: npt.NDArray[np.int8],
    types: Int,
    keys: npt.NDArray[np.integer] | None = None,
) -> Chunks:
    """Decode with the shared rule: every entity tag continues the open entity or begins one.

    Args:
        ids: tag ids of the tokens.
        prev: the tag before each token, the outside tag at sentence starts (from `neighbours`).
        continues: table (previous id, current id) -> whether the current tag continues.
        kinds: kind of each tag id.
        types: type id of each tag id.
        keys: ``pair_keys(prev, ids, len(continues))``, when the caller has them already.
    """
    if keys is None:
        keys = pair_keys(prev, ids, continues.shape[0])
    inside = (kinds != OUT).take(ids)
    starts = inside & ~continues.ravel().take(keys)  # prev: O at sentence starts
    # A chunk ends after token i when the next token does not continue it.
    last = np.ones_like(inside)
    last[:-1] = starts[1:] | ~inside[1:]
    last &= inside
    start = np.flatnonzero(starts)
    end = np.flatnonzero(last) + 1
    return Chunks(start, end, types[ids[start]])


def chunk_validity(chunks: Chunks, ids: Ids, prev: Ids, nxt: Ids, bad_start: Bool, bad_end: Bool) -> Bool:
    """Whether each chunk starts and ends the way the scheme allows (for ``discard``)."""
    s, e = chunks.start, chunks.end - 1
    return ~(bad_start[prev[s], ids[s]] | bad_end[ids[e], nxt[e]])


def transition_counts(
    ids: Ids, sentence_start: Bool, prev: Ids, size: int, keys: npt.NDArray[np.integer] | None = None
) -> Int:
    """Count every (previous tag, tag) pair, with sentence edges as the outside tag (id 0).

    ``keys`` are ``pair_keys(prev, ids, size)``, when the caller has them already.
    """
    if keys is None:
        keys = pair_keys(prev, ids, size)
    counts = np.bincount(keys, minlength=size * size)
    n = ids.shape[0]
    if n:
        last = np.append(np.flatnonzero(sentence_start)[1:] - 1, n - 1)
        counts += np.bincount(ids[last].astype(np.int64) * size, minlength=size * size)  # (tag, O)
    return counts.reshape(size, size)


def invalid_positions(ids: Ids, sentence_start: Bool, prev: Ids, nxt: Ids, invalid: Bool) -> tuple[Int, Int]:
    """Invalid transitions: tokens entered invalidly, and sentence-final tokens left invalidly."""
    entering = np.flatnonzero(invalid[prev, ids])
    n = ids.shape[0]
    if not n:
        return entering, entering
    last = np.append(np.flatnonzero(sentence_start)[1:] - 1, n - 1)
    leaving = last[invalid[ids[last], 0]]
    return entering, leaving


def describe_transition(vocab: TagVocab, scheme: Scheme, previous: int | None, current: int | None) -> str:
    """Say in words why a transition is invalid; ``None`` stands for a sentence edge."""
    tags = vocab.tags
    before = "sentence start" if previous is None else repr(tags[previous])
    after = "sentence end" if current is None else repr(tags[current])
    return f"invalid transition {before} -> {after} ({scheme.name}: {scheme.description})"


def problems_for(
    vocab: TagVocab,
    scheme: Scheme,
    side: str,
    source: str,
    lines: Int,
    ids: Ids,
    prev: Ids,
    sentence_start: Bool,
    entering: Int,
    leaving: Int,
) -> list[Problem]:
    """Turn invalid positions into `Problem` records with their lines, in line order."""
    out = []
    tags = vocab.tags
    for i in entering.tolist():
        p = None if sentence_start[i] else int(prev[i])
        c = int(ids[i])
        message = describe_transition(vocab, scheme, p, c)
        out.append(Problem(source, int(lines[i]), side, tags[p] if p is not None else None, tags[c], message))
    for i in leaving.tolist():
        c = int(ids[i])
        message = describe_transition(vocab, scheme, c, None)
        out.append(Problem(source, int(lines[i]), side, tags[c], None, message))
    out.sort(key=lambda pr: (pr.line, pr.tag is None))
    return out


def repair_kinds(counts: Int, invalid: Bool, kinds: npt.NDArray[np.int8]) -> dict[str, int]:
    """Group invalid transition counts by the kinds of their tags, e.g. ``"O -> I": 12``."""
    out: dict[str, int] = {}
    rows, cols = np.nonzero(invalid & (counts > 0))
    for p, c in zip(rows.tolist(), cols.tolist(), strict=True):
        key = f"{KIND_NAMES[int(kinds[p])]} -> {KIND_NAMES[int(kinds[c])]}"
        out[key] = out.get(key, 0) + int(counts[p, c])
    return dict(sorted(out.items()))
