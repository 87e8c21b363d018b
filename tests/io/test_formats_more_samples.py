"""Real CoNLL-U and spaCy/Prodigy samples (tests/data/formats/README.md), read against a naive reading.

- ``conllu/qaf_arabizi-ud-dev.conllu``: a Universal Dependencies treebank whose MISC column holds
  IOB2 tags under the key ``ner``, with multiword token lines (``3-4``) that carry no tag;
- ``spacy/demo.spacy`` and ``spacy/demo.jsonl``: one tweet as spaCy's DocBin and as Prodigy's
  JSONL (with tokens and token indices), from the same spaCy project;
- ``spacy/emerson_annotated_text.jsonl``: Prodigy's ``db-out`` export with ``spans`` and no tokens.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import peer
from nerve.cli import main
from nerve.io.spans import sniff_format
from nerve.io.tags.conllu import read_conllu
from nerve.io.tools.spacy import read_spacy_jsonl

FORMATS = Path(__file__).parents[1] / "data" / "formats"
ARABIZI = FORMATS / "conllu" / "qaf_arabizi-ud-dev.conllu"
DEMO_JSONL = FORMATS / "spacy" / "demo.jsonl"
DEMO_DOCBIN = FORMATS / "spacy" / "demo.spacy"
EMERSON = FORMATS / "spacy" / "emerson_annotated_text.jsonl"


def naive_conllu(path: Path, key: str) -> list[tuple[int, int, str]]:
    """IOB2 entities of MISC ``key=`` tags, offsets in words over the file (one document)."""
    spans: list[tuple[int, int, str]] = []
    words = 0
    open_: list[int | str] | None = None
    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        cols = raw.split("\t")
        is_word = len(cols) == 10 and cols[0].isdigit()
        if not is_word:
            if not raw.strip() and open_ is not None:  # a blank line ends the sentence
                spans.append((int(open_[0]), words, str(open_[1])))
                open_ = None
            continue
        tag = next(item[len(key) + 1 :] for item in cols[9].split("|") if item.startswith(f"{key}="))
        inside = open_ is not None and tag == f"I-{open_[1]}"
        if open_ is not None and not inside:
            spans.append((int(open_[0]), words, str(open_[1])))
            open_ = None
        if tag.startswith("B-"):
            open_ = [words, tag[2:]]
        words += 1
    return spans


def test_a_ud_treebank_with_ner_in_misc(capsys: pytest.CaptureFixture[str]) -> None:
    assert sniff_format(str(ARABIZI)) == "conllu"
    spans, _ = read_conllu(str(ARABIZI), column="ner")
    expected = naive_conllu(ARABIZI, "ner")
    assert spans.documents() == [expected]
    assert len(expected) == 224
    ids = [
        row[0]
        for row in (line.split("\t") for line in ARABIZI.read_text(encoding="utf-8").splitlines())
        if len(row) == 10
    ]
    ranges = sum(1 for i in ids if not i.isdigit())
    assert spans.notes == {"multiword tokens and empty nodes (skipped)": ranges}
    # Without the key, the file is refused with the option that fixes it, not read as untagged.
    assert main(["score", str(ARABIZI), str(ARABIZI)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    assert str(ARABIZI) in err, err
    assert "--column" in err, err  # --misc-key is its other name
    assert main(["score", str(ARABIZI), str(ARABIZI), "--misc-key", "ner", "-o", "json"]) == 0
    exact = json.loads(capsys.readouterr().out)["exact"]
    assert (exact["micro"]["tp"], exact["micro"]["fp"], exact["micro"]["fn"]) == (224, 0, 0)


def naive_prodigy(path: Path) -> list[list[tuple[int, int, str]]]:
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        task = json.loads(line)
        for span in task["spans"]:
            assert task["text"][span["start"] : span["end"]] == span.get(
                "text", task["text"][span["start"] : span["end"]]
            )
        docs.append([(s["start"], s["end"], s["label"]) for s in task["spans"]])
    return docs


@pytest.mark.parametrize("path", [DEMO_JSONL, EMERSON], ids=["tokens", "db-out"])
def test_prodigy_exports(path: Path) -> None:
    assert sniff_format(str(path)) == "spacy-jsonl"
    spans, _ = read_spacy_jsonl(str(path))
    assert spans.documents() == naive_prodigy(path)


def test_prodigy_export_counts() -> None:
    assert naive_prodigy(DEMO_JSONL) == [[(11, 21, "PERSON")]]
    emerson = naive_prodigy(EMERSON)
    assert (len(emerson), sum(map(len, emerson))) == (30, 30)


def test_a_real_docbin_and_its_prodigy_twin(capsys: pytest.CaptureFixture[str]) -> None:
    peer("spacy")
    from nerve.io.tools.spacy import read_spacy

    assert sniff_format(str(DEMO_DOCBIN)) == "spacy"
    assert read_spacy(str(DEMO_DOCBIN))[0].documents() == [[(11, 21, "PERSON")]]
    assert main(["score", str(DEMO_DOCBIN), str(DEMO_DOCBIN), "-o", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["micro"]["tp"] == 1


def test_validate_takes_the_span_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(ARABIZI), "--misc-key", "ner"]) == 0
    assert capsys.readouterr().out == "valid: conllu spans\n"
    assert main(["validate", str(ARABIZI)]) == 1  # the key the file lacks is a problem, with its fix
    assert "give the key the file uses with --column" in capsys.readouterr().out
    # Options of the other kind of input are refused, not ignored.
    assert main(["validate", str(ARABIZI), "--misc-key", "ner", "--scheme", "IOB2"]) == 2
    err = capsys.readouterr().err
    assert err == "nerve: error: --scheme: applies to tagged (CoNLL) input, but the input reads as conllu\n"
    news = str(Path(__file__).parents[2] / "examples" / "news.conll")
    assert main(["validate", news, "--misc-key", "ner"]) == 2
    assert capsys.readouterr().err == "nerve: error: --column: does not apply to conll input\n"
