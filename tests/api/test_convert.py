"""`nerve convert`: round trips through every writable format, losses reported, the CLI's errors."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from nerve.api.convert import ConvertReport, convert
from nerve.errors import InputError, OptionError
from nerve.io.spans import SPAN_READERS, document_texts
from nerve.io.write.spans import write_brat
from nerve.io.write.tags import encode_tags, io_merges
from nerve.model.schemes import SCHEMES, TagFormat, encode_sequence
from nerve.model.spans import Fragments, SpanArray

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "tests" / "data" / "formats"
NEWS = ROOT / "examples" / "news.conll"
SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

Doc = tuple[list[str], list[tuple[int, int, str]]]


@st.composite
def flat_docs(draw: Any, nested: bool = False) -> list[Doc]:
    """Documents of word tokens with contiguous entities: flat, or (``nested``) overlapping too."""
    docs = []
    for _ in range(draw(st.integers(0, 4))):
        n = draw(st.integers(0, 12))
        words = draw(
            st.lists(st.sampled_from(["a", "bb", "C", "dé", "9", ",", "Étoile"]), min_size=n, max_size=n)
        )
        spans: list[tuple[int, int, str]] = []
        cuts = sorted(set(draw(st.lists(st.integers(0, n), max_size=8))))
        for s, e in itertools.pairwise(cuts):
            if draw(st.booleans()):
                spans.append((s, e, draw(st.sampled_from(["PER", "LOC", "B-X"]))))
        if nested and n:
            for _ in range(draw(st.integers(0, 3))):
                s = draw(st.integers(0, n - 1))
                e = draw(st.integers(s + 1, n))
                spans.append((s, e, draw(st.sampled_from(["PER", "ORG"]))))
        docs.append((words, spans))
    return docs


def _write_tokens_jsonl(path: Path, docs: list[Doc]) -> None:
    lines = [
        json.dumps({"tokens": w, "spans": [{"start": s, "end": e, "label": t} for s, e, t in spans]})
        for w, spans in docs
    ]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def _read_jsonl(path: Path) -> list[Doc]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        o = json.loads(line)
        out.append(
            (o.get("tokens", o.get("text")), sorted((x["start"], x["end"], x["label"]) for x in o["spans"]))
        )
    return out


def _sorted(docs: list[Doc]) -> list[Doc]:
    return [(w, sorted(spans)) for w, spans in docs]


# ------------------------------------------------------------------ the tag encoder against nerve's own


@SETTINGS
@given(flat_docs(), st.sampled_from(sorted(SCHEMES)))
def test_encode_tags_equals_encode_sequence(docs: list[Doc], scheme_name: str) -> None:
    """The column encoder writes every scheme's tags as `encode_sequence` does, one document a sentence."""
    scheme = SCHEMES[scheme_name]
    labels = ("PER", "LOC", "B-X")
    lengths = [len(w) for w, _ in docs]
    base = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    rows = [(base[d] + s, base[d] + e, labels.index(t)) for d, (_, sp) in enumerate(docs) for s, e, t in sp]
    start, end, label = (np.asarray([r[k] for r in rows], dtype=np.int64) for k in range(3))
    sentence = np.repeat(np.arange(len(docs)), lengths).astype(np.int64)
    merges = io_merges(start, end, label, sentence)
    if scheme_name == "IO" and merges:
        return  # IO cannot write these: `convert` counts them (test_io_merges_are_counted)
    kinds, types = encode_tags(start, end, label, int(base[-1]), sentence, scheme)
    from nerve.io.write.tags import tag_strings

    got = tag_strings(kinds, types, labels, scheme, TagFormat())
    fmt = TagFormat()
    want = [fmt.join(*pair) for (w, sp) in docs for pair in encode_sequence(sp, len(w), scheme)]
    assert got == want


# ------------------------------------------------------------------ round trips


@SETTINGS
@given(flat_docs(), st.sampled_from(sorted(SCHEMES)))
def test_conll_round_trip_every_scheme(tmp_path_factory: Any, docs: list[Doc], scheme: str) -> None:
    """Flat contiguous spans -> CoNLL in any scheme -> spans is the identity (IO: merges reported)."""
    tmp = tmp_path_factory.mktemp("conll")
    _write_tokens_jsonl(tmp / "in.jsonl", docs)
    report = convert(tmp / "in.jsonl", tmp / "out.conll", to="conll", scheme=scheme)
    back = convert(tmp / "out.conll", tmp / "back.jsonl", to="jsonl", from_scheme=scheme)
    assert back.repairs == {}
    n = sum(len(s) for _, s in docs)
    merged = [k for k in report.lost if "IO tags merge" in k]
    if merged:
        assert scheme == "IO"
        assert back.entities_read == n - report.lost[merged[0]]
        return
    assert report.lost == {}
    assert report.entities_written == n
    assert _read_jsonl(tmp / "back.jsonl") == _sorted(docs)


@SETTINGS
@given(flat_docs(), st.sampled_from(["brat", "spacy-jsonl"]))
def test_tokens_through_text_formats_and_back(tmp_path_factory: Any, docs: list[Doc], to: str) -> None:
    """Tokens -> text (brat, spaCy JSONL) -> CoNLL -> tokens: the same tokens and entities."""
    tmp = tmp_path_factory.mktemp("text")
    _write_tokens_jsonl(tmp / "in.jsonl", docs)
    middle = tmp / ("mid" if to == "brat" else "mid.jsonl")
    assert convert(tmp / "in.jsonl", middle, to=to).lost == {}
    if not docs and to == "brat":
        return  # an empty directory reads as no brat documents
    report = convert(middle, tmp / "out.conll", to="conll", input_format=to)
    assert report.lost == {}
    convert(tmp / "out.conll", tmp / "back.jsonl", to="jsonl")
    assert _read_jsonl(tmp / "back.jsonl") == _sorted(docs)


@SETTINGS
@given(flat_docs())
def test_text_to_conll_cuts_tokens_at_entity_edges(tmp_path_factory: Any, docs: list[Doc]) -> None:
    """Character offsets on token edges -> CoNLL: the regular expression's tokens, nothing widened."""
    tmp = tmp_path_factory.mktemp("chars")
    lines = []
    for words, spans in docs:
        starts = np.cumsum([0] + [len(w) + 1 for w in words])[:-1].tolist()
        text = " ".join(words)
        labels = [[starts[s], starts[e - 1] + len(words[e - 1]), t] for s, e, t in spans]
        lines.append(json.dumps({"text": text, "label": labels}))
    (tmp / "in.jsonl").write_text("".join(f"{line}\n" for line in lines))
    report = convert(tmp / "in.jsonl", tmp / "out.conll", to="conll", input_format="doccano")
    assert report.lost == {}
    convert(tmp / "out.conll", tmp / "back.jsonl", to="jsonl")
    assert _read_jsonl(tmp / "back.jsonl") == _sorted(docs)


@SETTINGS
@given(flat_docs(nested=True))
def test_jsonl_round_trip_keeps_nesting(tmp_path_factory: Any, docs: list[Doc]) -> None:
    """JSONL -> JSONL keeps every span, nested ones too."""
    tmp = tmp_path_factory.mktemp("jsonl")
    _write_tokens_jsonl(tmp / "in.jsonl", docs)
    report = convert(tmp / "in.jsonl", tmp / "out.jsonl", to="jsonl")
    assert report.lost == {}
    assert _read_jsonl(tmp / "out.jsonl") == _sorted(docs)


@SETTINGS
@given(flat_docs())
def test_bio_directory_round_trip(tmp_path_factory: Any, docs: list[Doc]) -> None:
    """Spans -> a BIO directory (one file per document) -> spans is the identity."""
    tmp = tmp_path_factory.mktemp("bio")
    _write_tokens_jsonl(tmp / "in.jsonl", docs)
    report = convert(tmp / "in.jsonl", tmp / "bio", to="bio")
    assert report.lost == {}
    assert sorted(os.listdir(tmp / "bio")) == [f"doc{i + 1:04d}.bio" for i in range(len(docs))]
    convert(tmp / "bio", tmp / "back.jsonl", to="jsonl", input_format=None if docs else "bio")
    assert _read_jsonl(tmp / "back.jsonl") == _sorted(docs)


#: brat metadata drawn for `text_docs`: binary, multi-valued, normalisations (two to one resource).
METADATA: dict[str, list[str | None]] = {
    "Negated": [None, "true"],
    "Confidence": [None, "High", "Low"],
    "norm:Wikipedia": [None, "534366", "12 7"],
}


@st.composite
def text_docs(draw: Any) -> tuple[list[str], SpanArray]:
    """Texts with nested, overlapping and discontinuous entities (character offsets)."""
    texts, rows, pieces = [], [], []
    metadata: dict[str, list[str | None]] = {}
    for d in range(draw(st.integers(1, 3))):
        text = draw(st.text(alphabet="ab c\nd", min_size=1, max_size=30))
        texts.append(text)
        n = len(text)
        for _ in range(draw(st.integers(0, 4))):
            cuts = sorted(set(draw(st.lists(st.integers(0, n), min_size=2, max_size=6))))
            if len(cuts) < 2:
                continue
            own = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False)]
            own = [p for i, p in enumerate(own) if i == 0 or p[0] > own[i - 1][1]]  # pieces apart
            rows.append((d, own[0][0], own[-1][1], draw(st.sampled_from(["PER", "ORG"]))))
            pieces.append(own)
            for name, values in METADATA.items():
                metadata.setdefault(name, []).append(draw(st.sampled_from(values)))
    labels = ("PER", "ORG")
    kept = {k: np.asarray(v, dtype=object) for k, v in sorted(metadata.items()) if any(v)}
    spans = SpanArray(
        np.asarray([r[0] for r in rows], dtype=np.int64),
        np.asarray([r[1] for r in rows], dtype=np.int64),
        np.asarray([r[2] for r in rows], dtype=np.int64),
        np.asarray([labels.index(r[3]) for r in rows], dtype=np.int64),
        labels,
        len(texts),
        fragments=Fragments(
            np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(np.int64),
            np.asarray([a for p in pieces for a, _ in p], dtype=np.int64),
            np.asarray([b for p in pieces for _, b in p], dtype=np.int64),
        ),
        attributes=kept or None,
    )
    return texts, spans


def _entities(spans: SpanArray) -> list[tuple[int, tuple[tuple[int, int], ...], str, tuple[Any, ...]]]:
    """Each entity as (document, pieces, type, its attributes), sorted."""
    f = spans.fragments
    attributes = spans.attributes or {}
    out = []
    for i, (d, s, e, k) in enumerate(zip(spans.doc, spans.start, spans.end, spans.label, strict=True)):
        pieces = ((int(s), int(e)),)
        if f is not None:
            lo, hi = int(f.offsets[i]), int(f.offsets[i + 1])
            pieces = tuple(zip(f.start[lo:hi].tolist(), f.end[lo:hi].tolist(), strict=True))
        held = tuple((name, c[i]) for name, c in sorted(attributes.items()) if c[i] is not None)
        out.append((int(d), pieces, spans.labels[k], held))
    return sorted(out)


@SETTINGS
@given(text_docs())
def test_brat_round_trip_keeps_nesting_and_fragments(tmp_path_factory: Any, doc: Any) -> None:
    """Spans with nesting and pieces -> brat -> spans, and brat -> brat by `convert`: the identity."""
    texts, spans = doc
    tmp = tmp_path_factory.mktemp("brat")
    names = [f"d{i}" for i in range(len(texts))]
    write_brat(str(tmp / "a"), names, spans, texts)
    read, _ = SPAN_READERS["brat"](str(tmp / "a"), None, None)
    assert _entities(read) == _entities(spans)
    report = convert(tmp / "a", tmp / "b", to="brat")
    assert report.lost == {} or set(report.lost) == {
        "entities written without their text (it holds a line break)"
    }
    again, _ = SPAN_READERS["brat"](str(tmp / "b"), None, None)
    assert _entities(again) == _entities(spans)
    assert document_texts(str(tmp / "b"), "brat") == texts


@SETTINGS
@given(text_docs())
def test_spacy_jsonl_round_trip_and_extents(tmp_path_factory: Any, doc: Any) -> None:
    """brat -> spaCy JSONL -> spans: extents kept, nesting kept, each entity changed counted once."""
    texts, spans = doc
    tmp = tmp_path_factory.mktemp("spacy")
    write_brat(str(tmp / "a"), [f"d{i}" for i in range(len(texts))], spans, texts)
    report = convert(tmp / "a", tmp / "s.jsonl", to="spacy-jsonl")
    pieces = np.diff(spans.fragments.offsets) if spans.fragments is not None else np.ones(len(spans))
    assert report.lost.get("discontinuous entities written as their extent", 0) == int((pieces > 1).sum())
    held = np.zeros(len(spans), dtype=bool)
    for column in (spans.attributes or {}).values():
        held |= column != None  # noqa: E711
    key = "entities whose attributes and normalizations were not written (--to spacy-jsonl holds none)"
    assert report.lost.get(key, 0) == int((held & (pieces <= 1)).sum())
    assert sum(report.lost.values()) <= report.entities_read
    read, _ = SPAN_READERS["spacy-jsonl"](str(tmp / "s.jsonl"), None, None)
    extent = [(d, ((p[0][0], p[-1][1]),), t, ()) for d, p, t, _ in _entities(spans)]
    assert _entities(read) == sorted(extent)
    assert document_texts(str(tmp / "s.jsonl"), "spacy-jsonl") == texts


# ------------------------------------------------------------------ nesting and tag targets


def _naive_dropped(spans: list[tuple[int, int, str]], policy: str) -> int:
    """How many spans a plain greedy pass drops: longest first, or leftmost first (then longest)."""
    order = sorted(
        range(len(spans)),
        key=lambda i: (
            (-(spans[i][1] - spans[i][0]), spans[i][0])
            if policy == "longest"
            else (spans[i][0], spans[i][0] - spans[i][1]),
            spans[i][2],
            i,
        ),
    )
    kept: list[tuple[int, int]] = []
    dropped = 0
    for i in order:
        s, e, _ = spans[i]
        if any(s < ke and ks < e for ks, ke in kept):
            dropped += 1
        else:
            kept.append((s, e))
    return dropped


@SETTINGS
@given(flat_docs(nested=True), st.sampled_from(["longest", "first"]))
def test_nested_to_conll_refused_or_flattened(tmp_path_factory: Any, docs: list[Doc], policy: str) -> None:
    """Nested spans to CoNLL: refused without a policy; with one, the dropped count is a naive pass's."""
    tmp = tmp_path_factory.mktemp("nested")
    _write_tokens_jsonl(tmp / "in.jsonl", docs)
    dropped = sum(_naive_dropped(spans, policy) for _, spans in docs)
    if dropped:
        with pytest.raises(OptionError, match="flatten"):
            convert(tmp / "in.jsonl", tmp / "refused.conll", to="conll")
        assert not (tmp / "refused.conll").exists()
    report = convert(tmp / "in.jsonl", tmp / "out.conll", to="conll", flatten=policy)
    key = f"nested or overlapping entities dropped (flatten={policy!r})"
    assert report.lost.get(key, 0) == dropped
    assert report.entities_written == report.entities_read - dropped
    back = convert(tmp / "out.conll", tmp / "back.jsonl", to="jsonl")
    assert back.entities_read == report.entities_written


def test_io_merges_are_counted(tmp_path: Path) -> None:
    """IO tags cannot separate touching entities of one type: the merge is reported."""
    _write_tokens_jsonl(tmp_path / "in.jsonl", [(["a", "b", "c"], [(0, 1, "PER"), (1, 3, "PER")])])
    report = convert(tmp_path / "in.jsonl", tmp_path / "out.conll", to="conll", scheme="IO")
    assert report.lost == {"entities IO tags merge into a touching one of the same type": 1}
    assert (report.entities_read, report.entities_written) == (2, 1)


def test_char_offsets_widened_to_tokens(tmp_path: Path) -> None:
    """A boundary inside a token is widened to the token, and counted; sentences break at lines."""
    doc = {"text": "Obama's visit\nto Paris", "label": [[0, 4, "PER"], [17, 22, "LOC"]]}
    (tmp_path / "in.jsonl").write_text(json.dumps(doc) + "\n")
    report = convert(tmp_path / "in.jsonl", tmp_path / "out.conll", to="conll", input_format="doccano")
    assert report.lost == {"entities widened to token boundaries (a boundary fell inside a token)": 1}
    lines = (tmp_path / "out.conll").read_text().split("\n")
    assert lines[:7] == ["Obama\tB-PER", "'\tO", "s\tO", "visit\tO", "", "to\tO", "Paris\tB-LOC"]


# ------------------------------------------------------------------ the real samples


def test_brat_news_to_jsonl_scores_against_itself(tmp_path: Path) -> None:
    """brat/news -> JSONL keeps every entity: scored against the brat original, all correct."""
    report = convert(FORMATS / "brat" / "news", tmp_path / "news.jsonl", to="jsonl")
    key = "entities whose attributes and normalizations were not written (--to jsonl holds none)"
    assert report.lost == {key: 3}  # T4 and T5 of 100-attribute_annotation, T1 of 110: 6 values
    assert report.entities_written == report.entities_read > 100
    assert report.notes["ignored relations"] == 8
    brat, _ = SPAN_READERS["brat"](str(FORMATS / "brat" / "news"), None, None)
    written, _ = SPAN_READERS["jsonl"](str(tmp_path / "news.jsonl"), None, None)
    assert [sorted(d) for d in written.documents()] == [sorted(d) for d in brat.documents()]
    result = nerve.score(str(tmp_path / "news.jsonl"), str(tmp_path / "news.jsonl"))
    assert result.micro.f1 == 1.0
    assert result.micro.tp == report.entities_read


def test_brat_dkpro_discontinuous_to_conll_reports_extents(tmp_path: Path) -> None:
    """dkpro's discontinuous entities are written to CoNLL as their extents, and counted."""
    report = convert(FORMATS / "brat" / "dkpro", tmp_path / "dkpro.conll", to="conll", scheme="BILOU")
    assert report.lost == {"discontinuous entities written as their extent": 2}
    assert report.entities_written == report.entities_read
    problems = nerve.validate(str(tmp_path / "dkpro.conll"), scheme="BILOU")[1]
    assert problems == []
    again = convert(FORMATS / "brat" / "dkpro", tmp_path / "dkpro", to="brat")
    assert again.lost == {}


def test_news_iob1_to_bilou_and_back(tmp_path: Path) -> None:
    """news.conll's tags read as IOB1 -> BILOU -> IOB1: repairs as nerve counts them, entities kept."""
    report = convert(NEWS, tmp_path / "bilou.conll", to="conll", scheme="BILOU", from_scheme="IOB1")
    _, problems = nerve.validate(str(NEWS), scheme="IOB1", merged=True)
    gold_problems = [p for p in problems if p.side == "gold"]
    assert sum(report.repairs.values()) == len(gold_problems) > 0
    assert report.input_scheme == "IOB1"
    assert report.lost == {
        "tokens whose other columns (1 besides token and tags) were not converted": 48,
        "tokens whose predicted tag was not converted (side='pred' converts them)": 48,
    }
    assert report.scheme == "BILOU"
    assert nerve.validate(str(tmp_path / "bilou.conll"), scheme="BILOU")[1] == []
    back = convert(
        tmp_path / "bilou.conll", tmp_path / "iob1.conll", to="conll", scheme="IOB1", from_scheme="BILOU"
    )
    assert back.repairs == {}
    assert back.lost == {}
    assert nerve.validate(str(tmp_path / "iob1.conll"), scheme="IOB1")[1] == []
    blank = [not line.strip() for line in NEWS.read_text().splitlines()]
    assert [not line.strip() for line in (tmp_path / "iob1.conll").read_text().splitlines()] == blank
    gold_tags = [
        line.split()[-2] for line in NEWS.read_text().splitlines() if line and not line.startswith("-DOC")
    ]
    iob1_tags = [
        line.split()[-1]
        for line in (tmp_path / "iob1.conll").read_text().splitlines()
        if line and not line.startswith("-DOC")
    ]
    words = [
        line.split()[0] for line in NEWS.read_text().splitlines() if line and not line.startswith("-DOC")
    ]
    assert [
        line.split()[0]
        for line in (tmp_path / "iob1.conll").read_text().splitlines()
        if line and not line.startswith("-DOC")
    ] == words
    want = {(s.start, s.end, s.label) for s in nerve.decode(gold_tags, scheme="IOB1")}
    got = {(s.start, s.end, s.label) for s in nerve.decode(iob1_tags, scheme="IOB1")}
    assert got == want


def test_pred_side_and_refusals(tmp_path: Path) -> None:
    """--side pred reads a merged file's predictions; an existing OUT needs force; no text, no tags."""
    report = convert(NEWS, tmp_path / "pred.jsonl", to="jsonl", side="pred")
    assert isinstance(report, ConvertReport)
    assert report.entities_read > 0
    with pytest.raises(OptionError, match="force"):
        convert(NEWS, tmp_path / "pred.jsonl", to="jsonl")
    assert convert(NEWS, tmp_path / "pred.jsonl", to="jsonl", force=True).entities_read > 0
    (tmp_path / "spans.jsonl").write_text('{"spans": [{"start": 0, "end": 1, "label": "X"}]}\n')
    with pytest.raises(InputError, match="no text or tokens"):
        convert(tmp_path / "spans.jsonl", tmp_path / "x.conll", to="conll")
    with pytest.raises(InputError, match="no predictions"):
        convert(tmp_path / "spans.jsonl", tmp_path / "y.jsonl", to="jsonl", side="pred")


# ------------------------------------------------------------------ the command


def _nerve(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "nerve", *args], capture_output=True, text=True, env=env, check=False
    )


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    """A bad --to, and nested entities without --flatten: exit status 2 and one line naming the fix."""
    bad = _nerve("convert", str(NEWS), str(tmp_path / "x"), "--to", "xml")
    assert bad.returncode == 2
    assert bad.stderr.splitlines() == [
        "nerve: error: --to: expected one of conll, bio, jsonl, brat, spacy-jsonl, but got 'xml'"
    ]
    nested = FORMATS / "nested" / "scierc_article.json"
    refused = _nerve("convert", str(nested), str(tmp_path / "n.conll"), "--to", "conll")
    assert refused.returncode == 2
    assert len(refused.stderr.splitlines()) == 1
    assert "--flatten POLICY" in refused.stderr
    assert not (tmp_path / "n.conll").exists()
    ok = _nerve("convert", str(nested), str(tmp_path / "n.conll"), "--to", "conll", "--flatten", "outermost")
    assert ok.returncode == 0
    assert "lost: 2 nested or overlapping entities dropped (--flatten outermost)" in ok.stderr
    as_json = _nerve("convert", str(nested), str(tmp_path / "n.jsonl"), "--to", "jsonl", "--report", "json")
    assert json.loads(as_json.stdout)["entities_written"] == 25


@pytest.mark.parametrize(
    ("source", "to", "args", "message"),
    [
        (
            "news",
            "jsonl",
            ["--scheme", "BILOU"],
            "--scheme: applies to tag output (conll, bio), but --to jsonl",
        ),
        (
            "news",
            "brat",
            ["--flatten", "first"],
            "--flatten: applies to tag output (conll, bio), but --to brat",
        ),
        (
            "news",
            "conll",
            ["--offsets", "char"],
            "--offsets: applies to span input, but the input reads as conll",
        ),
        (
            "spans",
            "conll",
            ["--from-scheme", "IOB1"],
            "--from-scheme: applies to tagged input (conll, bio, hf), but the input reads as jsonl spans",
        ),
        (
            "spans",
            "conll",
            ["--outside", "X"],
            "--outside: applies to tagged input (conll, bio), but the input reads as jsonl spans",
        ),
        (
            "spans",
            "conll",
            ["--tag-format", "X-B"],
            "--tag-format: applies to tagged input (conll, bio), but the input reads as jsonl spans",
        ),
    ],
)
def test_options_that_do_not_apply_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, to: str, args: list[str], message: str
) -> None:
    """Nothing given is ignored: an option of the other kind of input or target exits 2, writing nothing."""
    from nerve.cli import main

    spans = tmp_path / "s.jsonl"
    spans.write_text('{"tokens": ["John", "ran"], "spans": [{"start": 0, "end": 1, "label": "PER"}]}\n')
    src = str(NEWS) if source == "news" else str(spans)
    out = tmp_path / f"out.{to}"
    assert main(["convert", src, str(out), "--to", to, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nerve: error: {message}"), err
    assert err.count("\n") == 1
    assert not out.exists()
