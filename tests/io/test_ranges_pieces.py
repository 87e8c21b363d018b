"""Cutting a big CoNLL file for threads counts the lines before a cut piece by piece, in bounded memory."""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from nerve.io.tags import ranges

line = st.sampled_from(["a B-X", "b I-X", "c O", "", "-DOCSTART- O", "d O\r", "e O\r", "f B-Y"])


@settings(max_examples=200, deadline=None)
@given(st.lists(line, min_size=1, max_size=120), st.integers(1, 40), st.integers(2, 4), st.booleans())
def test_pieces_give_the_ranges_of_one_read(lines: list[str], piece: int, parts: int, lone_cr: bool) -> None:
    text = "\n".join(lines) + "\n"
    if lone_cr:
        text = text.replace("c O\n", "c O\r", 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.conll"
        path.write_bytes(text.encode())
        with mock.patch.object(ranges, "PIECE", 1 << 30):
            whole = ranges.split_files(str(path), None, parts)
        with mock.patch.object(ranges, "PIECE", piece):
            pieces = ranges.split_files(str(path), None, parts)
    assert pieces == whole
    if whole is not None:  # the line numbers are the counts of the bytes before each cut
        data = text.encode()
        for g, _ in whole:
            assert g.line == data[: g.start].count(b"\n")
