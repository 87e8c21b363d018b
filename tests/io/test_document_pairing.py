"""Property: two span files pair their documents in order, so a prediction file whose documents are
the gold's in another order is refused (issue 25, misaligned documents), in every format whose
documents carry texts, tokens or ids; the same pair in order scores exactly as the spans given in
Python do (`nerve.api.score_spans`).
"""

from __future__ import annotations

import itertools
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import nerve
from conftest import have, peer
from nerve.api import score_spans
from nerve.io.pairing import REORDER

Doc = tuple[tuple[str, ...], list[tuple[int, int, str]]]  # tokens and token spans (half-open)
WORDS = ("John", "Paris", "a", "é", "lives", "in", "😀")


def spans_of(draw: st.DrawFn, tokens: tuple[str, ...]) -> list[tuple[int, int, str]]:
    """Non-overlapping typed token spans (half-open) of a document of ``tokens``."""
    cuts = sorted(draw(st.sets(st.integers(0, len(tokens)), max_size=4)))
    pairs = itertools.pairwise(cuts)
    return [(s, e, draw(st.sampled_from(("PER", "LOC")))) for s, e in pairs if draw(st.booleans())]


@st.composite
def corpus(draw: st.DrawFn) -> tuple[list[Doc], list[Doc]]:
    """Two to five documents of distinct tokens: their gold spans and their predicted ones."""
    words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(tuple)
    tokens = draw(st.lists(words, min_size=2, max_size=5, unique=True))
    return [(t, spans_of(draw, t)) for t in tokens], [(t, spans_of(draw, t)) for t in tokens]


def chars(doc: Doc) -> tuple[str, list[tuple[int, int, str]]]:
    """The document as text (tokens joined by spaces) and character spans."""
    tokens, spans = doc
    starts = [sum(len(t) + 1 for t in tokens[:i]) for i in range(len(tokens))]
    return " ".join(tokens), [(starts[s], starts[e - 1] + len(tokens[e - 1]), k) for s, e, k in spans]


def jsonl(objects: list[Any]) -> str:
    return "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objects)


def text_docs(docs: list[Doc]) -> list[dict[str, Any]]:
    return [
        {"text": t, "spans": [{"start": s, "end": e, "label": k} for s, e, k in spans]}
        for t, spans in map(chars, docs)
    ]


def token_docs(docs: list[Doc]) -> list[dict[str, Any]]:
    return [
        {
            "id": "-".join(t),
            "tokens": list(t),
            "spans": [{"start": s, "end": e, "label": k} for s, e, k in spans],
        }
        for t, spans in docs
    ]


def dygie(docs: list[Doc]) -> str:
    return jsonl(
        [{"sentences": [list(t)], "ner": [[[s, e - 1, k] for s, e, k in spans]]} for t, spans in docs]
    )


def records(docs: list[Doc]) -> str:
    entities = [[{"start": s, "end": e, "type": k} for s, e, k in spans] for _, spans in docs]
    return jsonl([{"tokens": list(t), "entities": e} for (t, _), e in zip(docs, entities, strict=True)])


def doccano(docs: list[Doc]) -> str:
    return jsonl([{"text": t, "label": [[s, e, k] for s, e, k in spans]} for t, spans in map(chars, docs)])


def labelstudio(docs: list[Doc]) -> str:
    def result(text: str, s: int, e: int, k: str) -> dict[str, Any]:
        value = {"start": s, "end": e, "labels": [k], "text": text[s:e]}  # the text tells the units
        return {"type": "labels", "from_name": "l", "to_name": "t", "value": value}

    tasks = [
        {"data": {"text": t}, "annotations": [{"result": [result(t, *x) for x in spans]}]}
        for t, spans in map(chars, docs)
    ]
    return json.dumps(tasks, ensure_ascii=False)


def parquet(docs: list[Doc], path: Path) -> None:
    pa = peer("pyarrow")
    import pyarrow.parquet as pq

    tags = []
    for tokens, spans in docs:
        row = ["O"] * len(tokens)
        for s, e, k in spans:
            row[s:e] = [f"B-{k}"] + [f"I-{k}"] * (e - s - 1)
        tags.append(row)
    pq.write_table(pa.table({"tokens": [list(t) for t, _ in docs], "ner_tags": tags}), path)


class Format(NamedTuple):
    """A format: its name (``--format``), the suffix of its files, how to write documents to a file,
    whether spans count characters (else tokens), and what a document is called."""

    fmt: str
    suffix: str
    write: Callable[[list[Doc], Path], None]
    in_chars: bool = True
    noun: str = "document"


def text(make: Callable[[list[Doc]], str]) -> Callable[[list[Doc], Path], None]:
    def write(docs: list[Doc], path: Path) -> None:
        path.write_text(make(docs), encoding="utf-8")

    return write


FORMATS = {
    "jsonl": Format("jsonl", ".jsonl", text(lambda d: jsonl(text_docs(d)))),
    "json": Format("json", ".json", text(lambda d: json.dumps(text_docs(d), ensure_ascii=False))),
    "jsonl-tokens-ids": Format("jsonl", ".jsonl", text(lambda d: jsonl(token_docs(d))), in_chars=False),
    "nested-dygie": Format("nested", ".jsonl", text(dygie), in_chars=False),
    "nested-records": Format("nested", ".jsonl", text(records), in_chars=False),
    "doccano": Format("doccano", ".jsonl", text(doccano)),
    "labelstudio": Format("labelstudio", ".json", text(labelstudio), noun="task"),
    "spacy-jsonl": Format("spacy-jsonl", ".jsonl", text(lambda d: jsonl(text_docs(d)))),
    "hf": Format("hf", ".parquet", parquet, in_chars=False, noun="row"),
}


@pytest.mark.parametrize("name", list(FORMATS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sides=corpus(), data=st.data())
def test_documents_out_of_order_are_refused_in_order_scored_as_given(
    name: str, sides: tuple[list[Doc], list[Doc]], data: st.DataObject
) -> None:
    f = FORMATS[name]
    if f.fmt == "hf" and not have("pyarrow"):
        pytest.skip("pyarrow is needed for Hugging Face datasets")
    gold, pred = sides
    perm = data.draw(st.permutations(range(len(gold))))
    assume(perm != sorted(perm))  # the documents are distinct: any other order changes a pair
    with tempfile.TemporaryDirectory() as tmp:
        g, p, shuffled = (Path(tmp) / f"{n}{f.suffix}" for n in ("g", "p", "s"))
        f.write(gold, g)
        f.write(pred, p)
        f.write([pred[i] for i in perm], shuffled)
        result = nerve.score(str(g), str(p), input_format=f.fmt)
        with pytest.raises(nerve.InputError) as refused:
            nerve.score(str(g), str(shuffled), input_format=f.fmt)
    expected = score_spans(*([chars(d)[1] if f.in_chars else d[1] for d in side] for side in sides))
    assert result.exact.to_dict() == expected.exact.to_dict()
    first = next(i for i, j in enumerate(perm) if j != i)
    message = str(refused.value)
    assert f"s{f.suffix}" in message
    assert f"{f.noun} {first}" in message
    assert f"it is the gold's {f.noun} {perm[first]} ({REORDER.format(noun=f.noun)})" in message


def test_spacy_docbins_out_of_order_are_refused(tmp_path: Path) -> None:
    """The same for `.spacy` DocBins, whose docs carry their texts."""
    peer("spacy")
    from spacy.tokens import Doc, DocBin
    from spacy.vocab import Vocab

    vocab = Vocab()
    docs = [Doc(vocab, words=["John", "lives"]), Doc(vocab, words=["Mary", "works"])]
    for doc in docs:
        doc.ents = [doc.char_span(0, 4, label="PER")]
    for name, order in (
        ("g", docs),
        ("p", docs[::-1]),
        ("o", [docs[0], Doc(vocab, words=["Mary", "walks"])]),
    ):
        DocBin(docs=order).to_disk(tmp_path / f"{name}.spacy")
    g = str(tmp_path / "g.spacy")
    assert nerve.score(g, g).exact.micro.f1 == 1.0
    with pytest.raises(
        nerve.InputError, match=r"p\.spacy: document 0: .*it is the gold's document 1 \(documents are"
    ):
        nerve.score(g, str(tmp_path / "p.spacy"))
    with pytest.raises(
        nerve.InputError, match=r"document 1: .* differ at character 6 .*'Mary walks ' vs 'Mary works '"
    ):
        nerve.score(g, str(tmp_path / "o.spacy"))
