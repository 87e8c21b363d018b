"""The public entry points: `score`, `compare`, `validate`, `decode`, `encode`, `score_spans`, `score_text`.

They compose readers, the vocabulary, repair policies and metrics; the CLI calls only these. Every
option is checked by `nerve.options`; where tags come from is `api.sources`, and a big file is
counted in threads by `api.shards`; a big JSONL span file is scored in pieces by `api.span_chunks`.

The analysis options of `score` (`nerve.analysis`, opt-in) fill ``result.analysis``: ``errors`` (each
entity's error category, counted), ``confusion`` (the matrix of types, exact and overlap views; both on
the one optimal matching, with ``min_iou`` and ``min_gold_share``), ``instances`` (an `InstanceQuery`: the
errors themselves), ``slices="length,type,seen,meta"`` (P/R/F1 by slice, ``seen`` against the CoNLL file
``train``, ``meta`` by the JSON/CSV sidecar ``meta``), ``bootstrap=N`` (percentile intervals at
``confidence`` from N resamples of each ``unit``, drawn with ``seed``: document, sentence, or by default
``auto``, documents when there are 20 or more, else sentences; an interval that cannot be computed is
``None``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from .. import options
from ..analysis.query import InstanceQuery
from ..compiled import count
from ..errors import InputError, InvalidSequenceError, OptionError, Problem, SchemeError, SchemeOptionError
from ..io.bytes import column_delimiter
from ..io.json.jsonl import is_offset
from ..io.progress import ProgressFn, file_bytes, reporting
from ..io.reader_options import ReaderOptions
from ..io.spans import validate_spans
from ..io.tags.conll_lines import first_token_columns
from ..io.tags.delimiters import file_delimiter
from ..io.tags.lists import iter_lists
from ..model.quoting import is_list, quote
from ..model.schemes import Scheme, TagFormat, encode_sequence
from ..model.spans import Span
from ..model.vocab import TagVocab
from ..options import METRIC_FAMILIES as METRIC_FAMILIES
from ..plan import Plan, Reading
from ..results import Result
from ..tagging.decode import DecodeRules, decode_block
from .compare import compare
from .pipeline import aligned_input, score_aligned, score_input, score_spans
from .planned import planned
from .shards import SHARD_BYTES as SHARD_BYTES  # kept public here: nerve.scoring's names
from .sources import Input, Source, Tags, is_path, scheme_of_inputs
from .sources import PathLike as PathLike
from .text import score_text

__all__ = [
    "compare",
    "decode",
    "encode",
    "score",
    "score_aligned",
    "score_spans",
    "score_text",
    "validate",
    "validate_spans",
]


def scored(gold: Source, pred: Source | None, plan: Plan) -> Result:
    """`score` under ``plan``: on the compiled engine where `nerve.compiled.route` says, else numpy's."""
    result = count(gold, pred, plan)
    return result if result is not None else numpy_scored(gold, pred, plan)


def numpy_scored(gold: Source, pred: Source | None, plan: Plan) -> Result:
    """`score` under ``plan`` on the numpy engine, telling its ``progress`` of the bytes read."""
    progress, train = plan.output.progress, plan.analysing.train
    with reporting(progress, file_bytes((gold, pred, train)) if progress else 0):
        return _analysed(gold, pred, plan)


def _analysed(gold: Source, pred: Source | None, plan: Plan) -> Result:
    """The score of ``plan``, and the analysis it asks for (none: only the score).

    The analysis modules are imported here, when asked for: plain scoring does not load them.
    """
    wanted = plan.analysing
    if not wanted.asked and plan.statistics is None:
        return score_input(gold, pred, plan)[0]
    from ..analysis.summary import analyse
    from .analysed import slice_table
    from .compare import with_bootstrap

    result, aligned = aligned_input(gold, pred, plan, wanted.words)  # texts only when used
    table = slice_table(result, aligned, wanted.slices, wanted.train, wanted.meta, plan)
    overlap = plan.metrics.overlap
    found = analyse(
        aligned,
        errors=wanted.errors,
        confusion_matrix=wanted.confusion,
        min_iou=overlap.min_iou if overlap else None,
        min_gold_share=overlap.min_gold_share if overlap else None,
        query=wanted.instances,
        slices=table,
    )
    if plan.statistics is not None:
        return with_bootstrap(result, aligned, plan.statistics, found)
    return replace(result, analysis=found)


@planned(scored)
def score(
    gold: Source,
    pred: Source | None = None,
    *,
    scheme: str = "auto",
    repair: str = "begin",
    tag_format: str | TagFormat | None = None,
    outside: str = "O",
    beta: float = 1.0,
    comments: bool = False,
    encoding: str = "utf-8",
    check_tokens: bool = True,
    workers: int | None = None,
    metrics: str | Sequence[str] = ("exact",),
    min_iou: float | None = None,
    min_gold_share: float | None = None,
    input_format: str | None = None,
    offsets: str | None = None,
    column: str | None = None,
    document_average: bool = False,
    matching: str = "optimal",
    delimiter: str | None = None,
    label_map: str | os.PathLike[str] | Mapping[str, str] | None = None,
    types: str | Sequence[str] | None = None,
    ignore_types: str | Sequence[str] | None = None,
    pattern: str | None = None,
    gold_scheme: str | None = None,
    pred_scheme: str | None = None,
    errors: bool = False,
    confusion: bool = False,
    instances: InstanceQuery | None = None,
    slices: str | Sequence[str] | None = None,
    train: PathLike | None = None,
    meta: PathLike | None = None,
    bootstrap: int | str | None = None,
    seed: int | str | None = None,
    confidence: float | str | None = None,
    unit: str | None = None,
    reader: ReaderOptions | None = None,
    flatten: str | None = None,
    lenient: bool = False,
    gold_annotator: str | int | None = None,
    pred_annotator: str | int | None = None,
    sweep: bool = False,
    progress: ProgressFn | None = None,
) -> Result:
    """Score predicted entities against gold entities, exactly matched (and MUC's modes).

    ``gold``: a merged CoNLL file, a gold file (``pred``: the predictions), a directory (``pattern``), binary
    file, tag lists, a `TaggedCorpus`, or a span or dataset file (``input_format``, ``offsets``, ``column``,
    ``reader``, ``lenient``; ``gold_annotator``, ``pred_annotator``: annotators of an export). Checked by
    `nerve.options`: ``scheme`` (``auto``; ``gold_scheme``, ``pred_scheme``), ``beta``, ``delimiter``,
    ``comments``, ``workers``, ``check_tokens``; ``metrics="exact,muc"`` (``min_iou``, ``min_gold_share``,
    ``document_average``, ``matching``); ``label_map``, ``types``, ``ignore_types``, ``flatten``; ``sweep``.

    Raises:
        OptionError: a bad or inapplicable option. InputError: unreadable or malformed input (file, line).
        SchemeError: tags no scheme fits. InvalidSequenceError: with ``repair="error"``, every invalid one.
    """
    raise AssertionError("planned() runs scored with the plan of these keywords")  # pragma: no cover


def validate(
    gold: Source,
    pred: Source | None = None,
    *,
    scheme: str = "auto",
    tag_format: str | TagFormat | None = None,
    outside: str = "O",
    comments: bool = False,
    encoding: str = "utf-8",
    check_tokens: bool = True,
    merged: bool = False,
    delimiter: str | None = None,
    progress: ProgressFn | None = None,
) -> tuple[Scheme, list[Problem]]:
    """List every transition that ``scheme`` does not allow, with its file and line.

    ``gold`` is a file or tag lists; ``pred`` an aligned prediction file or tag lists, checked
    too. A file alone is read as `score` reads it when its last two columns hold tags: its
    second-to-last column is checked as ``gold`` and its last as ``pred``; otherwise (one tag
    column) its last column is checked as ``gold``. ``merged=True`` reads two columns as merged
    too. ``delimiter`` is as for `score`. ``progress``: called ``(bytes read, total)`` as the files
    are read (`nerve.io.progress`).

    Returns:
        The scheme checked against (inferred for ``auto``) and the problems, in line order.
    """
    passes = 2 if options.scheme(scheme) is None else 1  # ``auto`` reads the input once to infer it
    with reporting(progress, passes * file_bytes((gold, pred)) if progress else 0):
        reading = Reading(
            comments=comments, encoding=encoding, check_tokens=check_tokens, delimiter=delimiter
        )
        return _validate(gold, pred, reading, (scheme, tag_format, outside), merged)


def _validate(
    gold: Source, pred: Source | None, r: Reading, tags: tuple[str, str | TagFormat | None, str], merged: bool
) -> tuple[Scheme, list[Problem]]:
    """`validate`: how the files are read (``r``), the scheme, tag format and outside tag as given."""
    scheme, tag_format, outside = tags
    fmt = options.tag_format(tag_format, outside)
    fixed = options.scheme(scheme)
    single = pred is None and not merged
    source = Input(gold, pred, r.comments, r.encoding, r.check_tokens, single=single, delimiter=r.delimiter)
    if single and is_path(gold):  # a file alone with three or more columns may be merged
        path = os.fspath(gold)  # type: ignore[arg-type]
        delimiter = file_delimiter(path) if r.delimiter is None else column_delimiter(r.delimiter)
        first = first_token_columns(path, r.comments, delimiter)
        source.single = first is None or first[0] < 3
    try:
        return _problems(source, fixed, fmt, outside)
    except InputError as err:
        if not single or source.single or err.option != "PRED_FILE":
            raise
    source.single = True  # its second-to-last column holds no tags: one tag column
    return _problems(source, fixed, fmt, outside)


def _problems(
    source: Input, fixed: Scheme | None, fmt: TagFormat | None, outside: str
) -> tuple[Scheme, list[Problem]]:
    """Every invalid transition of ``source``'s blocks, on each side, in file and line order."""
    known = fixed or scheme_of_inputs(source, fmt, outside)
    vocab = TagVocab(fmt, known, outside)
    problems: list[Problem] = []
    for block in source.blocks(vocab):
        rules = DecodeRules.of(vocab, known)  # the vocabulary grows as blocks are read
        sides = [("gold", block.gold, block.line, source.sources[0])]
        if block.pred is not None:
            sides.append(("pred", block.pred, block.pred_line, source.sources[1]))
        for side, ids, lines, name in sides:
            found = decode_block(
                ids,
                block.sentence_start,
                vocab,
                rules,
                "error",
                chunks=False,
                side=side,
                source=name,
                lines=lines,
            )
            problems.extend(found.problems)
    problems.sort(key=lambda p: (p.source, p.line, p.side))
    return known, problems


def decode(
    tags: Sequence[str] | Tags,
    *,
    scheme: str = "auto",
    repair: str = "begin",
    tag_format: str | TagFormat | None = None,
    outside: str = "O",
) -> list[Span]:
    """Decode tags into entities (half-open token offsets).

    ``tags`` is one sequence of tags, or a list of sequences (each span's ``seq`` is then the
    index of its sequence). ``repair`` is ``"begin"``, ``"discard"`` or ``"error"``.

    Raises:
        InvalidSequenceError: with ``repair="error"`` when a transition is invalid.
    """
    policy = options.entity_repair(repair, "decode entities: its rules only count chunks")
    if not is_list(tags):
        raise InputError(
            "<tags>", None, f"expected a list of tags, or a list of tag lists, got {quote(tags)}"
        )
    nested = bool(len(tags)) and not isinstance(tags[0], str)
    seqs: Tags = tags if nested else [tags]  # type: ignore[list-item]
    fmt = options.tag_format(tag_format, outside)
    fixed = options.scheme(scheme)
    if fixed is None:
        fixed = scheme_of_inputs(Input(seqs, None, False, "utf-8", True), fmt, outside)
    vocab = TagVocab(fmt, fixed, outside)
    (block,) = list(iter_lists(seqs, None, vocab))
    found = decode_block(
        block.gold, block.sentence_start, vocab, DecodeRules.of(vocab, fixed), policy, lines=block.line
    )
    if found.problems:
        raise InvalidSequenceError(found.problems, fixed.name)
    chunks = found.chunks
    lengths = np.asarray([len(s) for s in seqs], dtype=np.int64)
    seq = np.repeat(np.arange(lengths.shape[0]), lengths)[chunks.start]
    base = (np.cumsum(lengths) - lengths)[seq]
    names = vocab.type_names
    out = []
    columns = (seq, chunks.start - base, chunks.end - base, chunks.type)
    for q, start, end, t in zip(*(c.tolist() for c in columns), strict=True):
        out.append(Span(q, start, end, names[t]))
    return out


def encode(
    spans: Iterable[Span] | Iterable[tuple[int, int, str]],
    length: int | Sequence[int],
    *,
    scheme: str = "IOB2",
    tag_format: str | TagFormat = "B-X",
    outside: str = "O",
) -> list[str] | list[list[str]]:
    """Tag sequences of ``length`` tokens with ``spans`` (the inverse of `decode`).

    ``spans`` are `Span` objects or ``(start, end, label)`` triples (half-open). With one
    ``length`` the result is one list of tags; with a list of lengths it is one list per sequence,
    and each `Span`'s ``seq`` says which.
    """
    target = options.scheme(scheme)
    if target is None:
        raise SchemeOptionError(options.flag("scheme"), "encode needs a scheme to write, not auto")
    fmt = options.tag_format(tag_format, outside) or TagFormat(outside=outside)
    if fmt.position == "bare" and target.name != "IO":
        raise SchemeError(f"bare tags (no letter) can only be written with the IO scheme, not {target.name}")
    lengths = _lengths(length)
    per_seq: list[list[tuple[int, int, str]]] = [[] for _ in lengths]
    if not is_list(spans, iterable=True):
        raise InputError(
            "<spans>", None, f"expected Span objects or (start, end, label) triples, got {quote(spans)}"
        )
    for i, item in enumerate(spans):
        q, triple = _triple(item, f"<spans>: span {i}")
        if not 0 <= q < len(lengths):
            raise InputError(f"<spans>: span {i}", None, f"sequence index {q} is not below {len(lengths)}")
        per_seq[q].append(triple)
    try:
        out = [
            [fmt.join(letter, typ) for letter, typ in encode_sequence(s, n, target)]
            for s, n in zip(per_seq, lengths, strict=True)
        ]
    except ValueError as err:  # a span past the length, overlapping spans, touching ones in IO
        raise InputError("<spans>", None, str(err)) from None
    return out if is_list(length) else out[0]


def _lengths(length: Any) -> list[int]:
    """One length, or a list of them: whole numbers >= 0."""
    lengths = list(length) if is_list(length) else [length]
    if any(isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0 for n in lengths):
        raise OptionError("length", f"expected a whole number >= 0 (or a list of them), but got {length!r}")
    return [int(n) for n in lengths]


def _triple(item: Any, where: str) -> tuple[int, tuple[int, int, str]]:
    """The sequence index and ``(start, end, label)`` of a `Span` or a triple, checked."""
    if isinstance(item, Span):
        return item.seq, (item.start, item.end, item.label)
    if not is_list(item) or len(item) != 3:
        raise InputError(where, None, f"expected a Span or (start, end, label), got {quote(item)}")
    start, end, label = item
    if not (is_offset(start) and is_offset(end) and isinstance(label, str)):
        raise InputError(where, None, f"expected integer offsets and a string label, got {quote(item)}")
    return 0, (int(start), int(end), label)
