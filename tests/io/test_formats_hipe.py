"""HIPE TSV: the HIPE scorer's own test files reproduce its expected figures; bad and hostile input."""

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
from nerve.io.tags.hipe import read_hipe

DATA = Path(__file__).parents[1] / "data" / "formats" / "hipe"
COLUMNS = (
    "TOKEN NE-COARSE-LIT NE-COARSE-METO NE-FINE-LIT NE-FINE-METO NE-FINE-COMP NE-NESTED NEL-LIT NEL-METO MISC"
)
HEADER = COLUMNS.replace(" ", "\t") + "\n"
CASES = [  # gold, prediction, column, the scorer's expected results
    ("unittest-ner-2", "NE-COARSE-LIT", "unittest-ner-2-pred.tsv.coarse-lit_ref_results.json"),
    ("unittest-ner-2", "NE-FINE-LIT", "unittest-ner-2-pred.tsv.fine-lit_ref_results.json"),
    ("unittest-ner-2", "NE-NESTED", "unittest-ner-2-pred.tsv.nested_ref_results.json"),
    ("unittest-ner-lit-coarse-3", "NE-COARSE-LIT", "unittest-ner-lit-coarse-3-pred.tsv.ref_results.json"),
    ("unittest-ner-lit-coarse-4", "NE-COARSE-LIT", "unittest-ner-lit-coarse-4-pred.tsv.ref_results.json"),
]


@pytest.mark.parametrize(("stem", "column", "expected"), CASES)
def test_the_hipe_scorers_expected_figures(stem: str, column: str, expected: str) -> None:
    """HIPE's strict is nerve's exact micro; its fuzzy (ent_type) is the MUC type mode."""
    ref = json.loads((DATA / expected).read_text(encoding="utf-8"))["ALL"]
    gold, pred = str(DATA / f"{stem}-true.tsv"), str(DATA / f"{stem}-pred.tsv")
    assert sniff_format(gold) == "hipe"
    result = nerve.score(gold, pred, column=column, metrics="exact,muc")
    m = result.micro
    assert (m.tp, m.fp, m.fn) == (ref["strict"]["TP"], ref["strict"]["FP"], ref["strict"]["FN"])
    for ours, theirs in ((m.precision, "P_micro"), (m.recall, "R_micro"), (m.f1, "F1_micro")):
        assert ours == pytest.approx(float(ref["strict"][theirs]), abs=1e-6)
    assert result.muc is not None
    for mode, hipe in (("type", "ent_type"), ("exact", "exact"), ("strict", "strict")):
        assert result.muc.modes[mode].overall.f1 == pytest.approx(float(ref[hipe]["F1_micro"]), abs=1e-6)


def test_nested_columns_become_nested_spans(tmp_path: Path) -> None:
    gold, _ = read_hipe(str(DATA / "unittest-ner-2-true.tsv"), column="NE-COARSE-LIT,NE-NESTED")
    assert gold.documents() == [[(7, 8, "loc"), (14, 26, "pers"), (25, 26, "loc.adm.town")]]
    texts = document_texts(str(DATA / "unittest-ner-2-true.tsv"))
    assert texts[0] is not None
    assert texts[0][25] == "Hambourg"


def write(tmp_path: Path, body: str | bytes, name: str = "g.tsv") -> str:
    path = tmp_path / name
    path.write_bytes(body.encode("utf-8") if isinstance(body, str) else body)
    return str(path)


def row(token: str, tag: str) -> str:
    return f"{token}\t{tag}\tO\tO\tO\tO\tO\t_\t_\t_\n"


def test_documents_bom_crlf_and_an_empty_document(tmp_path: Path) -> None:
    body = HEADER + "# document_id = a\n" + row("John", "B-PER") + row("Smith", "I-PER")
    body += "# hipe2022:document_id = b\n# hipe2022:document_id = c\n# segment_iiif_link = x\n"
    body += row("Paris", "B-LOC") + "\n" + row("Lyon", "I-LOC")
    plain = write(tmp_path, body)
    hostile = write(tmp_path, b"\xef\xbb\xbf" + body.replace("\n", "\r\n").encode("utf-8"), "h.tsv")
    for path in (plain, hostile):
        spans, _ = read_hipe(path)
        assert spans.n_docs == 3
        assert spans.documents() == [[(0, 2, "PER")], [], [(0, 1, "LOC"), (1, 2, "LOC")]]


@pytest.mark.parametrize(
    ("body", "line", "detail"),
    [
        (HEADER + "John\tB-PER\n", 2, "row has 2 columns, expected 10 as in the header"),
        (HEADER + "John\n", 2, "row has 1 column, expected 10 as in the header"),
        ("Token\tNER\n", 1, "expected the HIPE header"),
        (HEADER + row("John", "B-PER") + row("Mary", "PER"), 3, "does not have the form"),
    ],
)
def test_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, line: int, detail: str
) -> None:
    path = write(tmp_path, body)
    assert main(["score", path, path, "--format", "hipe"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"{path}:{line}:" in err, err
    assert detail in err, err


def test_an_unknown_column_names_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, HEADER + row("John", "B-PER"))
    assert main(["score", path, path, "--column", "NE-COARSE"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1: has no column 'NE-COARSE'" in err
    assert "--column" in err
    conll = write(tmp_path, "John B-PER B-PER\n", "x.conll")
    assert main(["score", conll, "--column", "NE-FINE-LIT"]) == 2
    assert "--column: applies to hipe and conllu" in capsys.readouterr().err


Entity = tuple[int, int, str]


def layer(draw: st.DrawFn, n: int) -> list[Entity]:
    """Entities that do not overlap each other: one BIO column can hold them."""
    cuts = sorted(draw(st.sets(st.integers(0, n), max_size=6))) if n else []
    pairs = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]
    return [(a, b, draw(st.sampled_from(["loc", "pers"]))) for a, b in pairs]


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[int], list[list[list[Entity]]], list[list[list[Entity]]]]:
    """Document lengths; gold and predicted entities of two layers (coarse, nested) per document."""
    lengths = draw(st.lists(st.integers(0, 9), min_size=1, max_size=3))
    gold = [[layer(draw, n), layer(draw, n)] for n in lengths]
    pred = [[layer(draw, n), layer(draw, n)] for n in lengths]
    return lengths, gold, pred


def hipe(lengths: list[int], docs: list[list[list[Entity]]]) -> str:
    out = [HEADER]
    for d, (n, layers) in enumerate(zip(lengths, docs, strict=True)):
        columns = [["O"] * n for _ in layers]
        for tags, entities in zip(columns, layers, strict=True):
            for a, b, t in entities:
                tags[a:b] = [f"B-{t}"] + [f"I-{t}"] * (b - a - 1)
        out.append(f"# hipe2022:document_id = d{d}\n")
        for i in range(n):
            coarse, nested = columns[0][i], columns[1][i]
            out.append(f"w{i}\t{coarse}\tO\tO\tO\tO\t{nested}\t_\t_\t_\n")
    return "".join(out)


@settings(max_examples=100, deadline=None)
@given(corpora())
def test_round_trip_with_nested_layers_and_exact_counts(
    drawn: tuple[list[int], list[list[list[Entity]]], list[list[list[Entity]]]],
) -> None:
    lengths, gold, pred = drawn
    both = "NE-COARSE-LIT,NE-NESTED"
    with tempfile.TemporaryDirectory() as tmp:
        g, p = Path(tmp) / "g.tsv", Path(tmp) / "p.tsv"
        g.write_text(hipe(lengths, gold), encoding="utf-8")
        p.write_text(hipe(lengths, pred), encoding="utf-8")
        spans, _ = read_hipe(str(g), column=both)
        result = nerve.score(str(g), str(p), column=both)
    assert [sorted(d) for d in spans.documents()] == [sorted(a + b) for a, b in gold]
    gc = Counter((i, *e) for i, d in enumerate(gold) for lay in d for e in lay)
    pc = Counter((i, *e) for i, d in enumerate(pred) for lay in d for e in lay)
    tp = sum((gc & pc).values())
    m = result.micro
    assert (m.tp, m.fp, m.fn) == (tp, sum(pc.values()) - tp, sum(gc.values()) - tp)
