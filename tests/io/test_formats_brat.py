"""brat standoff: the real samples of tests/data/formats/brat, hostile inputs, and scores of
discontinuous entities against a naive multiset count."""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.cli import main
from nerve.io.spans import document_texts, read_span_columns, sniff_format, validate_spans
from nerve.io.tools.brat_files import DISCONTINUOUS, read_brat

DATA = Path(__file__).parents[1] / "data" / "formats" / "brat"
KINDS = {"R": "ignored relations", "E": "ignored events", "*": "ignored equivalences"}
KINDS.update({"#": "ignored annotator notes"})
KEPT = {"A": "attributes (kept as span metadata)", "N": "normalizations (kept as span metadata)"}
IGNORED = {"A": "ignored attributes (of events)", "N": "ignored normalizations (of events and relations)"}


def naive(directory: Path) -> tuple[list[list[tuple[str, tuple[tuple[int, int], ...]]]], Counter[str]]:
    """Each document's entities (type, pieces) and the other annotations, parsed line by line."""
    docs = []
    others: Counter[str] = Counter()
    for ann in sorted(directory.glob("*.ann")):
        text = (ann.with_suffix(".txt")).read_bytes().decode("utf-8")
        entities = []
        for line in ann.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            if line[0] in "AMN":
                kind = "N" if line[0] == "N" else "A"
                target = line.split("\t")[1].split(" ")[1]
                others[(KEPT if target[0] == "T" else IGNORED)[kind]] += 1
                continue
            if line[0] != "T":
                others[KINDS[line[0]]] += 1
                continue
            _, type_offsets, written = line.split("\t")
            label, offsets = type_offsets.split(" ", 1)
            pieces = tuple((int(a), int(b)) for a, b in (p.split() for p in offsets.split(";")))
            assert " ".join(text[a:b] for a, b in pieces) == written  # the samples are consistent
            entities.append((label, pieces))
        docs.append(entities)
    return docs, others


def read(gold: Path, pred: Path | None = None) -> tuple[nerve.SpanArray, nerve.SpanArray]:
    if pred is None:
        g, none = read_brat(str(gold))
        assert none is None
        return g, g
    return read_span_columns(str(gold), str(pred), fmt="brat")


def pieces_of(spans: nerve.SpanArray) -> list[list[tuple[str, tuple[tuple[int, int], ...]]]]:
    out: list[list[tuple[str, tuple[tuple[int, int], ...]]]] = [[] for _ in range(spans.n_docs)]
    f = spans.fragments
    for k, span in enumerate(spans):
        if f is None:
            pieces: tuple[tuple[int, int], ...] = ((span.start, span.end),)
        else:
            lo, hi = int(f.offsets[k]), int(f.offsets[k + 1])
            pieces = tuple(zip(f.start[lo:hi].tolist(), f.end[lo:hi].tolist(), strict=True))
        out[span.seq].append((span.label, pieces))
    return out


@pytest.mark.parametrize("sample", ["news", "dkpro"])
def test_real_samples_against_a_naive_parse(sample: str) -> None:
    expected, others = naive(DATA / sample)
    gold, _ = read(DATA / sample, DATA / sample)
    assert gold.n_docs == len(expected)
    assert pieces_of(gold) == expected
    discontinuous = sum(len(p) > 1 for doc in expected for _, p in doc)
    if discontinuous:
        others[DISCONTINUOUS] = discontinuous
    assert dict(gold.notes) == dict(others)
    assert (gold.fragments is not None) == (discontinuous > 0)
    assert sniff_format(str(DATA / sample)) == "brat"
    assert sniff_format(str(DATA / sample / "110-note_annotation.ann")) == "brat"


def test_real_sample_counts() -> None:
    """The figures in tests/data/formats/README.md."""
    news, _ = read(DATA / "news")
    assert (len(news), news.n_docs) == (119, 10)
    assert news.notes == {
        "attributes (kept as span metadata)": 5,
        "ignored annotator notes": 4,
        "ignored attributes (of events)": 6,
        "ignored equivalences": 2,
        "ignored events": 23,
        "ignored relations": 8,
        "normalizations (kept as span metadata)": 1,
    }
    dkpro, _ = read(DATA / "dkpro")
    assert dkpro.notes == {
        "ignored annotator notes": 3,
        "ignored events": 10,
        "ignored relations": 1,
        DISCONTINUOUS: 2,
    }
    assert dkpro.fragments is not None
    assert (len(dkpro), int((dkpro.fragments.offsets[1:] - dkpro.fragments.offsets[:-1] > 1).sum())) == (
        14,
        2,
    )


def test_scoring_a_sample_against_itself_reports_what_was_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(DATA / "dkpro"), str(DATA / "dkpro"), "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"]["micro"]["tp"] == out["exact"]["micro"]["gold"] == 14
    assert out["notes"]["gold"] == out["notes"]["pred"]
    assert out["notes"]["gold"]["ignored events"] == 10
    assert "spans brat" in out["signature"]


def test_document_texts_and_instances(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts = document_texts(str(DATA / "dkpro"))
    assert texts[1] == "This is\nan other test.\n"
    pred = tmp_path / "pred"
    pred.mkdir()
    for ann in (DATA / "dkpro").glob("*.ann"):
        (pred / ann.name).write_text(
            ann.read_text(encoding="utf-8").replace("Token 0 4", "Other 0 4"), "utf-8"
        )
    assert (
        main(["score", str(DATA / "dkpro"), str(pred), "--instances", "-", "--instances-format", "jsonl"])
        == 0
    )
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert any(r.get("gold_text") == "This" for r in rows), rows


# --------------------------------------------------------------------------- hostile input


def brat(directory: Path, name: str, text: str | bytes | None, ann: str | bytes) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    if text is not None:
        (directory / f"{name}.txt").write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    path = directory / f"{name}.ann"
    path.write_bytes(ann.encode("utf-8") if isinstance(ann, str) else ann)
    return path


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_emoji_before_a_span_counts_one_character(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "😀 John met 😀😀 Mary Ann"
    g = brat(tmp_path / "g", "d", text, "T1\tPER 2 6\tJohn\nT2\tPER 14 18\tMary\n")
    p = brat(tmp_path / "p", "d", text, "T1\tPER 3 7\tJohn\nT2\tPER 17 21\tMary\n")  # UTF-16 units
    assert main(["score", str(g), str(g)]) == 0
    err = fails(capsys, str(g), str(p))
    assert f"{p}:1: entity T1:" in err
    assert "has 'John' at 3 7, not 'John'" not in err
    assert "has 'ohn ' at 3 7, not 'John'" in err


def test_crlf_counts_two_characters_or_one_as_brat_does(tmp_path: Path) -> None:
    text = "Line one\r\nJohn\r\nMary\r\n"
    raw = brat(tmp_path / "raw", "d", text, "T1\tPER 10 14\tJohn\nT2\tPER 16 20\tMary\n")
    one = brat(tmp_path / "one", "d", text, "T1\tPER 9 13\tJohn\r\nT2\tPER 14 18\tMary\r\n")
    g, p = read(raw.parent, one.parent)
    assert pieces_of(g) == pieces_of(p) == [[("PER", ((10, 14),)), ("PER", ((16, 20),))]]
    assert g.notes == {}
    assert p.notes == {"documents with offsets counting CR LF as one character": 1}
    result = nerve.score(str(raw.parent), str(one.parent), input_format="brat")
    assert (result.micro.tp, result.notes["pred"]) == (2, dict(p.notes))


def test_a_byte_order_mark_is_a_character(tmp_path: Path) -> None:
    text = "\ufeffJohn"
    counted = brat(tmp_path / "a", "d", text, "\ufeffT1\tPER 1 5\tJohn\n")  # a BOM in the .ann is no line
    skipped = brat(tmp_path / "b", "d", text, "T1\tPER 0 4\tJohn\n")
    g, p = read(counted.parent, skipped.parent)
    assert pieces_of(g) == pieces_of(p) == [[("PER", ((1, 5),))]]
    assert p.notes == {"documents with offsets not counting the byte order mark": 1}


def test_texts_as_brat_reads_them(tmp_path: Path) -> None:
    """More may follow an entity's text after white space; an entity without a text is not checked."""
    ann = "T1\tPER 0 4\tJohn\tsome comment\nT2\tPER 9 13\t\nT3\tPER 9 13\n"
    gold, _ = read(brat(tmp_path, "d", "John and Mary", ann).parent)
    assert gold.documents() == [[(0, 4, "PER"), (9, 13, "PER"), (9, 13, "PER")]]
    assert gold.notes == {"entities without text (not checked)": 2}


def test_an_empty_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    brat(tmp_path / "g", "a", "", "")
    brat(tmp_path / "g", "b", "Mary", "T1\tPER 0 4\tMary\n")
    brat(tmp_path / "p", "a", None, "")
    brat(tmp_path / "p", "b", None, "")
    assert main(["score", str(tmp_path / "g"), str(tmp_path / "p"), "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["documents"], out["exact"]["micro"]["gold"], out["exact"]["micro"]["tp"]) == (2, 1, 0)


@pytest.mark.parametrize(
    ("ann", "where", "detail"),
    [
        ("T1\tPER 0 4\tJohn\nT2\tPER\tMary\n", ":2:", "malformed entity: no offsets in 'T2\\tPER\\tMary'"),
        ("T1\tPER 0 4\tJohn\nT2\tPER a b\tMary\n", ":2:", "malformed entity"),
        ("T1\tPER 9 13;0 4\tMary John\n", ":1:", "starts before the piece before it ends"),
        ("T1\tPER 0 4;2 13\tJohn n and Mary\n", ":1:", "starts before the piece before it ends"),
        ("T1\tPER 4 4\t\n", ":1:", "piece 4 4 is empty or reversed"),
        ("T1\tPER 9 14\tMary\n", ":1:", "offset 14 is beyond the text (13 characters in "),
        ("T1\tPER 0 4\tJohn\nT2\tPER 9 13\tMarie\n", ":2:", "has 'Mary' at 9 13, not 'Marie'"),
        ("T1\tPER 0 4;9 13\tJohnMary!\n", ":1:", "has 'John Mary' at 0 4;9 13, not 'JohnMary!'"),
        ("T1\tPER 0 4\tJohn\nX1\tfoo\n", ":2:", "unknown annotation 'X1'"),
        ("T1\tPER 0 4\tJohn\nT1\tPER 9 13\tMary\n", ":2:", "id T1 is used twice"),
        (b"T1\tPER 0 4\tJ\xe9hn\n", ":1:", "byte 0xe9 is not UTF-8"),
    ],
)
def test_bad_input_names_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ann: str | bytes, where: str, detail: str
) -> None:
    path = brat(tmp_path / "g", "d", "John and Mary", ann)
    err = fails(capsys, str(path), str(path))
    assert f"{path}{where}" in err
    assert detail in err


def test_files_that_do_not_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lonely = brat(tmp_path / "g", "d", None, "T1\tPER 0 4\tJohn\n")
    assert f"{lonely}: has no d.txt beside it" in fails(capsys, str(lonely), str(lonely))
    g = brat(tmp_path / "g2", "a", "John", "")
    brat(tmp_path / "g2", "b", "Mary", "")
    brat(tmp_path / "p2", "a", None, "")
    err = fails(capsys, str(g.parent), str(tmp_path / "p2"))
    assert f"{tmp_path / 'g2' / 'b.ann'}: has no predicted counterpart" in err
    extra = brat(tmp_path / "p2", "c", None, "")
    brat(tmp_path / "p2", "b", None, "")
    assert f"{extra}: has no gold counterpart" in fails(capsys, str(g.parent), str(tmp_path / "p2"))
    (tmp_path / "g3").mkdir()
    (tmp_path / "g3" / "x.txt").write_text("x", encoding="utf-8")
    assert "x.txt: has no .ann beside it" in fails(capsys, str(tmp_path / "g3"))
    other = brat(tmp_path / "p4", "a", "Jane", "")
    brat(tmp_path / "p4", "b", None, "")
    assert "differs from the gold text" in fails(capsys, str(g.parent), str(other.parent))
    assert "is a file but the gold" in fails(capsys, str(g.parent), str(other))
    (tmp_path / "empty").mkdir()
    assert "holds no .ann files" in fails(capsys, str(tmp_path / "empty"), str(g.parent))


def test_offsets_do_not_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = brat(tmp_path, "d", "John", "T1\tPER 0 4\tJohn\n")
    err = fails(capsys, str(path), str(path), "--offsets", "char")
    assert "--offsets: applies to json, jsonl, doccano, spacy-jsonl and labelstudio span files" in err
    assert "reads as brat" in err


def test_validate_collects_every_problem(tmp_path: Path) -> None:
    brat(tmp_path / "g", "a", "John", "T1\tPER 0 4\tJane\n")
    brat(tmp_path / "g", "b", "Mary", "T1\tPER 0 9\tMary\n")
    brat(tmp_path / "p", "a", None, "")
    problems = validate_spans(str(tmp_path / "g"), str(tmp_path / "p"), fmt="brat")
    assert [(Path(p.source).name, p.line) for p in problems] == [("b.ann", None), ("a.ann", 1), ("b.ann", 1)]


# --------------------------------------------------------------------------- scores


def test_exact_match_needs_every_fragment(tmp_path: Path) -> None:
    text = "left and right hand"
    g = brat(tmp_path / "g", "d", text, "T1\tPart 0 4;15 19\tleft hand\nT2\tPart 9 19\tright hand\n")
    p = brat(tmp_path / "p", "d", text, "T1\tPart 0 8;15 19\tleft and hand\nT2\tPart 9 19\tright hand\n")
    same_envelope = nerve.score(str(g.parent), str(p.parent), input_format="brat")
    assert (same_envelope.micro.tp, same_envelope.micro.fp, same_envelope.micro.fn) == (1, 1, 1)
    contiguous = brat(
        tmp_path / "c", "d", text, "T1\tPart 0 19\tleft and right hand\nT2\tPart 9 19\tright hand\n"
    )
    assert nerve.score(str(g.parent), str(contiguous.parent), input_format="brat").micro.tp == 1
    assert nerve.score(str(g.parent), str(g.parent), input_format="brat").micro.tp == 2


ALPHABET = "ab c😀é"
Entity = tuple[str, tuple[tuple[int, int], ...]]


@st.composite
def documents(draw: st.DrawFn) -> tuple[list[str], list[list[Entity]], list[list[Entity]]]:
    """Texts, and gold and predicted entities (some discontinuous) drawn from one pool per text."""
    texts = draw(st.lists(st.text(ALPHABET, max_size=20), min_size=1, max_size=3))
    gold, pred = [], []
    for text in texts:
        pool: list[Entity] = []
        if len(text) > 0:
            for _ in range(draw(st.integers(0, 4))):
                cuts = sorted(draw(st.sets(st.integers(0, len(text)), min_size=2, max_size=6)))
                pairs = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False)]
                label = draw(st.sampled_from("XY"))
                pool.append((label, tuple(pairs)))
                if len(pairs) > 1:  # the same envelope, other pieces: equal only if fragments are ignored
                    pool.append((label, ((pairs[0][0], pairs[-1][1]),)))
                    pool.append((label, ((pairs[0][0], pairs[-2][1] + 1), *pairs[-1:])))
        pick = st.lists(st.sampled_from(pool), max_size=5) if pool else st.just([])
        gold.append(draw(pick))
        pred.append(draw(pick))
    return texts, gold, pred


def write(directory: Path, texts: list[str], docs: list[list[Entity]], with_text: bool) -> None:
    directory.mkdir()
    for i, (text, entities) in enumerate(zip(texts, docs, strict=True)):
        lines = []
        for k, (label, pieces) in enumerate(entities, start=1):
            offsets = ";".join(f"{a} {b}" for a, b in pieces)
            lines.append(f"T{k}\t{label} {offsets}\t{' '.join(text[a:b] for a, b in pieces)}\n")
        if with_text:
            (directory / f"doc{i:02}.txt").write_text(text, encoding="utf-8", newline="")
        (directory / f"doc{i:02}.ann").write_text("".join(lines), encoding="utf-8", newline="")


@settings(max_examples=150, deadline=None)
@given(documents())
def test_scores_equal_a_naive_multiset_count(
    drawn: tuple[list[str], list[list[Entity]], list[list[Entity]]],
) -> None:
    texts, gold, pred = drawn
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp) / "g", texts, gold, True)
        write(Path(tmp) / "p", texts, pred, False)
        result = nerve.score(str(Path(tmp) / "g"), str(Path(tmp) / "p"))
    g = Counter((i, e) for i, doc in enumerate(gold) for e in doc)
    p = Counter((i, e) for i, doc in enumerate(pred) for e in doc)
    for label in "XY":
        tp = sum(min(n, p[k]) for k, n in g.items() if k[1][0] == label)
        found = result.exact.counts.get(label)
        counted = (found.tp, found.fp, found.fn) if found is not None else (0, 0, 0)
        gold_n = sum(n for k, n in g.items() if k[1][0] == label)
        pred_n = sum(n for k, n in p.items() if k[1][0] == label)
        assert counted == (tp, pred_n - tp, gold_n - tp)


def test_sniffing_keeps_other_files_apart(tmp_path: Path) -> None:
    assert sniff_format(str(tmp_path)) == "brat"
    assert re.fullmatch("conll", sniff_format(str(tmp_path / "missing.txt")))


def test_notes_add_up_when_results_merge() -> None:
    one = nerve.score(str(DATA / "dkpro"), str(DATA / "dkpro"))
    both = one + one
    assert both.notes["gold"]["ignored events"] == 20
    assert both.to_dict()["notes"]["pred"]["ignored relations"] == 2
    assert "notes" not in nerve.score([["B-PER"]], [["B-PER"]]).to_dict()


def test_attributes_and_normalizations_kept_as_metadata() -> None:
    """brat/news: every attribute and normalisation of an entity, by a line-by-line parse."""
    news, _ = read(DATA / "news")
    expected: dict[str, dict[tuple[int, int, int], str]] = {}
    for d, ann in enumerate(sorted((DATA / "news").glob("*.ann"))):
        lines = ann.read_text(encoding="utf-8").splitlines()
        where = {}
        for line in lines:
            if line.startswith("T"):
                t, rest, _ = line.split("\t")
                where[t] = (d, int(rest.split(" ")[1]), int(rest.split(" ")[2].split(";")[0]))
        for line in lines:
            fields = line.split("\t")
            words = fields[1].split(" ") if len(fields) > 1 else []
            if line[:1] in "AM" and line and words[1].startswith("T"):
                value = words[2] if len(words) > 2 else "true"
                expected.setdefault(words[0], {})[where[words[1]]] = value
            elif line.startswith("N") and words[1].startswith("T"):
                db, entry = words[2].split(":", 1)
                expected.setdefault("norm:" + db, {})[where[words[1]]] = entry
    assert news.attributes is not None
    got = {
        name: {
            (int(news.doc[i]), int(news.start[i]), int(news.end[i])): v
            for i, v in enumerate(column.tolist())
            if v is not None
        }
        for name, column in news.attributes.items()
    }
    assert got == expected
    assert got["norm:Wikipedia"]
    assert got["Mention"]
    assert got["Individual"]
    kept = news.select(news.attributes["Mention"] != None)  # noqa: E711
    assert kept.attributes is not None
    assert kept.attributes["Mention"].tolist() == ["Name", "Nominal"]


@pytest.mark.parametrize(
    ("ann", "line", "needle"),
    [
        ("T1\tPER 0 4\tJohn\nA1\tNegated T9\n", 2, "names T9, which is no entity or event"),
        ("T1\tPER 0 4\tJohn\nR1\tRel Arg1:T1 Arg2:T1\nA1\tNegated R1\n", 3, "names R1"),
        ("T1\tPER 0 4\tJohn\nN1\tReference T2 Wiki:1\tJ\n", 2, "names T2"),
        ("T1\tPER 0 4\tJohn\nA1\tNegated\n", 2, "malformed 'A1\\tNegated'; expected A1<TAB>NAME ID"),
        ("T1\tPER 0 4\tJohn\nN1\tReference T1 nocolon\n", 2, "expected N1<TAB>Reference ID RESOURCE:ENTRY"),
    ],
)
def test_attribute_errors_name_file_and_line(tmp_path: Path, ann: str, line: int, needle: str) -> None:
    (tmp_path / "d.txt").write_text("John went.", encoding="utf-8")
    (tmp_path / "d.ann").write_text(ann, encoding="utf-8")
    with pytest.raises(nerve.InputError) as err:
        read_brat(str(tmp_path))
    assert err.value.line == line
    assert str(tmp_path / "d.ann") in str(err.value)
    assert needle in str(err.value)


def test_attributes_of_events_and_relations_counted(tmp_path: Path) -> None:
    (tmp_path / "d.txt").write_text("John went.", encoding="utf-8")
    lines = ["T1\tPER 0 4\tJohn", "T2\tGo 5 9\twent", "E1\tGo:T2 Agent:T1", "R1\tRel Arg1:T1 Arg2:T2"]
    lines += ["A1\tNegated E1", "M2\tConfidence T1 High", "N1\tReference R1 W:1\tx"]
    lines += ["N2\tReference T1 W:2\tJ", "N3\tReference T1 W:3\tJ"]
    (tmp_path / "d.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    spans, _ = read_brat(str(tmp_path))
    assert spans.attributes is not None
    assert {k: v.tolist() for k, v in spans.attributes.items()} == {
        "Confidence": ["High", None],
        "norm:W": ["2 3", None],
    }
    assert spans.notes["ignored attributes (of events)"] == 1
    assert spans.notes["ignored normalizations (of events and relations)"] == 1
    assert spans.notes["attributes (kept as span metadata)"] == 1
    assert spans.notes["normalizations (kept as span metadata)"] == 2
