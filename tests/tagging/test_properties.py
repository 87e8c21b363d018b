"""Property tests (hypothesis) of decoding, encoding, repair and merging.

- ``decode(encode(spans)) == spans`` for every scheme and tag format;
- the output of the ``begin`` repair is always valid for its scheme;
- the array decoder equals a plain per-token reference decoder (``begin`` and ``discard``);
- scores over shards merged equal the one-shot score, and sentence order does not matter;
- ``repair="conlleval"`` counts equal the span-set intersection of ``begin`` decoding on typed BIO.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from nerve import Span

SCHEMES = ("IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES")
LETTERS = {
    "IO": "I",
    "IOB1": "BI",
    "IOB2": "BI",
    "IOE1": "IE",
    "IOE2": "IE",
    "IOBES": "BIES",
    "BILOU": "BILU",
    "BMES": "BMES",
}
# "" is an untyped entity (tags ``B``, ``I``...); "Generic-Measure" contains the delimiter.
TYPES = ("PER", "LOC", "Generic-Measure", "")
FORMATS = ("B-X", "X-B", "B_X", "X_B")

# Kinds of letters, as in the schemes' definitions.
BEGIN, INSIDE, END, SINGLE = "begin", "inside", "end", "single"
KIND = {"B": BEGIN, "I": INSIDE, "M": INSIDE, "E": END, "L": END, "S": SINGLE, "U": SINGLE}

PROFILE = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

Pair = tuple[str, str] | None  # (letter, type) of an entity tag, None for the outside tag
Triple = tuple[int, int, str]


def spell(pair: Pair, fmt: str = "B-X", outside: str = "O") -> str:
    """Spell a (letter, type) pair as a tag of format ``fmt`` (independently of nerve)."""
    if pair is None:
        return outside
    letter, typ = pair
    if not typ:
        return letter
    delimiter = fmt[1]
    return f"{letter}{delimiter}{typ}" if fmt[0] == "B" else f"{typ}{delimiter}{letter}"


# ---------------------------------------------------------------------------------------------
# Strategies.


@st.composite
def spans_of_sentence(
    draw: st.DrawFn, scheme: str, types: tuple[str, ...] = TYPES
) -> tuple[int, list[Triple]]:
    """A sentence length and sorted, non-overlapping spans in it (IO: no touching same types)."""
    n = draw(st.integers(0, 14))
    out: list[Triple] = []
    pos = draw(st.integers(0, 2))
    while pos < n:
        length = draw(st.integers(1, min(4, n - pos)))
        allowed = types
        if scheme == "IO" and out and out[-1][1] == pos:
            allowed = tuple(t for t in types if t != out[-1][2])
        typ = draw(st.sampled_from(allowed))
        out.append((pos, pos + length, typ))
        pos += length + draw(st.integers(0, 2))
    return n, out


@st.composite
def tag_sentences(
    draw: st.DrawFn, letters: str, types: tuple[str, ...] = TYPES, max_sentences: int = 5
) -> list[list[Pair]]:
    """Random sentences of (letter, type) pairs from a scheme's alphabet, uniformly."""
    alphabet: list[Pair] = [None, *((c, t) for c in letters for t in types)]
    sentence = st.lists(st.sampled_from(alphabet), min_size=0, max_size=12)
    return draw(st.lists(sentence, min_size=0, max_size=max_sentences))


def to_tags(sentences: list[list[Pair]], fmt: str = "B-X", outside: str = "O") -> list[list[str]]:
    return [[spell(p, fmt, outside) for p in s] for s in sentences]


# ---------------------------------------------------------------------------------------------
# A plain per-token reference decoder, written from the scheme definitions.


def reference_decode(sentences: list[list[Pair]], scheme: str, policy: str) -> list[Span]:
    """Decode token by token.

    A tag continues the open entity iff the previous tag is a begin or inside (B, I, M) of the
    same type and the current tag is an inside or end (I, M, E, L); every other entity tag begins
    an entity. With ``discard``, entities whose first or last tag the scheme forbids there are
    dropped.
    """
    out = []
    for q, tags in enumerate(sentences):
        entities: list[list[int]] = []  # [start, end] pairs
        for i, pair in enumerate(tags):
            if pair is None:
                continue
            previous = tags[i - 1] if i > 0 else None
            continues = (
                previous is not None
                and KIND[previous[0]] in (BEGIN, INSIDE)
                and previous[1] == pair[1]
                and KIND[pair[0]] in (INSIDE, END)
            )
            if continues:
                entities[-1][1] = i + 1
            else:
                entities.append([i, i + 1])
        for start, end in entities:
            if policy == "discard" and not well_formed(tags, start, end, scheme):
                continue
            first = tags[start]
            assert first is not None
            out.append(Span(q, start, end, first[1]))
    return out


def well_formed(tags: list[Pair], start: int, end: int, scheme: str) -> bool:
    """Whether the entity ``tags[start:end]`` starts and ends the way ``scheme`` allows."""
    first, last = tags[start], tags[end - 1]
    assert first is not None
    assert last is not None
    before = tags[start - 1] if start > 0 else None
    after = tags[end] if end < len(tags) else None
    same_before = before is not None and before[1] == first[1]
    same_after = after is not None and after[1] == last[1]
    f, la = first[0], last[0]
    if scheme == "IO":
        return True
    if scheme == "IOB1":  # I-X runs; B-X starts an entity only right after one of type X
        return (f == "I" or (f == "B" and same_before)) and la in "BI"
    if scheme == "IOB2":  # must start with B
        return f == "B" and la in "BI"
    if scheme == "IOE1":  # I-X runs; E-X ends an entity only right before one of type X
        return f in "IE" and (la == "I" or (la == "E" and same_after))
    if scheme == "IOE2":  # must end with E
        return f in "IE" and la == "E"
    # IOBES, BILOU, BMES: start with B/S (U), end with E/S (L/U)
    return KIND[f] in (BEGIN, SINGLE) and KIND[la] in (END, SINGLE)


def spans_by_type(spans: list[Span]) -> dict[str, set[tuple[int, int, int]]]:
    out: dict[str, set[tuple[int, int, int]]] = {}
    for s in spans:
        out.setdefault(s.label, set()).add((s.seq, s.start, s.end))
    return out


def counts_of(result: nerve.Result) -> dict[str, tuple[int, int, int]]:
    """Per type (gold, predicted, correct) of a result, for types with any entity."""
    return {name: (s.gold, s.predicted, s.tp) for name, s in result.per_type.items() if s.gold or s.predicted}


# ---------------------------------------------------------------------------------------------
# decode(encode(spans)) == spans


@PROFILE
@given(
    data=st.data(),
    scheme=st.sampled_from(SCHEMES),
    fmt=st.sampled_from(FORMATS),
    outside=st.sampled_from(("O", "NONE")),
)
def test_decode_inverts_encode(data: st.DataObject, scheme: str, fmt: str, outside: str) -> None:
    sentences = data.draw(st.lists(spans_of_sentence(scheme), min_size=1, max_size=4))
    lengths = [n for n, _ in sentences]
    spans = [Span(q, s, e, t) for q, (_, triples) in enumerate(sentences) for s, e, t in triples]
    tags = nerve.encode(spans, lengths, scheme=scheme, tag_format=fmt, outside=outside)
    assert [len(t) for t in tags] == lengths
    for policy in ("begin", "discard", "error"):
        got = nerve.decode(tags, scheme=scheme, repair=policy, tag_format=fmt, outside=outside)
        assert got == spans, policy
    # The encoding is valid for its scheme.
    assert nerve.validate(tags, scheme=scheme, tag_format=fmt, outside=outside)[1] == []


@PROFILE
@given(data=st.data(), scheme=st.sampled_from(SCHEMES))
def test_decode_inverts_encode_one_sequence(data: st.DataObject, scheme: str) -> None:
    n, triples = data.draw(spans_of_sentence(scheme))
    tags = nerve.encode(triples, n, scheme=scheme)
    assert isinstance(tags, list)
    assert len(tags) == n
    assert nerve.decode(tags, scheme=scheme) == [Span(0, s, e, t) for s, e, t in triples]


@PROFILE
@given(data=st.data(), scheme=st.sampled_from(SCHEMES), fmt=st.sampled_from(FORMATS))
def test_decode_inverts_encode_with_inference(data: st.DataObject, scheme: str, fmt: str) -> None:
    """With the scheme and the tag format inferred, the spans come back too.

    The inferred scheme may differ (IO and IOE1 without any E read as IOB1, BMES without M as
    IOBES), but it decodes the same entities.
    """
    sentences = data.draw(st.lists(spans_of_sentence(scheme), min_size=1, max_size=4))
    lengths = [n for n, _ in sentences]
    spans = [Span(q, s, e, t) for q, (_, triples) in enumerate(sentences) for s, e, t in triples]
    tags = nerve.encode(spans, lengths, scheme=scheme, tag_format=fmt)
    assert nerve.decode(tags) == spans
    assert nerve.decode(tags, repair="discard") == spans


# ---------------------------------------------------------------------------------------------
# The output of the begin repair is always valid.


@PROFILE
@given(data=st.data(), scheme=st.sampled_from(SCHEMES))
def test_begin_repair_output_is_valid(data: st.DataObject, scheme: str) -> None:
    sentences = data.draw(tag_sentences(LETTERS[scheme]))
    tags = to_tags(sentences)
    spans = nerve.decode(tags, scheme=scheme, repair="begin")
    repaired = nerve.encode(spans, [len(s) for s in tags], scheme=scheme)
    assert nerve.validate(repaired, scheme=scheme)[1] == []
    # Repaired tags are well-formed: every policy reads the same entities back.
    for policy in ("begin", "discard", "error"):
        assert nerve.decode(repaired, scheme=scheme, repair=policy) == spans
    # Repairing is idempotent, and scoring the repaired tags counts no repairs.
    r = nerve.score(repaired, repaired, scheme=scheme)
    assert r.repairs.total == 0


# ---------------------------------------------------------------------------------------------
# The array decoder equals the per-token reference decoder.


@PROFILE
@given(
    data=st.data(),
    scheme=st.sampled_from(SCHEMES),
    policy=st.sampled_from(("begin", "discard")),
)
def test_decoder_equals_reference(data: st.DataObject, scheme: str, policy: str) -> None:
    sentences = data.draw(tag_sentences(LETTERS[scheme]))
    tags = to_tags(sentences)
    expected = reference_decode(sentences, scheme, policy)
    assert nerve.decode(tags, scheme=scheme, repair=policy) == expected


@PROFILE
@given(
    data=st.data(),
    scheme=st.sampled_from(SCHEMES),
    policy=st.sampled_from(("begin", "discard")),
    fmt=st.sampled_from(FORMATS),
)
def test_decoder_equals_reference_in_other_formats(
    data: st.DataObject, scheme: str, policy: str, fmt: str
) -> None:
    sentences = data.draw(tag_sentences(LETTERS[scheme]))
    tags = to_tags(sentences, fmt, "NONE")
    expected = reference_decode(sentences, scheme, policy)
    assert nerve.decode(tags, scheme=scheme, repair=policy, tag_format=fmt, outside="NONE") == expected


@PROFILE
@given(data=st.data(), scheme=st.sampled_from(SCHEMES), policy=st.sampled_from(("begin", "discard")))
def test_score_counts_equal_reference(data: st.DataObject, scheme: str, policy: str) -> None:
    """`score` (the block accumulator) counts what the reference decoder finds."""
    gold = data.draw(tag_sentences(LETTERS[scheme]))
    pred = [
        data.draw(
            st.lists(
                st.sampled_from([None, *((c, t) for c in LETTERS[scheme] for t in TYPES)]),
                min_size=len(s),
                max_size=len(s),
            )
        )
        for s in gold
    ]
    r = nerve.score(to_tags(gold), to_tags(pred), scheme=scheme, repair=policy)
    g = spans_by_type(reference_decode(gold, scheme, policy))
    p = spans_by_type(reference_decode(pred, scheme, policy))
    expected = {
        name: (len(g.get(name, set())), len(p.get(name, set())), len(g.get(name, set()) & p.get(name, set())))
        for name in set(g) | set(p)
    }
    assert counts_of(r) == expected


@PROFILE
@given(data=st.data(), scheme=st.sampled_from(SCHEMES))
def test_error_policy_raises_iff_invalid(data: st.DataObject, scheme: str) -> None:
    """``error`` raises exactly when the input has an ill-formed transition."""
    sentences = data.draw(tag_sentences(LETTERS[scheme]))
    tags = to_tags(sentences)
    problems = nerve.validate(tags, scheme=scheme)[1]
    begin = reference_decode(sentences, scheme, "begin")
    discard = reference_decode(sentences, scheme, "discard")
    if begin != discard:
        assert problems
    if problems:
        with pytest.raises(nerve.InvalidSequenceError) as info:
            nerve.decode(tags, scheme=scheme, repair="error")
        assert len(info.value.problems) == len(problems)
    else:
        assert nerve.decode(tags, scheme=scheme, repair="error") == begin
        assert begin == discard


# ---------------------------------------------------------------------------------------------
# Merged shards equal the one-shot score; sentence order does not matter.


@st.composite
def gold_and_pred(draw: st.DrawFn, letters: str) -> tuple[list[list[str]], list[list[str]]]:
    gold = draw(tag_sentences(letters, TYPES[:3], max_sentences=8))
    alphabet: list[Pair] = [None, *((c, t) for c in letters for t in TYPES[:3])]
    pred = [draw(st.lists(st.sampled_from(alphabet), min_size=len(s), max_size=len(s))) for s in gold]
    return to_tags(gold), to_tags(pred)


@PROFILE
@given(
    data=st.data(),
    scheme=st.sampled_from(SCHEMES),
    policy=st.sampled_from(("begin", "discard", "conlleval")),
)
def test_merged_shards_equal_one_shot(data: st.DataObject, scheme: str, policy: str) -> None:
    gold, pred = data.draw(gold_and_pred(LETTERS[scheme]))
    n = len(gold)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), min_size=0, max_size=4)))
    bounds = [0, *cuts, n]
    shards = [
        nerve.score(gold[a:b], pred[a:b], scheme=scheme, repair=policy) for a, b in itertools.pairwise(bounds)
    ]
    merged = functools.reduce(lambda a, b: a.merge(b), shards)
    whole = nerve.score(gold, pred, scheme=scheme, repair=policy)
    # Tag lists have no -DOCSTART-: each shard is one document (none when empty), and so is the whole.
    assert merged == replace(whole, documents=sum(s.documents for s in shards))
    assert merged.exact.counts == whole.exact.counts
    assert merged.tokens == whole.tokens
    assert merged.repairs == whole.repairs
    assert merged.repairs.fits == whole.repairs.fits  # the scheme the tags point to adds up too
    assert merged.warnings == whole.warnings
    assert merged.sentences == whole.sentences
    assert merged.settings == whole.settings
    assert merged.signature == whole.signature


@PROFILE
@given(
    data=st.data(), scheme=st.sampled_from(SCHEMES), policy=st.sampled_from(("begin", "discard", "conlleval"))
)
def test_sentence_order_does_not_matter(data: st.DataObject, scheme: str, policy: str) -> None:
    gold, pred = data.draw(gold_and_pred(LETTERS[scheme]))
    order = data.draw(st.permutations(range(len(gold))))
    shuffled = nerve.score([gold[i] for i in order], [pred[i] for i in order], scheme=scheme, repair=policy)
    whole = nerve.score(gold, pred, scheme=scheme, repair=policy)
    assert shuffled.exact.counts == whole.exact.counts
    assert shuffled == whole


@pytest.mark.parametrize("fmt", ["X-B", "B_X"])
def test_merge_with_a_shard_without_entity_tags(fmt: str) -> None:
    """A shard of outside tags only says nothing about the tag format; it still merges."""
    tags = nerve.encode([(0, 2, "PER")], 3, tag_format=fmt)
    shards = [([tags], [tags]), ([["O", "O"]], [["O", "O"]])]
    results = [nerve.score(g, p, scheme="IOB2") for g, p in shards]
    whole = nerve.score([tags, ["O", "O"]], [tags, ["O", "O"]], scheme="IOB2")
    merged = results[0].merge(results[1])
    assert merged == replace(whole, documents=2)  # two inputs of one document each


# ---------------------------------------------------------------------------------------------
# conlleval counts equal begin decoding on typed BIO.


@PROFILE
@given(data=st.data())
def test_conlleval_equals_begin_on_typed_bio(data: st.DataObject) -> None:
    gold_pairs = data.draw(tag_sentences("BI", ("PER", "LOC", "Generic-Measure"), max_sentences=6))
    alphabet: list[Pair] = [None, *((c, t) for c in "BI" for t in ("PER", "LOC", "Generic-Measure"))]
    pred_pairs = [
        data.draw(st.lists(st.sampled_from(alphabet), min_size=len(s), max_size=len(s))) for s in gold_pairs
    ]
    gold, pred = to_tags(gold_pairs), to_tags(pred_pairs)
    r = nerve.score(gold, pred, scheme="IOB2", repair="conlleval")
    g = spans_by_type(nerve.decode(gold, scheme="IOB2", repair="begin"))
    p = spans_by_type(nerve.decode(pred, scheme="IOB2", repair="begin"))
    expected = {
        name: (len(g.get(name, set())), len(p.get(name, set())), len(g.get(name, set()) & p.get(name, set())))
        for name in set(g) | set(p)
    }
    assert counts_of(r) == expected
    assert counts_of(nerve.score(gold, pred, scheme="IOB2", repair="begin")) == expected
    assert counts_of(nerve.score(gold, pred, repair="conlleval")) == expected  # scheme auto


def test_counter_sanity() -> None:
    # The reference decoder on a hand-written case (guards the reference itself).
    tags: list[Pair] = [("B", "X"), ("I", "X"), ("I", "Y"), None, ("I", "X"), ("B", "X")]
    assert reference_decode([tags], "IOB2", "begin") == [
        Span(0, 0, 2, "X"),
        Span(0, 2, 3, "Y"),
        Span(0, 4, 5, "X"),
        Span(0, 5, 6, "X"),
    ]
    assert reference_decode([tags], "IOB2", "discard") == [Span(0, 0, 2, "X"), Span(0, 5, 6, "X")]
    assert reference_decode([tags], "IOB1", "discard") == [
        Span(0, 2, 3, "Y"),
        Span(0, 4, 5, "X"),
        Span(0, 5, 6, "X"),
    ]
    assert Counter(s.label for s in reference_decode([tags], "IO", "begin")) == Counter({"X": 3, "Y": 1})


@st.composite
def _one_per_start(draw: st.DrawFn, n: int) -> list[tuple[int, int, int]]:
    """Spans over ``n`` tokens, at most one per start, with type ids 0..2."""
    starts = draw(st.sets(st.integers(0, n - 1), max_size=n))
    return [(s, draw(st.integers(s + 1, n)), draw(st.integers(0, 2))) for s in sorted(starts)]


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_aligned_exact_match_equals_the_multiset_intersection(data: st.DataObject) -> None:
    """Matching by start position counts what the sorted-key intersection counts, per type."""
    import numpy as np

    from nerve.matching.exact import exact_match_aligned, exact_match_types

    n = data.draw(st.integers(1, 12))
    sides = [data.draw(_one_per_start(n)) for _ in range(2)]
    cols = [tuple(np.asarray([sp[i] for sp in side], dtype=np.int64) for i in range(3)) for side in sides]
    expected = Counter(t for (s, e, t) in set(sides[0]) & set(sides[1]))
    got = exact_match_aligned(cols[0], cols[1], n, 3)  # type: ignore[arg-type]
    assert got.tolist() == [expected[t] for t in range(3)]
    assert got.tolist() == exact_match_types(cols[0], cols[1], 3).tolist()  # type: ignore[arg-type]
