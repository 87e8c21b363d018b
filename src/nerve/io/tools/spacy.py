"""spaCy's files: ``.spacy`` DocBins, and spaCy/Prodigy JSONL.

In: a DocBin (``DocBin.to_disk``; spaCy, the ``spacy`` extra, is imported only here and only then),
its entities read from ``doc.ents`` or from the span group ``spans_key`` (``--spans-key``); or a
JSONL file of ``{"text", "spans" | "ents": [{"start", "end", "label"}, ...], "tokens"?}`` (Prodigy's
annotations, ``Doc.to_json()``; other keys, such as ``tokens``, ``_input_hash`` and a span's
``token_start``, are allowed and not read). Out: one `SpanArray` per file, half-open character
offsets (``span.start_char``/``end_char``) within each document, documents in file order.

A file holds one side: predictions come in a second file, its documents paired with the gold's in
order, and each must have the gold document's text.

Problems raise `InputError` naming the file and the document (and line, for JSONL): a file spaCy
cannot read, a span group no document has, documents whose texts differ, and for JSONL what the
doccano reader checks (malformed JSON, offsets outside the text, a span's ``text`` that differs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from ..json.jsonl import Checker, Problems, collect, json_objects, read_span_file
from ..pairing import check_pairs, doc_keys
from ..unit_offsets import in_characters

__all__ = [
    "read_spacy",
    "read_spacy_jsonl",
    "read_spacy_jsonl_pair",
    "read_spacy_pair",
    "spacy_jsonl_texts",
    "spacy_texts",
]

Docs = tuple[list[str], list[int | None], SpanArray]


def _docbin(path: str) -> list[Any]:
    """The docs of a DocBin file, in order (spaCy is imported here)."""
    try:
        from spacy.tokens import DocBin
        from spacy.vocab import Vocab
    except ImportError:  # pragma: no cover - the test extra installs spaCy
        hint = "reading .spacy files needs spaCy: pip install spacy"
        raise InputError(path, None, hint) from None
    try:
        return list(DocBin().from_disk(path).get_docs(Vocab()))
    except FileNotFoundError:
        raise InputError(path, None, "no such file") from None
    except IsADirectoryError:
        raise InputError(path, None, "is a directory, not a DocBin file") from None
    except Exception as err:  # spaCy raises ValueError, KeyError, msgpack and zlib errors
        detail = f"cannot be read as a spaCy DocBin ({type(err).__name__}: {err})"
        raise InputError(path, None, detail.splitlines()[0]) from None


def _docbin_spans(path: str, spans_key: str | None) -> Docs:
    """The texts and spans of a DocBin's docs: ``doc.ents``, or the span group ``spans_key``."""
    docs = _docbin(path)
    notes: Counter[str] = Counter()
    lists: list[list[tuple[int, int, str]]] = []
    if spans_key is not None:
        keys = sorted({k for doc in docs for k in doc.spans})
        if docs and spans_key not in keys:
            detail = f"no document has the span group {quote(spans_key)}; its groups: {quote(keys)}"
            raise InputError(path, None, detail, option="--spans-key")
    for doc in docs:
        if spans_key is None:
            group: Any = doc.ents
        elif spans_key in doc.spans:
            group = doc.spans[spans_key]
        else:
            notes[f"documents without span group {spans_key}"] += 1
            group = ()
        lists.append([(s.start_char, s.end_char, s.label_) for s in group])
    spans = SpanArray.from_documents(lists)
    spans = replace(spans, source=path, notes=dict(sorted(notes.items())))
    return [doc.text for doc in docs], [None] * len(docs), spans


def _jsonl_span(check: Checker, i: int, item: Any) -> tuple[int, int, str]:
    if not isinstance(item, dict) or not {"start", "end", "label"} <= item.keys():
        raise check.fail(f'span {i}: expected {{"start", "end", "label"}}, got {quote(item)}')
    return check.span(i, item["start"], item["end"], item["label"], item.get("text"))


def _jsonl_document(path: str, line: int | None, doc: int, obj: Any, problems: Problems) -> tuple[str, Any]:
    """The text and spans of one JSONL document; a problem is raised, or collected."""
    check = Checker(path, line, doc, {}, "char", problems)
    if not isinstance(obj, dict):
        raise check.fail(f"expected a JSON object, got {type(obj).__name__}")
    text = obj.get("text")
    if not isinstance(text, str):
        raise check.fail(f'expected the document\'s text under "text", got {quote(text)}')
    check.text = text
    key = "spans" if isinstance(obj.get("spans"), list) else "ents" if "ents" in obj else None
    if key is None and "spans" in obj:  # Doc.to_json's span groups: {key: [...]}
        raise check.fail(f'expected a list of spans under "spans" or "ents", got {quote(obj["spans"])}')
    if key is None:  # Prodigy leaves "spans" out of a task nobody annotated
        return text, []
    items = obj[key]
    if not isinstance(items, list):
        raise check.fail(f'expected a list of spans under "{key}", got {quote(items)}')
    return text, check.spans(items, lambda i, item: _jsonl_span(check, i, item))


def _jsonl_spans(path: str, problems: Problems, units: str | None = None) -> Docs:
    """The texts, line numbers and spans of a spaCy/Prodigy JSONL file (offsets in ``units``)."""
    texts: list[str] = []
    lines: list[int | None] = []
    docs: list[list[tuple[int, int, str]]] = []
    notes: Counter[str] = Counter()
    objects, _ = in_characters(path, json_objects(path, read_span_file(path), "jsonl"), units, problems)
    for doc, (line, obj) in enumerate(objects):
        try:
            text, spans = _jsonl_document(path, line, doc, obj, problems)
        except InputError as err:
            collect(problems, err)
            text, spans = "", []
        if isinstance(obj, dict) and obj.get("answer") in ("reject", "ignore"):
            notes[f"{obj['answer']}ed answers (scored as given)"] += 1
        texts.append(text)
        lines.append(line)
        docs.append(spans)
    spans_of = replace(SpanArray.from_documents(docs), source=path, notes=dict(sorted(notes.items())))
    return texts, lines, spans_of


def read_spacy(
    path: str, units: str | None = None, problems: Problems = None, spans_key: str | None = None
) -> tuple[SpanArray, None]:
    """The spans of a DocBin: ``doc.ents``, or the span group ``spans_key``; one side.

    ``units`` is there for the readers' common signature: DocBin offsets are characters.
    """
    return _docbin_spans(path, spans_key)[2], None


def read_spacy_pair(
    gold: str,
    pred: str | None,
    units: str | None = None,
    problems: Problems = None,
    spans_key: str | None = None,
) -> tuple[SpanArray, SpanArray | None]:
    """The gold spans of one DocBin and the predicted ones of another, docs paired in order.

    Raises:
        InputError: besides `read_spacy`'s, a predicted doc whose text is not the gold's.
    """
    return _both(lambda path: _docbin_spans(path, spans_key), gold, pred, problems)


def read_spacy_jsonl(
    path: str, units: str | None = None, problems: Problems = None
) -> tuple[SpanArray, None]:
    """The spans of a spaCy/Prodigy JSONL file (character offsets): one side."""
    return _jsonl_spans(path, problems, units)[2], None


def read_spacy_jsonl_pair(
    gold: str, pred: str | None, units: str | None = None, problems: Problems = None
) -> tuple[SpanArray, SpanArray | None]:
    """The gold spans of one JSONL file and the predicted ones of another, lines paired in order."""
    return _both(lambda path: _jsonl_spans(path, problems, units), gold, pred, problems)


def _both(
    side: Callable[[str], Docs], gold: str, pred: str | None, problems: Problems
) -> tuple[SpanArray, SpanArray | None]:
    """The spans of the gold file and, if given, of the prediction file, documents paired in order."""
    g = side(gold)
    if pred is None:
        return g[2], None
    p = side(pred)
    check_pairs(doc_keys(gold, g[0], None, g[1]), doc_keys(pred, p[0], None, p[1]), problems)
    return g[2], p[2]


def spacy_texts(path: str) -> list[str]:
    """The text of each doc of a DocBin, in order."""
    return [doc.text for doc in _docbin(path)]


def spacy_jsonl_texts(path: str) -> list[str]:
    """The text of each document of a spaCy/Prodigy JSONL file, in order."""
    objects = json_objects(path, read_span_file(path), "jsonl")
    return [o["text"] if isinstance(o, dict) and isinstance(o.get("text"), str) else "" for _, o in objects]
