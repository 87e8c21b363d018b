"""Tagging schemes, table-driven: decoding, tag formats, repair policies, inference and encoding.

Spans are half-open ``(start, end, label)`` triples of sequence 0 unless a case says otherwise.
"""

from __future__ import annotations

import pytest

import nerve
from nerve import InvalidSequenceError, SchemeError, Span

ALL_SCHEMES = ("IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES")


def spans(*triples: tuple[int, int, str], seq: int = 0) -> list[Span]:
    return [Span(seq, s, e, label) for s, e, label in triples]


# ---------------------------------------------------------------------------------------------
# Decoding well-formed sequences of every scheme.

DECODE_CASES = [
    # (scheme, tags, expected spans)
    ("IO", ["I-PER", "I-PER", "O", "I-LOC", "I-ORG"], [(0, 2, "PER"), (3, 4, "LOC"), (4, 5, "ORG")]),
    ("IO", ["O", "O"], []),
    ("IO", ["I-PER"], [(0, 1, "PER")]),
    ("IOB1", ["I-PER", "I-PER", "B-PER", "O", "I-LOC"], [(0, 2, "PER"), (2, 3, "PER"), (4, 5, "LOC")]),
    ("IOB1", ["I-PER", "I-LOC", "B-LOC", "I-LOC"], [(0, 1, "PER"), (1, 2, "LOC"), (2, 4, "LOC")]),
    (
        "IOB2",
        ["B-PER", "I-PER", "B-PER", "O", "B-LOC", "I-LOC"],
        [(0, 2, "PER"), (2, 3, "PER"), (4, 6, "LOC")],
    ),
    ("IOB2", ["O", "B-PER", "B-LOC", "O"], [(1, 2, "PER"), (2, 3, "LOC")]),
    ("IOE1", ["I-PER", "E-PER", "I-PER", "O", "I-LOC"], [(0, 2, "PER"), (2, 3, "PER"), (4, 5, "LOC")]),
    ("IOE1", ["I-PER", "I-LOC", "O"], [(0, 1, "PER"), (1, 2, "LOC")]),
    (
        "IOE2",
        ["I-PER", "E-PER", "E-PER", "O", "I-LOC", "E-LOC"],
        [(0, 2, "PER"), (2, 3, "PER"), (4, 6, "LOC")],
    ),
    (
        "IOBES",
        ["B-PER", "I-PER", "E-PER", "S-PER", "O", "S-LOC", "B-LOC", "E-LOC"],
        [(0, 3, "PER"), (3, 4, "PER"), (5, 6, "LOC"), (6, 8, "LOC")],
    ),
    (
        "BILOU",
        ["B-PER", "I-PER", "L-PER", "U-PER", "O", "U-LOC", "B-LOC", "L-LOC"],
        [(0, 3, "PER"), (3, 4, "PER"), (5, 6, "LOC"), (6, 8, "LOC")],
    ),
    (
        "BMES",
        ["B-PER", "M-PER", "E-PER", "S-PER", "O", "S-LOC", "B-LOC", "E-LOC"],
        [(0, 3, "PER"), (3, 4, "PER"), (5, 6, "LOC"), (6, 8, "LOC")],
    ),
]


@pytest.mark.parametrize(("scheme", "tags", "expected"), DECODE_CASES)
def test_decode_well_formed(scheme: str, tags: list[str], expected: list[tuple[int, int, str]]) -> None:
    assert nerve.decode(tags, scheme=scheme) == spans(*expected)
    # Well-formed input decodes the same under every policy.
    assert nerve.decode(tags, scheme=scheme, repair="discard") == spans(*expected)
    assert nerve.decode(tags, scheme=scheme, repair="error") == spans(*expected)
    # And there is nothing to report.
    assert nerve.validate([tags], scheme=scheme)[1] == []


@pytest.mark.parametrize(("scheme", "tags", "expected"), DECODE_CASES)
def test_encode_inverts_decode_on_the_table(
    scheme: str, tags: list[str], expected: list[tuple[int, int, str]]
) -> None:
    assert nerve.encode(expected, len(tags), scheme=scheme) == tags


def test_decode_several_sequences_numbers_them() -> None:
    got = nerve.decode([["B-PER", "I-PER"], [], ["I-PER", "O", "B-LOC"]], scheme="IOB2")
    assert got == [Span(0, 0, 2, "PER"), Span(2, 0, 1, "PER"), Span(2, 2, 3, "LOC")]


def test_sentence_break_ends_an_entity() -> None:
    # I-PER at the start of the second sentence cannot continue B-PER of the first.
    got = nerve.decode([["O", "B-PER"], ["I-PER", "O"]], scheme="IOB2")
    assert got == [Span(0, 1, 2, "PER"), Span(1, 0, 1, "PER")]
    assert nerve.decode([["O", "B-PER"], ["I-PER", "O"]], scheme="IOB2", repair="discard") == [
        Span(0, 1, 2, "PER")
    ]


# ---------------------------------------------------------------------------------------------
# Tag formats: types with the delimiter, suffixes, other delimiters, other outside tags, no types.

FORMAT_CASES = [
    # (tags, decode keyword arguments, expected spans)
    (
        ["B-Generic-Measure", "I-Generic-Measure", "O", "B-PER"],
        {"scheme": "IOB2"},
        [(0, 2, "Generic-Measure"), (3, 4, "PER")],
    ),
    (
        ["B-Generic-Measure", "I-Generic-Measure", "O", "B-PER"],
        {},
        [(0, 2, "Generic-Measure"), (3, 4, "PER")],
    ),
    (["S-A-B-C", "B-A-B", "E-A-B"], {"scheme": "IOBES"}, [(0, 1, "A-B-C"), (1, 3, "A-B")]),
    (["PER-B", "PER-I", "O", "LOC-B"], {"tag_format": "X-B"}, [(0, 2, "PER"), (3, 4, "LOC")]),
    (["PER-B", "PER-I", "O", "LOC-B"], {}, [(0, 2, "PER"), (3, 4, "LOC")]),
    (
        ["PER-B", "PER-I", "O", "LOC-B"],
        {"tag_format": "X-B", "scheme": "IOB2"},
        [(0, 2, "PER"), (3, 4, "LOC")],
    ),
    # With a suffix, the tag is split at its last delimiter.
    (["Generic-Measure-B", "Generic-Measure-I"], {"tag_format": "X-B"}, [(0, 2, "Generic-Measure")]),
    (["PER-S", "LOC-B", "LOC-E"], {"tag_format": "X-B", "scheme": "IOBES"}, [(0, 1, "PER"), (1, 3, "LOC")]),
    (["B_PER", "I_PER", "O", "B_LOC"], {"tag_format": "B_X"}, [(0, 2, "PER"), (3, 4, "LOC")]),
    (["B_PER", "I_PER", "O", "B_LOC"], {}, [(0, 2, "PER"), (3, 4, "LOC")]),
    (["B_PER", "I_PER", "O", "B_LOC"], {"scheme": "IOB2"}, [(0, 2, "PER"), (3, 4, "LOC")]),
    # The first underscore separates the letter from a type that contains underscores.
    (["B_GEO_LOC", "I_GEO_LOC"], {"tag_format": "B_X"}, [(0, 2, "GEO_LOC")]),
    (["NONE", "B-PER", "I-PER", "NONE", "B-LOC"], {"outside": "NONE"}, [(1, 3, "PER"), (4, 5, "LOC")]),
    (
        ["NONE", "B-PER", "I-PER", "NONE", "B-LOC"],
        {"outside": "NONE", "scheme": "IOB2"},
        [(1, 3, "PER"), (4, 5, "LOC")],
    ),
    (["B", "I", "O", "B", "B", "I"], {}, [(0, 2, ""), (3, 4, ""), (4, 6, "")]),
    (["B", "I", "O", "B", "B", "I"], {"scheme": "IOB2"}, [(0, 2, ""), (3, 4, ""), (4, 6, "")]),
    (["S", "B", "E", "O"], {"scheme": "IOBES"}, [(0, 1, ""), (1, 3, "")]),
]


@pytest.mark.parametrize(("tags", "kwargs", "expected"), FORMAT_CASES)
def test_tag_formats(tags: list[str], kwargs: dict[str, str], expected: list[tuple[int, int, str]]) -> None:
    assert nerve.decode(tags, **kwargs) == spans(*expected)


@pytest.mark.parametrize(
    ("tag_format", "outside", "expected"),
    [
        ("B-X", "O", ["B-Generic-Measure", "I-Generic-Measure", "O", "B-PER"]),
        ("X-B", "O", ["Generic-Measure-B", "Generic-Measure-I", "O", "PER-B"]),
        ("B_X", "O", ["B_Generic-Measure", "I_Generic-Measure", "O", "B_PER"]),
        ("X_B", "O", ["Generic-Measure_B", "Generic-Measure_I", "O", "PER_B"]),
        ("B-X", "NONE", ["B-Generic-Measure", "I-Generic-Measure", "NONE", "B-PER"]),
    ],
)
def test_encode_tag_formats_round_trip(tag_format: str, outside: str, expected: list[str]) -> None:
    triples = [(0, 2, "Generic-Measure"), (3, 4, "PER")]
    tags = nerve.encode(triples, 4, scheme="IOB2", tag_format=tag_format, outside=outside)
    assert tags == expected
    assert nerve.decode(tags, scheme="IOB2", tag_format=tag_format, outside=outside) == spans(*triples)


def test_encode_untyped_spans() -> None:
    assert nerve.encode([(0, 2, ""), (2, 3, "")], 4, scheme="IOB2") == ["B", "I", "B", "O"]
    assert nerve.encode([(0, 2, ""), (2, 3, "")], 4, scheme="IOBES") == ["B", "E", "S", "O"]


def test_bare_tags_are_io() -> None:
    tags = ["PER", "PER", "O", "LOC"]
    assert nerve.decode(tags, tag_format="X", scheme="IO") == spans((0, 2, "PER"), (3, 4, "LOC"))
    assert nerve.score([tags], [tags], tag_format="X").settings.scheme == "IO"
    assert nerve.encode([(0, 2, "PER"), (3, 4, "LOC")], 4, scheme="IO", tag_format="X") == [
        "PER",
        "PER",
        "O",
        "LOC",
    ]
    with pytest.raises(SchemeError):
        nerve.encode([(0, 2, "PER")], 2, scheme="IOB2", tag_format="X")


def test_decode_bare_tags_infers_io() -> None:
    # Bare tags have no letter, so only IO reads them; score() knows this, decode() must too.
    tags = ["PER", "PER", "O", "LOC"]
    assert nerve.decode(tags, tag_format="X") == spans((0, 2, "PER"), (3, 4, "LOC"))


# ---------------------------------------------------------------------------------------------
# Repair policies on sequences the scheme does not allow.

BEGIN_CASES = [
    # (scheme, tags, expected spans with repair="begin")
    ("IOB2", ["O", "I-X", "I-X", "O"], [(1, 3, "X")]),
    ("IOB2", ["I-X"], [(0, 1, "X")]),
    ("IOB2", ["B-X", "I-Y"], [(0, 1, "X"), (1, 2, "Y")]),
    ("IOB2", ["B-X", "I-X", "I-Y", "I-Y"], [(0, 2, "X"), (2, 4, "Y")]),
    ("IOB2", ["B-X", "O", "I-X"], [(0, 1, "X"), (2, 3, "X")]),
    ("IOB1", ["O", "B-X", "I-X", "I-Y"], [(1, 3, "X"), (3, 4, "Y")]),
    ("IOE2", ["I-X", "I-X", "O", "I-Y", "E-Y"], [(0, 2, "X"), (3, 5, "Y")]),
    ("IOE1", ["I-X", "E-X", "O"], [(0, 2, "X")]),
    ("IOE2", ["E-X", "E-X"], [(0, 1, "X"), (1, 2, "X")]),
    # IOBES and its dialects: E -> B and S -> S split; a missing B or E still makes an entity.
    ("IOBES", ["B-X", "E-X", "B-X", "E-X"], [(0, 2, "X"), (2, 4, "X")]),
    ("IOBES", ["S-X", "S-X", "O"], [(0, 1, "X"), (1, 2, "X")]),
    ("IOBES", ["B-X", "E-X", "S-X", "B-Y", "E-Y"], [(0, 2, "X"), (2, 3, "X"), (3, 5, "Y")]),
    ("IOBES", ["B-X", "I-X", "O"], [(0, 2, "X")]),
    ("IOBES", ["I-X", "E-X", "O"], [(0, 2, "X")]),
    ("IOBES", ["B-X", "E-X", "E-X"], [(0, 2, "X"), (2, 3, "X")]),
    ("IOBES", ["B-X", "E-X", "I-X", "E-X"], [(0, 2, "X"), (2, 4, "X")]),
    ("IOBES", ["S-X", "E-X"], [(0, 1, "X"), (1, 2, "X")]),
    ("IOBES", ["B-X", "S-X"], [(0, 1, "X"), (1, 2, "X")]),
    ("IOBES", ["B-X", "E-Y"], [(0, 1, "X"), (1, 2, "Y")]),
    ("BILOU", ["U-X", "U-X"], [(0, 1, "X"), (1, 2, "X")]),
    ("BILOU", ["B-X", "L-X", "U-X", "B-X", "L-X"], [(0, 2, "X"), (2, 3, "X"), (3, 5, "X")]),
    ("BMES", ["B-X", "M-X", "E-X", "M-X", "E-X"], [(0, 3, "X"), (3, 5, "X")]),
]


@pytest.mark.parametrize(("scheme", "tags", "expected"), BEGIN_CASES)
def test_repair_begin(scheme: str, tags: list[str], expected: list[tuple[int, int, str]]) -> None:
    assert nerve.decode(tags, scheme=scheme, repair="begin") == spans(*expected)
    assert nerve.decode(tags, scheme=scheme) == spans(*expected)  # begin is the default


DISCARD_CASES = [
    # (scheme, tags, expected spans with repair="discard")
    ("IOB2", ["O", "I-X", "I-X", "O", "B-Y", "I-Y"], [(4, 6, "Y")]),
    ("IOB2", ["B-X", "I-Y"], [(0, 1, "X")]),
    ("IOB2", ["B-X", "I-X", "I-Y", "B-Y"], [(0, 2, "X"), (3, 4, "Y")]),
    # IOB1: B only right after an entity of its type.
    ("IOB1", ["O", "B-X", "I-X", "I-Y", "B-Y"], [(3, 4, "Y"), (4, 5, "Y")]),
    ("IOB1", ["B-X"], []),
    ("IOB1", ["I-X", "B-Y"], [(0, 1, "X")]),
    # IOE2: entities must end with E.
    ("IOE2", ["I-X", "E-X", "I-Y", "O"], [(0, 2, "X")]),
    ("IOE2", ["I-X", "I-Y", "E-Y"], [(1, 3, "Y")]),
    # IOE1: E only right before an entity of its type.
    ("IOE1", ["I-X", "E-X", "O", "I-Y", "E-Y", "I-Y"], [(3, 5, "Y"), (5, 6, "Y")]),
    ("IOE1", ["E-X"], []),
    ("IOE1", ["E-X", "I-Y"], [(1, 2, "Y")]),
    # IOBES and dialects: must start with B/S and end with E/S.
    ("IOBES", ["B-X", "I-X", "O", "S-Y", "I-Z", "E-Z", "B-W", "E-W"], [(3, 4, "Y"), (6, 8, "W")]),
    ("IOBES", ["B-X", "B-X", "E-X"], [(1, 3, "X")]),
    ("IOBES", ["B-X", "E-X", "E-X"], [(0, 2, "X")]),
    ("IOBES", ["S-X", "I-X", "E-X"], [(0, 1, "X")]),
    ("IOBES", ["B-X", "I-Y", "E-Y"], []),
    ("BILOU", ["B-X", "L-X", "L-X", "U-Y"], [(0, 2, "X"), (3, 4, "Y")]),
    ("BMES", ["M-X", "E-X", "S-X", "B-X"], [(2, 3, "X")]),
    # IO has no ill-formed entity.
    ("IO", ["I-X", "I-Y", "O", "I-X"], [(0, 1, "X"), (1, 2, "Y"), (3, 4, "X")]),
]


@pytest.mark.parametrize(("scheme", "tags", "expected"), DISCARD_CASES)
def test_repair_discard(scheme: str, tags: list[str], expected: list[tuple[int, int, str]]) -> None:
    assert nerve.decode(tags, scheme=scheme, repair="discard") == spans(*expected)


def test_discard_in_score_drops_ill_formed_entities() -> None:
    gold = [["B-ORG", "I-ORG", "O", "O"]]
    pred = [["I-ORG", "I-ORG", "O", "O"]]
    r = nerve.score(gold, pred, scheme="IOB2", repair="discard")
    assert (r.micro.gold, r.micro.predicted, r.micro.tp) == (1, 0, 0)
    r = nerve.score(gold, pred, scheme="IOB2", repair="begin")
    assert (r.micro.gold, r.micro.predicted, r.micro.tp) == (1, 1, 1)


ERROR_CASES = [
    # (scheme, tags, [(previous tag, tag), ...] of the problems in order; None = sentence edge)
    ("IOB2", ["O", "I-X", "B-Y", "I-X"], [("O", "I-X"), ("B-Y", "I-X")]),
    ("IOB2", ["I-X"], [(None, "I-X")]),
    ("IOBES", ["B-X", "O"], [("B-X", "O")]),
    ("IOBES", ["O", "B-X"], [("B-X", None)]),
    ("IOBES", ["B-X", "E-X", "E-X"], [("E-X", "E-X")]),
    ("IOE2", ["I-X", "O", "E-Y"], [("I-X", "O")]),
    ("IOB1", ["O", "B-X"], [("O", "B-X")]),
]


@pytest.mark.parametrize(("scheme", "tags", "problems"), ERROR_CASES)
def test_repair_error_lists_every_problem(
    scheme: str, tags: list[str], problems: list[tuple[str | None, str | None]]
) -> None:
    with pytest.raises(InvalidSequenceError) as info:
        nerve.decode(tags, scheme=scheme, repair="error")
    err = info.value
    assert err.scheme == scheme
    assert [(p.previous, p.tag) for p in err.problems] == problems
    assert str(len(problems)) in str(err)
    # validate() reports the same transitions.
    _, found = nerve.validate([tags], scheme=scheme)
    assert [(p.previous, p.tag) for p in found] == problems


def test_repair_error_problem_lines() -> None:
    with pytest.raises(InvalidSequenceError) as info:
        nerve.decode(["O", "I-X", "B-Y", "I-X"], scheme="IOB2", repair="error")
    assert [p.line for p in info.value.problems] == [2, 4]


def test_repair_error_in_score() -> None:
    with pytest.raises(InvalidSequenceError):
        nerve.score([["B-X", "I-X"]], [["O", "I-X"]], scheme="IOB2", repair="error")
    r = nerve.score([["B-X", "I-X"]], [["B-X", "I-X"]], scheme="IOB2", repair="error")
    assert r.micro.f1 == 1.0


def test_decode_rejects_conlleval_and_unknown_policies() -> None:
    with pytest.raises(SchemeError):
        nerve.decode(["B-X"], repair="conlleval")
    with pytest.raises(SchemeError):
        nerve.decode(["B-X"], repair="lenient")


# ---------------------------------------------------------------------------------------------
# Scheme inference.

INFER_CASES = [
    # (gold sentences, pred sentences or None for the same, inferred scheme)
    ([["B-X", "I-X", "O", "B-Y"]], None, "IOB2"),
    ([["O", "B-X", "B-X"]], None, "IOB2"),
    ([["I-X", "I-X", "O", "I-Y"]], None, "IOB1"),
    ([["I-X", "B-X", "O", "I-Y", "B-Y"]], None, "IOB1"),
    # Gold alone is IOB1, but the prediction has a B after O: only IOB2 has both.
    ([["I-X", "B-X", "O"]], [["O", "B-X", "O"]], "IOB2"),
    ([["I-X", "E-X", "O", "E-Y"]], None, "IOE2"),
    ([["I-X", "I-X", "O", "E-Y"]], None, "IOE2"),
    ([["I-X", "E-X", "I-X", "O"]], None, "IOE1"),
    ([["E-X", "I-X", "O", "I-Y"]], None, "IOE1"),
    ([["B-X", "I-X", "E-X", "S-Y", "O"]], None, "IOBES"),
    ([["S-X", "O"]], None, "IOBES"),
    ([["B-X", "I-X", "L-X", "U-Y", "O"]], None, "BILOU"),
    ([["U-X"]], None, "BILOU"),
    ([["B-X", "M-X", "E-X", "S-Y", "O"]], None, "BMES"),
    ([["O", "O"]], None, "IOB2"),
    ([["PER-B", "PER-I", "O"]], None, "IOB2"),
    ([["B_PER", "I_PER", "O"]], None, "IOB2"),
]


@pytest.mark.parametrize(("gold", "pred", "expected"), INFER_CASES)
def test_scheme_inference(gold: list[list[str]], pred: list[list[str]] | None, expected: str) -> None:
    r = nerve.score(gold, gold if pred is None else pred, scheme="auto")
    assert r.settings.scheme == expected
    assert r.settings.scheme_inferred
    assert f"scheme {expected} (auto)" in r.signature
    # The policies that need the scheme before decoding infer the same one.
    r = nerve.score(gold, gold if pred is None else pred, scheme="auto", repair="discard")
    assert r.settings.scheme == expected


def test_explicit_scheme_is_not_marked_inferred() -> None:
    r = nerve.score([["I-X"]], [["I-X"]], scheme="IOB2")
    assert r.settings.scheme == "IOB2"
    assert not r.settings.scheme_inferred
    assert nerve.score([["B-X"]], [["B-X"]], scheme="bio").settings.scheme == "IOB2"
    assert nerve.score([["S-X"]], [["S-X"]], scheme="BIOES").settings.scheme == "IOBES"


@pytest.mark.parametrize("alias", ["BIOLU", "biolu", "Biolu"])
def test_biolu_is_an_alias_of_bilou(alias: str) -> None:
    from nerve.model.schemes import SUPPORTED_SCHEMES, get_scheme

    assert alias.upper() in SUPPORTED_SCHEMES
    assert get_scheme(alias) == get_scheme("BILOU")
    gold = [["B-PER", "L-PER", "O", "U-LOC"], ["U-ORG", "B-LOC", "I-LOC", "L-LOC"]]
    pred = [["B-PER", "I-PER", "L-PER", "U-LOC"], ["U-ORG", "O", "U-LOC", "O"]]
    for repair in ("begin", "discard"):
        r = nerve.score(gold, pred, scheme=alias, repair=repair)
        assert r.settings.scheme == "BILOU"
        assert r == nerve.score(gold, pred, scheme="BILOU", repair=repair)
    assert nerve.decode(gold, scheme=alias) == nerve.decode(gold, scheme="BILOU")
    assert nerve.validate(pred, scheme=alias) == nerve.validate(pred, scheme="BILOU")
    assert nerve.encode([(0, 2, "PER"), (3, 4, "LOC")], 4, scheme=alias) == ["B-PER", "L-PER", "O", "U-LOC"]


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ([["S-X", "U-Y"]], [["S-X", "U-Y"]]),
        ([["S-X", "O"]], [["U-X", "O"]]),
        ([["B-X", "M-X", "L-X"]], [["O", "O", "O"]]),
    ],
)
def test_inference_rejects_mixed_schemes(gold: list[list[str]], pred: list[list[str]]) -> None:
    with pytest.raises(SchemeError):
        nerve.score(gold, pred)
    with pytest.raises(SchemeError):
        nerve.decode(gold + pred)


def test_letter_outside_the_scheme_is_an_error() -> None:
    with pytest.raises(nerve.NerveError):
        nerve.decode(["S-X"], scheme="IOB2")
    with pytest.raises(nerve.NerveError):
        nerve.score([["E-X"]], [["E-X"]], scheme="IOB1")


def test_unknown_scheme() -> None:
    with pytest.raises(SchemeError):
        nerve.decode(["B-X"], scheme="IOB3")


# ---------------------------------------------------------------------------------------------
# Encoding.

ENCODE_SPANS = [(0, 2, "X"), (2, 3, "X"), (4, 5, "Y"), (5, 8, "X")]
ENCODE_CASES = [
    ("IOB1", ["I-X", "I-X", "B-X", "O", "I-Y", "I-X", "I-X", "I-X", "O"]),
    ("IOB2", ["B-X", "I-X", "B-X", "O", "B-Y", "B-X", "I-X", "I-X", "O"]),
    ("IOE1", ["I-X", "E-X", "I-X", "O", "I-Y", "I-X", "I-X", "I-X", "O"]),
    ("IOE2", ["I-X", "E-X", "E-X", "O", "E-Y", "I-X", "I-X", "E-X", "O"]),
    ("IOBES", ["B-X", "E-X", "S-X", "O", "S-Y", "B-X", "I-X", "E-X", "O"]),
    ("BILOU", ["B-X", "L-X", "U-X", "O", "U-Y", "B-X", "I-X", "L-X", "O"]),
    ("BMES", ["B-X", "E-X", "S-X", "O", "S-Y", "B-X", "M-X", "E-X", "O"]),
]


@pytest.mark.parametrize(("scheme", "expected"), ENCODE_CASES)
def test_encode(scheme: str, expected: list[str]) -> None:
    assert nerve.encode(ENCODE_SPANS, 9, scheme=scheme) == expected
    assert nerve.decode(expected, scheme=scheme) == spans(*ENCODE_SPANS)
    assert nerve.validate([expected], scheme=scheme)[1] == []


def test_encode_io() -> None:
    triples = [(0, 2, "X"), (2, 3, "Y"), (4, 5, "Y")]
    assert nerve.encode(triples, 6, scheme="IO") == ["I-X", "I-X", "I-Y", "O", "I-Y", "O"]
    with pytest.raises(ValueError, match="IO"):
        nerve.encode([(0, 2, "X"), (2, 3, "X")], 3, scheme="IO")


def test_encode_iob1_and_ioe1_letters_only_between_same_type_neighbours() -> None:
    # Adjacent entities of different types need no B (IOB1) and no E (IOE1).
    assert nerve.encode([(0, 1, "X"), (1, 2, "Y")], 2, scheme="IOB1") == ["I-X", "I-Y"]
    assert nerve.encode([(0, 1, "X"), (1, 2, "Y")], 2, scheme="IOE1") == ["I-X", "I-Y"]
    # Same type with a gap: no B or E either.
    assert nerve.encode([(0, 1, "X"), (2, 3, "X")], 3, scheme="IOB1") == ["I-X", "O", "I-X"]
    assert nerve.encode([(0, 1, "X"), (2, 3, "X")], 3, scheme="IOE1") == ["I-X", "O", "I-X"]
    # Three touching entities of one type.
    three = [(0, 1, "X"), (1, 2, "X"), (2, 4, "X")]
    assert nerve.encode(three, 4, scheme="IOB1") == ["I-X", "B-X", "B-X", "I-X"]
    assert nerve.encode(three, 4, scheme="IOE1") == ["E-X", "E-X", "I-X", "I-X"]


def test_encode_accepts_spans_and_several_sequences() -> None:
    items = [Span(0, 0, 1, "PER"), Span(1, 1, 3, "LOC")]
    assert nerve.encode(items, [2, 3], scheme="IOBES") == [["S-PER", "O"], ["O", "B-LOC", "E-LOC"]]
    assert nerve.encode(items, [2, 3], scheme="BIOES") == [["S-PER", "O"], ["O", "B-LOC", "E-LOC"]]
    assert nerve.encode([], [0, 2]) == [[], ["O", "O"]]
    # Unsorted input is fine.
    assert nerve.encode([(2, 3, "Y"), (0, 1, "X")], 3) == ["B-X", "O", "B-Y"]


@pytest.mark.parametrize(
    ("triples", "length"),
    [
        ([(0, 2, "X"), (1, 3, "Y")], 3),  # overlap
        ([(0, 4, "X")], 3),  # past the end
        ([(2, 2, "X")], 3),  # empty
    ],
)
def test_encode_rejects_bad_spans(triples: list[tuple[int, int, str]], length: int) -> None:
    with pytest.raises(ValueError, match="Expected"):
        nerve.encode(triples, length)


def test_encode_rejects_bad_sequence_index() -> None:
    with pytest.raises(ValueError, match="sequence index"):
        nerve.encode([Span(2, 0, 1, "X")], [1, 1])


@pytest.mark.parametrize("scheme", ALL_SCHEMES)
def test_encode_empty(scheme: str) -> None:
    assert nerve.encode([], 3, scheme=scheme) == ["O", "O", "O"]
    assert nerve.decode(["O", "O", "O"], scheme=scheme) == []


# Scheme inference from transitions, and letters a side's own scheme refuses


def test_scheme_inferred_from_a_b_after_an_i_of_the_same_type_in_another_sentence() -> None:
    # B-PER starts the second sentence: after the outside tag, not after the I-PER before it.
    result = nerve.score([["I-PER"], ["B-PER"]], [["I-PER"], ["B-PER"]], repair="discard")
    assert result.settings.scheme == "IOB2"


def test_scheme_inferred_from_b_then_i() -> None:
    result = nerve.score([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]], repair="discard")
    assert result.settings.scheme == "IOB2"
    assert result.micro.f1 == 1.0


def test_streaming_scheme_of_a_label_list_with_i_before_b() -> None:
    metric = nerve.StreamingMetric(labels=["O", "I-PER", "B-PER"], repair="discard")
    assert metric.scheme is not None
    assert metric.scheme.name == "IOB2"


def test_gold_letters_outside_the_gold_scheme_name_the_gold_side() -> None:
    with pytest.raises(SchemeError) as info:
        nerve.score([["B-PER"]], [["B-PER"]], gold_scheme="IO", pred_scheme="IOB2", repair="begin")
    assert str(info.value) == "the gold tags use B, which scheme IO does not have"


def test_the_names_the_parsers_list_are_the_schemes_nerve_knows() -> None:
    """`nerve.model.scheme_names` (no dataclasses: ``--help`` lists it) names `SCHEMES`, in order."""
    from nerve import options
    from nerve.model import scheme_names, schemes

    assert scheme_names.NAMES == tuple(schemes.SCHEMES) == tuple(s.name for s in schemes.SCHEMES.values())
    assert (
        schemes.SUPPORTED_SCHEMES
        == scheme_names.SUPPORTED_SCHEMES
        == ("auto", *schemes.SCHEMES, "BIO", "BIOES", "BIOLU")
    )
    assert all(target in schemes.SCHEMES for target in scheme_names.ALIASES.values())
    assert all(
        options.scheme(name) is schemes.SCHEMES[scheme_names.ALIASES.get(name, name)]
        for name in scheme_names.SUPPORTED_SCHEMES[1:]
    )
