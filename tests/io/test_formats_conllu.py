"""CoNLL-U with entity tags in MISC: a hand-written sample (no shipped real one, see the README),
hostile and bad input, the decoding rule against nerve.decode, and a round trip with exact counts
against a naive multiset count."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.cli import main
from nerve.io.spans import document_texts, sniff_format
from nerve.io.tags.conllu import read_conllu

SAMPLE = Path(__file__).parents[1] / "data" / "formats" / "conllu" / "sample.conllu"
SKIPPED = "multiword tokens and empty nodes (skipped)"


def word(i: int, form: str, misc: str) -> str:
    return f"{i}\t{form}\t_\t_\t_\t_\t0\t_\t_\t{misc}\n"


def test_the_sample() -> None:
    """Documents by newdoc (the last one empty), multiword tokens and empty nodes skipped, IOBES."""
    assert sniff_format(str(SAMPLE)) == "conllu"
    spans, _ = read_conllu(str(SAMPLE))
    assert spans.n_docs == 3
    assert spans.documents() == [[(0, 2, "PER"), (3, 5, "LOC"), (6, 9, "ORG")], [(0, 1, "LOC")], []]
    assert spans.notes == {SKIPPED: 2}
    texts = document_texts(str(SAMPLE))
    assert texts == [
        ("John", "Smith", "visited", "New", "York", ".", "De", "l", "Prado's", "café"),
        ("Paris",),
        (),
    ]


def test_instances_show_the_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pred = tmp_path / "p.conllu"
    pred.write_text(SAMPLE.read_text(encoding="utf-8").replace("NER=B-PER", "NER=B-ORG"), encoding="utf-8")
    args = ["score", str(SAMPLE), str(pred), "--instances", "-", "--instances-format", "jsonl"]
    assert main(args) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert any(r.get("gold_text") == "John Smith" for r in rows), rows


def test_the_key_is_an_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "norne.conllu"  # NorNE writes name=..., separated from SpaceAfter by a space
    path.write_text(
        word(1, "Oslo", "SpaceAfter=No name=B-GPE_LOC") + word(2, "!", "name=O"), encoding="utf-8"
    )
    assert read_conllu(str(path), column="name")[0].documents() == [[(0, 1, "GPE_LOC")]]
    assert main(["score", str(path), str(path), "--misc-key", "name", "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["micro"]["tp"] == 1
    assert main(["score", str(path), str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1: no word has NER=TAG in MISC; give the key the file uses with --column" in err


def test_hostile_input(tmp_path: Path) -> None:
    body = "# newdoc\n" + word(1, "😀", "NER=O") + word(2, "Ann", "NER=B-PER") + "\n# newdoc\n# newdoc\n"
    body += word(1, "Bo", "NER=B-PER") + "\n"
    path = tmp_path / "h.conllu"
    path.write_bytes(b"\xef\xbb\xbf" + body.replace("\n", "\r\n").encode("utf-8"))
    spans, _ = read_conllu(str(path))
    assert spans.documents() == [[(1, 2, "PER")], [], [(0, 1, "PER")]]
    path.write_bytes(b"")
    assert read_conllu(str(path))[0].n_docs == 0


@pytest.mark.parametrize(
    ("body", "line", "detail"),
    [
        (word(1, "A", "NER=O") + "2\tB\tNER=O\n", 2, "word line has 3 columns, expected the 10 of CoNLL-U"),
        (word(1, "A", "NER=O") + "2\n", 2, "word line has 1 column, expected the 10 of CoNLL-U"),
        (word(1, "A", "NER=B-PER") + word(2, "B", "SpaceAfter=No"), 2, "MISC 'SpaceAfter=No' has no NER=TAG"),
        (word(1, "A", "NER=B-PER") + word(2, "B", "NER=PER"), 2, "does not have the form"),
    ],
)
def test_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, line: int, detail: str
) -> None:
    path = tmp_path / "g.conllu"
    path.write_text(body, encoding="utf-8")
    assert main(["score", str(path), str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"{path}:{line}: " in err, err
    assert detail in err, err


LETTERS = {"IOB1": "IB", "IOB2": "BI", "IOE1": "IE", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU"}


@st.composite
def tagged(draw: st.DrawFn) -> tuple[str, list[list[str]]]:
    """A scheme and sentences of its tags."""
    scheme = draw(st.sampled_from(sorted(LETTERS)))
    tags = ["O"] + [f"{letter}-{t}" for letter in LETTERS[scheme] for t in "XY"]
    sentences = draw(
        st.lists(st.lists(st.sampled_from(tags), min_size=1, max_size=8), min_size=1, max_size=4)
    )
    return scheme, sentences


def conllu(sentences: list[list[str]], newdoc: list[bool]) -> str:
    out = []
    for sentence, new in zip(sentences, newdoc, strict=True):
        if new:
            out.append("# newdoc\n")
        out += [word(i, f"w{i}", f"NER={tag}") for i, tag in enumerate(sentence, start=1)]
        out.append("\n")
    return "".join(out)


@settings(max_examples=150, deadline=None)
@given(tagged())
def test_decoding_is_nerve_decode(drawn: tuple[str, list[list[str]]]) -> None:
    """One document per sentence: the reader's entities are nerve.decode's, in every scheme."""
    scheme, sentences = drawn
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.conllu"
        path.write_text(conllu(sentences, [True] * len(sentences)), encoding="utf-8")
        spans, _ = read_conllu(str(path))
    expected = sorted((s.seq, s.start, s.end, s.label) for s in nerve.decode(sentences, scheme=scheme))
    assert sorted((s.seq, s.start, s.end, s.label) for s in spans) == expected


Entity = tuple[int, int, str]


@st.composite
def flat_documents(draw: st.DrawFn) -> tuple[list[int], list[list[Entity]], list[list[Entity]]]:
    """Document lengths, and gold and predicted entities that do not overlap (BIO can hold them)."""
    lengths = draw(st.lists(st.integers(0, 10), min_size=1, max_size=3))

    def side() -> list[list[Entity]]:
        docs = []
        for n in lengths:
            cuts = sorted(draw(st.sets(st.integers(0, n), max_size=6))) if n else []
            pairs = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]
            docs.append([(a, b, draw(st.sampled_from("XY"))) for a, b in pairs])
        return docs

    return lengths, side(), side()


def bio(lengths: list[int], docs: list[list[Entity]]) -> str:
    out = []
    for n, entities in zip(lengths, docs, strict=True):
        tags = ["O"] * n
        for a, b, t in entities:
            tags[a:b] = [f"B-{t}"] + [f"I-{t}"] * (b - a - 1)
        out.append(
            "# newdoc\n" + "".join(word(i + 1, "w", f"NER={tag}") for i, tag in enumerate(tags)) + "\n"
        )
    return "".join(out)


@settings(max_examples=100, deadline=None)
@given(flat_documents())
def test_round_trip_and_exact_counts(drawn: tuple[list[int], list[list[Entity]], list[list[Entity]]]) -> None:
    lengths, gold, pred = drawn
    with tempfile.TemporaryDirectory() as tmp:
        g, p = Path(tmp) / "g.conllu", Path(tmp) / "p.conllu"
        g.write_text(bio(lengths, gold), encoding="utf-8")
        p.write_text(bio(lengths, pred), encoding="utf-8")
        spans, _ = read_conllu(str(g))
        result = nerve.score(str(g), str(p))
    assert spans.documents() == gold
    gc = Counter((i, *e) for i, d in enumerate(gold) for e in d)
    pc = Counter((i, *e) for i, d in enumerate(pred) for e in d)
    tp = sum((gc & pc).values())
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (
        tp,
        sum(pc.values()) - tp,
        sum(gc.values()) - tp,
    )
