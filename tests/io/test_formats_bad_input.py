"""Bad input for every reader, through the real ``nerve score`` command: exit status 2 and one line
naming the file, the line (or the document and the span), and what fixes it.

Issue 14, "Bad input": a malformed line (a brat ``T`` line without offsets, JSON that does not parse,
a TSV row with too few columns), offsets outside the text, an entity text that does not match, a
fragment list out of order, a ClassLabel id outside the names, a ``.ann`` without its ``.txt``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import nerve
from cli_errors import cli_error
from conftest import peer
from nerve.cli import main

HIPE_HEAD = (
    "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\tNE-NESTED\t"
    "NEL-LIT\tNEL-METO\tMISC\n# hipe2022:document_id = d1\n"
)
HIPE_ROW = "\tO\tO\tO\tO\tO\tO\t_\t_\t_\n"
CONLLU_ROW = "\t_\t_\t_\t_\t_\t_\t_\t"


def labelstudio(start: int, end: int, text: str, units_text: str = "John lives") -> str:
    value = {"start": start, "end": end, "text": text, "labels": ["PER"]}
    result = {"type": "labels", "from_name": "label", "to_name": "text", "value": value}
    return json.dumps([{"id": 7, "data": {"text": units_text}, "annotations": [{"result": [result]}]}])


def jsonl(*docs: object) -> str:
    return "".join(json.dumps(d) + "\n" for d in docs)


def span(start: int, end: int, text: str | None = None) -> dict[str, object]:
    out: dict[str, object] = {"start": start, "end": end, "label": "PER"}
    if text is not None:
        out["text"] = text
    return out


A_TEXT, B_TEXT = "John lives in Paris", "Mary works"
A_TOKENS, B_TOKENS = A_TEXT.split(), B_TEXT.split()


def json_docs(docs: list[tuple[str, list[tuple[int, int]]]]) -> str:
    return json.dumps([{"text": t, "spans": [span(s, e) for s, e in spans]} for t, spans in docs])


def jsonl_docs(docs: list[tuple[str, list[tuple[int, int]]]]) -> str:
    return jsonl(*({"text": t, "spans": [span(s, e) for s, e in spans]} for t, spans in docs))


def token_docs(docs: list[tuple[list[str], list[tuple[int, int]]]]) -> str:
    return jsonl(*({"tokens": t, "spans": [span(s, e) for s, e in spans]} for t, spans in docs))


def nested_docs(docs: list[tuple[list[str], list[tuple[int, int]]]]) -> str:
    return jsonl(*({"sentences": [t], "ner": [[[s, e - 1, "PER"] for s, e in spans]]} for t, spans in docs))


def record_docs(docs: list[tuple[list[str], list[tuple[int, int]]]]) -> str:
    return jsonl(
        *(
            {"tokens": t, "entities": [{"start": s, "end": e, "type": "PER"} for s, e in spans]}
            for t, spans in docs
        )
    )


def doccano_docs(docs: list[tuple[str, list[tuple[int, int]]]]) -> str:
    return jsonl(*({"text": t, "label": [[s, e, "PER"] for s, e in spans]} for t, spans in docs))


def labelstudio_docs(docs: list[tuple[str, list[tuple[int, int]]]]) -> str:
    def result(s: int, e: int) -> dict[str, object]:
        value = {"start": s, "end": e, "labels": ["PER"]}
        return {"type": "labels", "from_name": "label", "to_name": "text", "value": value}

    tasks = [
        {"data": {"text": t}, "annotations": [{"result": [result(s, e) for s, e in spans]}]}
        for t, spans in docs
    ]
    return json.dumps(tasks)


TEXT_A, TEXT_B, TEXT_C = (A_TEXT, [(0, 4)]), (B_TEXT, [(0, 4)]), ("Mary walks", [(0, 4)])
TOKENS_A, TOKENS_B, TOKENS_C = (A_TOKENS, [(0, 1)]), (B_TOKENS, [(0, 1)]), (["Mary", "walks"], [(0, 1)])


class Pairable(NamedTuple):
    """A span format whose two files pair documents in order: its suffix, a writer of documents,
    three documents (B and C differ at ``unit`` ``offset``), what a document is called, and how
    the refusal names the place (with the line, or without one for a JSON list)."""

    fmt: str
    ext: str
    write: Callable[[list[Any]], str]
    docs: tuple[Any, Any, Any]
    noun: str = "document"
    at: str = ":1: "
    unit: str = "character 6"


TOKENS = (TOKENS_A, TOKENS_B, TOKENS_C)
TEXTS = (TEXT_A, TEXT_B, TEXT_C)
PAIRABLE = {
    "jsonl": Pairable("jsonl", ".jsonl", jsonl_docs, TEXTS),
    "json": Pairable("json", ".json", json_docs, TEXTS, at=": "),
    "jsonl-tokens": Pairable("jsonl", ".jsonl", token_docs, TOKENS, unit="token 1"),
    "nested-dygie": Pairable("nested", ".jsonl", nested_docs, TOKENS, unit="token 1"),
    "nested-records": Pairable("nested", ".jsonl", record_docs, TOKENS, unit="token 1"),
    "doccano": Pairable("doccano", ".jsonl", doccano_docs, TEXTS),
    "labelstudio": Pairable("labelstudio", ".json", labelstudio_docs, TEXTS, "task", ": "),
    "spacy-jsonl": Pairable("spacy-jsonl", ".jsonl", jsonl_docs, TEXTS),
}


class Case(NamedTuple):
    """Files written under a fresh directory, the arguments after ``score`` (``{d}`` is that directory),
    and what the one line of stderr must hold: the file, the place, and the fix."""

    files: dict[str, str]
    args: tuple[str, ...]
    where: tuple[str, ...]
    fix: str


GOOD_DOC = {"text": "John lives", "spans": [span(0, 4, "John")]}
NESTED_DOC = {"doc_key": 1, "sentences": [["John"]], "ner": [[[0, 0, "PER"]]]}
CONLL_GOLD = "John B-PER\nlives O\nin O\n\nParis B-LOC\n"
CASES = {
    # brat standoff
    "brat-T-line-without-offsets": Case(
        {"b/a.txt": "John lives.\n", "b/a.ann": "T1\tPER\tJohn\n"},
        ("{d}/b",),
        ("a.ann:1:", "T1"),
        "expected T1<TAB>TYPE START END<TAB>TEXT",
    ),
    "brat-offset-outside-text": Case(
        {"b/a.txt": "John lives.\n", "b/a.ann": "T1\tPER 0 4\tJohn\nT2\tLOC 5 40\tlives\n"},
        ("{d}/b",),
        ("a.ann:2:", "entity T2", "offset 40"),
        "expected offsets within it",
    ),
    "brat-text-mismatch": Case(
        {"b/a.txt": "John lives.\n", "b/a.ann": "T1\tPER 0 4\tJohx\n"},
        ("{d}/b",),
        ("a.ann:1:", "entity T1", "'John'", "'Johx'"),
        "--lenient",
    ),
    "brat-fragments-out-of-order": Case(
        {"b/a.txt": "John lives.\n", "b/a.ann": "T1\tPER 5 10;0 4\tlives John\n"},
        ("{d}/b",),
        ("a.ann:1:", "entity T1", "piece 0 4"),
        "expected pieces in order",
    ),
    "brat-ann-without-txt-directory": Case(
        {"b/a.ann": "T1\tPER 0 4\tJohn\n"},
        ("{d}/b",),
        ("a.ann:", "a.txt"),
        "expected it there",
    ),
    "brat-ann-without-txt-file": Case(
        {"b/a.ann": "T1\tPER 0 4\tJohn\n"},
        ("{d}/b/a.ann",),
        ("a.ann:", "a.txt"),
        "expected it there",
    ),
    "brat-prediction-text-mismatch": Case(
        {"g/a.txt": "John.\n", "g/a.ann": "T1\tPER 0 4\tJohn\n", "p/a.ann": "T1\tPER 0 4\tJo\n"},
        ("{d}/g", "{d}/p"),
        ("p/a.ann:1:", "entity T1"),
        "--lenient",
    ),
    # JSON / JSONL spans
    "jsonl-malformed-line": Case(
        {"s.jsonl": jsonl(GOOD_DOC) + '{"text": "x", "spans": [\n'},
        ("{d}/s.jsonl",),
        ("s.jsonl", "line 2", "malformed JSON"),
        "expected one complete JSON value a line",
    ),
    "json-malformed-file": Case(
        {"s.json": json.dumps([GOOD_DOC])[:-3]},
        ("{d}/s.json",),
        ("s.json", "malformed JSON"),
        "expected one JSON value",
    ),
    "jsonl-offset-outside-text": Case(
        {"s.jsonl": jsonl(GOOD_DOC, {"text": "Ann", "spans": [span(0, 3), span(1, 9)]})},
        ("{d}/s.jsonl",),
        ("s.jsonl:2:", "document 1", "span 1", "end 9"),
        "expected offsets within it",
    ),
    "jsonl-text-mismatch": Case(
        {"s.jsonl": jsonl({"text": "John lives", "spans": [span(0, 4, "John"), span(5, 10, "live")]})},
        ("{d}/s.jsonl",),
        ("s.jsonl:1:", "document 0", "span 1", "'lives'", "'live'"),
        "--lenient",
    ),
    "jsonl-token-mismatch": Case(
        {"s.jsonl": jsonl({"tokens": ["John", "lives"], "spans": [span(0, 2, "John")]})},
        ("{d}/s.jsonl",),
        ("s.jsonl:1:", "document 0", "span 0", "'John lives'"),
        "--lenient",
    ),
    "jsonl-token-offset-outside": Case(
        {"s.jsonl": jsonl({"tokens": ["John"], "spans": [span(0, 2)]})},
        ("{d}/s.jsonl",),
        ("s.jsonl:1:", "document 0", "span 0", "end 2"),
        "beyond the 1 token",
    ),
    "jsonl-reversed-span": Case(
        {"s.jsonl": jsonl({"text": "John", "spans": [span(3, 1)]})},
        ("{d}/s.jsonl",),
        ("s.jsonl:1:", "document 0", "span 0"),
        "expected 0 <= start < end",
    ),
    # doccano
    "doccano-malformed-line": Case(
        {"d.jsonl": '{"text": "John", "label": [[0, 4, "PER"]]}\n{"text": "x", "label": [[0, 1\n'},
        ("{d}/d.jsonl", "--format", "doccano"),
        ("d.jsonl", "line 2", "malformed JSON"),
        "expected one complete JSON value a line",
    ),
    "doccano-offset-outside-text": Case(
        {"d.jsonl": '{"text": "John", "label": [[0, 4, "PER"], [2, 9, "LOC"]]}\n'},
        ("{d}/d.jsonl",),
        ("d.jsonl:1:", "document 0", "span 1", "end 9"),
        "expected offsets within it",
    ),
    "doccano-span-of-two-values": Case(
        {"d.jsonl": '{"text": "John", "label": [[0, "PER"]]}\n'},
        ("{d}/d.jsonl",),
        ("d.jsonl:1:", "document 0", "span 0"),
        'expected [start, end, "TYPE"]',
    ),
    # Label Studio
    "labelstudio-malformed": Case(
        {"l.json": labelstudio(0, 4, "John")[:-5]},
        ("{d}/l.json", "--format", "labelstudio"),
        ("l.json", "malformed JSON"),
        "expected one JSON value",
    ),
    "labelstudio-offset-outside-text": Case(
        {"l.json": labelstudio(0, 40, "John")},
        ("{d}/l.json",),
        ("l.json", "task 0 (id 7)", "annotations", "result 0", "end 40"),
        "expected offsets within it",
    ),
    "labelstudio-text-mismatch": Case(
        {"l.json": labelstudio(0, 4, "Jon")},
        ("{d}/l.json",),
        ("l.json", "task 0 (id 7)", "result 0", "'John'", "'Jon'"),
        "--lenient",
    ),
    "labelstudio-utf16-inside-a-character": Case(
        {"l.json": labelstudio(1, 3, "x", "😀x")},
        ("{d}/l.json", "--offsets", "utf16"),
        ("l.json", "task 0 (id 7)", "result 0", "UTF-16 offsets 1, 3"),
        "fall inside a character",
    ),
    # HIPE and CoNLL-U: rows with too few columns
    "hipe-row-too-few-columns": Case(
        {"h.tsv": HIPE_HEAD + "John" + HIPE_ROW + "lives\tO\n"},
        ("{d}/h.tsv",),
        ("h.tsv:4:",),
        "expected 10 as in the header",
    ),
    "conllu-row-too-few-columns": Case(
        {"c.conllu": "1\tJohn" + CONLLU_ROW + "NER=B-PER\n2\tlives\t_\t_\n\n"},
        ("{d}/c.conllu",),
        ("c.conllu:2:",),
        "expected the 10 of CoNLL-U",
    ),
    # DyGIE++ nested JSON
    "nested-malformed-line": Case(
        {"n.jsonl": '{"doc_key": 1, "sentences": [["John"]], "ner": [[[0, 0, "PER"]]\n'},
        ("{d}/n.jsonl", "--format", "nested"),
        ("n.jsonl", "line 1", "malformed JSON"),
        "expected one complete JSON value a line",
    ),
    "nested-entity-outside-sentence": Case(
        {"n.jsonl": jsonl({"sentences": [["John", "lives"]], "ner": [[[0, 0, "X"], [0, 5, "X"]]]})},
        ("{d}/n.jsonl", "--format", "nested"),
        ("n.jsonl:1:", "document 0", "sentence 0, entity 1"),
        "ends are inclusive",
    ),
    "nested-entity-of-two-values": Case(
        {"n.jsonl": '{"doc_key": 1, "sentences": [["John"]], "ner": [[[0, "PER"]]]}\n'},
        ("{d}/n.jsonl", "--format", "nested"),
        ("n.jsonl:1:", "document 0", "sentence 0, entity 0"),
        "expected [start, end, type]",
    ),
    # spaCy JSONL (and a DocBin that is none)
    "spacy-jsonl-malformed-line": Case(
        {"s.jsonl": '{"text": "John", "spans": [{"start": 0, "end": 4, "label": "PER"}\n'},
        ("{d}/s.jsonl", "--format", "spacy-jsonl"),
        ("s.jsonl", "line 1", "malformed JSON"),
        "expected one complete JSON value a line",
    ),
    "spacy-jsonl-offset-outside-text": Case(
        {"s.jsonl": jsonl({"text": "John", "spans": [span(0, 40)]})},
        ("{d}/s.jsonl", "--format", "spacy-jsonl"),
        ("s.jsonl:1:", "document 0", "span 0", "end 40"),
        "expected offsets within it",
    ),
    "spacy-jsonl-text-mismatch": Case(
        {"s.jsonl": jsonl({"text": "John", "spans": [span(0, 4, "Jo")]})},
        ("{d}/s.jsonl", "--format", "spacy-jsonl"),
        ("s.jsonl:1:", "document 0", "span 0"),
        "--lenient",
    ),
    "spacy-docbin-that-is-none": Case(
        {"x.spacy": "not a DocBin"},
        ("{d}/x.spacy",),
        ("x.spacy",),
        "cannot be read as a spaCy DocBin",
    ),
    # CoNLL tag columns
    "conll-row-too-few-columns": Case(
        {"t.conll": "John B-PER B-PER\nlives O\n"},
        ("{d}/t.conll",),
        ("t.conll:2:",),
        "expected 3 columns",
    ),
    # Misaligned documents: a prediction file that does not pair with the gold file, for every
    # reader that pairs two files (a token row missing, a document missing or on one side only).
    "conll-prediction-line-missing": Case(
        {"g.conll": CONLL_GOLD, "p.conll": CONLL_GOLD.replace("lives O\n", "")},
        ("{d}/g.conll", "{d}/p.conll"),
        ("g.conll:2:", "p.conll:2:", "'lives O' vs 'in O'", "seems to lack this line"),
        "the files must align line by line",
    ),
    "conll-tags-only-prediction-line-missing": Case(
        {"g.conll": CONLL_GOLD, "p.conll": "B-PER\nO\n\nB-LOC\n"},
        ("{d}/g.conll", "{d}/p.conll"),
        ("g.conll:3:", "p.conll:3:"),
        "the files must align line by line",
    ),
    "conll-prediction-document-missing": Case(
        {
            "g.conll": "-DOCSTART- O\n\n" + CONLL_GOLD + "\n-DOCSTART- O\n\nRome B-LOC\n",
            "p.conll": CONLL_GOLD,
        },
        ("{d}/g.conll", "{d}/p.conll"),
        ("g.conll:", "Rome B-LOC"),
        "the files must align line by line",
    ),
    "conll-directories-file-on-one-side": Case(
        {"g/a.conll": CONLL_GOLD, "g/b.conll": CONLL_GOLD, "p/a.conll": CONLL_GOLD},
        ("{d}/g", "{d}/p", "--pattern", "*.conll"),
        ("g/b.conll", "under"),
        "has no counterpart b.conll",
    ),
    "conll-directories-pair-misaligned": Case(
        {"g/a.conll": CONLL_GOLD, "p/a.conll": CONLL_GOLD.replace("in O\n", "")},
        ("{d}/g", "{d}/p", "--pattern", "*.conll"),
        ("g/a.conll:3:", "p/a.conll:3:"),
        "the files must align line by line",
    ),
    "hipe-prediction-row-missing": Case(
        {"g.tsv": HIPE_HEAD + "John" + HIPE_ROW + "lives" + HIPE_ROW, "p.tsv": HIPE_HEAD + "John" + HIPE_ROW},
        ("{d}/g.tsv", "{d}/p.tsv"),
        ("p.tsv:", "g.tsv:4", "(document 0)", "'lives'"),
        "must hold the gold file's tokens, sentences and documents",
    ),
    "hipe-prediction-document-missing": Case(
        {
            "g.tsv": HIPE_HEAD + "John" + HIPE_ROW + "# hipe2022:document_id = d2\nlives" + HIPE_ROW,
            "p.tsv": HIPE_HEAD + "John" + HIPE_ROW + "lives" + HIPE_ROW,
        },
        ("{d}/g.tsv", "{d}/p.tsv"),
        ("p.tsv:4:", "g.tsv:5", "document 0", "document 1"),
        "must hold the gold file's tokens, sentences and documents",
    ),
    "conllu-prediction-word-missing": Case(
        {
            "g.conllu": "1\tJohn" + CONLLU_ROW + "NER=B-PER\n2\tlives" + CONLLU_ROW + "NER=O\n\n",
            "p.conllu": "1\tlives" + CONLLU_ROW + "NER=O\n\n",
        },
        ("{d}/g.conllu", "{d}/p.conllu"),
        ("p.conllu:1:", "'lives'", "'John'", "g.conllu:1"),
        "must hold the gold file's tokens, sentences and documents",
    ),
    "conllu-id-not-a-number": Case(
        {"c.conllu": "1\tJohn" + CONLLU_ROW + "NER=B-PER\nx\tlives" + CONLLU_ROW + "NER=O\n\n"},
        ("{d}/c.conllu",),
        ("c.conllu:2:", "ID 'x'"),
        "expected a number (1), a range of words (1-2) or an empty node (1.1)",
    ),
    "conllu-value-with-two-equals-signs": Case(
        {"c.conllu": "1\tJohn" + CONLLU_ROW + "NER=I-PER=X\n\n"},
        ("{d}/c.conllu",),
        ("c.conllu:1:", "'I-PER=X'"),
        "expected NER=TAG",
    ),
    "jsonl-prediction-document-missing": Case(
        {"g.jsonl": jsonl(GOOD_DOC, GOOD_DOC), "p.jsonl": jsonl(GOOD_DOC)},
        ("{d}/g.jsonl", "{d}/p.jsonl"),
        ("p.jsonl", "has 1 document"),
        "but the gold has 2",
    ),
    "json-prediction-document-missing": Case(
        {"g.json": json.dumps([GOOD_DOC, GOOD_DOC]), "p.json": json.dumps([GOOD_DOC])},
        ("{d}/g.json", "{d}/p.json"),
        ("p.json", "has 1 document"),
        "but the gold has 2",
    ),
    "nested-prediction-document-missing": Case(
        {"g.jsonl": jsonl(NESTED_DOC, NESTED_DOC), "p.jsonl": jsonl(NESTED_DOC)},
        ("{d}/g.jsonl", "{d}/p.jsonl", "--format", "nested"),
        ("p.jsonl", "has 1 document"),
        "but the gold has 2",
    ),
    "doccano-prediction-other-text": Case(
        {
            "g.jsonl": '{"text": "John", "label": [[0, 4, "PER"]]}\n',
            "p.jsonl": '{"text": "Jon", "label": []}\n',
        },
        ("{d}/g.jsonl", "{d}/p.jsonl", "--format", "doccano"),
        ("p.jsonl:1:", "document 0", "'Jon' vs 'John'"),
        "its text is not the gold's",
    ),
    "spacy-jsonl-prediction-other-text": Case(
        {
            "g.jsonl": jsonl({"text": "John", "spans": [span(0, 4)]}),
            "p.jsonl": jsonl({"text": "Jon", "spans": []}),
        },
        ("{d}/g.jsonl", "{d}/p.jsonl", "--format", "spacy-jsonl"),
        ("p.jsonl:1:", "document 0", "'Jon' vs 'John'"),
        "its text is not the gold's",
    ),
    "labelstudio-prediction-other-text": Case(
        {"g.json": labelstudio(0, 4, "John"), "p.json": labelstudio(0, 4, "Jane", "Jane lives")},
        ("{d}/g.json", "{d}/p.json"),
        ("p.json", "task 0", "'Jane lives'"),
        "is not the gold's",
    ),
    # Misaligned documents, continued: the same number of documents in another order, or other
    # texts, for every span reader whose documents carry texts or ids (nervaluate's offset lists
    # carry neither; nereval and eval4ner hold both sides in one file; brat pairs by name).
    **{
        f"{name}-prediction-documents-reordered": Case(
            {f"g{f.ext}": f.write([f.docs[0], f.docs[1]]), f"p{f.ext}": f.write([f.docs[1], f.docs[0]])},
            (f"{{d}}/g{f.ext}", f"{{d}}/p{f.ext}", "--format", f.fmt),
            (f"p{f.ext}{f.at}{f.noun} 0", repr(A_TEXT), f"it is the gold's {f.noun} 1"),
            f"write the prediction {f.noun}s in the gold file's order",
        )
        for name, f in PAIRABLE.items()
    },
    **{
        f"{name}-prediction-document-with-other-text": Case(
            {f"g{f.ext}": f.write([f.docs[0], f.docs[1]]), f"p{f.ext}": f.write([f.docs[0], f.docs[2]])},
            (f"{{d}}/g{f.ext}", f"{{d}}/p{f.ext}", "--format", f.fmt),
            (f"{f.noun} 1", f"differ at {f.unit}", "'Mary walks' vs 'Mary works'"),
            f"give predictions for the gold file's {f.noun}s, in its order",
        )
        for name, f in PAIRABLE.items()
    },
    "jsonl-prediction-documents-with-other-ids": Case(
        {"g.jsonl": jsonl({"id": "a", **GOOD_DOC}), "p.jsonl": jsonl({"id": "b", **GOOD_DOC})},
        ("{d}/g.jsonl", "{d}/p.jsonl"),
        ("p.jsonl:1:", "document 0 (id 'b')", "its id is not the gold document 0's ('a')"),
        "give predictions for the gold file's documents, in its order",
    ),
    "jsonl-prediction-documents-reordered-by-id": Case(
        {
            "g.jsonl": jsonl(
                {"id": 1, "tokens": ["x"], "spans": []}, {"id": 2, "tokens": ["x"], "spans": []}
            ),
            "p.jsonl": jsonl(
                {"id": 2, "tokens": ["x"], "spans": []}, {"id": 1, "tokens": ["x"], "spans": []}
            ),
        },
        ("{d}/g.jsonl", "{d}/p.jsonl"),
        ("p.jsonl:1:", "document 0 (id '2')", "it is the gold's document 1"),
        "write the prediction documents in the gold file's order",
    ),
    "nested-prediction-documents-reordered-by-doc-key": Case(
        {
            "g.jsonl": jsonl(NESTED_DOC, {**NESTED_DOC, "doc_key": 2}),
            "p.jsonl": jsonl({**NESTED_DOC, "doc_key": 2}, NESTED_DOC),
        },
        ("{d}/g.jsonl", "{d}/p.jsonl", "--format", "nested"),
        ("p.jsonl:1:", "document 0 (id '2')", "it is the gold's document 1"),
        "write the prediction documents in the gold file's order",
    ),
    "hipe-prediction-documents-reordered": Case(
        {
            "g.tsv": HIPE_HEAD + "John" + HIPE_ROW + "# hipe2022:document_id = d2\nMary" + HIPE_ROW,
            "p.tsv": HIPE_HEAD.replace("d1", "d2")
            + "Mary"
            + HIPE_ROW
            + "# hipe2022:document_id = d1\nJohn"
            + HIPE_ROW,
        },
        ("{d}/g.tsv", "{d}/p.tsv"),
        ("p.tsv:3:", "token 'Mary' where the gold file has 'John'", "g.tsv:3)"),
        "must hold the gold file's tokens, sentences and documents, in order",
    ),
    "conllu-prediction-sentences-reordered": Case(
        {
            "g.conllu": "1\tJohn" + CONLLU_ROW + "NER=B-PER\n\n1\tMary" + CONLLU_ROW + "NER=O\n\n",
            "p.conllu": "1\tMary" + CONLLU_ROW + "NER=O\n\n1\tJohn" + CONLLU_ROW + "NER=B-PER\n\n",
        },
        ("{d}/g.conllu", "{d}/p.conllu"),
        ("p.conllu:1:", "token 'Mary' where the gold file has 'John'", "g.conllu:1)"),
        "must hold the gold file's tokens, sentences and documents, in order",
    ),
    "brat-prediction-txt-differs": Case(
        {"g/a.txt": "John.\n", "g/a.ann": "T1\tPER 0 4\tJohn\n", "p/a.txt": "Jane.\n", "p/a.ann": ""},
        ("{d}/g", "{d}/p"),
        ("p/a.txt:1:", "g/a.txt at character 1", "'Jane.\\n' vs 'John.\\n'"),
        "give the prediction directory the gold's .txt files, or none",
    ),
    "brat-prediction-document-missing": Case(
        {
            "g/a.txt": "John.\n",
            "g/a.ann": "T1\tPER 0 4\tJohn\n",
            "g/b.txt": "John.\n",
            "g/b.ann": "T1\tPER 0 4\tJohn\n",
            "p/a.ann": "T1\tPER 0 4\tJohn\n",
        },
        ("{d}/g", "{d}/p"),
        ("g/b.ann", "p/b.ann"),
        "documents are paired by name",
    ),
}


def score_fails(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    """``nerve score ARGS`` fails with status 2, nothing on stdout, one line on stderr: that line."""
    return cli_error(capsys, "score", *args)


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_bad_input_is_one_line_with_place_and_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Case
) -> None:
    if any(name.endswith(".spacy") for name in case.files):
        peer("spacy")
    for name, content in case.files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(content, encoding="utf-8")
    line = score_fails(capsys, [a.format(d=tmp_path) for a in case.args])
    assert line.startswith("nerve: error: "), line
    for fragment in (*case.where, case.fix):
        assert fragment in line, f"{fragment!r} not in {line!r}"


def test_bio_directories_with_a_document_on_one_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The misaligned-document case of BIO directories (text metrics pair documents by file name;
    tokens may differ, as the metrics compare texts)."""
    for side, names in (("l", ("a", "b")), ("p", ("a",))):
        (tmp_path / side).mkdir()
        for name in names:
            (tmp_path / side / f"{name}.bio").write_text("John B-PER\nlives O\n", encoding="utf-8")
    line = cli_error(capsys, "bow", "-l", str(tmp_path / "l"), "-p", str(tmp_path / "p"))
    assert f"{tmp_path / 'l'}: files are on one side only: 1 without a prediction (b.bio)" in line


def test_classlabel_id_outside_the_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pa = peer("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "h.parquet"
    pq.write_table(pa.table({"tokens": [["a", "b"], ["c", "d"]], "ner_tags": [[1, 2], [0, 7]]}), path)
    line = score_fails(capsys, [str(path), str(path), "--label-names", "O,B-X,I-X"])
    for fragment in ("h.parquet", "row 1, token 1", "tag id 7", "(0..2)", "--label-names"):
        assert fragment in line, line


def test_hf_row_with_fewer_tags_than_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pa = peer("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "h.parquet"
    pq.write_table(pa.table({"tokens": [["a"], ["b", "c"]], "ner_tags": [["O"], ["B-X"]]}), path)
    line = score_fails(capsys, [str(path), str(path)])
    for fragment in ("h.parquet", "row 1", "2 tokens but 1 tag", "expected one tag a token"):
        assert fragment in line, line


ROWS = {"id": ["a", "b"], "tokens": [["John", "lives"], ["Mary", "works"]], "ner_tags": [["B-PER", "O"]] * 2}


@pytest.mark.parametrize(
    ("pred", "where", "fix"),
    [
        (
            {k: v[::-1] for k, v in ROWS.items()},
            ("p.parquet", "row 0 (id 'b')", "'Mary works' vs 'John lives'", "it is the gold's row 1"),
            "write the prediction rows in the gold file's order",
        ),
        (
            {**ROWS, "tokens": [["John", "lives"], ["Mary", "walks"]]},
            ("p.parquet", "row 1 (id 'b')", "differ at token 1", "'Mary walks' vs 'Mary works'"),
            "give predictions for the gold file's rows, in its order",
        ),
        (
            {**ROWS, "id": ["a", "c"]},
            ("p.parquet", "row 1 (id 'c')", "its id is not the gold row 1's ('b')"),
            "give predictions for the gold file's rows, in its order",
        ),
        (
            {k: v[::-1] for k, v in ROWS.items() if k != "tokens"},
            ("p.parquet", "row 0 (id 'b')", "its id is not the gold row 0's ('a')", "it is the gold's row 1"),
            "write the prediction rows in the gold file's order",
        ),
    ],
    ids=["reordered", "other-tokens", "other-id", "reordered-ids-without-tokens"],
)
def test_hf_prediction_rows_that_are_not_the_golds(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    pred: dict[str, list[object]],
    where: tuple[str, ...],
    fix: str,
) -> None:
    """The misaligned-document case of Hugging Face datasets: rows paired by position, of the same
    lengths, but in another order or with other tokens or ids."""
    pa = peer("pyarrow")
    import pyarrow.parquet as pq

    gold, other = tmp_path / "g.parquet", tmp_path / "p.parquet"
    pq.write_table(pa.table(ROWS), gold)
    pq.write_table(pa.table(pred), other)
    line = score_fails(capsys, [str(gold), str(other)])
    for fragment in (*where, fix):
        assert fragment in line, line
    assert nerve.score(str(gold), str(gold)).exact.micro.f1 == 1.0


def test_every_problem_of_a_file_is_reported_not_only_the_first(tmp_path: Path) -> None:
    """Nothing is dropped silently: validating lists each bad span, the good ones are read."""
    from nerve.io.spans import validate_spans

    path = tmp_path / "s.jsonl"
    path.write_text(jsonl({"text": "John lives", "spans": [span(0, 4, "Jon"), span(5, 99), span(0, 4)]}))
    problems = validate_spans(str(path))
    assert [p.detail.split(":")[1].strip() for p in problems] == ["span 0", "span 1"]


# ---------------------------------------------------------------------------------------------
# --lenient: an entity text unlike its offsets' is an error by default; with --lenient it is scored
# as the offsets say and counted, per side, in the notes, and the signature says so.

MISMATCH = "entity texts that differ from the text at their offsets (lenient)"


def run_json(capsys: pytest.CaptureFixture[str], args: list[str]) -> dict[str, object]:
    code = main(["score", *args, "--output", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    result: dict[str, object] = json.loads(out)
    return result


def without_texts(doc: dict[str, object]) -> dict[str, object]:
    """The document with its spans' texts left out: the naive reference scores offsets alone."""
    return {
        k: [{f: x for f, x in s.items() if f != "text"} for s in v] if k != "text" else v
        for k, v in doc.items()
    }


LENIENT_DOC = {
    "text": "John lives in Paris",
    "gold": [span(0, 4, "Jon"), span(14, 19, "Paris")],
    "pred": [span(0, 4, "John"), span(5, 10, "live"), span(14, 19, "Pari")],
}


def test_lenient_counts_each_sides_mismatches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(jsonl(LENIENT_DOC))
    line = score_fails(capsys, [str(path)])
    assert "document 0 (line 1): span 0: text[0:4] is 'John', not 'Jon'" in line
    assert "--lenient" in line
    lenient = run_json(capsys, [str(path), "--lenient"])
    assert lenient["notes"] == {"gold": {MISMATCH: 1}, "pred": {MISMATCH: 2}}
    assert "| spans jsonl lenient |" in str(lenient["signature"])
    reference = tmp_path / "r.jsonl"
    reference.write_text(jsonl(without_texts(LENIENT_DOC)))
    plain = run_json(capsys, [str(reference)])
    assert lenient["exact"] == plain["exact"]
    assert "notes" not in plain


def test_lenient_counts_the_prediction_files_mismatches_as_predictions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    gold.write_text(jsonl({"text": "John", "spans": [span(0, 4, "John")]}))
    pred.write_text(jsonl({"text": "John", "spans": [span(0, 4, "Jo"), span(0, 2, "x")]}))
    assert "p.jsonl:1:" in score_fails(capsys, [str(gold), str(pred)])
    result = run_json(capsys, [str(gold), str(pred), "--lenient"])
    assert result["notes"] == {"pred": {MISMATCH: 2}}


def test_lenient_brat_directories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for side, ann in (("g", "T1\tPER 0 4\tJohn\n"), ("p", "T1\tPER 0 4\tJo\nT2\tLOC 5 10\tlive\n")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "a.txt").write_text("John lives\n")
        (tmp_path / side / "a.ann").write_text(ann)
    args = [str(tmp_path / "g"), str(tmp_path / "p")]
    assert "a.ann:1: entity T1" in score_fails(capsys, args)
    result = run_json(capsys, [*args, "--lenient"])
    assert result["notes"] == {"pred": {MISMATCH: 2}}
    assert result["exact"]["micro"]["tp"] == 1  # type: ignore[index]
    assert result["exact"]["micro"]["fp"] == 1  # type: ignore[index]


def test_lenient_labelstudio_annotations_and_predictions(tmp_path: Path) -> None:
    task = json.loads(labelstudio(0, 4, "Jon"))
    task[0]["predictions"] = [{"result": [dict(task[0]["annotations"][0]["result"][0])]}]
    task[0]["predictions"][0]["result"][0]["value"] = {"start": 5, "end": 10, "text": "l", "labels": ["X"]}
    path = tmp_path / "l.json"
    path.write_text(json.dumps(task))
    result = nerve.score(str(path), lenient=True)
    assert result.notes == {"gold": {MISMATCH: 1}, "pred": {MISMATCH: 1}}
    assert "spans labelstudio lenient" in result.signature


def test_lenient_table_prints_the_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(jsonl(LENIENT_DOC))
    assert main(["score", str(path), "--lenient"]) == 0
    out = capsys.readouterr().out
    assert f"notes gold: {MISMATCH}: 1" in out
    assert f"notes pred: {MISMATCH}: 2" in out


@pytest.mark.parametrize(
    ("name", "content"),
    [("t.conll", "John B-PER B-PER\n"), ("d.jsonl", '{"text": "John", "label": [[0, 4, "PER"]]}\n')],
    ids=["conll", "doccano"],
)
def test_lenient_is_refused_where_entities_carry_no_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    line = score_fails(capsys, [str(path), "--lenient"])
    takers = "json, jsonl, brat, hf-pipeline, labelstudio, spacy-jsonl"
    assert line.startswith(f"nerve: error: --lenient: applies to {takers}")
    with pytest.raises(nerve.OptionError, match=r"^lenient: applies to"):
        nerve.score(str(path), lenient=True)
