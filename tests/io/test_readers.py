"""Readers: `read_conll`, block-by-block reading, `split_fields` and `intern`.

Reading in tiny blocks must give the same tags, sentence starts, document starts and lines as
reading a file in one go; a merged file and the equivalent gold + prediction files must score the
same; the array helpers are checked against plain Python references.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from nerve import InputError, TaggedCorpus
from nerve.io.bytes import BLOCK_BYTES, intern, split_fields
from nerve.io.tags.conll import ConllReader, iter_conll
from nerve.model.blocks import TagBlock
from nerve.model.vocab import TagVocab

PROFILE = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

MERGED = (
    "-DOCSTART- -X- O O\n"
    "\n"
    "John NNP B-PER B-PER\n"
    "Smith NNP I-PER I-PER\n"
    "lives VBZ O O\n"
    "in IN O O\n"
    "New NNP B-LOC B-LOC\n"
    "York NNP I-LOC B-LOC\n"
    "\n"
    "He PRP O O\n"
    "works VBZ O B-ORG\n"
    "at IN O O\n"
    "Acme NNP B-ORG I-ORG\n"
    "\n"
    "\n"
    "-DOCSTART- -X- O O\n"
    "\n"
    "Paris NNP B-LOC B-LOC\n"
    "Hilton NNP B-PER I-LOC\n"
    "-DOCSTART- -X- O O\n"
    "Generic NN B-Generic-Measure B-Generic-Measure\n"
    "\n"
)
GOLD_TAGS = [
    ["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC"],
    ["O", "O", "O", "B-ORG"],
    ["B-LOC", "B-PER"],
    ["B-Generic-Measure"],
]
PRED_TAGS = [
    ["B-PER", "I-PER", "O", "O", "B-LOC", "B-LOC"],
    ["O", "B-ORG", "O", "I-ORG"],
    ["B-LOC", "I-LOC"],
    ["B-Generic-Measure"],
]


def split_merged(merged: str) -> tuple[str, str]:
    """The gold file and the prediction file equivalent to a merged file."""
    gold, pred = [], []
    for line in merged.splitlines():
        fields = line.split()
        if not fields:
            gold.append(line)
            pred.append(line)
        else:
            gold.append(" ".join(fields[:-1]))
            pred.append(" ".join([*fields[:-2], fields[-1]]))
    return "\n".join(gold) + "\n", "\n".join(pred) + "\n"


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


Row = tuple[str, str | None, bool, bool, int, int]


def read_rows(gold: Path, pred: Path | None = None, **kwargs: object) -> list[Row]:
    """Every token as (gold tag, predicted tag, sentence start, document start, line, pred line)."""
    vocab = TagVocab()
    rows: list[Row] = []
    for block in ConllReader(gold, pred, vocab, **kwargs):  # type: ignore[arg-type]
        assert isinstance(block, TagBlock)
        n = len(block)
        golds = [vocab.tags[i] for i in block.gold.tolist()]
        preds = [vocab.tags[i] for i in block.pred.tolist()] if block.pred is not None else [None] * n
        rows.extend(
            zip(
                golds,
                preds,
                block.sentence_start.tolist(),
                block.document_start.tolist(),
                block.line.tolist(),
                block.pred_line.tolist(),
                strict=True,
            )
        )
    return rows


# ---------------------------------------------------------------------------------------------
# read_conll


def test_read_conll_returns_tag_lists(tmp_path: Path) -> None:
    corpus = nerve.read_conll(write(tmp_path, "m.conll", MERGED))
    assert isinstance(corpus, TaggedCorpus)
    assert corpus.gold == GOLD_TAGS
    assert corpus.pred == PRED_TAGS


def test_read_conll_gold_and_prediction_files(tmp_path: Path) -> None:
    gold, pred = split_merged(MERGED)
    corpus = nerve.read_conll(write(tmp_path, "g.conll", gold), write(tmp_path, "p.conll", pred))
    assert corpus.gold == GOLD_TAGS
    assert corpus.pred == PRED_TAGS


def test_read_conll_empty_file(tmp_path: Path) -> None:
    corpus = nerve.read_conll(write(tmp_path, "e.conll", b""))
    assert corpus.gold == []
    assert corpus.pred == []


def test_read_conll_scores_like_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    from_corpus = nerve.score(nerve.read_conll(path))
    assert from_corpus == nerve.score(path)
    assert from_corpus.documents == 3
    # The tag lists lost the -DOCSTART- lines: they are one document.
    assert from_corpus == replace(nerve.score(GOLD_TAGS, PRED_TAGS), documents=3)


def test_read_conll_errors_name_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "m.conll", "a O O\nb O\n")
    with pytest.raises(InputError) as info:
        nerve.read_conll(path)
    assert info.value.source == str(path)
    assert info.value.line == 2
    assert str(info.value).startswith(f"{path}:2: ")


def test_sentence_and_document_starts(tmp_path: Path) -> None:
    rows = read_rows(write(tmp_path, "m.conll", MERGED))
    sentence = [r[2] for r in rows]
    document = [r[3] for r in rows]
    lines = [r[4] for r in rows]
    assert lines == [3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 18, 19, 21]
    assert sentence == [True, *[False] * 5, True, *[False] * 3, True, False, True]
    assert document == [True, *[False] * 9, True, False, True]


# ---------------------------------------------------------------------------------------------
# Block-by-block reading gives what one read gives.


@pytest.mark.parametrize("block_bytes", [3, 7, 16, 64])
def test_small_blocks_merged_file(tmp_path: Path, block_bytes: int) -> None:
    path = write(tmp_path, "m.conll", MERGED * 5)
    whole = read_rows(path)
    assert len(whole) == 5 * 13
    assert read_rows(path, block_bytes=block_bytes) == whole


@pytest.mark.parametrize("block_bytes", [3, 7, 16, 64])
def test_small_blocks_gold_and_prediction_files(tmp_path: Path, block_bytes: int) -> None:
    gold, pred = split_merged(MERGED * 5)
    g, p = write(tmp_path, "g.conll", gold), write(tmp_path, "p.conll", pred + "\n\n")
    whole = read_rows(g, p)
    assert [r[:5] for r in whole] == [r[:5] for r in read_rows(write(tmp_path, "m.conll", MERGED * 5))]
    assert read_rows(g, p, block_bytes=block_bytes) == whole


def test_iter_conll_small_blocks(tmp_path: Path) -> None:
    path = write(tmp_path, "m.conll", MERGED * 3)
    default = list(iter_conll(path))
    small = list(iter_conll(path, block_bytes=64))
    assert len(small) > len(default)

    def flat(blocks: list[TagBlock], attr: str) -> list[object]:
        return [x for b in blocks for x in getattr(b, attr).tolist()]

    for attr in ("sentence_start", "document_start", "line", "pred_line"):
        assert flat(small, attr) == flat(default, attr)
    # The ids are of separate vocabularies; compare the tags.
    v1, v2 = TagVocab(), TagVocab()
    a = [v1.tags[i] for b in iter_conll(path, vocab=v1) for i in b.gold.tolist()]
    b = [v2.tags[i] for blk in iter_conll(path, vocab=v2, block_bytes=64) for i in blk.gold.tolist()]
    assert a == b


def test_long_sentence_longer_than_a_block(tmp_path: Path) -> None:
    content = "".join(f"tok{i} B-X I-X\n" if i == 0 else f"tok{i} I-X I-X\n" for i in range(200))
    path = write(tmp_path, "long.conll", content)
    rows = read_rows(path, block_bytes=16)
    assert rows == read_rows(path)
    assert sum(r[2] for r in rows) == 1


@pytest.mark.parametrize("block_bytes", [1, 2, 3, 64])
def test_small_blocks_with_bom_and_crlf(tmp_path: Path, block_bytes: int) -> None:
    plain = read_rows(write(tmp_path, "m.conll", MERGED))
    odd = write(tmp_path, "bom.conll", b"\xef\xbb\xbf" + MERGED.replace("\n", "\r\n").encode())
    assert read_rows(odd) == plain
    assert read_rows(odd, block_bytes=block_bytes) == plain


@pytest.mark.parametrize("block_bytes", [16, 64, BLOCK_BYTES])
def test_non_utf8_line_with_small_blocks(tmp_path: Path, block_bytes: int) -> None:
    lines = [f"tok{i} O O" for i in range(40)]
    content = ("\n".join(lines) + "\n").encode().replace(b"tok29 ", b"tok\xe9 ")
    path = write(tmp_path, "bad.conll", content)
    with pytest.raises(InputError) as info:
        read_rows(path, block_bytes=block_bytes)
    assert info.value.line == 30
    assert "--encoding" in str(info.value)


@pytest.mark.parametrize("block_bytes", [7, 64])
def test_errors_are_the_same_with_small_blocks(tmp_path: Path, block_bytes: int) -> None:
    lines = MERGED.splitlines()
    lines[11] = "at IN O"  # line 12: two columns short
    path = write(tmp_path, "m.conll", "\n".join(lines) + "\n")
    with pytest.raises(InputError) as whole:
        read_rows(path)
    with pytest.raises(InputError) as small:
        read_rows(path, block_bytes=block_bytes)
    assert whole.value.line == small.value.line == 12
    assert str(small.value) == str(whole.value)


TAGS = ("O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-Generic-Measure")


@st.composite
def corpora(draw: st.DrawFn) -> tuple[str, str]:
    """A merged file and its prediction-file half (gold file = all columns but the last)."""
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.booleans()) and draw(st.booleans()):
            lines.append("-DOCSTART- -X- O O")
            if draw(st.booleans()):
                lines.append("")
        for _ in range(draw(st.integers(0, 5))):
            token = draw(st.sampled_from(["a", "bb", "tok", "ünï", "x" * 12]))
            sep = draw(st.sampled_from([" ", "\t", "  "]))
            lines.append(sep.join([token, "X", draw(st.sampled_from(TAGS)), draw(st.sampled_from(TAGS))]))
        lines.extend([""] * draw(st.integers(1, 3)))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + newline, newline


@PROFILE
@given(corpus=corpora(), block_bytes=st.integers(3, 80))
def test_block_size_does_not_change_what_is_read(
    tmp_path_factory: pytest.TempPathFactory, corpus: tuple[str, str], block_bytes: int
) -> None:
    merged, newline = corpus
    tmp = tmp_path_factory.mktemp("blocks")
    m = write(tmp, "m.conll", merged)
    gold, pred = split_merged(merged)
    g = write(tmp, "g.conll", gold.replace("\n", newline))
    p = write(tmp, "p.conll", pred.replace("\n", newline))
    whole = read_rows(m)
    assert read_rows(m, block_bytes=block_bytes) == whole
    pair = read_rows(g, p, block_bytes=block_bytes)
    assert [r[:5] for r in pair] == [r[:5] for r in whole]


# ---------------------------------------------------------------------------------------------
# A merged file and the equivalent gold + prediction files score the same.


@pytest.mark.parametrize("repair", ["begin", "conlleval", "discard"])
def test_merged_equals_gold_and_prediction_files(tmp_path: Path, repair: str) -> None:
    gold, pred = split_merged(MERGED)
    m = write(tmp_path, "m.conll", MERGED)
    g, p = write(tmp_path, "g.conll", gold), write(tmp_path, "p.conll", pred)
    one, two = nerve.score(m, repair=repair), nerve.score(g, p, repair=repair)
    assert one == two
    assert (one.sentences, one.documents) == (two.sentences, two.documents)
    assert one.tokens.count == 13
    assert one.documents == 3
    assert one.sentences == 4


def test_merged_equals_pair_on_random_corpora(tmp_path: Path) -> None:
    rng = random.Random(7)
    for k in range(20):
        lines = []
        for _ in range(rng.randint(1, 8)):
            for _ in range(rng.randint(1, 6)):
                lines.append(f"t{rng.randint(0, 9)} X {rng.choice(TAGS)} {rng.choice(TAGS)}")
            lines.append("")
        merged = "\n".join(lines) + "\n"
        gold, pred = split_merged(merged)
        m = write(tmp_path, f"m{k}.conll", merged)
        g, p = write(tmp_path, f"g{k}.conll", gold), write(tmp_path, f"p{k}.conll", pred)
        assert nerve.score(m) == nerve.score(g, p)


def test_documents_are_counted_when_read_in_parallel(tmp_path: Path) -> None:
    # Reading a file in ranges (one per worker) must not lose the -DOCSTART- before a range.
    content = "-DOCSTART- -X- O O\n\na B-PER B-PER\n\n-DOCSTART- -X- O O\n\nb B-LOC B-LOC\n\n"
    path = write(tmp_path, "docs.conll", content * 3)
    one = nerve.score(path, workers=1)
    assert one.documents == 6
    for workers in (2, 3, 4):
        many = nerve.score(path, workers=workers)
        assert many == one
        assert (many.sentences, many.documents) == (one.sentences, one.documents), workers


# ---------------------------------------------------------------------------------------------
# split_fields


def fields_of(data: bytes, delimiter: int | None = None) -> list[dict[str, object]]:
    """For each line: its field count, and its first, second-to-last and last fields that exist."""
    table = split_fields(np.frombuffer(data, dtype=np.uint8), delimiter)
    out: list[dict[str, object]] = []
    for i in range(len(table)):
        count = int(table.count[i])

        def field(k: int) -> bytes:
            return data[int(table.start[k]) : int(table.end[k])]

        row: dict[str, object] = {"count": count}
        if count >= 1:
            row["first"] = field(int(table.first[i]))
            row["last"] = field(int(table.last[i]))
        if count >= 2:
            row["second_last"] = field(int(table.second_last[i]))
        out.append(row)
    return out


def expected_fields(fields: list[bytes]) -> dict[str, object]:
    row: dict[str, object] = {"count": len(fields)}
    if fields:
        row["first"], row["last"] = fields[0], fields[-1]
    if len(fields) >= 2:
        row["second_last"] = fields[-2]
    return row


def reference_fields(data: bytes, delimiter: int | None) -> list[dict[str, object]]:
    out = []
    for line in data.split(b"\n")[:-1]:
        if delimiter is None:
            fields = [f for f in re.split(rb"[ \t]+", line) if f]
        else:
            fields = line.split(bytes([delimiter]))
            while fields and fields[-1] == b"":  # Perl's split drops trailing empty fields
                fields.pop()
        out.append(expected_fields(fields))
    return out


WHITESPACE_CASES = [
    (b"a b c\n", [[b"a", b"b", b"c"]]),
    (b"a\tb\n", [[b"a", b"b"]]),
    (b"\n", [[]]),
    (b"x\n", [[b"x"]]),
    (b"  a \t b  \n", [[b"a", b"b"]]),
    (b" \t \n", [[]]),
    (b"tok POS B-PER O\n\nnext X O O\n", [[b"tok", b"POS", b"B-PER", b"O"], [], [b"next", b"X", b"O", b"O"]]),
    (b"a  b\n\tc\nd \n", [[b"a", b"b"], [b"c"], [b"d"]]),
    (b"\xc3\xbc\xc3\xaf B-X\n", [[b"\xc3\xbc\xc3\xaf", b"B-X"]]),
]


@pytest.mark.parametrize(("data", "lines"), WHITESPACE_CASES)
def test_split_fields_whitespace(data: bytes, lines: list[list[bytes]]) -> None:
    assert fields_of(data) == [expected_fields(f) for f in lines]


PERL_CASES = [
    # (data, delimiter, fields of each line)
    (b"a,b,c\n", ",", [[b"a", b"b", b"c"]]),
    (b"a,,c\n", ",", [[b"a", b"", b"c"]]),  # empty fields kept
    (b",a\n", ",", [[b"", b"a"]]),  # a leading delimiter gives an empty first field
    (b"a,b,,\n", ",", [[b"a", b"b"]]),  # trailing empty fields dropped
    (b",,\n", ",", [[]]),  # only empty fields: none
    (b"\n", ",", [[]]),
    (b",\n", ",", [[]]),
    (b"a b,c\n", ",", [[b"a b", b"c"]]),  # spaces are not separators
    (b"a  b \n", " ", [[b"a", b"", b"b"]]),
    (b" a b\n", " ", [[b"", b"a", b"b"]]),
    (b"a,b\n,\nc,,d,\n", ",", [[b"a", b"b"], [], [b"c", b"", b"d"]]),
    (b"x\ty\t\t\n", "\t", [[b"x", b"y"]]),
]


@pytest.mark.parametrize(("data", "delimiter", "lines"), PERL_CASES)
def test_split_fields_single_delimiter(data: bytes, delimiter: str, lines: list[list[bytes]]) -> None:
    assert fields_of(data, ord(delimiter)) == [expected_fields(f) for f in lines]


@PROFILE
@given(
    lines=st.lists(st.text(alphabet="ab, \t", max_size=10), min_size=1, max_size=8),
    delimiter=st.sampled_from([None, ord(","), ord(" "), ord("\t")]),
)
def test_split_fields_matches_reference(lines: list[str], delimiter: int | None) -> None:
    data = ("\n".join(lines) + "\n").encode()
    assert fields_of(data, delimiter) == reference_fields(data, delimiter)


# ---------------------------------------------------------------------------------------------
# intern


def intern_strings(strings: list[bytes], gap: bytes = b"") -> tuple[list[int], list[bytes]]:
    """Lay ``strings`` out in one buffer (separated by ``gap``) and intern them."""
    buf, starts, ends, at = b"", [], [], 0
    for s in strings:
        starts.append(at)
        ends.append(at + len(s))
        buf += s + gap
        at = len(buf)
    ids, values = intern(
        np.frombuffer(buf, dtype=np.uint8),
        np.asarray(starts, dtype=np.int64),
        np.asarray(ends, dtype=np.int64),
    )
    assert len(ids) == len(strings)
    return [int(i) for i in ids], values


def check_interned(strings: list[bytes], gap: bytes = b"") -> None:
    ids, values = intern_strings(strings, gap)
    assert [values[i] for i in ids] == strings
    assert len(values) == len(set(values)) == len(set(strings))
    reference: dict[bytes, int] = {}
    for s, i in zip(strings, ids, strict=True):
        assert reference.setdefault(s, i) == i  # equal strings share an id


def test_intern_empty() -> None:
    ids, values = intern_strings([])
    assert ids == []
    assert values == []


def test_intern_short_strings() -> None:
    check_interned([b"O", b"B-PER", b"O", b"I-PER", b"B-PER", b"O", b""])


def test_intern_long_strings() -> None:
    long = [b"B-Generic-Measure", b"I-Generic-Measure", b"B-Generic-Measurf", b"12345678", b"123456789"]
    check_interned([*long, b"O", *long, b"1234567", b"1234567890123456", b"12345678901234567"])
    check_interned([b"x" * n for n in range(40)] * 2)


def test_intern_nul_bytes() -> None:
    strings = [b"A", b"A\x00", b"\x00A", b"", b"\x00", b"\x00\x00", b"A\x00\x00\x00\x00\x00\x00\x00"]
    strings += [b"\x00" * 8, b"\x00" * 9, b"ABCDEFGH\x00", b"ABCDEFGH", b"ABCDEFGH\x00\x00"]
    check_interned(strings * 3)
    check_interned(strings, gap=b"\x00")


def test_intern_strings_at_arbitrary_offsets() -> None:
    buf = b"xxB-PERyyI-LOCzzB-PERwwB-Generic-MeasureB-Generic-Measure"
    starts = np.asarray([2, 9, 16, 23, 40, 2], dtype=np.int64)
    ends = np.asarray([7, 14, 21, 40, 57, 4], dtype=np.int64)
    ids, values = intern(np.frombuffer(buf, dtype=np.uint8), starts, ends)
    got = [values[i] for i in ids.tolist()]
    assert got == [b"B-PER", b"I-LOC", b"B-PER", b"B-Generic-Measure", b"B-Generic-Measure", b"B-"]
    assert ids[0] == ids[2]
    assert ids[3] == ids[4]


def test_intern_values_missed_by_the_sample() -> None:
    # Many strings, some distinct values only once, so that a sample of them misses some.
    rng = random.Random(3)
    common = [b"O", b"B-PER", b"I-PER", b"B-Generic-Measure"]
    strings = [rng.choice(common) for _ in range(5000)]
    for k in range(0, 5000, 97):
        strings[k] = b"rare-%d" % k if k % 2 else b"r%d" % k
    check_interned(strings)


def _hash_key(s: bytes) -> int:
    """The 64-bit key `intern` gives strings of 8 bytes or more (for building a collision)."""
    key = len(s)
    for offset in range(0, len(s), 8):
        word = int.from_bytes(s[offset : offset + 8].ljust(8, b"\x00"), "little")
        key = ((key ^ word) * 0x100000001B3) & (2**64 - 1)
    return key


def _colliding(a: bytes, prefix: bytes) -> bytes:
    """A 16-byte string starting with the 8-byte ``prefix`` whose key equals a's."""
    mask, mult = 2**64 - 1, 0x100000001B3
    # key(b) = ((16 ^ w0) * mult ^ w1) * mult; solve for w1 (the multiplier is odd, so invertible).
    inner = _hash_key(a) * pow(mult, -1, 2**64) & mask
    w1 = inner ^ ((16 ^ int.from_bytes(prefix, "little")) * mult & mask)
    return prefix + w1.to_bytes(8, "little")


def test_intern_hash_collisions_fall_back_to_exact_comparison() -> None:
    a = b"AAAAAAAABBBBBBBB"
    b = _colliding(a, b"CCCCCCCC")
    assert a != b
    assert _hash_key(a) == _hash_key(b)
    check_interned([a, b, a, b, b"O", b"O"])
    check_interned([b"x" * 20, a, b"O", b, a])


def test_intern_hash_collision_across_lengths() -> None:
    c = b"AAAAAAAAZ"  # 9 bytes
    # 16-byte string with the same key: key(d) = ((16 ^ w0) * m ^ w1) * m; choose w0, solve w1.
    m, mask = 0x100000001B3, 2**64 - 1
    inner = ((9 ^ int.from_bytes(c[:8], "little")) * m & mask) ^ int.from_bytes(b"Z", "little")
    w0 = int.from_bytes(b"DDDDDDDD", "little")
    w1 = inner ^ ((16 ^ w0) * m & mask)
    d = w0.to_bytes(8, "little") + w1.to_bytes(8, "little")
    assert _hash_key(c) == _hash_key(d)
    check_interned([c, d, c, d, b"O"])


@PROFILE
@given(
    pool=st.lists(st.binary(max_size=20), min_size=1, max_size=8),
    picks=st.lists(st.integers(0, 7), max_size=300),
    gap=st.sampled_from([b"", b" ", b"\x00"]),
)
def test_intern_matches_a_dict(pool: list[bytes], picks: list[int], gap: bytes) -> None:
    strings = [pool[i % len(pool)] for i in picks]
    check_interned(strings, gap)


@PROFILE
@given(strings=st.lists(st.binary(min_size=0, max_size=24), max_size=60))
def test_intern_matches_a_dict_on_distinct_strings(strings: list[bytes]) -> None:
    check_interned(strings)
