"""Decoding by pair code (`nerve.model.pairs`) against the dense (tag id x tag id) tables it replaced.

The dense tables of `Scheme.transition_tables` are the reference: on random vocabularies the
50-entry code tables give the same answer for every pair of tag ids, decoding under every policy
gives the same entities, invalid transitions and counts as a decoder written on the dense tables,
and the scheme inferred from code counts is the one the dense counts give. The last tests pin
issue 17's fault 6: exact scoring's memory no longer grows with the square of the number of tags.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.metrics.exact import ExactAccumulator, TransitionTable, infer_from
from nerve.model.pairs import N_CODES, code_tables, pair_codes
from nerve.model.schemes import BEGIN, END, OUT, SCHEMES, continuation_table, infer_scheme
from nerve.model.vocab import TagVocab
from nerve.tagging.decode import DecodeRules, decode_block, neighbours, repair_kinds, transition_counts

LETTERS = "BIESLU"
SCHEME_NAMES = sorted(SCHEMES)


def vocab_of(tags: list[str]) -> TagVocab:
    vocab = TagVocab()
    vocab.add(tags)
    return vocab


tag_lists = st.lists(
    st.builds(lambda letter, typ: f"{letter}-{typ}", st.sampled_from(LETTERS), st.sampled_from("ABC")),
    min_size=0,
    max_size=12,
    unique=True,
)


@given(tags=tag_lists, scheme=st.sampled_from([None, *SCHEME_NAMES]))
def test_code_tables_equal_the_dense_tables_for_every_pair(tags: list[str], scheme: str | None) -> None:
    vocab = vocab_of(tags)
    kinds, types = vocab.kinds, vocab.types
    dense: tuple[np.ndarray[Any, Any], ...]
    if scheme is None:
        none = np.zeros((len(vocab), len(vocab)), dtype=np.bool_)
        dense = (continuation_table(kinds, types), none, none)
    else:
        dense = SCHEMES[scheme].transition_tables(kinds, types)
    prev, cur = (a.ravel().astype(np.int32) for a in np.indices((len(vocab), len(vocab))))
    codes = pair_codes(prev, cur, kinds, types)
    assert codes.min() >= 0
    assert codes.max() < N_CODES
    for small, big in zip(code_tables(None if scheme is None else SCHEMES[scheme]), dense, strict=True):
        assert small.shape == (N_CODES,)
        assert small.take(codes).tolist() == big[prev, cur].tolist()


def dense_reference(ids: np.ndarray, start: np.ndarray, vocab: TagVocab, scheme: str, policy: str):  # type: ignore[no-untyped-def, type-arg]
    """Entities, invalid entries and exits, and (prev, tag) counts from the dense tables, token by token."""
    cont, bad_start, bad_end = SCHEMES[scheme].transition_tables(vocab.kinds, vocab.types)
    n = len(ids)
    prev = [0 if start[i] else int(ids[i - 1]) for i in range(n)]
    nxt = [0 if i + 1 == n or start[i + 1] else int(ids[i + 1]) for i in range(n)]
    counts: dict[tuple[int, int], int] = {}
    for i in range(n):
        counts[prev[i], int(ids[i])] = counts.get((prev[i], int(ids[i])), 0) + 1
        if nxt[i] == 0 and (i + 1 == n or start[i + 1]):
            counts[int(ids[i]), 0] = counts.get((int(ids[i]), 0), 0) + 1
    entering = [i for i in range(n) if bad_start[prev[i], ids[i]] or bad_end[prev[i], ids[i]]]
    ends = [i for i in range(n) if i + 1 == n or start[i + 1]]
    leaving = [i for i in ends if bad_start[ids[i], 0] or bad_end[ids[i], 0]]
    chunks = []
    i = 0
    while i < n:
        if vocab.kinds[ids[i]] != OUT and not cont[prev[i], ids[i]]:
            j = i + 1
            while j < n and not start[j] and cont[ids[j - 1], ids[j]]:
                j += 1
            ok = not bad_start[prev[i], ids[i]] and not bad_end[ids[j - 1], nxt[j - 1]]
            if policy != "discard" or ok:
                chunks.append((i, j, int(vocab.types[ids[i]])))
            i = j
        else:
            i += 1
    return chunks, entering, leaving, counts


@settings(max_examples=150)
@given(
    tags=tag_lists,
    picks=st.lists(st.integers(0, 40), min_size=0, max_size=40),
    breaks=st.lists(st.booleans(), min_size=40, max_size=40),
    scheme=st.sampled_from(SCHEME_NAMES),
    policy=st.sampled_from(["begin", "discard", "error"]),
)
def test_decoding_by_code_equals_the_dense_reference(
    tags: list[str], picks: list[int], breaks: list[bool], scheme: str, policy: str
) -> None:
    vocab = vocab_of(["O", *tags])
    ids = np.asarray([p % len(vocab) for p in picks], dtype=np.int32)
    start = np.asarray(breaks[: len(ids)], dtype=np.bool_)
    if len(ids):
        start[0] = True
    rules = DecodeRules.of(vocab, SCHEMES[scheme])
    found = decode_block(ids, start, vocab, rules, policy, transitions=True)
    chunks, entering, leaving, counts = dense_reference(ids, start, vocab, scheme, policy)
    assert (
        list(
            zip(
                found.chunks.start.tolist(),
                found.chunks.end.tolist(),
                found.chunks.type.tolist(),
                strict=True,
            )
        )
        == chunks
    )
    assert found.transitions is not None
    by_code = np.zeros(N_CODES, dtype=np.int64)
    by_tag = np.zeros(len(vocab), dtype=np.int64)
    for (p, c), k in counts.items():
        by_code[pair_codes(np.array([p]), np.array([c]), vocab.kinds, vocab.types)[0]] += k
        by_tag[c] += k
    assert found.transitions.tolist() == [*by_code.tolist(), *by_tag.tolist()]
    if policy == "error":
        lines = sorted([*(i + 1 for i in entering), *(i + 1 for i in leaving)])
        assert sorted(p.line for p in found.problems) == lines
    invalid = rules.invalid
    dense_invalid = np.logical_or(*SCHEMES[scheme].transition_tables(vocab.kinds, vocab.types)[1:])
    assert sum(repair_kinds(found.transitions, invalid).values()) == sum(
        k for (p, c), k in counts.items() if dense_invalid[p, c]
    )


@settings(max_examples=150)
@given(tags=tag_lists, picks=st.lists(st.integers(0, 40), min_size=1, max_size=30))
def test_inferred_scheme_equals_the_dense_inference(tags: list[str], picks: list[int]) -> None:
    vocab = vocab_of(["O", *tags])
    ids = np.asarray([p % len(vocab) for p in picks], dtype=np.int32)
    start = np.zeros(len(ids), dtype=np.bool_)
    start[0] = True
    prev = neighbours(ids, start)[0]
    table = TransitionTable()
    table.add_counts(
        transition_counts(
            ids, start, pair_codes(prev, ids, vocab.kinds, vocab.types), vocab.kinds, vocab.types
        )
    )
    # The dense rule: a B after anything but its own type's entity tag, an E before anything else.
    kinds, types = vocab.kinds, vocab.types
    pairs = [(int(prev[i]), int(ids[i])) for i in range(len(ids))] + [(int(ids[-1]), 0)]
    same = [types[p] == types[c] and kinds[p] != OUT and kinds[c] != OUT for p, c in pairs]
    b_after = any(kinds[c] == BEGIN and not s for (p, c), s in zip(pairs, same, strict=True))
    e_before = any(kinds[p] == END and not s for (p, c), s in zip(pairs, same, strict=True))
    letters = {vocab.letters[i] for i in {0, *ids.tolist()}}
    try:
        expected = infer_scheme(letters, b_after, e_before).name
    except nerve.SchemeError:
        expected = "refused"
    try:
        got = infer_from(vocab, [table]).name
    except nerve.SchemeError:
        got = "refused"
    assert got == expected


def many_types(path: Path, n_types: int, tokens: int) -> Path:
    lines = []
    for i in range(tokens):
        lines.append(f"w{i} B-T{i % n_types} B-T{(i * 7) % n_types}")
        if i % 20 == 19:
            lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_decoding_tables_and_transition_counts_do_not_grow_with_the_square_of_the_tags(
    tmp_path: Path,
) -> None:
    vocab = vocab_of([f"B-T{i}" for i in range(3000)])
    rules = DecodeRules.of(vocab, SCHEMES["IOB2"])
    assert rules.continues.shape == rules.bad_start.shape == rules.bad_end.shape == (N_CODES,)
    acc = ExactAccumulator(vocab, "begin", None, ("g", "p"))
    ids = np.arange(1, 3001, dtype=np.int32)
    block = nerve.model.blocks.TagBlock(
        ids,
        ids[::-1].copy(),
        np.ones(3000, dtype=np.bool_),
        np.zeros(3000, dtype=np.bool_),
        np.arange(1, 3001),
        np.arange(1, 3001),
    )
    acc.update(block)
    assert acc.gold_table.codes.shape == (N_CODES,)
    assert acc.gold_table.tags.shape == (3001,)


def test_scoring_6000_types_stays_small(tmp_path: Path) -> None:
    # Dense (tag x tag) tables for 6,001 tags took 1.6 GiB (fault 6); peak Python-tracked memory
    # is now a few MiB.
    path = many_types(tmp_path / "types.conll", 6000, 24_000)
    tracemalloc.start()
    try:
        result = nerve.score(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(result.exact.per_type) == 6000
    assert peak < 64 * 2**20, f"peak {peak / 2**20:.1f} MiB"


# --- one home for the decoding rule (issue 26): the tag-column readers of io use it, not a copy ---

tagged_docs = st.lists(  # documents of sentences of tags; a sentence may be empty of entities
    st.lists(
        st.lists(st.sampled_from(["O", "B-A", "I-A", "E-A", "S-B", "I-B", "L-A"]), min_size=1, max_size=6),
        min_size=1,
        max_size=3,
    ),
    min_size=1,
    max_size=3,
)


@given(tagged_docs)
@settings(max_examples=200, deadline=None)
def test_tag_columns_decode_as_decode_block(docs: list[list[list[str]]]) -> None:
    """HIPE's and CoNLL-U's decoder finds the entities `decode_block` finds with ``repair="begin"``."""
    from nerve.io.tags.tag_columns import decode_tag_ids

    tags = [t for doc in docs for sentence in doc for t in sentence]
    doc = np.repeat(np.arange(len(docs)), [sum(map(len, d)) for d in docs]).astype(np.int64)
    starts = np.zeros(len(tags), dtype=bool)
    starts[np.cumsum([0] + [len(s) for d in docs for s in d])[:-1]] = True
    lines = np.arange(1, len(tags) + 1, dtype=np.int64)
    names = sorted(set(tags))
    inverse = np.asarray([names.index(t) for t in tags], dtype=np.int64)
    got = decode_tag_ids(names, inverse, doc, starts, len(docs), ("t", lines))
    vocab = vocab_of(tags)
    ids = vocab.add(tags)
    chunks = decode_block(ids, starts, vocab, DecodeRules.of(vocab, None), "begin").chunks
    base = np.searchsorted(doc, doc[chunks.start])
    expected = sorted(
        zip(
            doc[chunks.start].tolist(),
            (chunks.start - base).tolist(),
            (chunks.end - base).tolist(),
            [vocab.type_names[t] for t in chunks.type.tolist()],
            strict=True,
        )
    )
    assert sorted((s.seq, s.start, s.end, s.label) for s in got) == expected


def test_tag_columns_use_the_one_decoding_rule(monkeypatch: Any) -> None:
    """The rule has one home, `nerve.model.chunks`: io's tag columns and tagging's policies call it."""
    import nerve.io.tags.tag_columns as tag_columns
    import nerve.model.chunks as chunks
    import nerve.tagging.decode as decode

    assert decode.decode_ids is chunks.decode_ids
    assert decode.Chunks is chunks.Chunks
    calls = []

    def spy(*args: Any) -> Any:
        calls.append(args)
        return chunks.decode_ids(*args)

    monkeypatch.setattr(tag_columns, "decode_ids", spy)
    doc = np.zeros(3, dtype=np.int64)
    tags = (["B-X", "I-X", "O"], np.arange(3, dtype=np.int64))
    got = tag_columns.decode_tag_ids(*tags, doc, np.array([1, 0, 0], bool), 1, ("t", doc))
    assert calls
    assert [(s.start, s.end, s.label) for s in got] == [(0, 2, "X")]
