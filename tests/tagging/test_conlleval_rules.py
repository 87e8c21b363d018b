"""conlleval.pl's chunk rules as tables, its tag splitting, and its state machine fed in blocks."""

from __future__ import annotations

import numpy as np
import pytest

from nerve.model.vocab import TagVocab
from nerve.tagging.conlleval_rules import (
    P_B,
    P_O,
    PerlChunker,
    PerlCounts,
    PerlTagTable,
    perl_letter,
    rule_tables,
    vocab_codes,
)

LETTERS = ["O", "B", "I", "E", ".", "[", "]", "S"]  # "S": any other prefix


def perl_end_of_chunk(prev: str, tag: str) -> bool:
    """conlleval.pl's endOfChunk, statement by statement, for a step that keeps the type."""
    end = False
    end = end or (prev == "B" and tag == "B")
    end = end or (prev == "B" and tag == "O")
    end = end or (prev == "I" and tag == "B")
    end = end or (prev == "I" and tag == "O")
    end = end or (prev == "E" and tag == "E")
    end = end or (prev == "E" and tag == "I")
    end = end or (prev == "E" and tag == "O")
    end = end or prev == "]"
    return end or prev == "["


def perl_start_of_chunk(prev: str, tag: str) -> bool:
    """conlleval.pl's startOfChunk, statement by statement, for a step that keeps the type."""
    start = False
    start = start or (prev == "B" and tag == "B")
    start = start or (prev == "I" and tag == "B")
    start = start or (prev == "O" and tag == "B")
    start = start or (prev == "O" and tag == "I")
    start = start or (prev == "E" and tag == "E")
    start = start or (prev == "E" and tag == "I")
    start = start or (prev == "O" and tag == "E")
    start = start or tag == "["
    return start or tag == "]"


def test_rule_tables_are_conlleval_pl_s() -> None:
    end, start = rule_tables()
    assert end.shape == start.shape == (8, 8)
    assert end.dtype == start.dtype == np.bool_  # OR-ed with boolean arrays in PerlChunker.update
    for prev in LETTERS:
        for tag in LETTERS:
            p, c = perl_letter(prev.encode()), perl_letter(tag.encode())
            assert bool(end[p, c]) == perl_end_of_chunk(prev, tag), (prev, tag)
            assert bool(start[p, c]) == perl_start_of_chunk(prev, tag), (prev, tag)


def test_tag_table_splits_at_the_first_hyphen_by_default() -> None:
    table = PerlTagTable()
    codes, types, pairs = table.lookup([b"O", b"B-PER", b"I-PER", b"PER", b"B-0", b"I-A-B", b"O"])
    assert codes.tolist() == [perl_letter(x) for x in (b"O", b"B", b"I", b"PER", b"B", b"I", b"O")]
    assert codes.dtype == np.int8
    assert table.types == [b"", b"PER", b"A-B"]
    assert types.tolist() == [0, 1, 1, 0, 0, 2, 0]
    # One id per distinct (prefix, type): O twice, B-PER and I-PER apart.
    assert pairs[0] == pairs[6]
    assert len(set(pairs.tolist())) == 6
    assert table.lookup([])[0].shape == (0,)


def test_raw_tag_table_makes_every_tag_but_the_outside_one_a_b_tag() -> None:
    table = PerlTagTable(raw=True)  # outside defaults to O
    codes, types, _ = table.lookup([b"O", b"o", b"PER", b"B-PER"])
    assert codes.tolist() == [perl_letter(b"O")] + [perl_letter(b"B")] * 3
    assert [table.types[t] for t in types.tolist()] == [b"", b"o", b"PER", b"B-PER"]
    other = PerlTagTable(raw=True, outside=b"x")
    codes, types, _ = other.lookup([b"x", b"O"])
    assert codes.tolist() == [P_O, P_O]
    assert types.tolist() == [0, 0]


def encode(tags: list[str], table: PerlTagTable) -> tuple[np.ndarray, np.ndarray]:
    codes, types, _ = table.lookup([t.encode() for t in tags])
    return codes, types


def totals(counts: PerlCounts, size: int) -> list[list[int]]:
    out = []
    for a in (counts.gold, counts.pred, counts.correct):
        assert a.dtype == np.int64
        padded = np.zeros(size, np.int64)
        padded[: a.shape[0]] = a
        out.append(padded.tolist())
    return out


def random_tags(rng: np.random.Generator, n: int) -> list[str]:
    letters = ["O", "B", "I", "E", ".", "[", "]", "S"]
    tags = []
    for _ in range(n):
        letter = letters[int(rng.integers(0, 8 if rng.random() < 0.2 else 4))]
        tags.append(letter if letter == "O" else f"{letter}-{'XY'[int(rng.integers(0, 2))]}")
    return tags


@pytest.mark.parametrize("seed", range(12))
def test_feeding_in_blocks_counts_as_feeding_at_once(seed: int) -> None:
    """A chunk open at the end of a block goes on in the next one: every split gives the same counts."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    table = PerlTagTable()
    gc, gt = encode(random_tags(rng, n), table)
    pc, pt = encode(random_tags(rng, n), table)
    size = len(table.types)
    whole = PerlChunker()
    whole.update(gc, gt, pc, pt)
    want = totals(whole.finish(), size)
    for cut in range(n + 1):
        split = PerlChunker()
        split.update(gc[:cut], gt[:cut], pc[:cut], pt[:cut])
        split.update(gc[cut:], gt[cut:], pc[cut:], pt[cut:])
        assert totals(split.finish(), size) == want, cut
    one_by_one = PerlChunker()
    for i in range(n):
        one_by_one.update(gc[i : i + 1], gt[i : i + 1], pc[i : i + 1], pt[i : i + 1])
    assert totals(one_by_one.finish(), size) == want


def test_a_correct_chunk_that_spans_blocks_is_counted_once() -> None:
    table = PerlTagTable()
    codes, types = encode(["B-X", "I-X", "I-X"], table)
    chunker = PerlChunker()
    chunker.update(codes[:1], types[:1], codes[:1], types[:1])
    chunker.update(codes[1:], types[1:], codes[1:], types[1:])
    first = totals(chunker.finish(), len(table.types))
    assert first == [[0, 1], [0, 1], [0, 1]]
    # finish() is idempotent: the open chunk is closed once.
    assert totals(chunker.finish(), len(table.types)) == first


def test_no_tokens_count_nothing() -> None:
    chunker = PerlChunker()
    empty = np.zeros(0, np.int64)
    chunker.update(empty.astype(np.int8), empty, empty.astype(np.int8), empty)
    counts = chunker.finish()
    assert [a.tolist() for a in (counts.gold, counts.pred, counts.correct)] == [[], [], []]


def test_vocab_codes_give_o_and_untyped_tags_the_empty_type() -> None:
    vocab = TagVocab()
    ids = vocab.add(["O", "B-PER", "I-PER", "E-LOC", "B-", "S-PER"]).tolist()
    codes, perl_type = vocab_codes(vocab)
    assert codes.dtype == np.int8
    assert codes[ids].tolist() == [perl_letter(x) for x in (b"O", b"B", b"I", b"E", b"B", b"S")]
    names = ["", *vocab.type_names]
    assert [names[perl_type[i]] for i in ids] == ["", "PER", "PER", "LOC", "", "PER"]
    assert perl_type[ids[4]] == 0


def test_raw_tag_table_makes_only_o_outside_by_default() -> None:
    # conlleval.pl -r without -o: every tag but ``O`` is ``B-`` and itself, whatever it spells.
    codes, types, _ = PerlTagTable(raw=True).lookup([b"O", b"XXOXX", b"PER", b"O"])
    assert codes.tolist() == [P_O, P_B, P_B, P_O]
    assert types.tolist() == [0, 1, 2, 0]
