"""Span inputs: which format a file is in, and the entry points that read one.

Every reader returns a `SpanArray` per side, checked: ``0 <= start < end``, inside the
document's text or tokens when those are given, and equal to the entity's ``text`` when one is
given. Problems raise `InputError` naming the file, the line (JSONL) or the document, and the
span.

Formats (``--format``), one module each:

- ``jsonl`` and ``json`` (`nerve.io.json.jsonl`): documents of ``{"start", "end", "label", "text"?}``
  spans with half-open offsets, one side per file or ``"gold"`` and ``"pred"`` in one.
- ``nereval`` (`nerve.io.json.nereval`): ``[{"text", "true": [...], "predicted": [...]}]``.
- ``nervaluate`` (`nerve.io.json.nervaluate`): lists of ``{"label", "start", "end"}`` with an
  inclusive ``end`` (converted), or ``{"true": [...], "pred": [...]}`` in one file.
- ``eval4ner`` (`nerve.io.json.eval4ner`): ``(type, surface)`` entities located in their sentence.
- ``brat`` (`nerve.io.tools.brat_files`): a directory of ``.txt``/``.ann`` standoff pairs, or one ``.ann``;
  gold and predicted documents paired by name, discontinuous entities with their fragments.
- ``doccano`` (`nerve.io.tools.doccano`): doccano's JSONL exports, ``{"text", "label": [[s, e, t]]}``.
- ``labelstudio`` (`nerve.io.tools.labelstudio`): Label Studio's JSON exports, annotations and predictions,
  UTF-16 offsets of older versions converted.
- ``hipe`` (`nerve.io.tags.hipe`): HIPE 2020/2022 TSV, the tag column(s) picked by ``column``.
- ``conllu`` (`nerve.io.tags.conllu`): CoNLL-U with tags in MISC under the key ``column`` (``NER``).
- ``nested`` (`nerve.io.json.nested`): DyGIE++ nested-NER JSON (inclusive ends, converted) and
  ``{"tokens", "entities"}`` records.
- ``spacy`` (`nerve.io.tools.spacy`): ``.spacy`` DocBins (spaCy installed), ``doc.ents`` or the span group
  ``spans_key``; ``spacy-jsonl``: spaCy/Prodigy JSONL, ``{"text", "spans" | "ents": [...]}``.

A gold and a prediction file pair documents in order: a predicted document whose text, tokens
or id is not its gold document's is refused (`nerve.io.pairing`), as is another number of them.

What a reader read but did not score (brat relations, Label Studio's other annotations...) is
counted in each side's `SpanArray.notes`.
"""

from __future__ import annotations

import os
from functools import partial

from .. import options
from ..errors import InputError, OptionError, plural
from ..model.spans import SpanArray
from . import formats
from .format import ColumnPairReader, ColumnReader, DocumentText, PairReader, Reader
from .formats import check_column
from .json.jsonl import Documents, Problems, collect, no_gc
from .lenient import PRED_KEYS, lenient_texts, noted
from .outputs import OutputReading, reading_outputs
from .pairing import check_pairs, recording
from .sniff import Named, sniff_format, unlike
from .tools.spacy import read_spacy_pair

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
    "side_formats",
    "sniff_format",
    "validate_spans",
]

# The tables below are made once from the records of `nerve.io.formats`, for callers that want a
# table; the readers look each format up in `nerve.io.formats.FORMATS` itself.
_SPANS = [f for f in formats.FORMATS if f.kind == "spans"]
#: Each span format's reader: path, offset units and where to collect problems (``None`` to
#: raise the first) in; the gold side (and predictions) out.
SPAN_READERS: dict[str, Reader] = {f.name: f.read for f in _SPANS if f.read is not None}
SPAN_FORMATS = tuple(SPAN_READERS)
#: The formats whose tags sit in a column: path, offset units, problems and the column in.
COLUMN_READERS: dict[str, ColumnReader] = {f.name: f.read_column for f in _SPANS if f.read_column}
#: The column formats read as pairs: a prediction file must hold the gold file's tokens.
COLUMN_PAIRS: dict[str, ColumnPairReader] = {f.name: f.read_column_pair for f in _SPANS if f.read_column_pair}
#: The formats whose gold and prediction files are read together: gold path, prediction path (or
#: ``None``), offset units and problems in. brat pairs documents by name; doccano and Label Studio
#: check that paired documents have the same text.
PAIR_READERS: dict[str, PairReader] = {f.name: f.read_pair for f in _SPANS if f.read_pair is not None}


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
    pred_fmt: str | None = None,
    outputs: OutputReading | None = None,
    named: Named | None = None,
) -> tuple[SpanArray, SpanArray]:
    """Read gold and predicted spans from one file holding both, or from two files.

    Args:
        gold: the gold file, or a file with both sides.
        pred: the prediction file, if the sides are in two files.
        fmt: one of `SPAN_FORMATS`; sniffed from the gold file when ``None``.
        pred_fmt: the prediction file's format; ``fmt``, else sniffed from the file, when ``None``.
        units: ``"char"`` or ``"token"`` offsets for json/jsonl (default: char when a document
            has a ``"text"``, token when it has ``"tokens"``); ``"char"`` or ``"utf16"`` for
            doccano and Label Studio (`nerve.io.formats.offset_units`).
        column: the HIPE tag column(s) or the CoNLL-U MISC key (`COLUMN_READERS`).
        spans_key: spacy: the span group to read instead of ``doc.ents``.
        lenient: count an entity text unlike its offsets' in the notes, not refuse it (`nerve.io.lenient`).
        outputs: the options of the output formats, ``hf-pipeline`` and ``entity-list`` (`nerve.io.outputs`).
        named: the option that named each side's format, for the fix an error names (`nerve.io.sniff.unlike`);
            by default ``fmt``'s and ``pred_fmt``'s.
    """
    g, p = _read(gold, pred, fmt, units, None, column, spans_key, lenient, pred_fmt, outputs, named)
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
    for side, path in (("gold", gold), ("pred", pred)):
        if path is not None and not isinstance(path, str | os.PathLike):
            raise InputError(side, None, f"expected a file name, got {type(path).__name__} {path!r}"[:200])
    problems: list[InputError] = []
    _read(gold, pred, fmt, units, problems, column, spans_key)
    return problems


def side_formats(
    gold: str,
    pred: str | None,
    fmt: str | None = None,
    gold_fmt: str | None = None,
    pred_fmt: str | None = None,
) -> tuple[str, str]:
    """The formats of the gold and the prediction file: each named (``fmt`` names both), else sniffed.

    A prediction file is sniffed on its own where the gold is a file too (else it is read in the
    gold's format: two directories of brat or CoNLL files).
    """
    g = gold_fmt or fmt or sniff_format(gold)
    if pred is None:
        return g, g
    return g, pred_fmt or fmt or (sniff_format(pred) if os.path.isfile(gold) and os.path.isfile(pred) else g)


def _read(
    gold: str,
    pred: str | None,
    fmt: str | None,
    units: str | None,
    problems: Problems,
    column: str | None = None,
    spans_key: str | None = None,
    lenient: bool = False,
    pred_fmt: str | None = None,
    outputs: OutputReading | None = None,
    named: Named | None = None,
) -> tuple[SpanArray, SpanArray | None]:
    """Both sides of one file or two, checked against each other; problems raised or collected.

    ``pred_fmt``: the prediction file's format, when it is not the gold's (``fmt``, sniffed when
    ``None``); ``outputs``: the options of the output formats (`nerve.io.outputs`); ``named``: the
    option that named each side's format (`nerve.io.sniff.unlike`).
    """
    given, theirs = side_formats(gold, pred, fmt, None, pred_fmt)
    outputs = outputs or OutputReading()
    _refuse_unused(outputs, (given, theirs), "input_format" if pred is None else "pred_format")
    try:
        with reading_outputs(outputs):
            if theirs == given:
                return _read_sides(gold, pred, given, units, problems, column, spans_key, lenient)
            assert pred is not None
            return _read_apart((gold, pred), (given, theirs), units, problems, (column, spans_key), lenient)
    except InputError as err:
        if named is None:
            both = "input_format" if fmt else None
            named = (both, "pred_format" if pred_fmt else both)
        raise unlike(err, theirs if err.source == pred else given, gold, pred, named) from None


def _refuse_unused(given: OutputReading, fmts: tuple[str, str], fix: str) -> None:
    """Refuse an option of the output formats that neither side's format takes (its record says).

    ``fix`` names the option that names the misread file's format: ``pred_format`` beside a gold
    file (the output formats hold predictions), ``input_format`` for one file of both sides.
    """
    for name in given.given():
        if not any(formats.format_named(f).takes(name) for f in fmts):
            takers, read = formats.listed(formats.taking(name)), formats.listed(list(dict.fromkeys(fmts)))
            hint = f" (a file sniffing misread: name its format with {options.flag(fix)})"
            raise OptionError(
                options.flag(name), f"applies to {takers} input, but the input reads as {read}{hint}"
            )


def _readers(
    fmt: str, units: str | None, column: str | None, spans_key: str | None, lenient: bool
) -> tuple[Reader, PairReader | None]:
    """The reader of one file in ``fmt``, and of two read together (``None``: each alone); options checked."""
    options.one_of(fmt, formats.names("spans"), "input_format")
    formats.check_offsets(units, fmt)
    formats.check_lenient(lenient, fmt)
    check_column(column, fmt)
    record = formats.format_named(fmt)
    by_column = record.read_column
    assert record.read is not None
    reader: Reader = record.read
    if by_column is not None:
        reader = lambda path, u, found: by_column(path, u, found, column)  # noqa: E731
    paired = record.read_pair
    by_pair = record.read_column_pair
    if by_pair is not None:
        paired = lambda g, p, u, found: by_pair(g, p, u, found, column)  # noqa: E731
    if spans_key is not None:
        if not record.takes("spans_key"):
            detail = f"names a span group of spacy DocBins, but the input reads as {fmt}"
            raise OptionError(options.flag("spans_key"), detail)
        paired = partial(read_spacy_pair, spans_key=spans_key)
    return reader, paired


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
    """`_read`, the format known (one for both files)."""
    reader, paired = _readers(fmt, units, column, spans_key, lenient)
    with no_gc(), lenient_texts(lenient) as found, recording(pred is not None and paired is None) as keys:
        g, p = reader(gold, units, problems) if paired is None else paired(gold, pred, units, problems)
        g = noted(g, found, lambda path, key: path == gold and key not in PRED_KEYS)
        p = p if p is None else noted(p, found, lambda path, key: path != gold or key in PRED_KEYS)
        if pred is not None and paired is None:  # a file without documents may stand for either side
            if p is not None and g.n_docs:
                collect(problems, InputError(gold, None, _BOTH_SIDES))
            p = _predictions(pred, reader, units, problems, lenient)
            if gold in keys and pred in keys:
                check_pairs(keys[gold], keys[pred], problems)
    return g, _counted(g, p, pred or gold, problems)


_BOTH_SIDES = "holds predictions too; give one file with both sides, or two files"


def _counted(g: SpanArray, p: SpanArray | None, where: str, problems: Problems) -> SpanArray | None:
    """``p``, when it has as many documents as ``g`` (else the problem is raised or collected)."""
    if p is not None and p.n_docs != g.n_docs:
        detail = f"has {plural(p.n_docs, 'document')}, but the gold has {g.n_docs}"
        collect(problems, InputError(where, None, detail))
    return p


def _read_apart(
    files: tuple[str, str],
    fmts: tuple[str, str],
    units: str | None,
    problems: Problems,
    where: tuple[str | None, str | None],
    lenient: bool,
) -> tuple[SpanArray, SpanArray | None]:
    """Gold and predictions in two formats: each file read alone, as one side, by its format's reader.

    ``units`` go to each format that takes offset units; ``where``: the column and the span group,
    to the format that takes them. Documents pair in order, checked by text or id where both
    files carry them.
    """
    (gold, pred), (mine, theirs), sides = files, fmts, []
    records = [formats.format_named(f) for f in fmts]
    if units is not None and not any(r.offsets for r in records):
        formats.check_offsets(units, mine)
    if lenient and not any(r.takes("lenient") for r in records):
        formats.check_lenient(lenient, mine)
    for path, fmt in ((gold, mine), (pred, theirs)):
        record = formats.format_named(fmt)
        names = ("column", "spans_key")
        column, key = (w if record.takes(n) else None for w, n in zip(where, names, strict=True))
        u = units if record.offsets else None
        reader, paired = _readers(fmt, u, column, key, lenient and record.takes("lenient"))
        read = (
            reader if paired is None else lambda path, u, found, paired=paired: paired(path, None, u, found)
        )
        sides.append((read, u, lenient and record.takes("lenient")))
    with no_gc(), recording() as keys:
        with lenient_texts(sides[0][2]) as found:
            g, both = sides[0][0](gold, sides[0][1], problems)
        g = noted(g, found, lambda path, key: key not in PRED_KEYS)
        if both is not None and g.n_docs:
            collect(problems, InputError(gold, None, _BOTH_SIDES))
        p = _predictions(pred, sides[1][0], sides[1][1], problems, sides[1][2])
        if gold in keys and pred in keys:
            check_pairs(keys[gold], keys[pred], problems)
    return g, _counted(g, p, pred, problems)


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


def document_texts(path: str, fmt: str | None = None, units: str | None = None) -> list[DocumentText]:
    """Each document's ``"text"`` (character offsets) or ``"tokens"`` (token offsets), else ``None``.

    json and jsonl documents, brat's ``.txt`` files and doccano's and Label Studio's exports carry
    them; other formats give none. For the entity texts of the error analysis, once the file has
    been read and checked.
    """
    fmt = fmt or sniff_format(path)
    texts = next((f.texts for f in formats.FORMATS if f.name == fmt), None)
    return [] if texts is None else list(texts(path, units))
