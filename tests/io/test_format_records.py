"""The format records (`nerve.io.formats`): one a format, the sniffing chain they make, and a new
format known everywhere once its record is registered."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import nerve
from nerve.api.convert import INPUT_FORMATS, TARGETS
from nerve.cli import main
from nerve.errors import OptionError
from nerve.io import formats
from nerve.io.format import Format, Lazy, Probe, Rule
from nerve.io.formats.lenient import LENIENT
from nerve.io.json.span_lists import span_lists
from nerve.io.spans import SPAN_FORMATS, document_texts, read_span_columns, sniff_format
from nerve.io.tags.conll_counted import read_counted
from nerve.model.spans import SpanArray

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "formats"
DOCS = ROOT / "docs" / "examples"


def test_every_format_has_exactly_one_record() -> None:
    named = [name for f in formats.FORMATS for name in (f.name, *f.aliases)]
    assert len(named) == len(set(named))
    listed = {*SPAN_FORMATS, *INPUT_FORMATS, *TARGETS, *formats.input_choices()}
    assert listed == {f.name for f in formats.FORMATS}
    for name in listed:
        assert formats.format_named(name).name == name
    with pytest.raises(KeyError):
        formats.format_named("xml")
    conll = formats.format_named("conll")
    assert conll.accelerated.target is read_counted  # type: ignore[union-attr]  # the C counter (csrc/conll.c)
    assert conll.read_tags is not None
    assert all((f.read is not None) == (f.kind == "spans") for f in formats.FORMATS)


def test_a_record_is_read_only_and_replace_makes_a_changed_copy() -> None:
    """A plain class (no dataclass: ``--help`` builds the records), as immutable as a frozen dataclass."""
    conll = formats.format_named("conll")
    with pytest.raises(AttributeError, match="'conll' format record is read-only"):
        conll.accelerated = None  # type: ignore[misc]
    with pytest.raises(AttributeError, match="read-only"):
        del conll.summary
    copy = conll.replace(accelerated=None, aliases=("columns",))
    assert (copy.accelerated, copy.aliases, conll.aliases) == (None, ("columns",), ())
    assert conll.accelerated is not None
    same = [name for name in Format.__slots__ if getattr(copy, name) == getattr(conll, name)]
    assert sorted(same) == sorted(set(Format.__slots__) - {"accelerated", "aliases"})
    assert repr(conll).startswith("Format('conll', 'tags', ")
    with pytest.raises(TypeError):
        conll.replace(colour="red")
    assert Format("x", "spans", "s").options == {}
    assert Format("x", "spans", "s").scored


def test_every_records_reader_and_writer_is_named_lazily_and_resolves() -> None:
    """Records name their readers (`Lazy`), imported on first use; each name resolves to a function."""
    named = [
        value
        for f in formats.FORMATS
        for value in (f.read_tags, f.read_pair, f.read_column, f.read_column_pair, f.write)
        if value is not None
    ]
    assert named
    assert all(isinstance(value, Lazy) for value in named)
    for value in named:
        assert callable(value.target), value
        assert not isinstance(value.target, Lazy), value
    from nerve.io.tags.conll import ConllReader

    assert formats.format_named("conll").read_tags.target is ConllReader  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="module:name"):
        Lazy("tags.conll.ConllReader")


# Every format's samples, and files that look like one format but are another: the order of the
# sniffing chain decides them (HIPE's scorer's JSON results open with "{": jsonl; spaCy JSONL's
# gold file has no spaCy keys: jsonl).
SAMPLES = [
    ("examples/news.conll", "conll"),
    ("docs/examples/merged.conll", "conll"),
    ("docs/examples/iobes-e-then-b.txt", "conll"),
    ("docs/examples/text", "conll"),
    ("docs/examples/spans.jsonl", "jsonl"),
    ("docs/examples/spacy-gold.jsonl", "jsonl"),
    ("tests/data/formats/hipe/unittest-ner-2-pred.tsv.nested_ref_results.json", "jsonl"),
    ("docs/examples/nereval.json", "nereval"),
    ("docs/examples/nervaluate-gold.json", "nervaluate"),
    ("docs/examples/eval4ner.jsonl", "eval4ner"),
    ("tests/data/formats/brat/news", "brat"),
    ("tests/data/formats/brat/dkpro", "brat"),
    ("docs/examples/brat-discontinuous", "brat"),
    ("tests/data/formats/doccano/sequence_labeling.jsonl", "doccano"),
    ("tests/data/formats/doccano/relation_extraction.jsonl", "doccano"),
    ("tests/data/formats/labelstudio/named_entity_tasks.json", "labelstudio"),
    ("tests/data/formats/labelstudio/named_entity_annotation.json", "labelstudio"),
    ("tests/data/formats/hipe/unittest-ner-2-true.tsv", "hipe"),
    ("tests/data/formats/conllu/sample.conllu", "conllu"),
    ("tests/data/formats/nested/scierc_article.json", "nested"),
    ("tests/data/formats/nested/multi_dataset_dev.jsonl", "nested"),
    ("tests/data/formats/spacy/demo.spacy", "spacy"),
    ("tests/data/formats/spacy/demo.jsonl", "spacy-jsonl"),
    ("tests/data/formats/spacy/emerson_annotated_text.jsonl", "spacy-jsonl"),
    ("docs/examples/outputs/pipeline-tokens.jsonl", "hf-pipeline"),
    ("docs/examples/outputs/pipeline-grouped.json", "hf-pipeline"),
    ("docs/examples/outputs/llm.jsonl", "entity-list"),
]
# Files written here: shapes no sample has, and names of paths that are not there.
WRITTEN = [
    ("a.json", '[{"text": "a", "spans": []}]', "json"),
    ("empty.json", "", "json"),
    ("empty.txt", "", "conll"),
    ("lists.json", '[[{"label": "X", "start": 0, "end": 1}]]', "nervaluate"),
    ("sides.json", '{"true": [[]], "pred": [[]]}', "nervaluate"),
    ("bom.txt", '\ufeff  {"text": "a", "spans": []}', "jsonl"),
    ("columns/a.txt", "a B-X\n", "conll"),
    ("prose/a.txt", "hello world\n", "brat"),
    ("bio/a.bio", "a O\n", "conll"),
    (
        "bare.json",
        '[[{"entity_group": "PER", "score": 0.9, "word": "A", "start": 0, "end": 1}]]',
        "hf-pipeline",
    ),
    ("pairs.jsonl", '{"text": "a", "entities": [["a", "X"]]}', "entity-list"),
    ("by-type.jsonl", '{"text": "a", "entities": {"X": ["a"]}}', "entity-list"),
    ("spans.jsonl", '{"text": "a", "entities": [{"start": 0, "end": 1, "label": "X"}]}', "jsonl"),
    ("none-yet.txt", '{"text": "a", "entities": []}', "jsonl"),
]


@pytest.mark.parametrize(("path", "expected"), SAMPLES, ids=[p for p, _ in SAMPLES])
def test_samples_sniff_as_they_did(path: str, expected: str) -> None:
    assert sniff_format(str(ROOT / path)) == formats.sniff(str(ROOT / path)) == expected


def test_written_shapes_and_missing_paths_sniff_as_they_did(tmp_path: Path) -> None:
    for name, text, expected in WRITTEN:
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        where = path.parent if "/" in name else path
        assert (name, sniff_format(str(where))) == (name, expected)
    missing = {"x.jsonl": "jsonl", "x.json": "conll", "x.ann": "brat", "x.conllu": "conllu"}
    missing.update({"x.spacy": "spacy", "x": "conll"})
    for name, expected in missing.items():
        assert (name, sniff_format(str(tmp_path / "none" / name))) == (name, expected)


def test_the_chain_runs_by_order_and_reads_a_file_only_when_asked(tmp_path: Path) -> None:
    orders = [rule.order for f in formats.FORMATS for rule in f.sniff]
    assert len(orders) == len(set(orders))  # no two rules tie
    probe = Probe(str(tmp_path / "x.ann"))
    assert not probe.is_file
    assert probe.head == b""


def _read_fake(path: str, units: str | None, problems: object) -> tuple[SpanArray, SpanArray]:
    """``FAKE`` then one ``start end label`` line a span, all in one document: gold and predictions."""
    rows = [line.split() for line in Path(path).read_text(encoding="utf-8").splitlines()[1:]]
    spans = span_lists([[(int(s), int(e), label) for s, e, label in rows]], "gold")
    return spans, spans


FAKE = Format(
    "fake",
    "spans",
    "a header FAKE, then start, end and label a line",
    sniff=(Rule(65, lambda probe: probe.head.startswith(b"FAKE\n")),),  # before hipe's 70
    read=_read_fake,
    texts=lambda path, _: ["some text"],
    offsets=("char", "byte"),
    options={"lenient": LENIENT, "column": "the fake column"},
)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setattr(formats, "FORMATS", [*formats.FORMATS, FAKE])
    path = tmp_path / "a.txt"
    path.write_text("FAKE\n0 4 PER\n5 9 LOC\n", encoding="utf-8")
    return path


def test_a_registered_record_is_sniffed_and_read(fake: Path) -> None:
    assert sniff_format(str(fake)) == "fake"
    gold, pred = read_span_columns(str(fake))
    assert gold.documents() == pred.documents() == [[(0, 4, "PER"), (5, 9, "LOC")]]
    assert document_texts(str(fake)) == ["some text"]
    assert nerve.score(str(fake)).micro.tp == 2


def test_a_registered_record_is_a_choice_of_the_command(
    fake: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert re.search(r"--format \{conll,hf,jsonl,.*,spacy-jsonl,fake\}", capsys.readouterr().out)
    assert main(["score", str(fake), "--format", "fake", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["micro"]["tp"] == 2
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    help = " ".join(capsys.readouterr().out.split())
    assert "; conllu: the MISC key (default NER); fake: the fake column" in help
    assert "json, jsonl, brat, fake, hf-pipeline, labelstudio, spacy-jsonl: score an entity" in help


def test_a_registered_record_joins_the_refusal_tables(fake: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(
        OptionError, match="applies to hipe, conllu and fake input, but the input reads as json"
    ):
        formats.check_column("X", "json")
    offsets = "applies to json, jsonl, doccano, spacy-jsonl, fake and labelstudio span files"
    with pytest.raises(OptionError, match=offsets):
        nerve.score(str(ROOT / "examples" / "news.conll"), offsets="char")
    with pytest.raises(OptionError, match="fake offsets count char or byte, not token"):
        nerve.score(str(fake), offsets="token")
    with pytest.raises(
        OptionError, match=r"applies to tagged \(CoNLL\) input, but the input reads as fake spans"
    ):
        nerve.score(str(fake), scheme="IOB2")
    assert formats.text_formats() == (
        "json",
        "jsonl",
        "brat",
        "fake",
        "hf-pipeline",
        "labelstudio",
        "spacy-jsonl",
    )
    assert nerve.score(str(fake), lenient=True, offsets="byte").micro.tp == 2
    assert main(["validate", str(fake), "--comments"]) == 2
    assert (
        "--comments: applies to tagged (CoNLL) input, but the input reads as fake" in capsys.readouterr().err
    )
