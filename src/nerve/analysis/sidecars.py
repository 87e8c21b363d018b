"""Document attributes from a sidecar file (``--meta FILE``), for the meta slices.

In: a JSON, JSON Lines or CSV file and the number of documents scored. Out: `Meta`, the value of
every attribute for every document, as text. The formats:

- JSON: a list of objects, each naming its document under ``"document"``, ``"doc"`` or ``"id"``
  (the first of these it has); or one object mapping each document id to an object of attributes.
- JSON Lines (``.jsonl``): one such object per line.
- CSV (``.csv``, or any other file not starting with ``[`` or ``{``): a header row naming the columns,
  one of them ``document``, ``doc`` or ``id``; one row per document.

A document id is the document's number, counted from 0 in file order (for CoNLL input the first
``-DOCSTART-`` line, or the start of the file, begins document 0; for span files it is the
document's index, not its ``"id"`` field), as an integer or its decimal text. Every document needs
exactly one entry and every entry one document: an unknown, repeated or malformed id, an entry
without an attribute the others have, a nested value, or a document without an entry is an
`InputError` naming the file and line. Values are text: strings as they are, ``null`` as
``null``, numbers and booleans as JSON writes them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from .._frozen import frozen
from ..errors import InputError, plural

__all__ = ["ID_COLUMNS", "Meta", "read_meta"]

ID_COLUMNS = ("document", "doc", "id")

Entry = tuple[int, object, dict[str, Any]]  # line, document id as given, attributes


@frozen
class Meta:
    """The attributes of every document.

    Attributes:
        columns: attribute name to the value of each document, in document order.
        source: the sidecar file.
    """

    columns: dict[str, tuple[str, ...]]
    source: str


def read_meta(path: str, n_docs: int) -> Meta:
    """The attributes of ``n_docs`` documents from ``path``; see the module docstring."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise InputError(path, None, f"cannot be read: {err.strerror or err}") from None
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        raise _not_utf8(path, data, err) from None
    head = text.lstrip()[:1]
    if path.endswith(".jsonl"):
        entries = list(_jsonl_entries(path, text))
    elif path.endswith(".json") or (head in ("[", "{") and not path.endswith(".csv")):
        entries = list(_json_entries(path, text))
    else:
        entries = list(_csv_entries(path, text))
    return _match(path, entries, n_docs, text.count("\n") + (not text.endswith("\n")))


def _not_utf8(path: str, data: bytes, err: UnicodeDecodeError) -> InputError:
    """The `InputError` of the first byte of ``data`` that is not UTF-8: its line and column."""
    line = data.count(b"\n", 0, err.start) + 1
    column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
    detail = f"byte 0x{data[err.start]:02x} at column {column} is not valid UTF-8; save the file as UTF-8"
    return InputError(path, line, detail)


def _id_key(path: str, line: int, obj: dict[str, Any]) -> str:
    for key in ID_COLUMNS:
        if key in obj:
            return key
    raise InputError(path, line, f"expected the document's id under one of {', '.join(ID_COLUMNS)}")


def _object(path: str, line: int, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(path, line, f"expected an object of attributes, but got {type(value).__name__}")
    return value


def _jsonl_entries(path: str, text: str) -> Iterator[Entry]:
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = _object(path, number, json.loads(line))
        except json.JSONDecodeError as err:
            raise InputError(path, number, f"is not valid JSON: {err.msg} (column {err.colno})") from None
        key = _id_key(path, number, obj)
        yield number, obj[key], {k: v for k, v in obj.items() if k != key}


def _json_entries(path: str, text: str) -> Iterator[Entry]:
    """The entries of a JSON list of objects, or of an object keyed by document id."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(path, err.lineno, f"is not valid JSON: {err.msg} (column {err.colno})") from None
    if not isinstance(data, (dict, list)):
        detail = "expected a list of objects or an object keyed by document id"
        raise InputError(path, 1, detail)
    for line, doc, value in _top_level(text):
        obj = _object(path, line, value)
        if isinstance(data, dict):
            yield line, doc, obj
        else:
            key = _id_key(path, line, obj)
            yield line, obj[key], {k: v for k, v in obj.items() if k != key}


def _top_level(text: str) -> list[tuple[int, str | None, object]]:
    """Valid JSON's top-level list (or object): each element's line, key (``None``) and value.

    An object's repeated keys are all kept, so a document given twice is found.
    """
    decoder = json.JSONDecoder()
    at = _skip(text, 0)
    keyed = text[at] == "{"
    at = _skip(text, at + 1)
    out: list[tuple[int, str | None, object]] = []
    line, last = 1, 0
    while text[at] not in "]}":
        line += text.count("\n", last, at)
        last = at
        key = None
        if keyed:
            key, at = decoder.raw_decode(text, at)
            at = _skip(text, _skip(text, at) + 1)  # past the colon
        value, at = decoder.raw_decode(text, at)
        out.append((line, key, value))
        at = _skip(text, at)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return out


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _csv_entries(path: str, text: str) -> Iterator[Entry]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        if header is None:
            raise InputError(
                path, 1, f"expected a header row naming the columns, one of {', '.join(ID_COLUMNS)}"
            )
        key = next((c for c in ID_COLUMNS if c in header), None)
        if key is None:
            raise InputError(path, 1, f"expected a column named one of {', '.join(ID_COLUMNS)} in the header")
        at = header.index(key)
        for row in reader:
            if not row:
                continue
            if len(row) != len(header):
                got = f"{plural(len(header), 'field')} as the header has, but got {len(row)}"
                raise InputError(path, reader.line_num, f"expected {got}")
            values = {c: v for i, (c, v) in enumerate(zip(header, row, strict=True)) if i != at}
            yield reader.line_num, row[at], values
    except csv.Error as err:
        raise InputError(path, reader.line_num, f"is not valid CSV: {err}") from None


def _document(path: str, line: int, doc: object, n_docs: int) -> int:
    """The document number an id names, checked to be one of the ``n_docs``."""
    number = doc if isinstance(doc, int) and not isinstance(doc, bool) else None
    if isinstance(doc, str) and doc.strip().isdecimal():
        number = int(doc.strip())
    counted = (
        f"documents are numbered 0 to {n_docs - 1} in file order" if n_docs else "there are no documents"
    )
    if number is None or not 0 <= number < n_docs:
        shown = number if number is not None else json.dumps(doc)
        raise InputError(path, line, f"no document {shown}: {counted}")
    return number


def _text(path: str, line: int, name: str, value: object) -> str:
    if isinstance(value, (dict, list)):
        raise InputError(path, line, f"expected a string, number, boolean or null for {name!r}")
    return value if isinstance(value, str) else json.dumps(value)


def _match(path: str, entries: list[Entry], n_docs: int, last_line: int) -> Meta:
    """One value per document and attribute, every document given once."""
    names = list(dict.fromkeys(name for _, _, attrs in entries for name in attrs))
    values: list[dict[str, str] | None] = [None] * n_docs
    first: dict[int, int] = {}
    for line, doc, attrs in entries:
        number = _document(path, line, doc, n_docs)
        if number in first:
            raise InputError(path, line, f"document {number} is given twice (first on line {first[number]})")
        first[number] = line
        missing = [n for n in names if n not in attrs]
        if missing:
            raise InputError(
                path, line, f"expected the attributes the other entries have; {missing[0]!r} is missing"
            )
        values[number] = {n: _text(path, line, n, attrs[n]) for n in names}
    lacking = [d for d, v in enumerate(values) if v is None]
    if lacking:
        shown = ", ".join(map(str, lacking[:5])) + (", ..." if len(lacking) > 5 else "")
        which = f"document {shown} has" if len(lacking) == 1 else f"{len(lacking)} documents ({shown}) have"
        detail = f"expected an entry for each of the {plural(n_docs, 'document')}, but {which} none"
        raise InputError(path, max(last_line, 1), f"{detail} (they are numbered from 0 in file order)")
    columns = {n: tuple(v[n] for v in values if v is not None) for n in names}
    return Meta(columns, path)
