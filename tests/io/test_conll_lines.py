"""The C core's line scanner and tag caches against the numpy engine, where a fast path could go wrong.

The core (csrc/conll.c) finds the bytes that matter to a line 16 at a time (blanks, newline, CR,
NUL, bytes of 0x80 and up, the delimiter) and splits its fields from them; it keeps each column's
last short tag (up to 8 bytes, compared as one number) and checks a predicted tag against the
line's gold tag before its table. So: fields and special bytes at every place of a 16-byte chunk
and across block edges, tags of 8 and 9 bytes, tags that share a prefix or differ in one byte,
long tags, and control bytes that are plain bytes of a field. Each case runs on both engines and
must give the same result or the same error; plain input must be the C engine's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
import nerve.io.tags.conll_c as conll_c
from engines import both

SETTINGS = settings(
    max_examples=int(os.environ.get("NERVE_ENGINE_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

LONG = "LONGTYPE" * 5
# Tags of 1 to 45 bytes: 8 and 9 bytes (the short key's edge), one byte apart, sharing prefixes.
TAGS = [
    "O",
    "B-A",
    "B-AB",
    "I-AB",
    "B-ABCDEF",
    "B-ABCDEG",
    "I-ABCDEF",
    "B-ABCDEFG",
    "B-ABCDEFH",
    "I-ABCDEFG",
    f"B-{LONG}",
    f"I-{LONG}",
    f"B-{LONG}X",
]
PLAIN = st.text(alphabet="abcXYZ-_.#", max_size=40)
INSIDE = st.sampled_from(["", "é", "日本", "\x0b", "\x0c", "\x1f", "\x7f", ",", "-DOCSTART-"])
SEPARATORS = st.sampled_from([" ", "\t", "   ", " \t ", "\t\t"])
BAD = st.sampled_from([b"\x00", b"\r", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\n", b" ", b"\t"])


@st.composite
def words(draw: st.DrawFn) -> str:
    word = draw(PLAIN) + draw(INSIDE) + draw(PLAIN)
    return word or "w"


@st.composite
def files(draw: st.DrawFn) -> tuple[bytes, bool]:
    """A merged file of long and short fields, and whether it is plain (the C engine's to count)."""
    sep = draw(SEPARATORS)
    edges = draw(st.booleans())  # blanks before and after the fields
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        for _ in range(draw(st.integers(1, 6))):
            gold = draw(st.sampled_from(TAGS))
            pred = draw(st.sampled_from([gold, *TAGS]))
            line = sep.join([draw(words()), gold, pred])
            lines.append(f"{sep}{line}{sep}" if edges else line)
        lines.append(draw(st.sampled_from(["", " ", "\t"])))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    data = end.join(lines).encode() + (end.encode() if draw(st.booleans()) else b"")
    plain = not edges and all(ord(c) < 0x80 or c in "é日本" for c in "".join(lines))
    return data, plain and not any(line.startswith("#") for line in lines)


@st.composite
def broken(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a byte that matters put somewhere: a NUL, a lone CR, bytes that are not UTF-8."""
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(BAD) + data[at:]


def run(path: Path, block: int, **kw: Any) -> tuple[Any, Any, Any]:
    before = conll_c._BLOCK
    conll_c._BLOCK = block
    try:
        return both(lambda: nerve.score(path, **kw))
    finally:
        conll_c._BLOCK = before


@SETTINGS
@given(data=st.data())
def test_long_fields_and_tags_in_blocks(tmp_path: Path, data: st.DataObject) -> None:
    text, plain = data.draw(files())
    if data.draw(st.booleans()):
        text, plain = data.draw(broken(text)), False
    kw: dict[str, Any] = {"repair": data.draw(st.sampled_from(["begin", "conlleval", "discard"]))}
    if data.draw(st.integers(0, 3)) == 0:
        kw["delimiter"] = data.draw(st.sampled_from(["tab", "space", ","]))
        plain = False
    if data.draw(st.integers(0, 3)) == 0:
        kw["comments"] = True
    block = data.draw(st.sampled_from([1, 7, 15, 16, 17, 33, 1 << 20]))
    path = tmp_path / "m.txt"
    path.write_bytes(text)
    fast, slow, spy = run(path, block, **kw)
    assert fast == slow
    if plain and kw["repair"] != "discard":
        assert spy.counted == 1


OFFSETS = [0, 1, 7, 8, 9, 14, 15, 16, 17, 30, 31, 32, 33]


@pytest.mark.parametrize("byte", [b"\t", b" ", b"\xc3\xa9", b"\x0b", b"\x1f", b"\x7f"])
def test_bytes_read_at_every_place_of_a_chunk(tmp_path: Path, byte: bytes) -> None:
    """A blank, a UTF-8 letter or a control byte that is plain, 1 to 33 bytes into a line."""
    sep = byte if byte in (b"\t", b" ") else b" "  # a tab splits as the file's delimiter (sniffed)
    lines = [sep.join([b"x" * n + byte + b"y", b"B-ABCDEFG", b"B-ABCDEFH"]) for n in OFFSETS[1:]]
    lines += [sep.join([b"z" * n + byte + b"y", b"I-ABCDEF", b"I-ABCDEG"]) for n in OFFSETS[1:]]
    path = tmp_path / "chunks.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    for block in (5, 16, 1 << 20):
        fast, slow, spy = run(path, block)
        assert fast == slow
        assert fast[0] == "result"
        assert spy.counted == 1


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_lines_of_every_length(tmp_path: Path, end: bytes) -> None:
    """Line ends (LF, CRLF) at every place of one, two and three chunks; blank lines between."""
    lines = [b"x" * n + b" B-AB I-AB" + end + (end if n % 5 == 0 else b"") for n in range(1, 48)]
    path = tmp_path / "ends.txt"
    path.write_bytes(b"".join(lines))
    for block in (3, 16, 1 << 20):
        fast, slow, spy = run(path, block)
        assert fast == slow
        assert fast[0] == "result"
        assert spy.counted == 1


@pytest.mark.parametrize("byte", [b"\x00", b"\r", b"\xff", b"\xe6\x97"])
def test_bad_bytes_at_every_place_of_a_chunk_hand_over(tmp_path: Path, byte: bytes) -> None:
    """A NUL, a lone CR or bytes that are not UTF-8, 0 to 33 bytes into a line: the numpy engine's error."""
    for n in OFFSETS:
        path = tmp_path / f"bad{n}.txt"
        path.write_bytes(b"a O O\n" + b"x" * n + byte + b"y O B-A\nb O O\n")
        fast, slow, spy = run(path, 1 << 20)
        assert fast == slow
        assert spy.handed == 1
        assert spy.counted == 0


def test_tags_one_byte_apart_at_the_end_of_the_file(tmp_path: Path) -> None:
    """Tags compared as numbers of up to 8 bytes: the last one ends the data, with no newline."""
    path = tmp_path / "end.txt"
    for gold, pred in [("B-ABCDEF", "B-ABCDEG"), ("B-A", "B-AB"), ("B-ABCDEFG", "B-ABCDEFH"), ("O", "B-A")]:
        path.write_bytes(f"w {gold} {gold}\nw {gold} {pred}".encode())
        for block in (1, 8, 1 << 20):
            fast, slow, spy = run(path, block)
            assert fast == slow
            assert spy.counted == 1
            result = fast[1]
            assert result.micro.tp == (gold != "O") * (1 + (gold == pred)), (gold, pred, block)
