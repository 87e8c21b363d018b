"""Every reader on hostile input: an emoji before a span, CRLF line ends, a UTF-8 byte order mark, an
empty document. Each gives the spans a naive reading expects (offsets found with ``str.index``,
tokens counted one by one), or, where the format cannot hold the input, one line with exit status 2.

Character offsets count code points, as Python does: an emoji before a span moves it by one, not
by the two UTF-16 units JavaScript counts (Label Studio's ``--offsets utf16`` converts those).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import nerve
from conftest import peer
from nerve.cli import main
from nerve.io.spans import read_span_columns

EMOJI = "\U0001f600"  # outside the BMP: one code point, two UTF-16 units, four UTF-8 bytes
BOM = b"\xef\xbb\xbf"
ENTITIES = [("John", "PER"), ("Paris", "LOC")]
TEXTS = {
    "plain": "John went to Paris.",
    "emoji": f"{EMOJI} John {EMOJI}{EMOJI} went to Paris.",
    "newline": f"{EMOJI}\nJohn went\r\nto Paris.",
    "empty": "",
}
Spans = list[list[tuple[int, int, str]]]


def naive(text: str) -> list[tuple[int, int, str]]:
    """The entities of ``text`` at the code points ``str.index`` finds them (none in an empty text)."""
    out = []
    for surface, label in ENTITIES:
        if surface in text:
            i = text.index(surface)
            out.append((i, i + len(surface), label))
    return out


def utf16(text: str, i: int) -> int:
    """The UTF-16 offset of code point ``i``, as JavaScript (and older Label Studio) counts."""
    return len(text[:i].encode("utf-16-le")) // 2


def hostile(lines: list[str], crlf: bool, bom: bool) -> bytes:
    data = ("\r\n" if crlf else "\n").join(lines) + ("\r\n" if crlf else "\n")
    return (BOM if bom else b"") + data.encode("utf-8")


def read(path: Path, fmt: str, *options: str) -> Spans:
    units = options[0] if options else None
    gold, _ = read_span_columns(str(path), str(path), fmt=fmt, units=units)
    return gold.documents()


LINE_ENDS = [(False, False), (True, False), (False, True), (True, True)]
IDS = ["lf", "crlf", "bom", "crlf-bom"]


# --------------------------------------------------------------------------------------------
# Character offsets: every document of TEXTS, one file, with each line end and with a BOM.


def jsonl_doc(text: str) -> str:
    spans = [{"start": s, "end": e, "label": t, "text": text[s:e]} for s, e, t in naive(text)]
    return json.dumps({"text": text, "spans": spans})


def doccano_doc(text: str) -> str:
    return json.dumps({"text": text, "label": [[s, e, t] for s, e, t in naive(text)]})


def spacy_doc(text: str) -> str:
    return json.dumps(
        {"text": text, "spans": [{"start": s, "end": e, "label": t} for s, e, t in naive(text)]}
    )


CHAR_FORMATS: dict[str, tuple[str, Callable[[str], str]]] = {
    "jsonl": ("s.jsonl", jsonl_doc),
    "doccano": ("d.jsonl", doccano_doc),
    "spacy-jsonl": ("p.jsonl", spacy_doc),
}


@pytest.mark.parametrize(("crlf", "bom"), LINE_ENDS, ids=IDS)
@pytest.mark.parametrize("fmt", list(CHAR_FORMATS))
def test_jsonl_formats_count_code_points(tmp_path: Path, fmt: str, crlf: bool, bom: bool) -> None:
    name, doc = CHAR_FORMATS[fmt]
    path = tmp_path / name
    path.write_bytes(hostile([doc(t) for t in TEXTS.values()], crlf, bom))
    assert read(path, fmt) == [naive(t) for t in TEXTS.values()]
    sniffed, _ = read_span_columns(str(path), str(path))  # the BOM does not hide the format either
    assert sniffed.documents() == [naive(t) for t in TEXTS.values()]


@pytest.mark.parametrize("bom", [False, True])
def test_json_list_with_bom(tmp_path: Path, bom: bool) -> None:
    path = tmp_path / "s.json"
    path.write_bytes((BOM if bom else b"") + f"[{','.join(map(jsonl_doc, TEXTS.values()))}]\r\n".encode())
    assert read(path, "json") == [naive(t) for t in TEXTS.values()]


def labelstudio_task(text: str, units: str) -> dict[str, object]:
    at = (lambda i: utf16(text, i)) if units == "utf16" else (lambda i: i)
    results = [
        {
            "type": "labels",
            "from_name": "label",
            "to_name": "text",
            "value": {"start": at(s), "end": at(e), "text": text[s:e], "labels": [t]},
        }
        for s, e, t in naive(text)
    ]
    return {"data": {"text": text}, "annotations": [{"result": results}]}


@pytest.mark.parametrize("given", [None, "utf16", "char"])
@pytest.mark.parametrize("units", ["utf16", "char"])
@pytest.mark.parametrize("bom", [False, True])
def test_labelstudio_utf16_and_character_offsets(
    tmp_path: Path, units: str, given: str | None, bom: bool
) -> None:
    """UTF-16 offsets (JavaScript's) and code points: told, or told apart by the span texts."""
    path = tmp_path / "l.json"
    tasks = [labelstudio_task(t, units) for t in TEXTS.values()]
    path.write_bytes((BOM if bom else b"") + json.dumps(tasks, indent=1).replace("\n", "\r\n").encode())
    expected = [naive(t) for t in TEXTS.values()]
    if given is None or given == units:
        assert read(path, "labelstudio", *([given] if given else [])) == expected
        return
    with pytest.raises(nerve.InputError) as err:  # told the wrong units: the texts do not match
        read(path, "labelstudio", given)
    assert "task 1" in str(err.value)
    assert "result 0" in str(err.value)


# --------------------------------------------------------------------------------------------
# brat: the .txt's code points, CR LF two of them and a BOM one, as Python reads the file.


@pytest.mark.parametrize(("crlf", "bom"), LINE_ENDS, ids=IDS)
def test_brat_counts_the_txt_code_points(tmp_path: Path, crlf: bool, bom: bool) -> None:
    expected = []
    for n, text in enumerate(TEXTS.values()):
        data = text.replace("\r\n", "\n").replace("\n", "\r\n" if crlf else "\n")
        read_text = ("\ufeff" if bom else "") + data
        (tmp_path / f"{n}.txt").write_bytes((BOM if bom else b"") + data.encode("utf-8"))
        spans = naive(read_text)
        lines = [f"T{k + 1}\t{t} {s} {e}\t{read_text[s:e]}" for k, (s, e, t) in enumerate(spans)]
        (tmp_path / f"{n}.ann").write_bytes(hostile(lines, crlf, False) if lines else b"")
        expected.append(spans)
    assert read(tmp_path, "brat") == expected


def test_brat_offsets_of_brats_server_are_moved_to_the_files_characters(tmp_path: Path) -> None:
    """brat's server counts CR LF as one character and skips the BOM: such offsets are moved."""
    text = "\ufeffA\r\nJohn"
    (tmp_path / "a.txt").write_bytes(text.encode("utf-8"))
    (tmp_path / "a.ann").write_text("T1\tPER 2 6\tJohn\n")  # in "A\nJohn"
    gold, _ = read_span_columns(str(tmp_path), str(tmp_path), fmt="brat")
    assert gold.documents() == [naive(text)]


# --------------------------------------------------------------------------------------------
# Token offsets: an emoji token before an entity is one token.

TOKENS = {
    "plain": ["John", "went", "to", "Paris"],
    "emoji": [EMOJI, "John", EMOJI + EMOJI, "went", "to", "Paris"],
}


def token_spans(tokens: list[str]) -> list[tuple[int, int, str]]:
    return [(tokens.index(s), tokens.index(s) + 1, t) for s, t in ENTITIES]


def tags(tokens: list[str]) -> list[str]:
    found = {tokens.index(s): t for s, t in ENTITIES}
    return [f"B-{found[i]}" if i in found else "O" for i in range(len(tokens))]


@pytest.mark.parametrize(("crlf", "bom"), LINE_ENDS, ids=IDS)
def test_nested_json_tokens(tmp_path: Path, crlf: bool, bom: bool) -> None:
    docs = [
        json.dumps(
            {"doc_key": k, "sentences": [toks], "ner": [[[s, e - 1, t] for s, e, t in token_spans(toks)]]}
        )
        for k, toks in TOKENS.items()
    ]
    docs.append(json.dumps({"doc_key": "empty", "sentences": [], "ner": []}))
    path = tmp_path / "n.jsonl"
    path.write_bytes(hostile(docs, crlf, bom))
    assert read(path, "nested") == [*(token_spans(t) for t in TOKENS.values()), []]


HIPE_HEAD = (
    "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\tNE-NESTED\t"
    "NEL-LIT\tNEL-METO\tMISC"
)


@pytest.mark.parametrize(("crlf", "bom"), LINE_ENDS, ids=IDS)
def test_hipe_tokens(tmp_path: Path, crlf: bool, bom: bool) -> None:
    lines = [HIPE_HEAD]
    for k, toks in TOKENS.items():
        lines.append(f"# hipe2022:document_id = {k}")
        lines += [f"{w}\t{t}\tO\tO\tO\tO\tO\t_\t_\t_" for w, t in zip(toks, tags(toks), strict=True)]
        lines.append("")
    lines.append("# hipe2022:document_id = empty")
    path = tmp_path / "h.tsv"
    path.write_bytes(hostile(lines, crlf, bom))
    assert read(path, "hipe") == [*(token_spans(t) for t in TOKENS.values()), []]
    sniffed, _ = read_span_columns(str(path), str(path))
    assert sniffed.documents() == [*(token_spans(t) for t in TOKENS.values()), []]


@pytest.mark.parametrize(("crlf", "bom"), LINE_ENDS, ids=IDS)
def test_conllu_tokens(tmp_path: Path, crlf: bool, bom: bool) -> None:
    lines = []
    for k, toks in TOKENS.items():
        lines += [f"# newdoc id = {k}", f"# text = {' '.join(toks)}"]
        lines += [
            f"{i + 1}\t{w}\t_\t_\t_\t_\t_\t_\t_\tNER={t}"
            for i, (w, t) in enumerate(zip(toks, tags(toks), strict=True))
        ]
        lines.append("")
    path = tmp_path / "c.conllu"
    path.write_bytes(hostile(lines, crlf, bom))
    assert read(path, "conllu") == [token_spans(t) for t in TOKENS.values()]


def test_empty_conllu_and_hipe_files_have_no_documents(tmp_path: Path) -> None:
    (tmp_path / "c.conllu").write_bytes(BOM)
    assert read(tmp_path / "c.conllu", "conllu") == []
    (tmp_path / "h.tsv").write_bytes(BOM + (HIPE_HEAD + "\r\n").encode())
    assert read(tmp_path / "h.tsv", "hipe") == []


@pytest.mark.parametrize(("crlf", "bom"), LINE_ENDS, ids=IDS)
def test_conll_tags(tmp_path: Path, crlf: bool, bom: bool, capsys: pytest.CaptureFixture[str]) -> None:
    """A merged CoNLL file: the emoji tokens are tokens; the prediction misses one entity."""
    lines = []
    for toks in TOKENS.values():
        gold = tags(toks)
        pred = ["O" if w == "Paris" else t for w, t in zip(toks, gold, strict=True)]
        lines += [f"{w} {g} {p}" for w, g, p in zip(toks, gold, pred, strict=True)]
        lines.append("")
    path = tmp_path / "t.conll"
    path.write_bytes(hostile(lines, crlf, bom))
    result = nerve.score(str(path))
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (2, 0, 2)
    assert result.tokens.count == sum(map(len, TOKENS.values()))
    empty = tmp_path / "e.conll"
    empty.write_bytes(BOM + b"\r\n")
    assert main(["score", str(empty), "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["micro"]["gold"] == 0


def test_spacy_docbin_emoji_and_empty_doc(tmp_path: Path) -> None:
    spacy = peer("spacy")
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    bin_ = DocBin()
    texts = [TEXTS["emoji"], TEXTS["empty"]]
    for text in texts:
        doc = nlp(text)
        doc.ents = [doc.char_span(s, e, label=t) for s, e, t in naive(text)]
        bin_.add(doc)
    path = tmp_path / "d.spacy"
    bin_.to_disk(path)
    assert read(path, "spacy") == [naive(t) for t in texts]
