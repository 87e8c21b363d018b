"""Slices (`nerve.analysis.slices`): P/R/F1 by length, type, sentence length, document, surface
frequency, seen in training and document attributes.

Every slice is checked against a naive per-entity implementation (sets and Counters, one entity at
a time) on hypothesis corpora and on WikiGold with spaCy's predictions; the bands add up to the
exact-match counts; the sidecar files' mistakes are exit status 2 naming file and line.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from nerve.analysis.aligned import Aligned
from nerve.analysis.sidecars import read_meta
from nerve.analysis.slices import Slices, slice_unit_counts
from nerve.analysis.summary import Analysis
from nerve.analysis.surfaces import TrainReading, read_train, surface_ids
from nerve.api import score_aligned
from nerve.cli import main
from nerve.errors import NerveError, OptionError
from nerve.matching.exact import exact_matched
from nerve.model.spans import SpanArray

NEWS = str(Path(__file__).resolve().parents[2] / "examples" / "news.conll")
ALL = ("length", "type", "sentence_length", "document", "frequency", "seen", "meta")
WORDS = ("a", "b", "Ab", "é")
TYPES = ("PER", "LOC", "X")

Entity = tuple[int, int, int, int, str, tuple[str, ...], int]  # doc, sent, start, end, type, words, sent len
Sentence = tuple[list[str], list[tuple[int, int, str]], list[tuple[int, int, str]]]

# --------------------------------------------------------------------------- the naive reference


def length_band(n: int) -> str:
    return str(n) if n < 5 else "5+"


def sentence_band(n: int) -> str:
    return "1-10" if n <= 10 else "11-20" if n <= 20 else "21-40" if n <= 40 else "41+"


def frequency_band(n: int) -> str:
    return "0" if n == 0 else "1" if n == 1 else "2-5" if n <= 5 else "6-20" if n <= 20 else "21+"


def entities(docs: list[list[Sentence]], side: int) -> list[Entity]:
    out = []
    for d, doc in enumerate(docs):
        for s, (words, *sides) in enumerate(doc):
            for start, end, label in sides[side]:
                out.append((d, s, start, end, label, tuple(words[start:end]), len(words)))
    return out


def naive_slices(
    docs: list[list[Sentence]],
    train: set[tuple[tuple[str, ...], str]],
    meta: dict[int, dict[str, str]],
    doc: int | None = None,
) -> dict[str, dict[str, tuple[int, int, int]]]:
    """Each slice's non-empty bands as (gold, pred, tp), one entity at a time (of ``doc`` alone)."""
    gold, pred = entities(docs, 0), entities(docs, 1)
    matched = {e[:5] for e in gold} & {e[:5] for e in pred}
    freq = Counter(e[5] for e in gold)
    rules: dict[str, Any] = {
        "length": lambda e: length_band(e[3] - e[2]),
        "type": lambda e: e[4],
        "sentence_length": lambda e: sentence_band(e[6]),
        "document": lambda e: str(e[0]),
        "frequency": lambda e: frequency_band(freq[e[5]]),
        "seen": lambda e: "seen" if (e[5], e[4]) in train else "unseen",
    }
    for column in next(iter(meta.values()), {}):
        rules[f"meta:{column}"] = lambda e, c=column: meta[e[0]][c]
    out = {}
    for name, rule in rules.items():
        counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for e in gold:
            if doc is None or e[0] == doc:
                counts[rule(e)][0] += 1
                counts[rule(e)][2] += e[:5] in matched
        for e in pred:
            if doc is None or e[0] == doc:
                counts[rule(e)][1] += 1
        out[name] = {band: (g, p, t) for band, (g, p, t) in counts.items()}
    return out


def nonzero(rows: Any) -> dict[str, dict[str, tuple[int, int, int]]]:
    return {
        name: {b: (r.gold, r.pred, r.tp) for b, r in bands.items() if r.gold or r.pred}
        for name, bands in rows.items()
    }


# --------------------------------------------------------------------------- writing corpora


def tags(n: int, spans: list[tuple[int, int, str]]) -> list[str]:
    out = ["O"] * n
    for start, end, label in spans:
        out[start] = f"B-{label}"
        for i in range(start + 1, end):
            out[i] = f"I-{label}"
    return out


def merged_text(docs: list[list[Sentence]]) -> str:
    lines = []
    for doc in docs:
        lines += ["-DOCSTART- O O", ""]
        for words, g, p in doc:
            rows = zip(words, tags(len(words), g), tags(len(words), p), strict=True)
            lines += [*(" ".join(r) for r in rows), ""]
    return "\n".join(lines)


def train_text(sentences: list[tuple[list[str], list[tuple[int, int, str]]]]) -> str:
    lines = []
    for words, spans in sentences:
        lines += [*(f"{w} {t}" for w, t in zip(words, tags(len(words), spans), strict=True)), ""]
    return "\n".join(lines)


def meta_csv(meta: dict[int, dict[str, str]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    columns = list(next(iter(meta.values())))
    writer.writerow(["document", *columns])
    for d in sorted(meta, reverse=True):  # any order
        writer.writerow([d, *(meta[d][c] for c in columns)])
    return buf.getvalue()


@st.composite
def spans(draw: st.DrawFn, n: int) -> list[tuple[int, int, str]]:
    out, at = [], 0
    for gap, size, label in draw(
        st.lists(st.tuples(st.integers(0, 3), st.integers(1, 6), st.sampled_from(TYPES)))
    ):
        start = at + gap
        if start + size > n:
            break
        out.append((start, start + size, label))
        at = start + size
    return out


@st.composite
def sentences(draw: st.DrawFn) -> Sentence:
    n = draw(st.one_of(st.integers(1, 8), st.integers(9, 45)))
    words = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
    gold = draw(spans(n))
    pred = draw(
        st.one_of(st.just(gold), spans(n), st.lists(st.sampled_from(gold)).map(sorted) if gold else spans(n))
    )
    return words, gold, sorted(set(pred))


corpora = st.lists(st.lists(sentences(), min_size=1, max_size=4), min_size=1, max_size=5)
trains = st.lists(sentences().map(lambda s: (s[0], s[1])), max_size=6)


def score_files(
    root: Path,
    docs: list[list[Sentence]],
    train: list[tuple[list[str], list[tuple[int, int, str]]]],
    genres: list[str],
) -> tuple[nerve.Result, dict[str, dict[str, tuple[int, int, int]]]]:
    (root / "m.conll").write_text(merged_text(docs), encoding="utf-8")
    (root / "train.tsv").write_text(train_text(train), encoding="utf-8")
    meta = {d: {"genre": genres[d % len(genres)], "half": str(d < len(docs) / 2)} for d in range(len(docs))}
    (root / "meta.csv").write_text(meta_csv(meta), encoding="utf-8")
    result = nerve.score(
        root / "m.conll", slices=ALL, train=root / "train.tsv", meta=root / "meta.csv", delimiter="space"
    )
    seen = {(tuple(w[s:e]), t) for w, sp in train for s, e, t in sp}
    return result, naive_slices(docs, seen, meta)


def slices_of(result: nerve.Result) -> Slices:
    assert result.analysis is not None
    assert result.analysis.slices is not None
    return result.analysis.slices


def check_sums(result: nerve.Result) -> None:
    """Each slice's bands add up to the micro counts; the type slice is ``per_type``."""
    rows = slices_of(result).rows
    micro = result.micro
    for name, bands in rows.items():
        total = [sum(getattr(r, k) for r in bands.values()) for k in ("gold", "pred", "tp")]
        assert total == [micro.gold, micro.predicted, micro.tp], name
        for r in bands.values():
            assert r.precision == (r.tp / r.pred if r.pred else 0.0)
            assert r.recall == (r.tp / r.gold if r.gold else 0.0)
    per_type = {t: (s.gold, s.predicted, s.tp) for t, s in result.per_type.items()}
    assert {t: (r.gold, r.pred, r.tp) for t, r in rows["type"].items()} == per_type
    assert list(rows["type"]) == list(result.per_type)


# --------------------------------------------------------------------------- equivalence


@pytest.mark.slow
@given(
    corpora, trains, st.lists(st.sampled_from(["news", "web, blog", 'say "hi"', ""]), min_size=1, max_size=3)
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_slices_equal_a_naive_per_entity_count(
    docs: list[list[Sentence]], train: list[tuple[list[str], list[tuple[int, int, str]]]], genres: list[str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result, naive = score_files(Path(tmp), docs, train, genres)
    assert nonzero(slices_of(result).rows) == naive
    check_sums(result)


@given(corpora, trains)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_unit_counts_are_the_slices_of_each_unit(
    docs: list[list[Sentence]], train: list[tuple[list[str], list[tuple[int, int, str]]]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        result, _ = score_files(root, docs, train, ["x", "y"])
        _, aligned = score_aligned(root / "m.conll", delimiter="space")
        found = read_train(str(root / "train.tsv"), TrainReading(None, "begin"))
        meta = read_meta(str(root / "meta.csv"), aligned.n_docs)
    slices = slices_of(result)
    for name, bands in slices.rows.items():
        for unit in ("document", "sentence"):
            labels, matrix = slice_unit_counts(aligned, name, unit, train=found, meta=meta)
            assert labels == tuple(bands)
            assert matrix.shape == (aligned.n_units(unit), len(labels), 3)
            assert matrix.sum(axis=0).tolist() == [[r.gold, r.pred, r.tp] for r in bands.values()]
            assert np.array_equal(slices.unit_counts(aligned, name, unit)[1], matrix)
        _, by_doc = slice_unit_counts(aligned, name, "document", train=found, meta=meta)
        seen = {(tuple(w[s:e]), t) for w, sp in train for s, e, t in sp}
        for d in range(len(docs)):
            alone = naive_slices(docs, seen, {}, doc=d)
            if name in alone:
                got = {b: tuple(c) for b, c in zip(labels, by_doc[d].tolist(), strict=True) if any(c)}
                assert got == alone[name], (name, d)


def read_conll(path: Path, columns: int) -> list[list[tuple[list[str], list[list[str]]]]]:
    """Documents of sentences of (words, tag columns), read line by line."""
    docs: list[list[tuple[list[str], list[list[str]]]]] = [[]]
    words: list[str] = []
    cols: list[list[str]] = [[] for _ in range(columns)]

    def end() -> None:
        nonlocal words, cols
        if words:
            docs[-1].append((words, cols))
        words, cols = [], [[] for _ in range(columns)]

    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if not fields:
            end()
        elif fields[0] == "-DOCSTART-":
            end()
            if docs[-1]:
                docs.append([])
        else:
            words.append(fields[0])
            for i in range(columns):
                cols[i].append(fields[-columns + i])
    end()
    return docs if docs[-1] else docs[:-1]  # a -DOCSTART- line at the end starts no document


def decoded(tag_lists: list[list[str]], scheme: str) -> list[list[tuple[int, int, str]]]:
    out: list[list[tuple[int, int, str]]] = [[] for _ in tag_lists]
    for span in nerve.decode(tag_lists, scheme=scheme):
        out[span.seq].append((span.start, span.end, span.label))
    return out


def test_slices_of_wikigold_equal_the_naive_count(shared_data: Path, tmp_path: Path) -> None:
    merged = shared_data / "wikigold/predictions/spacy-en_core_web_sm-3.6.0.conll-labels.gold-pred.txt"
    gold_file = shared_data / "wikigold/wikigold.conll.txt"
    train_docs = read_conll(gold_file, 1)[:40]  # the first 40 articles as a training set
    (tmp_path / "train.txt").write_text(
        "\n\n".join(
            "\n".join(f"{w} {t}" for w, t in zip(ws, c[0], strict=True))
            for doc in train_docs
            for ws, c in doc
        )
        + "\n",
        encoding="utf-8",
    )
    docs_raw = read_conll(merged, 2)
    meta = {d: {"part": "first" if d < 40 else "rest", "parity": str(d % 2)} for d in range(len(docs_raw))}
    (tmp_path / "meta.json").write_text(json.dumps([{"id": d, **v} for d, v in meta.items()], indent=1))
    result = nerve.score(merged, slices=ALL, train=tmp_path / "train.txt", meta=tmp_path / "meta.json")
    scheme = result.settings.scheme
    docs: list[list[Sentence]] = []
    for doc in docs_raw:
        gold = decoded([c[0] for _, c in doc], scheme)
        pred = decoded([c[1] for _, c in doc], scheme)
        docs.append([(ws, g, p) for (ws, _), g, p in zip(doc, gold, pred, strict=True)])
    train = set()
    for doc in train_docs:
        for (ws, _), sp in zip(doc, decoded([c[0] for _, c in doc], scheme), strict=True):
            train |= {(tuple(ws[s:e]), t) for s, e, t in sp}
    assert result.documents == len(docs) == 145
    rows = nonzero(slices_of(result).rows)
    assert rows == naive_slices(docs, train, meta)
    assert set(rows["seen"]) == {"seen", "unseen"}
    assert len(rows["frequency"]) == 5
    check_sums(result)


# --------------------------------------------------------------------------- the parts


def test_surface_ids_group_equal_word_sequences() -> None:
    words = np.array([0, 1, 0, 1, 2, 0, 1], dtype=np.int64)
    start = np.array([0, 2, 5, 0, 1, 4, 3], dtype=np.int64)
    end = np.array([2, 4, 7, 1, 2, 7, 4], dtype=np.int64)
    ids = surface_ids(words, start, end).tolist()
    surfaces = [tuple(words[s:e].tolist()) for s, e in zip(start.tolist(), end.tolist(), strict=True)]
    assert all((ids[i] == ids[j]) == (surfaces[i] == surfaces[j]) for i in range(7) for j in range(7))


def test_duplicated_spans_match_once_each() -> None:
    def spans(rows: list[tuple[int, int, int, int]]) -> SpanArray:
        a = np.array(rows, dtype=np.int64).reshape(-1, 4)
        return SpanArray(a[:, 0], a[:, 1], a[:, 2], a[:, 3], ("A", "B"), 2)

    gold = spans([(0, 0, 2, 0), (0, 0, 2, 0), (1, 3, 4, 1), (0, 0, 2, 1)])
    pred = spans([(0, 0, 2, 0), (1, 3, 4, 1), (1, 3, 4, 1), (0, 0, 2, 0), (0, 0, 2, 0)])
    g, p = exact_matched(gold, pred)
    assert g.tolist() == [True, True, True, False]
    assert p.tolist() == [True, True, False, True, False]


def test_span_files_slice_by_offsets_and_refuse_token_slices(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    docs = [
        {"gold": [[0, 3, "A"], [0, 3, "A"], [5, 6, "B"]], "pred": [[0, 3, "A"], [5, 12, "B"]]},
        {"gold": [[1, 2, "A"]], "pred": [[1, 2, "B"]]},
    ]
    rows = [
        {
            "gold": [dict(zip(("start", "end", "label"), s, strict=True)) for s in d["gold"]],
            "pred": [dict(zip(("start", "end", "label"), s, strict=True)) for s in d["pred"]],
        }
        for d in docs
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = nerve.score(path, slices="length,type,document")
    check_sums(result)
    found = slices_of(result)
    assert found.length_unit == "offsets"
    assert found.to_dict()["slices_length_unit"] == "offsets"
    assert nonzero(found.rows)["length"] == {"1": (2, 1, 0), "3": (2, 1, 1), "5+": (0, 1, 0)}
    assert nonzero(found.rows)["document"] == {"0": (3, 2, 1), "1": (1, 1, 0)}
    for name in ("sentence_length", "frequency"):
        with pytest.raises(OptionError, match=f"slices: {name} needs"):
            nerve.score(path, slices=name)


def test_to_dict_is_the_json_contract(tmp_path: Path) -> None:
    result = nerve.score(NEWS, slices="length,type")
    d = result.to_dict()
    assert set(d["slices"]) == {"length", "type"}
    assert list(d["slices"]["length"]) == ["1", "2", "3", "4", "5+"]
    assert set(d["slices"]["type"]["PER"]) == {"gold", "pred", "tp", "precision", "recall", "f1"}
    assert d["slices_length_unit"] == "tokens"


def test_analyses_with_slices_do_not_merge() -> None:
    result = nerve.score(NEWS, slices="document")
    assert result.analysis is not None
    with pytest.raises(NerveError, match="slices"):
        result.analysis.merge(result.analysis)
    with pytest.raises(NerveError, match="slices"):
        Analysis().merge(result.analysis)


@pytest.mark.parametrize("output", ["table", "markdown", "latex", "csv", "json"])
def test_every_output_format_shows_the_slices(capsys: pytest.CaptureFixture[str], output: str) -> None:
    assert main(["score", NEWS, "--slices", "length,document", "-o", output]) == 0
    out = capsys.readouterr().out
    if output == "json":
        assert json.loads(out)["slices"]["document"]["1"]["gold"] == 8
    elif output == "csv":
        section = out.split("# slices\n")[1].split("\n\n")[0]
        table = list(csv.DictReader(io.StringIO(section)))
        assert [r["band"] for r in table if r["slice"] == "document"] == ["0", "1"]
        assert {r["gold"] for r in table if r["slice"] == "document"} == {"5", "8"}
    else:
        assert "length (tokens)" in out.lower()
        assert "5+" in out


# --------------------------------------------------------------------------- options and bad input


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["score", NEWS, *args])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--slices", "length,colour"], "--slices: expected slices among length, type"),
        (["--slices", "seen"], "--slices: seen needs a training file: give --train FILE"),
        (["--slices", "meta"], "--slices: meta needs a sidecar of document attributes: give --meta FILE"),
        (["--slices", "meta:genre"], "--slices: meta:genre needs a sidecar"),
        (["--train", NEWS], "--train: applies to the seen slice: add --slices seen"),
        (["--slices", "length", "--meta", "m.csv"], "--meta: applies to the meta slices: add --slices meta"),
    ],
)
def test_options_are_refused_without_what_they_need(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    code, err = run(capsys, *args)
    assert code == 2, err
    assert fragment in err


def test_python_spells_the_options_as_arguments() -> None:
    with pytest.raises(OptionError, match=r"^train: applies to the seen slice: add slices='seen'"):
        nerve.score(NEWS, train=NEWS)
    with pytest.raises(OptionError, match=r"^slices: seen needs a training file: give train='FILE'"):
        nerve.score(NEWS, slices=["seen"])


def test_a_meta_attribute_that_is_not_there_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "m.csv").write_text("doc,genre\n0,a\n1,b\n")
    code, err = run(capsys, "--slices", "meta:topic", "--meta", str(tmp_path / "m.csv"))
    assert code == 2
    assert "--slices: " in err
    assert "has no attribute 'topic'; it has genre" in err


META_MISTAKES = [
    ("m.json", '[{"doc": 0, "g": 1},\n {"doc": 1 "g": 2}]', "m.json:2: is not valid JSON"),
    (
        "m.json",
        '[{"doc": 0, "g": 1},\n {"doc": 7, "g": 2}]',
        "m.json:2: no document 7: documents are numbered 0 to 1",
    ),
    ("m.json", '[{"doc": 0, "g": 1},\n {"doc": "one", "g": 2}]', 'm.json:2: no document "one"'),
    (
        "m.json",
        '[{"doc": 0, "g": 1},\n {"doc": 0, "g": 2}]',
        "m.json:2: document 0 is given twice (first on line 1)",
    ),
    (
        "m.json",
        '[{"doc": 0, "g": 1},\n\n {"g": 2}]',
        "m.json:3: expected the document's id under one of document, doc, id",
    ),
    (
        "m.json",
        '[{"doc": 0, "g": 1},\n {"doc": 1}]',
        "m.json:2: expected the attributes the other entries have; 'g'",
    ),
    (
        "m.json",
        '[{"doc": 0, "g": 1},\n {"doc": 1, "g": [2]}]',
        "m.json:2: expected a string, number, boolean or null",
    ),
    (
        "m.json",
        '{"0": {"g": 1}\n}',
        "m.json:2: expected an entry for each of the 2 documents, but document 1 has none",
    ),
    ("m.json", '{"0": {"g": 1},\n "1": 5}', "m.json:2: expected an object of attributes"),
    ("m.json", '"text"', "m.json:1: expected a list of objects or an object keyed by document id"),
    ("m.jsonl", '{"id": 0, "g": 1}\n{"id": 1, "g": 1', "m.jsonl:2: is not valid JSON"),
    ("m.csv", "doc,g\n0,x\n1,y,z\n", "m.csv:3: expected 2 fields as the header has, but got 3"),
    ("m.csv", "name,g\n0,x\n1,y\n", "m.csv:1: expected a column named one of document, doc, id"),
    ("m.csv", "doc,g\n0,x\n2,y\n", "m.csv:3: no document 2"),
    (
        "m.csv",
        "doc,g\n1,x\n",
        "m.csv:2: expected an entry for each of the 2 documents, but document 0 has none",
    ),
    ("m.csv", 'doc,g\n0,"x\n1,y\n', "m.csv:"),
    ("m.csv", "", "m.csv:1: expected a header row"),
]


@pytest.mark.parametrize(("name", "text", "fragment"), META_MISTAKES)
def test_bad_meta_files_are_exit_2_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, fragment: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, err = run(capsys, "--slices", "meta", "--meta", str(path))
    assert code == 2, err
    assert err.startswith(f"nerve: error: {tmp_path / fragment}"), err
    assert len(err.splitlines()) == 1


def test_good_meta_files_in_every_format(tmp_path: Path) -> None:
    variants = {
        "a.json": '[{"id": "1", "g": 2},\n{"id": 0, "g": true}]',
        "b.json": '{"1": {"g": 2}, "0": {"g": true}}',
        "c.jsonl": '{"doc": 1, "g": 2}\n\n{"doc": 0, "g": true}\n',
        "d.csv": "\ufeffg,document\n2,1\ntrue,0\n",
        "e.txt": "id,g\n1,2\n0,true\n",
    }
    for name, text in variants.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        result = nerve.score(NEWS, slices="meta", meta=tmp_path / name)
        assert nonzero(slices_of(result).rows) == {"meta:g": {"2": (8, 8, 6), "true": (5, 5, 3)}}, name


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("a\tB-PER\nb\n", "train.tsv:2: expected 2 columns as on line 1"),
        ("a\tB-PER\tx\nb\tI-PER\n", "train.tsv:2: expected 3 columns as on line 1"),
    ],
)
def test_bad_train_files_are_exit_2_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str
) -> None:
    path = tmp_path / "train.tsv"
    path.write_text(text, encoding="utf-8")
    code, err = run(capsys, "--slices", "seen", "--train", str(path))
    assert code == 2, err
    assert err.startswith(f"nerve: error: {tmp_path / fragment}"), err


def test_a_missing_train_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "--slices", "seen", "--train", str(tmp_path / "none.tsv"))
    assert code == 2
    assert str(tmp_path / "none.tsv") in err


def test_train_file_invalid_transitions_under_repair_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, corpus = tmp_path / "train.tsv", tmp_path / "c.conll"
    path.write_text("a\tO\nb\tI-PER\n", encoding="utf-8")
    corpus.write_text("a B-PER B-PER\nb I-PER O\n", encoding="utf-8")
    code = main(["score", str(corpus), "--slices", "seen", "--train", str(path), "--repair", "error"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"{path}:2: gold: invalid transition 'O' -> 'I-PER'"), err
    assert err.splitlines()[-1] == "nerve: error: 1 invalid transition for scheme IOB2 (--repair error)"


def test_seen_is_read_with_the_corpus_reading_options(tmp_path: Path) -> None:
    """A training entity with the corpus's (surface, type) is seen; another type or words are not."""
    (tmp_path / "c.conll").write_text("# c\nJohn B-PER B-PER\nlives O O\nin O O\nParis B-LOC B-PER\n")
    (tmp_path / "t.conll").write_text("# t\nParis B-LOC\nJohn B-LOC\n\nJohn B-PER\n")
    result = nerve.score(tmp_path / "c.conll", slices="seen", train=tmp_path / "t.conll", comments=True)
    assert nonzero(slices_of(result).rows)["seen"] == {"seen": (2, 1, 1), "unseen": (0, 1, 0)}


def test_aligned_type_is_what_slices_take() -> None:
    _, aligned = score_aligned(NEWS)
    assert isinstance(aligned, Aligned)
    labels, matrix = slice_unit_counts(aligned, "type", "document")
    assert labels == ("LOC", "MISC", "ORG", "PER")
    assert matrix.shape == (2, 4, 3)
