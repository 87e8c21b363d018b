"""Decoding tag ids into entities, and the named policies for sequences a scheme does not allow.

Policies:

- ``begin`` (default): a tag that cannot continue the open entity begins a new one.
- ``conlleval``: conlleval.pl's own start/end-of-chunk rules and its correct-chunk state machine
  (see `nerve.tagging.conlleval_rules`).
- ``discard``: entities that start or end in a way the scheme forbids are dropped.
- ``error``: every invalid transition is reported and nothing is scored.

Every invalid transition is counted whatever the policy, from counts of transitions by pair code
(`nerve.model.pairs`), so a result always says how much repairing its numbers rest on.

The shared rule itself (`Chunks`, `neighbours`, `decode_ids`) lives in `nerve.model.chunks`, where
the tag-column readers of ``io`` use it too; it is named here as well, where `nerve.repair` had it.
`decode_block` is the one composition of the steps below (neighbours, decoding, the policy's
repairs, problems, transition counts) that scoring, validation, decoding and streaming share.
"""

from __future__ import annotations

from dataclasses import field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from ..errors import Problem, SchemeError
from ..model.chunks import NO_CHUNKS, Chunks, decode_ids, neighbours
from ..model.pairs import KIND_OF_PREVIOUS, KIND_OF_TAG, N_CODES, code_tables, pair_codes
from ..model.schemes import KIND_NAMES, Scheme
from ..model.vocab import TagVocab
from ..options import REPAIR_POLICIES

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Bool, Codes, Ids, Int

__all__ = [
    "NO_CHUNKS",
    "REPAIR_POLICIES",
    "Chunks",
    "DecodeRules",
    "Decoded",
    "chunk_validity",
    "decode_block",
    "decode_ids",
    "get_policy",
    "invalid_positions",
    "neighbours",
    "repair_kinds",
    "sentence_ends",
    "transition_counts",
]


def get_policy(name: str) -> str:
    """Check that ``name`` is a repair policy and return it."""
    if name not in REPAIR_POLICIES:
        msg = f"Expected a repair policy among {', '.join(REPAIR_POLICIES)}, but got {name!r}"
        raise SchemeError(msg)
    return name


def chunk_validity(chunks: Chunks, ids: Ids, prev: Ids, nxt: Ids, rules: DecodeRules) -> Bool:
    """Whether each chunk starts and ends the way the scheme allows (for ``discard``)."""
    s, e = chunks.start, chunks.end - 1
    kinds, types = rules.kinds, rules.types
    entering = pair_codes(prev[s], ids[s], kinds, types)
    leaving = pair_codes(ids[e], nxt[e], kinds, types)
    return ~(rules.bad_start.take(entering) | rules.bad_end.take(leaving))


def sentence_ends(sentence_start: Bool) -> Int:
    """The position of the last token of every sentence."""
    n = sentence_start.shape[0]
    if not n:
        return np.zeros(0, dtype=np.int64)
    return np.append(np.flatnonzero(sentence_start)[1:] - 1, n - 1)


def transition_counts(
    ids: Ids, sentence_start: Bool, codes: Codes, kinds: npt.NDArray[np.int8], types: Int
) -> Int:
    """Count the transitions of a sequence: by pair code, then how often each tag id occurs.

    A vector of `N_CODES` + ``len(kinds)`` counts. Sentence edges count as the outside tag
    (id 0): the pair into a sentence's first tag is in ``codes``; the pair out of its last
    tag, into the outside tag, is added here, and id 0 occurs once more per sentence.
    """
    size = kinds.shape[0]
    out = np.zeros(N_CODES + size, dtype=np.int64)
    out[:N_CODES] = np.bincount(codes, minlength=N_CODES)
    out[N_CODES:] = np.bincount(ids, minlength=size)
    last = sentence_ends(sentence_start)
    if last.shape[0]:
        leaving = pair_codes(ids[last], np.zeros(last.shape[0], dtype=np.int32), kinds, types)
        out[:N_CODES] += np.bincount(leaving, minlength=N_CODES)
        out[N_CODES] += last.shape[0]
    return out


def invalid_positions(ids: Ids, sentence_start: Bool, codes: Codes, rules: DecodeRules) -> tuple[Int, Int]:
    """Invalid transitions: tokens entered invalidly, and sentence-final tokens left invalidly."""
    entering = np.flatnonzero(rules.invalid.take(codes))
    last = sentence_ends(sentence_start)
    leaving = pair_codes(ids[last], np.zeros(last.shape[0], dtype=np.int32), rules.kinds, rules.types)
    return entering, last[rules.invalid.take(leaving)]


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


def repair_kinds(counts: Int, invalid: Bool) -> dict[str, int]:
    """Group invalid transitions by the kinds of their tags, e.g. ``"O -> I": 12``.

    ``counts``: counts by pair code (`transition_counts`; only the first `N_CODES` are read);
    ``invalid``: the pair codes a scheme does not allow (`DecodeRules.invalid`).
    """
    out: dict[str, int] = {}
    for code in np.flatnonzero(invalid & (counts[:N_CODES] > 0)).tolist():
        key = f"{KIND_NAMES[int(KIND_OF_PREVIOUS[code])]} -> {KIND_NAMES[int(KIND_OF_TAG[code])]}"
        out[key] = out.get(key, 0) + int(counts[code])
    return dict(sorted(out.items()))


@frozen
class DecodeRules:
    """The tables a vocabulary decodes with, under a scheme or none, indexed by pair code.

    Without a scheme only the shared continuation rule applies, and nothing is invalid (the
    scheme is inferred later, from the transition counts). The tables have `N_CODES` entries
    however many tags there are (`nerve.model.pairs`); ``kinds`` and ``types`` are the
    vocabulary's, as it was when the rules were made.
    """

    scheme: Scheme | None
    continues: Bool  # the current tag continues the previous tag's entity
    bad_start: Bool  # the current tag starts an entity where the scheme forbids it
    bad_end: Bool  # the previous tag ends an entity where the scheme forbids it
    kinds: npt.NDArray[np.int8]
    types: Int

    @classmethod
    def of(cls, vocab: TagVocab, scheme: Scheme | None) -> DecodeRules:
        """The tables for ``vocab`` as it is now."""
        return cls(scheme, *code_tables(scheme), vocab.kinds, vocab.types)

    @property
    def size(self) -> int:
        """How many tag ids the rules cover."""
        return int(self.kinds.shape[0])

    @cached_property
    def invalid(self) -> Bool:
        """The pair codes the scheme does not allow: ``bad_start | bad_end``."""
        return self.bad_start | self.bad_end


@frozen
class Decoded:
    """What `decode_block` found in one sequence of tag ids.

    Attributes:
        chunks: the entities (none when not asked for).
        transitions: counts of transitions by pair code, then of each tag id, sentence edges as
            id 0 (`transition_counts`; ``None`` when not asked for).
        problems: the invalid transitions, in line order (found for the ``error`` policy only).
    """

    chunks: Chunks
    transitions: Int | None = None
    problems: list[Problem] = field(default_factory=list)


def decode_block(
    ids: Ids,
    sentence_start: Bool,
    vocab: TagVocab,
    rules: DecodeRules,
    policy: str,
    *,
    chunks: bool = True,
    transitions: bool = False,
    side: str = "tags",
    source: str = "<tags>",
    lines: Int | None = None,
) -> Decoded:
    """Decode one sequence of tag ids (a side of a block) under a repair policy.

    ``begin`` decodes with the shared rule; ``discard`` also drops the entities that start or
    end where the scheme forbids; ``error`` also lists every invalid transition as a `Problem`
    of ``side`` in ``source``, at ``lines``.
    ``conlleval`` has chunk rules of its own (`nerve.tagging.conlleval_rules`): it decodes no
    chunks here, only counts transitions.

    Args:
        ids: tag ids of ``vocab``, tokens of all sentences end to end.
        sentence_start: whether each token starts a sentence.
        vocab: the vocabulary of the ids.
        rules: its tables (`DecodeRules.of`); ``discard`` and ``error`` need a scheme.
        policy: ``begin``, ``discard``, ``error`` or ``conlleval``.
        chunks: whether to decode entities (``False`` to only count or check).
        transitions: whether to count the transitions (`transition_counts`).
        side: the side problems are of (``gold``, ``pred``, ``tags``).
        source: the file (or other source) problems are in.
        lines: the line of each token, for problems; 1, 2, ... when ``None``.
    """
    if policy in ("discard", "error") and rules.scheme is None:
        raise ValueError(f"the {policy} policy needs the scheme")
    prev, nxt = neighbours(ids, sentence_start)
    codes = pair_codes(prev, ids, rules.kinds, rules.types)
    counts = transition_counts(ids, sentence_start, codes, rules.kinds, rules.types) if transitions else None
    problems: list[Problem] = []
    if policy == "error":
        assert rules.scheme is not None
        entering, leaving = invalid_positions(ids, sentence_start, codes, rules)
        if entering.shape[0] or leaving.shape[0]:
            if lines is None:
                lines = np.arange(1, ids.shape[0] + 1, dtype=np.int64)
            problems = problems_for(
                vocab, rules.scheme, side, source, lines, ids, prev, sentence_start, entering, leaving
            )
    found = NO_CHUNKS
    if chunks and policy != "conlleval":
        found = decode_ids(ids, codes, rules.continues, rules.kinds, rules.types)
        if policy == "discard":
            found = found.select(chunk_validity(found, ids, prev, nxt, rules))
    return Decoded(found, counts, problems)
