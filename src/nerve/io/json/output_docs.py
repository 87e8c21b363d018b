"""The documents of a file of model outputs (``hf-pipeline``, ``entity-list``), whatever its layout.

In: a path. Out: `OutputDoc` s, one a document, in file order: its line (JSONL), index, id, text
and its raw entity list, which each format's reader reads (`nerve.io.json.hf_pipeline`,
`nerve.io.json.entity_list`); and `output_keys`, the `DocKeys` that pair them with the gold
documents.

The layouts, told apart by what the file parses to:

- JSONL, one document a line: ``{"id"?, "text"?, "entities": [...]}``, or a bare list of
  entities (what ``pipeline("ner")`` returns for one text);
- JSON: a list of such objects, or a list of bare lists (what ``pipeline("ner")`` returns for a
  list of texts), or one object, or one bare list of entity objects (one document).

A document without an id or a text is paired with the gold document in its place.
"""

from __future__ import annotations

from typing import Any

from ..._frozen import frozen
from ...errors import InputError
from ...model.quoting import quote
from ..pairing import DocKeys, doc_keys
from .jsonl import Problems, collect, json_objects, parse_json, read_span_file

__all__ = ["OutputDoc", "output_documents", "output_keys", "output_texts"]


@frozen
class OutputDoc:
    """One document of a file of model outputs: where it is, its id and text, and its raw entities."""

    line: int | None
    index: int
    ident: Any
    text: str | None
    entities: Any

    def fail(self, path: str, detail: str) -> InputError:
        """The error of ``detail`` in this document."""
        where = f"document {self.index}" + (f" (line {self.line})" if self.line is not None else "")
        return InputError(path, self.line, f"{where}: {detail}")


def _values(path: str) -> list[tuple[int | None, Any]]:
    """The file's values: its documents (with their lines in JSONL), by the layouts of the module."""
    data = read_span_file(path)
    try:
        whole = parse_json(path, data, "the file")
    except InputError:
        return json_objects(path, data, "jsonl")
    line = 1 + data[: len(data) - len(data.lstrip())].count(b"\n")  # where the one document starts
    if isinstance(whole, dict):
        return [(line, whole)]
    if not isinstance(whole, list):
        raise InputError(path, None, f"expected documents (a JSON list, or JSONL), got {quote(whole)}")
    if whole and all(isinstance(v, dict) and "entities" not in v for v in whole):
        return [(line, whole)]  # one text's entities
    return [(None, v) for v in whole]


def _document(path: str, index: int, line: int | None, value: Any, needs_text: bool) -> OutputDoc:
    """One document of the file (see the module)."""
    if isinstance(value, list) and not needs_text:
        return OutputDoc(line, index, None, None, value)
    doc = OutputDoc(line, index, None, None, None)
    if not isinstance(value, dict):
        shape = '{"id"?, "text", "entities"}' if needs_text else '{"id"?, "text"?, "entities"} or a list'
        raise doc.fail(path, f"expected {shape}, got {quote(value)}")
    if "entities" not in value:
        keys = ", ".join(map(quote, value)) or "none"
        raise doc.fail(path, f'expected an "entities" key, got the keys {keys}')
    text = value.get("text")
    if (text is not None or needs_text) and not isinstance(text, str):
        raise doc.fail(path, f'expected the source text, a string, under "text", got {quote(text)}')
    return OutputDoc(line, index, value.get("id"), text, value["entities"])


def output_documents(path: str, problems: Problems = None, *, needs_text: bool = False) -> list[OutputDoc]:
    """The documents of ``path`` (see the module); ``needs_text``: each must be an object with a text.

    A malformed document is raised, or with ``problems`` (a list) collected there and read as
    one without entities.
    """
    out: list[OutputDoc] = []
    for index, (line, value) in enumerate(_values(path)):
        try:
            out.append(_document(path, index, line, value, needs_text))
        except InputError as err:
            collect(problems, err)
            out.append(OutputDoc(line, index, None, None, []))
    return out


def output_keys(path: str, docs: list[OutputDoc]) -> DocKeys:
    """The `DocKeys` of the documents: their texts (where given) and ids, to pair them with the gold."""
    return doc_keys(path, [d.text for d in docs], [d.ident for d in docs], [d.line for d in docs])


def output_texts(path: str) -> list[str | None]:
    """Each document's text, where it has one (`nerve.io.format.Texts`)."""
    return [d.text for d in output_documents(path)]
