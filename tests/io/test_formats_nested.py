"""Nested-NER JSON (DyGIE++): DyGIE++'s own fixtures, hostile and bad input, a round trip, and exact
counts of nested and repeated entities against a naive multiset count."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.cli import main
from nerve.io.json.nested import read_nested
from nerve.io.spans import document_texts, read_span_columns, sniff_format

DATA = Path(__file__).parents[1] / "data" / "formats" / "nested"
Doc = list[tuple[int, int, str]]


def naive(path: Path) -> tuple[list[Doc], Counter[str]]:
    """Each document's entities, half-open (DyGIE++ ends are inclusive), and the relations... counted."""
    docs, notes = [], Counter[str]()
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        doc = json.loads(line)
        docs.append([(s, e + 1, t) for sentence in doc["ner"] for s, e, t in sentence])
        for key in ("relations", "events"):
            n = sum(len(x) for x in doc.get(key, []))
            if n:
                notes[f"ignored {key}"] += n
        if doc.get("clusters"):
            notes["ignored clusters"] += len(doc["clusters"])
    return docs, notes


@pytest.mark.parametrize("name", ["scierc_article.json", "multi_dataset_dev.jsonl"])
def test_dygiepp_fixtures_against_a_naive_parse(name: str) -> None:
    path = DATA / name
    assert sniff_format(str(path)) == "nested"
    spans, _ = read_nested(str(path))
    expected, notes = naive(path)
    assert (
        spans.documents() == [sorted(d, key=lambda x: x) for d in expected] or spans.documents() == expected
    )
    assert dict(spans.notes) == dict(notes)
    result = nerve.score(str(path), str(path))
    assert result.micro.tp == sum(map(len, expected))


def test_fixture_counts_and_entity_texts() -> None:
    """The figures in tests/data/formats/README.md; an entity's tokens are its text."""
    one, _ = read_nested(str(DATA / "scierc_article.json"))
    assert (len(one), one.n_docs) == (25, 1)
    many, _ = read_nested(str(DATA / "multi_dataset_dev.jsonl"))
    assert (len(many), many.n_docs) == (119, 4)
    texts = document_texts(str(DATA / "scierc_article.json"))
    first = next(iter(one))
    assert texts[0] is not None
    words = texts[0][first.start : first.end]
    raw = json.loads((DATA / "scierc_article.json").read_text(encoding="utf-8"))
    flat = [t for s in raw["sentences"] for t in s]
    s, e, _ = raw["ner"][0][0]
    assert (first.start, first.end) == (s, e + 1)
    assert list(words) == flat[s : e + 1]


def write(path: Path, docs: list[Any], *, crlf: bool = False, bom: bool = False) -> str:
    end = "\r\n" if crlf else "\n"
    text = "".join(json.dumps(d) + end for d in docs)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return str(path)


def test_hostile_input(tmp_path: Path) -> None:
    docs = [
        {
            "sentences": [["😀", "John", "Smith"], ["in", "New", "York"]],
            "ner": [[[1, 2, "PER"]], [[4, 5, "LOC"]]],
        },
        {"sentences": [], "ner": []},
        {"tokens": ["New", "York", "City"], "entities": [{"start": 0, "end": 3, "type": "LOC"}]},
    ]
    expected = [[(1, 3, "PER"), (4, 6, "LOC")], [], [(0, 3, "LOC")]]
    for crlf, bom in ((False, False), (True, True)):
        spans, _ = read_nested(write(tmp_path / "d.jsonl", docs, crlf=crlf, bom=bom))
        assert spans.documents() == expected
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert read_nested(str(empty))[0].n_docs == 0


@pytest.mark.parametrize(
    ("doc", "detail"),
    [
        ({"sentences": [["a", "b"]], "ner": [[[1, 2, "X"]]]}, "is outside the sentence's tokens 0..1"),
        ({"sentences": [["a", "b"]], "ner": [[[1, 0, "X"]]]}, "is outside the sentence's tokens"),
        ({"sentences": [["a"], ["b"]], "ner": [[], [[0, 0, "X"]]]}, "is outside the sentence's tokens 1..1"),
        ({"sentences": [["a", "b"]], "ner": [[[0, 1]]]}, "expected [start, end, type]"),
        ({"sentences": [["a", "b"]], "ner": []}, 'expected "ner" as one list'),
        ({"tokens": ["a"], "entities": [{"start": 0, "end": 2, "type": "X"}]}, "is outside the 1 tokens"),
        ({"words": ["a"]}, 'expected {"sentences", "ner"}'),
    ],
)
def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: Any, detail: str) -> None:
    ok = {"sentences": [["a"]], "ner": [[[0, 0, "X"]]]}
    path = write(tmp_path / "g.jsonl", [ok, doc])
    assert main(["score", path, path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"{path}:2: document 1: " in err, err
    assert detail in err, err


def test_malformed_json_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text('{"sentences": [["a"]], "ner": [[[0, 0, "X"]]]}\n{"sentences": [\n', encoding="utf-8")
    assert main(["score", str(path), str(path), "--format", "nested"]) == 2
    err = capsys.readouterr().err
    assert f"{path}: line 2: malformed JSON" in err, err


@st.composite
def documents(draw: st.DrawFn) -> tuple[list[list[int]], list[list[Doc]], list[list[Doc]]]:
    """Sentence lengths, and gold and predicted entities per sentence (nested, repeated) from one pool."""
    n_docs = draw(st.integers(0, 3))
    lengths, gold, pred = [], [], []
    for _ in range(n_docs):
        sizes = draw(st.lists(st.integers(1, 6), max_size=3))
        lengths.append(sizes)
        g_doc, p_doc, offset = [], [], 0
        for size in sizes:
            pool = [(offset + a, offset + b, t) for a in range(size) for b in range(a, size) for t in "XY"]
            g_doc.append(draw(st.lists(st.sampled_from(pool), max_size=5)))
            p_doc.append(draw(st.lists(st.sampled_from(pool), max_size=5)))
            offset += size
        gold.append(g_doc)
        pred.append(p_doc)
    return lengths, gold, pred


def dygie(lengths: list[list[int]], docs: list[list[Doc]]) -> list[dict[str, Any]]:
    return [
        {"sentences": [["w"] * n for n in sizes], "ner": [[list(e) for e in s] for s in doc]}
        for sizes, doc in zip(lengths, docs, strict=True)
    ]


@settings(max_examples=100, deadline=None)
@given(documents())
def test_round_trip_and_exact_counts_equal_a_naive_multiset(
    drawn: tuple[list[list[int]], list[list[Doc]], list[list[Doc]]],
) -> None:
    lengths, gold, pred = drawn
    with tempfile.TemporaryDirectory() as tmp:
        g = write(Path(tmp) / "g.jsonl", dygie(lengths, gold))
        p = write(Path(tmp) / "p.jsonl", dygie(lengths, pred))
        g_spans, p_spans = read_span_columns(g, p, fmt="nested")
        result = nerve.score(g, p, input_format="nested") if lengths else None
    half_open = [sorted((s, e + 1, t) for sent in doc for s, e, t in sent) for doc in gold]
    assert [sorted(d) for d in g_spans.documents()] == half_open
    assert p_spans.n_docs == len(pred)
    if result is None:
        return
    gc = Counter((i, s, e, t) for i, doc in enumerate(gold) for sent in doc for s, e, t in sent)
    pc = Counter((i, s, e, t) for i, doc in enumerate(pred) for sent in doc for s, e, t in sent)
    tp = sum((gc & pc).values())
    m = result.micro
    assert (m.tp, m.fp, m.fn) == (tp, sum(pc.values()) - tp, sum(gc.values()) - tp)
