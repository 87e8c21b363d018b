"""Span inputs: which format a file is in, and the entry points that read one.

Every reader returns a `SpanArray` per side, checked: ``0 <= start < end``, inside the
document's text or tokens when those are given, and equal to the entity's ``text`` when one is
given. Problems raise `InputError` naming the file, the line (JSONL) or the document, and the
span.

Formats (``--format``), one module each:

- ``jsonl`` and ``json`` (`nerve.io.jsonl`): documents of ``{"start", "end", "label", "text"?}``
  spans with half-open offsets, one side per file or ``"gold"`` and ``"pred"`` in one.
- ``nereval`` (`nerve.io.nereval`): ``[{"text", "true": [...], "predicted": [...]}]``.
- ``nervaluate`` (`nerve.io.nervaluate`): lists of ``{"label", "start", "end"}`` with an
  inclusive ``end`` (converted), or ``{"true": [...], "pred": [...]}`` in one file.
- ``eval4ner`` (`nerve.io.eval4ner`): ``(type, surface)`` entities located in their sentence.
- ``brat`` (`nerve.io.brat_files`): a directory of ``.txt``/``.ann`` standoff pairs, or one ``.ann``;
  gold and predicted documents paired by name, discontinuous entities with their fragments.
- ``doccano`` (`nerve.io.doccano`): doccano's JSONL exports, ``{"text", "label": [[s, e, t]]}``.
- ``labelstudio`` (`nerve.io.labelstudio`): Label Studio's JSON exports, annotations and predictions,
  UTF-16 offsets of older versions converted.
- ``hipe`` (`nerve.io.hipe`): HIPE 2020/2022 TSV, the tag column(s) picked by ``column``.
- ``conllu`` (`nerve.io.conllu`): CoNLL-U with tags in MISC under the key ``column`` (``NER``).
- ``nested`` (`nerve.io.nested`): DyGIE++ nested-NER JSON (inclusive ends, converted) and
  ``{"tokens", "entities"}`` records.
- ``spacy`` (`nerve.io.spacy`): ``.spacy`` DocBins (spaCy installed), ``doc.ents`` or the span group
  ``spans_key``; ``spacy-jsonl``: spaCy/Prodigy JSONL, ``{"text", "spans" | "ents": [...]}``.

A gold and a prediction file pair documents in order: a predicted document whose text, tokens
or id is not its gold document's is refused (`nerve.io.pairing`), as is another number of them.

What a reader read but did not score (brat relations, Label Studio's other annotations...) is
counted in each side's `SpanArray.notes`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from .. import options
from ..errors import InputError, OptionError, plural
from ..model.spans import SpanArray
from .brat_files import brat_texts, read_brat, read_brat_pair
from .conllu import conllu_texts, read_conllu, read_conllu_pair
from .doccano import doccano_texts, read_doccano, read_doccano_pair
from .eval4ner import read_eval4ner
from .hipe import hipe_texts, read_hipe, read_hipe_pair
from .jsonl import (
    Documents,
    Problems,
    collect,
    json_objects,
    no_gc,
    read_documents,
    read_span_file,
)
from .labelstudio import labelstudio_texts, read_labelstudio, read_labelstudio_pair
from .lenient import PRED_KEYS, lenient_texts, noted
from .nereval import read_nereval
from .nervaluate import read_nervaluate
from .nested import nested_texts, read_nested
from .pairing import check_pairs, recording
from .sniff import sniff_format, unlike
from .spacy import (
    read_spacy,
    read_spacy_jsonl,
    read_spacy_jsonl_pair,
    read_spacy_pair,
    spacy_jsonl_texts,
    spacy_texts,
)

__all__ = [
    "PAIR_READERS",
    "SPAN_FORMATS",
    "SPAN_READERS",
    "DocumentText",
    "Documents",
    "check_column",
    "document_texts",
    "read_span_columns",
    "read_spans",
    "sniff_format",
    "validate_spans",
]

Reader = Callable[[str, str | None, Problems], tuple[SpanArray, SpanArray | None]]

#: Each span format's reader: path, offset units and where to collect problems (``None`` to
#: raise the first) in; the gold side (and predictions) out.
SPAN_READERS: dict[str, Reader] = {
    "jsonl": lambda path, units, problems: read_documents(path, "jsonl", units, problems),
    "json": lambda path, units, problems: read_documents(path, "json", units, problems),
    "nereval": lambda path, _, problems: read_nereval(path, problems),
    "nervaluate": lambda path, _, problems: read_nervaluate(path, problems),
    "eval4ner": lambda path, _, problems: read_eval4ner(path, problems),
    "brat": read_brat,
    "doccano": read_doccano,
    "labelstudio": read_labelstudio,
    "hipe": read_hipe,
    "conllu": read_conllu,
    "nested": read_nested,
    "spacy": read_spacy,
    "spacy-jsonl": read_spacy_jsonl,
}
SPAN_FORMATS = tuple(SPAN_READERS)
ColumnReader = Callable[[str, str | None, Problems, str | None], tuple[SpanArray, None]]
#: The formats whose tags sit in a column: path, offset units, problems and the column in.
COLUMN_READERS: dict[str, ColumnReader] = {"hipe": read_hipe, "conllu": read_conllu}
ColumnPairReader = Callable[
    [str, str | None, str | None, Problems, str | None], tuple[SpanArray, SpanArray | None]
]
#: The column formats read as pairs: a prediction file must hold the gold file's tokens.
COLUMN_PAIRS: dict[str, ColumnPairReader] = {"hipe": read_hipe_pair, "conllu": read_conllu_pair}
PairReader = Callable[[str, str | None, str | None, Problems], tuple[SpanArray, SpanArray | None]]
#: The formats whose gold and prediction files are read together: gold path, prediction path (or
#: ``None``), offset units and problems in. brat pairs documents by name; doccano and Label Studio
#: check that paired documents have the same text.
PAIR_READERS: dict[str, PairReader] = {
    "brat": read_brat_pair,
    "doccano": read_doccano_pair,
    "labelstudio": read_labelstudio_pair,
    "spacy": read_spacy_pair,
    "spacy-jsonl": read_spacy_jsonl_pair,
}


def read_spans(
    gold: str, pred: str | None = None, *, fmt: str | None = None, units: str | None = None
) -> tuple[Documents, Documents]:
    """Read gold and predicted spans as lists of ``(start, end, label)`` per document.

    See `read_span_columns` for the arguments.
    """
    g, p = read_span_columns(gold, pred, fmt=fmt, units=units)
    return g.documents(), p.documents()


def read_span_columns(
    gold: str,
    pred: str | None = None,
    *,
    fmt: str | None = None,
    units: str | None = None,
    column: str | None = None,
    spans_key: str | None = None,
    lenient: bool = False,
) -> tuple[SpanArray, SpanArray]:
    """Read gold and predicted spans from one file holding both, or from two files.

    Args:
        gold: the gold file, or a file with both sides.
        pred: the prediction file, if the sides are in two files.
        fmt: one of `SPAN_FORMATS`; sniffed from the gold file when ``None``.
        units: ``"char"`` or ``"token"`` offsets for json/jsonl (default: char when a document
            has a ``"text"``, token when it has ``"tokens"``); ``"char"`` or ``"utf16"`` for
            doccano and Label Studio (`nerve.options.FORMAT_OFFSETS`).
        column: the HIPE tag column(s) or the CoNLL-U MISC key (`COLUMN_READERS`).
        spans_key: spacy: the span group to read instead of ``doc.ents``.
        lenient: count an entity text unlike its offsets' in the notes, not refuse it (`nerve.io.lenient`).
    """
    g, p = _read(gold, pred, fmt, units, None, column, spans_key, lenient)
    if p is None and not g.n_docs:
        p = g
    if p is None:
        raise InputError(gold, None, "holds no predictions; give a prediction file too")
    return g, p


def validate_spans(
    gold: str,
    pred: str | None = None,
    *,
    fmt: str | None = None,
    units: str | None = None,
    column: str | None = None,
    spans_key: str | None = None,
) -> list[InputError]:
    """Every problem of a span file (and of a prediction file), in file and document order.

    The checks of `read_span_columns`: spans inside their document's text or tokens, ``0 <=
    start < end``, the span's ``text`` equal to what its offsets cover, values of the right
    type. A file of one side is valid alone. Spans need not be in order. ``column`` and
    ``spans_key`` are as for `read_span_columns`.

    Raises:
        InputError: a file that cannot be read at all (missing, malformed JSON, not a list...).
    """
    problems: list[InputError] = []
    _read(gold, pred, fmt, units, problems, column, spans_key)
    return problems


def _read(
    gold: str,
    pred: str | None,
    fmt: str | None,
    units: str | None,
    problems: Problems,
    column: str | None = None,
    spans_key: str | None = None,
    lenient: bool = False,
) -> tuple[SpanArray, SpanArray | None]:
    """Both sides of one file or two, checked against each other; problems raised or collected."""
    given = fmt or sniff_format(gold)
    try:
        return _read_sides(gold, pred, given, units, problems, column, spans_key, lenient)
    except InputError as err:
        raise unlike(err, given, gold, pred) from None


def _read_sides(
    gold: str,
    pred: str | None,
    fmt: str,
    units: str | None,
    problems: Problems,
    column: str | None = None,
    spans_key: str | None = None,
    lenient: bool = False,
) -> tuple[SpanArray, SpanArray | None]:
    """`_read`, the format known."""
    options.one_of(fmt, SPAN_FORMATS, "input_format")
    options.offsets(units, fmt)
    options.lenient(lenient, fmt)
    check_column(column, fmt)
    by_column = COLUMN_READERS.get(fmt)
    reader: Reader = SPAN_READERS[fmt]
    if by_column is not None:
        reader = lambda path, u, found: by_column(path, u, found, column)  # noqa: E731
    paired = PAIR_READERS.get(fmt)
    by_pair = COLUMN_PAIRS.get(fmt)
    if by_pair is not None:
        paired = lambda g, p, u, found: by_pair(g, p, u, found, column)  # noqa: E731
    if spans_key is not None:
        if fmt != "spacy":
            detail = f"names a span group of spacy DocBins, but the input reads as {fmt}"
            raise OptionError(options.flag("spans_key"), detail)
        paired = partial(read_spacy_pair, spans_key=spans_key)
    with no_gc(), lenient_texts(lenient) as found, recording(pred is not None and paired is None) as keys:
        g, p = reader(gold, units, problems) if paired is None else paired(gold, pred, units, problems)
        g = noted(g, found, lambda path, key: path == gold and key not in PRED_KEYS)
        p = p if p is None else noted(p, found, lambda path, key: path != gold or key in PRED_KEYS)
        if pred is not None and paired is None:  # a file without documents may stand for either side
            if p is not None and g.n_docs:
                both_sides = "holds predictions too; give one file with both sides, or two files"
                collect(problems, InputError(gold, None, both_sides))
            p = _predictions(pred, reader, units, problems, lenient)
            if gold in keys and pred in keys:
                check_pairs(keys[gold], keys[pred], problems)
    if p is not None and p.n_docs != g.n_docs:
        detail = f"has {plural(p.n_docs, 'document')}, but the gold has {g.n_docs}"
        collect(problems, InputError(pred or gold, None, detail))
    return g, p


def _predictions(
    pred: str, reader: Reader, units: str | None, problems: Problems, lenient: bool
) -> SpanArray:
    """The spans of a prediction file, which must hold one side."""
    with lenient_texts(lenient) as found:
        p, both = reader(pred, units, problems)
    p = noted(p, found, lambda path, key: True)
    if both is not None and p.n_docs:
        collect(problems, InputError(pred, None, "holds two sides; expected predictions only"))
    return p


def check_column(value: str | None, fmt: str) -> None:
    """Refuse ``column`` (the HIPE tag columns or the CoNLL-U MISC key) for other input."""
    if value is None:
        return
    if fmt not in COLUMN_READERS:
        detail = f"applies to hipe and conllu input, but the input reads as {fmt}"
        raise OptionError(options.flag("column"), detail)
    if not value.strip(", "):
        raise OptionError(options.flag("column"), "expected a column name, got an empty one")


DocumentText = str | tuple[str, ...] | None
_TEXTS: dict[str, Callable[[str], Sequence[DocumentText]]] = {
    "brat": brat_texts,
    "doccano": doccano_texts,
    "labelstudio": labelstudio_texts,
    "hipe": hipe_texts,
    "conllu": conllu_texts,
    "nested": nested_texts,
    "spacy": spacy_texts,
    "spacy-jsonl": spacy_jsonl_texts,
}


def document_texts(path: str, fmt: str | None = None, units: str | None = None) -> list[DocumentText]:
    """Each document's ``"text"`` (character offsets) or ``"tokens"`` (token offsets), else ``None``.

    json and jsonl documents, brat's ``.txt`` files and doccano's and Label Studio's exports carry
    them; other formats give none. For the entity texts of the error analysis, once the file has
    been read and checked.
    """
    fmt = fmt or sniff_format(path)
    if fmt in _TEXTS:
        return list(_TEXTS[fmt](path))
    if fmt not in ("json", "jsonl"):
        return []
    out: list[DocumentText] = []
    for _, o in json_objects(path, read_span_file(path), fmt):
        unit = (
            units if units in ("char", "token") else "token" if "tokens" in o and "text" not in o else "char"
        )
        bound = o.get("text") if unit == "char" else o.get("tokens")
        if isinstance(bound, str):
            out.append(bound)
        elif isinstance(bound, list) and all(isinstance(t, str) for t in bound):
            out.append(tuple(bound))
        else:
            out.append(None)
    return out
