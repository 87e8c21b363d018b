"""spaCy DocBins and spaCy/Prodigy JSONL, made by the real spaCy, against spaCy's own NER scorer."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from conftest import ROOT, peer
from nerve.api import score_spans
from nerve.cli import main
from nerve.io.reader_options import ReaderOptions
from nerve.io.spans import document_texts, read_span_columns, sniff_format, validate_spans
from nerve.io.tools.spacy import read_spacy, read_spacy_jsonl

spacy = peer("spacy")
from spacy.scorer import get_ner_prf  # noqa: E402
from spacy.tokens import Doc, DocBin, Span  # noqa: E402
from spacy.training import Example  # noqa: E402

NLP = spacy.blank("en")
WORDS = ["John", "Smith", "met", "Mary", "in", "😀", "Paris", "café", "."]
LABELS = ["PER", "LOC", "ORG"]


def make_doc(words: list[str], ents: list[tuple[int, int, str]], group: list[tuple[int, int, str]]) -> Doc:
    doc = Doc(NLP.vocab, words=words)
    doc.ents = [Span(doc, s, e, label) for s, e, label in ents]
    doc.spans["sc"] = [Span(doc, s, e, label) for s, e, label in group]
    return doc


def save(path: Path, docs: list[Doc]) -> str:
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return str(path)


def chars(doc: Doc, spans: Any) -> list[tuple[int, int, str]]:
    """What spaCy itself says each span covers, in characters."""
    return [(s.start_char, s.end_char, s.label_) for s in spans]


@st.composite
def entities(draw: st.DrawFn, n: int, nested: bool) -> list[tuple[int, int, str]]:
    """Token spans of a doc of ``n`` tokens: disjoint (doc.ents), or any (a span group)."""
    out: list[tuple[int, int, str]] = []
    start = 0
    while start < n and len(out) < 5:
        s = draw(st.integers(0 if nested else start, n - 1))
        e = draw(st.integers(s + 1, min(n, s + 3)))
        out.append((s, e, draw(st.sampled_from(LABELS))))
        start = e if not nested else start
        if not nested and draw(st.booleans()):
            break
    return out


@st.composite
def docs(draw: st.DrawFn) -> tuple[list[str], list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=8))
    if not words:
        return words, [], []
    return words, draw(entities(len(words), False)), draw(entities(len(words), True))


def pair(draw_gold: list[Any], draw_pred: list[Any]) -> tuple[list[Doc], list[Doc]]:
    gold = [make_doc(w, e, g) for w, e, g in draw_gold]
    pred = [make_doc(w, e, g) for (w, _, _), (_, e, g) in zip(draw_gold, draw_pred, strict=True)]
    return gold, pred


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), n=st.integers(0, 4))
def test_docbin_round_trip_and_spacy_scorer(tmp_path: Path, data: st.DataObject, n: int) -> None:
    drawn = [data.draw(docs()) for _ in range(n)]
    # predictions: the same words, with entities drawn again for each doc
    again = [
        (w, data.draw(entities(len(w), False)), data.draw(entities(len(w), True))) if w else (w, [], [])
        for w, _, _ in drawn
    ]
    gold_docs, pred_docs = pair(drawn, again)
    g_path, p_path = save(tmp_path / "g.spacy", gold_docs), save(tmp_path / "p.spacy", pred_docs)
    g, p = read_span_columns(g_path, p_path)
    assert g.documents() == [chars(d, d.ents) for d in gold_docs]
    assert p.documents() == [chars(d, d.ents) for d in pred_docs]
    result = nerve.score(g_path, p_path)
    lists = score_spans([chars(d, d.ents) for d in gold_docs], [chars(d, d.ents) for d in pred_docs])
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (
        lists.micro.tp,
        lists.micro.fp,
        lists.micro.fn,
    )
    theirs = get_ner_prf([Example(p, g) for g, p in zip(gold_docs, pred_docs, strict=True)])
    if theirs["ents_p"] is None:  # spaCy: no entity on either side
        assert result.micro.tp + result.micro.fp + result.micro.fn == 0
    else:
        assert result.micro.precision == pytest.approx(theirs["ents_p"])
        assert result.micro.recall == pytest.approx(theirs["ents_r"])
    for label, prf in (theirs["ents_per_type"] or {}).items():
        assert result.per_type[label].f1 == pytest.approx(prf["f"])
    # the span group: overlapping spans and duplicates, against a naive multiset count
    keyed = nerve.score(g_path, p_path, reader=ReaderOptions(spans_key="sc"))
    gold_sc = Counter((i, *s) for i, d in enumerate(gold_docs) for s in chars(d, d.spans["sc"]))
    pred_sc = Counter((i, *s) for i, d in enumerate(pred_docs) for s in chars(d, d.spans["sc"]))
    assert keyed.micro.tp == sum((gold_sc & pred_sc).values())
    assert (keyed.micro.tp + keyed.micro.fn, keyed.micro.tp + keyed.micro.fp) == (
        sum(gold_sc.values()),
        sum(pred_sc.values()),
    )


def test_cli_spans_key_emoji_and_texts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = make_doc(["😀", "John", "met", "Mary"], [(1, 2, "PER"), (3, 4, "PER")], [(1, 4, "EVENT")])
    path = save(tmp_path / "g.spacy", [doc, make_doc([], [], [])])
    assert sniff_format(path) == "spacy"
    assert read_spacy(path)[0].documents() == [[(2, 6, "PER"), (11, 15, "PER")], []]
    assert read_spacy(path, spans_key="sc")[0].documents() == [[(2, 15, "EVENT")], []]
    assert document_texts(path) == ["😀 John met Mary ", ""]
    assert main(["score", path, path, "--spans-key", "sc", "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"]["micro"]["tp"] == 1
    assert main(["score", path, path, "--errors", "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["micro"]["tp"] == 2


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_bad_docbins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = save(tmp_path / "g.spacy", [make_doc(["John"], [(0, 1, "PER")], []), make_doc(["Mary"], [], [])])
    other = save(tmp_path / "p.spacy", [make_doc(["John"], [], []), make_doc(["Marie"], [], [])])
    assert f"{other}: document 1: its text is not the gold's" in fails(capsys, gold, other)
    short = save(tmp_path / "s.spacy", [make_doc(["John"], [], [])])
    assert f"{short}: has 1 document, but the gold has 2" in fails(capsys, gold, short)
    err = fails(capsys, gold, gold, "--spans-key", "nope")
    assert f"{gold}: no document has the span group 'nope'; its groups: ['sc'] (use --spans-key)" in err
    broken = tmp_path / "b.spacy"
    broken.write_bytes(b"not a docbin")
    assert f"{broken}: cannot be read as a spaCy DocBin" in fails(capsys, str(broken), gold)
    assert f"{tmp_path / 'missing.spacy'}: no such file" in fails(
        capsys, str(tmp_path / "missing.spacy"), gold
    )
    conll = str(ROOT / "examples" / "news.conll")
    assert "--spans-key: names a span group of spacy DocBins" in fails(capsys, conll, "--spans-key", "sc")
    jsonl = tmp_path / "x.jsonl"
    jsonl.write_text('{"text": "a", "spans": []}\n', encoding="utf-8")
    assert "--spans-key: names a span group of spacy DocBins" in fails(
        capsys, str(jsonl), str(jsonl), "--spans-key", "sc"
    )


def test_spacy_jsonl_from_doc_to_json_and_prodigy(tmp_path: Path) -> None:
    doc = make_doc(["😀", "John", "met", "Mary"], [(1, 2, "PER"), (3, 4, "PER")], [])
    del doc.spans["sc"]
    prodigy = {
        "text": "Mary met John",
        "tokens": [{"text": "Mary", "start": 0, "end": 4, "id": 0, "ws": True}],
        "spans": [{"start": 0, "end": 4, "token_start": 0, "token_end": 0, "label": "PER"}],
        "_input_hash": 1,
        "_task_hash": 2,
        "answer": "accept",
    }
    path = tmp_path / "d.jsonl"
    lines = [doc.to_json(), prodigy, {"text": "nothing", "_input_hash": 3}]
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in lines), encoding="utf-8")
    assert sniff_format(str(path)) == "spacy-jsonl"
    spans, _ = read_spacy_jsonl(str(path))
    assert spans.documents() == [chars(doc, doc.ents), [(0, 4, "PER")], []]
    assert nerve.score(str(path), str(path)).micro.tp == 3


@pytest.mark.parametrize(
    ("obj", "detail"),
    [
        (
            {"text": "John", "spans": [{"start": 0, "end": 5, "label": "PER"}]},
            "span 0: end 5 is beyond the text",
        ),
        (
            {"text": "John", "ents": [{"start": 0, "label": "PER"}]},
            'span 0: expected {"start", "end", "label"}',
        ),
        ({"spans": []}, 'expected the document\'s text under "text"'),
        ({"text": "John", "spans": {"sc": []}}, 'expected a list of spans under "spans" or "ents"'),
        ({"text": "John", "ents": [{"start": 0, "end": 4, "label": 3}]}, "span 0: expected a string label"),
    ],
)
def test_bad_spacy_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str], obj: Any, detail: str) -> None:
    path = tmp_path / "d.jsonl"
    good = {"text": "Mary", "ents": [{"start": 0, "end": 4, "label": "PER"}]}
    path.write_text(json.dumps(good) + "\n" + json.dumps(obj) + "\n", encoding="utf-8")
    err = fails(capsys, "--format", "spacy-jsonl", str(path), str(path))
    assert f"{path}:2: document 1 (line 2): {detail}" in err
    assert len(validate_spans(str(path), fmt="spacy-jsonl")) == 1


def test_conll_scoring_imports_neither_spacy_nor_datasets() -> None:
    code = (
        "import sys; from nerve.cli import main; "
        "assert main(['score', 'examples/news.conll']) == 0; "
        "heavy = {'spacy', 'datasets', 'pyarrow'} & set(sys.modules); assert not heavy, heavy"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
