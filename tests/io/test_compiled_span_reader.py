"""The compiled span reader against the Python one: random nervaluate and JSONL files, well formed
and malformed, give identical `SpanArray`s or identical errors on both engines, and the compiled
reader reads (does not hand over) every well-formed file it is meant for."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import compiled_or_skip, engine
from nerve.errors import NerveError
from nerve.io.json.compiled import read_columns
from nerve.io.json.jsonl import read_documents
from nerve.io.json.nervaluate import read_nervaluate
from nerve.model.spans import SpanArray

compiled_or_skip()

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def outcome(read: Callable[[], Any]) -> Any:
    """What a read gives: its sides as plain values, or the error's type and message."""
    try:
        sides = read()
    except NerveError as err:
        return type(err).__name__, str(err)
    return tuple(None if s is None else plain(s) for s in sides)


def plain(spans: SpanArray) -> tuple[Any, ...]:
    assert all(c.dtype == np.int64 for c in (spans.doc, spans.start, spans.end, spans.label))
    columns = tuple(c.tolist() for c in (spans.doc, spans.start, spans.end, spans.label))
    score = None if spans.score is None else [None if x != x else x for x in spans.score.tolist()]  # NaN
    rest = (spans.line, spans.source, spans.fragments, dict(spans.notes), spans.attributes, score)
    return (*columns, spans.labels, spans.n_docs, *rest)


def both(read: Callable[[], Any]) -> Any:
    """The outcome of ``read`` on both engines, asserted equal."""
    with engine(True):
        compiled = outcome(read)
    with engine(False):
        python = outcome(read)
    assert compiled == python
    return compiled


# ------------------------------------------------------------------ random files

LABELS = st.sampled_from(
    ["PER", "LOC", "ORG", "MISC", "", "é", 'a"b', "t\\u", "\u2603", "😀", "x\ny", "\x00", "B-X"]
)
OFFSET = st.one_of(
    st.integers(0, 40), st.integers(-3, 2**41), st.sampled_from([True, False, None, 1.0, "3", 2**64])
)


@st.composite
def entity(draw: st.DrawFn, jsonl: bool) -> dict[str, Any]:
    start = draw(st.integers(0, 30))
    end = start + draw(st.integers(0 if not jsonl else 1, 6))
    e: dict[str, Any] = {"start": start, "end": end, "label": draw(LABELS)}
    if draw(st.integers(0, 9)) == 0:  # a malformed value
        e[draw(st.sampled_from(["start", "end", "label"]))] = draw(
            st.one_of(OFFSET, LABELS, st.lists(st.integers(), max_size=1))
        )
    if draw(st.integers(0, 14)) == 0:
        del e[draw(st.sampled_from(["start", "end", "label"]))]
    if draw(st.integers(0, 9)) == 0:
        e[draw(st.sampled_from(["id", "score", "text", "extra"]))] = draw(
            st.one_of(st.integers(), st.text(max_size=3), st.none())
        )
    keys = draw(st.permutations(list(e)))
    return {k: e[k] for k in keys}


def dumps(value: Any, draw: st.DrawFn) -> str:
    """JSON text of ``value`` in one of several spellings: spacing, escapes, key order."""
    ascii_only = draw(st.booleans())
    separators = draw(st.sampled_from([(",", ":"), (", ", ": "), (" ,\t", " :\r\n ")]))
    indent = draw(st.sampled_from([None, None, 2, "\t"]))
    return json.dumps(value, ensure_ascii=ascii_only, separators=separators, indent=indent)


def mutate(text: bytes, draw: st.DrawFn) -> bytes:
    """Sometimes break the bytes: cut them, or put in, take out or change a byte."""
    how = draw(st.integers(0, 9))
    if how > 3 or not text:
        return text
    at = draw(st.integers(0, len(text) - 1))
    if how == 0:
        return text[:at]
    if how == 1:
        return text[:at] + text[at + 1 :]
    byte = draw(
        st.sampled_from(
            [
                b"{",
                b"}",
                b"[",
                b"]",
                b",",
                b":",
                b'"',
                b"\\",
                b"\x00",
                b"\xff",
                b"\xc3",
                b"\x0b",
                b"1",
                b"-",
                b"e",
                b" ",
            ]
        )
    )
    return text[:at] + byte + text[at + (how == 3) :]


@st.composite
def nervaluate_file(draw: st.DrawFn) -> bytes:
    side = st.lists(st.lists(entity(False), max_size=4), max_size=4)
    shape = draw(st.integers(0, 9))
    value: Any = {"true": draw(side), "pred": draw(side)} if shape < 7 else draw(side)
    if shape == 0:
        value = {"pred": value["pred"], "true": value["true"]}
    if shape == 1:
        value[draw(st.sampled_from(["extra", "gold"]))] = []
    text = dumps(value, draw).encode()
    if draw(st.integers(0, 9)) == 0:  # a duplicate key, or a key spelled with an escape
        text = text.replace(b'"start"', draw(st.sampled_from([b'"start": 1, "start"', b'"st\\u0061rt"'])), 1)
    bom = b"\xef\xbb\xbf" if draw(st.integers(0, 9)) == 0 else b""
    return bom + mutate(text, draw)


@st.composite
def jsonl_file(draw: st.DrawFn) -> bytes:
    two = draw(st.booleans())
    lines = []
    for _ in range(draw(st.integers(0, 4))):
        doc: dict[str, Any] = {}
        if two or draw(st.integers(0, 9)) == 0:
            doc["gold"] = draw(st.lists(entity(True), max_size=3))
            doc["pred"] = draw(st.lists(entity(True), max_size=3))
        if not two or draw(st.integers(0, 9)) == 0:
            doc[draw(st.sampled_from(["spans", "entities"]))] = draw(st.lists(entity(True), max_size=3))
        bound = draw(st.integers(0, 5))
        if bound == 1:
            doc["text"] = draw(st.text(alphabet='ab é😀\n"\\', max_size=40))
        if bound == 2:
            doc["tokens"] = draw(st.lists(st.sampled_from(["a", "bb", "😀"]), max_size=40))
        if bound == 3:
            doc[draw(st.sampled_from(["text", "tokens"]))] = draw(
                st.one_of(st.none(), st.integers(), st.lists(st.integers(), max_size=2))
            )
        if draw(st.integers(0, 4)) == 0:
            doc[draw(st.sampled_from(["id", "meta", "other"]))] = draw(
                st.one_of(
                    st.integers(),
                    st.text(max_size=3),
                    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
                )
            )
        keys = draw(st.permutations(list(doc)))
        lines.append(dumps({k: doc[k] for k in keys}, draw).replace("\n", " ").replace("\r", " "))
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(["", "  ", "\t", "\x0b", "\r"])))
    end = draw(st.sampled_from(["\n", "\r\n", ""]))
    return mutate((end.join(lines) + end).encode(), draw)


# ------------------------------------------------------------------ the differential tests


@SETTINGS
@given(data=nervaluate_file())
def test_nervaluate_files_read_alike_on_both_engines(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(data)
    both(lambda: read_nervaluate(str(path)))


@SETTINGS
@given(data=jsonl_file(), units=st.sampled_from([None, "char", "token"]))
def test_jsonl_files_read_alike_on_both_engines(tmp_path: Path, data: bytes, units: str | None) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(data)
    both(lambda: read_documents(str(path), "jsonl", units))
    both(lambda: read_documents(str(path), "jsonl", units, chunk=(data, 7, 3)))


@SETTINGS
@given(
    sides=st.lists(
        st.lists(st.tuples(st.integers(0, 30), st.integers(0, 6), LABELS), max_size=5), max_size=5
    ),
    spelling=st.data(),
)
def test_well_formed_nervaluate_is_read_by_the_compiled_reader(
    tmp_path: Path, sides: Any, spelling: st.DataObject
) -> None:
    docs = [[{"label": t, "start": s, "end": s + n} for s, n, t in doc] for doc in sides]
    data = dumps({"true": docs, "pred": docs[::-1]}, spelling.draw).encode()
    with engine(True):
        assert read_columns((data,), "nervaluate") is not None
    path = tmp_path / "f.json"
    path.write_bytes(data)
    gold, _pred = both(lambda: read_nervaluate(str(path)))
    assert gold[4] == tuple(dict.fromkeys(t for doc in sides for _, _, t in doc))


@SETTINGS
@given(
    sides=st.lists(
        st.lists(st.tuples(st.integers(0, 30), st.integers(1, 6), LABELS), max_size=4), max_size=5
    ),
    spelling=st.data(),
)
def test_well_formed_jsonl_is_read_by_the_compiled_reader(
    tmp_path: Path, sides: Any, spelling: st.DataObject
) -> None:
    lines = []
    for doc in sides:
        spans = [{"start": s, "end": s + n, "label": t} for s, n, t in doc]
        lines.append(
            dumps(
                {"tokens": ["w"] * 40, "gold": spans, "pred": spans[::-1], "meta": {"a": [1, {}]}},
                spelling.draw,
            )
        )
    data = ("\n".join(line.replace("\n", " ") for line in lines) + "\n").encode()
    with engine(True):
        assert (read_columns((data,), "jsonl") is not None) == bool(sides)
    path = tmp_path / "f.jsonl"
    path.write_bytes(data)
    both(lambda: read_documents(str(path), "jsonl", None))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (b'{"true": [[{"label": "A", "start": 1, "end": 1.0}]], "pred": []}', "a float"),
        (b'{"true": [[{"label": "A", "start": -0, "end": 1}]], "pred": []}', "a sign"),
        (b'{"true": [[{"label": "A", "start": 1, "end": 1, "start": 0}]], "pred": []}', "a repeated key"),
        (b'{"true": [[{"label": "\\ud800", "start": 1, "end": 1}]], "pred": []}', "a lone surrogate"),
        (b'{"true": [[{"label": "A", "start": 01, "end": 1}]], "pred": []}', "a leading zero"),
        (b'{"true": [], "pred": []} x', "trailing bytes"),
        (b"  \n", "no value"),
    ],
)
def test_what_the_compiled_reader_hands_over(tmp_path: Path, text: bytes, why: str) -> None:
    with engine(True):
        assert read_columns((text,), "nervaluate") is None, why
    path = tmp_path / "f.json"
    path.write_bytes(text)
    both(lambda: read_nervaluate(str(path)))


def test_escapes_and_unicode_labels_are_decoded(tmp_path: Path) -> None:
    text = (
        '{"pred": [[{"end": 2, "label": "\\u00e9\\ud83d\\ude00\\n\\"\\/", "start": 0}, '
        '{"label": "é😀\\n\\"/", "start": 1, "end": 1}]], "true": [[]]}'
    )
    with engine(True):
        sides = read_columns((text.encode(),), "nervaluate")
    assert sides is not None
    assert sides[1] is not None
    assert sides[1][4] == ['é😀\n"/']
    path = tmp_path / "f.json"
    path.write_text(text, encoding="utf-8")
    assert both(lambda: read_nervaluate(str(path)))[1][2] == [3, 2]


def test_a_jsonl_span_with_a_score_is_read_by_numpy_with_its_score(tmp_path: Path) -> None:
    gold, pred = '{"start": 0, "end": 1, "label": "A"}', '{"start": 0, "end": 1, "label": "A", "score": 0.5}'
    data = f'{{"gold": [{gold}], "pred": [{pred}]}}\n'.encode()
    with engine(True):
        assert read_columns((data,), "jsonl") is None
    path = tmp_path / "f.jsonl"
    path.write_bytes(data)
    assert both(lambda: read_documents(str(path), "jsonl", None))[1][-1] == [0.5]
