"""`nerve.tagging.decode`: the problems the ``error`` policy reports, and the chunks it decodes."""

from __future__ import annotations

import numpy as np
import pytest

from nerve.model.schemes import get_scheme
from nerve.model.vocab import TagVocab
from nerve.tagging.decode import DecodeRules, decode_block


def decode(tags: list[str], starts: list[int], scheme: str, policy: str = "error"):  # type: ignore[no-untyped-def]
    fixed = get_scheme(scheme)
    vocab = TagVocab(scheme=fixed)
    ids = vocab.add(tags)
    sentence_start = np.zeros(len(tags), dtype=np.bool_)
    sentence_start[starts] = True
    lines = np.arange(10, 10 + len(tags), dtype=np.int64)
    rules = DecodeRules.of(vocab, fixed)
    return decode_block(ids, sentence_start, vocab, rules, policy, side="pred", source="f.conll", lines=lines)


def test_problems_at_sentence_edges_name_the_edge() -> None:
    # A one-token sentence I-PER under IOBES is entered and left invalidly, on the same line.
    found = decode(["O", "I-PER", "B-LOC", "E-LOC", "B-PER"], [0, 1, 2], "IOBES")
    description = get_scheme("IOBES").description
    got = [(p.source, p.line, p.side, p.previous, p.tag, p.message) for p in found.problems]
    assert got == [
        (
            "f.conll",
            11,
            "pred",
            None,
            "I-PER",
            f"invalid transition sentence start -> 'I-PER' (IOBES: {description})",
        ),
        (
            "f.conll",
            11,
            "pred",
            "I-PER",
            None,
            f"invalid transition 'I-PER' -> sentence end (IOBES: {description})",
        ),
        (
            "f.conll",
            14,
            "pred",
            "B-PER",
            None,
            f"invalid transition 'B-PER' -> sentence end (IOBES: {description})",
        ),
    ]
    # Within a sentence the previous tag is named.
    found = decode(["B-LOC", "O", "I-LOC"], [0], "IOB2")
    [problem] = found.problems
    assert (problem.line, problem.previous, problem.tag) == (12, "O", "I-LOC")
    assert problem.message == f"invalid transition 'O' -> 'I-LOC' (IOB2: {get_scheme('IOB2').description})"


def test_chunks_have_a_length() -> None:
    found = decode(["B-PER", "I-PER", "O", "B-LOC"], [0], "IOB2", policy="begin")
    assert len(found.chunks) == 2
    assert found.chunks.start.tolist() == [0, 3]
    assert len(found.chunks.select(np.array([False, True]))) == 1
    assert found.problems == []


def test_an_unknown_repair_policy_lists_the_known_ones() -> None:
    from nerve.errors import SchemeError
    from nerve.tagging.decode import get_policy

    assert get_policy("discard") == "discard"
    message = r"^Expected a repair policy among begin, conlleval, discard, error, but got 'mend'$"
    with pytest.raises(SchemeError, match=message):
        get_policy("mend")
