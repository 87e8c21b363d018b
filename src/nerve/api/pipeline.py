"""The path every score takes: read the input, decode and count it, and assemble the `Result`.

In: the sources and options of `nerve.score` (files, lists, a corpus, or span files). Out: the
`Result`, and with ``keep`` the `Aligned` corpus that the analysis works on. `nerve.api` holds the
entry points that call this.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import options
from ..analysis.aligned import Aligned, Collector, aligned_of
from ..errors import InputError, InvalidSequenceError, NerveError, OptionError
from ..io import formats
from ..io.json.span_lists import check_columns, span_lists
from ..io.lenient import lenient_texts
from ..io.outputs import HALLUCINATED, OutputReading
from ..io.reader_options import ReaderOptions
from ..io.sources import FileRange
from ..io.spans import check_column, document_texts, read_span_columns
from ..io.tags.conll import TaggedCorpus
from ..io.tags.hf import read_hf
from ..metrics.discontinuous import discontinuous_scores
from ..metrics.exact import ExactAccumulator, ExactTotals
from ..metrics.muc import muc_columns
from ..model.labels import LabelMap
from ..model.nesting import POLICIES
from ..model.spans import SpanArray
from ..model.vocab import TagVocab
from ..plan import Metrics, MucOptions, Plan, Reading
from ..results import Counts, RepairStats, Result, TokenStats
from .compiled import compiled_result
from .dirs import conll_pairs
from .planned import plan_of
from .shards import score_shards, shards
from .sources import (
    Input,
    Source,
    format_options,
    input_kinds,
    is_path,
    path_of,
    reading_notes,
    scheme_of_inputs,
)
from .span_chunks import chunks_apply, score_jsonl_chunks
from .span_scores import exact_hits, flatten_sides

__all__ = ["count_inputs", "result_of"]  # the parts `nerve.api.partial` uses
__all__ += ["aligned_input", "score_aligned", "score_input", "score_spans", "spans_result"]

if TYPE_CHECKING:
    pass


def score_spans(
    gold: Sequence[Sequence[tuple[int, int, str]]] | SpanArray,
    pred: Sequence[Sequence[tuple[int, int, str]]] | SpanArray,
    *,
    beta: float = 1.0,
    overlap: MucOptions | None = None,
    source: str = "lists",
    labels: LabelMap | None = None,
    flatten: str | None = None,
) -> Result:
    """Score documents of spans ``(start, end, label)`` (half-open): exact match, and MUC.

    Duplicated spans are matched at most once each. ``labels`` renames and filters the types of both;
    then ``flatten`` (a `nerve.model.nesting.POLICIES` name) flattens both, counting what it drops.
    """
    plan = Plan(reading=Reading(flatten=flatten), labels=labels, metrics=Metrics(beta, overlap))
    return spans_result(gold, pred, plan, source)


def spans_result(
    gold: Sequence[Sequence[tuple[int, int, str]]] | SpanArray,
    pred: Sequence[Sequence[tuple[int, int, str]]] | SpanArray,
    plan: Plan,
    source: str,
    pred_name: str = "pred",
) -> Result:
    """`score_spans` under ``plan`` (its labels, flattening, beta, MUC options and sweep).

    ``pred_name``: the predictions' file, which an error of their scores names (``sweep``).
    """
    g = check_columns(gold, "gold") if isinstance(gold, SpanArray) else span_lists(gold, "gold")
    p = check_columns(pred, "pred") if isinstance(pred, SpanArray) else span_lists(pred, "pred")
    labels, flatten, overlap = plan.labels, plan.reading.flatten, plan.metrics.overlap
    if labels:
        check_types(labels, (*g.labels, *p.labels))
        g, p = labels.spans(g), labels.spans(p)
    g, p = flatten_sides(g, p, None if flatten is None else options.one_of(flatten, POLICIES, "flatten"))
    if g.n_docs != p.n_docs:
        raise NerveError(
            f"Expected as many predicted documents as gold ones, but got {p.n_docs} and {g.n_docs}"
        )
    p = p.relabel(g.labels)  # one vocabulary: the gold types, then the others
    names, gt, pt = list(p.labels), g.label, p.label
    width = int(max(g.end.max(initial=0), p.end.max(initial=0))) + 1
    n = len(names)
    hits = exact_hits(g, p, width, n, source)
    g_count = np.bincount(gt, minlength=n)
    p_count = np.bincount(pt, minlength=n)
    counts = {
        name: Counts(int(hits[i]), int(p_count[i] - hits[i]), int(g_count[i] - hits[i]))
        for i, name in enumerate(names)
    }
    muc = None
    if overlap is not None:
        muc = muc_columns(g, p, overlap)
    totals = ExactTotals(counts, TokenStats(), RepairStats("none"), None, 0, g.n_docs, muc)
    notes = {side: dict(s.notes) for side, s in (("gold", g), ("pred", p)) if s.notes}
    apart = discontinuous_scores(g, p, plan.metrics.beta)
    result = Result.of(
        plan, totals, source=source, notes=notes, discontinuous=apart, hallucinated=hallucinated(p)
    )
    if not plan.metrics.sweep:
        return result
    from ..metrics.sweep import threshold_sweep  # asked for: plain scoring does not load it

    return replace(result, sweep=threshold_sweep(g, p, plan.metrics.beta, pred_name))


def hallucinated(spans: SpanArray) -> dict[str, tuple[str, ...]]:
    """The texts of the entities not found in their text (`nerve.io.json.entity_list`), by type."""
    column = (spans.attributes or {}).get(HALLUCINATED)
    out: dict[str, list[str]] = {}
    if column is not None:
        for label, text in zip(spans.label.tolist(), column.tolist(), strict=True):
            if text is not None:
                out.setdefault(spans.labels[label], []).append(text)
    return {t: tuple(v) for t, v in sorted(out.items())}


def count_inputs(
    source: Input,
    more: list[Input],
    parts: list[tuple[FileRange, FileRange | None]] | None,
    plan: Plan,
    keep: list[tuple[Collector, tuple[str, ...]]] | None = None,
    words: bool = False,
) -> ExactAccumulator:
    """Count the input's blocks under ``plan``: in threads, a range of the file each (``parts``), or at once.

    With ``keep``, the entities and token columns are collected too (`nerve.analysis.aligned.Collector`),
    and with ``words`` the tokens themselves. ``more``: the pairs of files after ``source`` (directories).
    """
    t, overlap, labels = plan.tagging, plan.metrics.overlap, plan.labels
    scheme, policy, pred_scheme = t.scheme, t.policy, t.pred_scheme
    if t.needs_scheme:
        scheme = scheme_of_inputs([source, *more], t.fmt, t.outside)  # these policies need it while decoding
    if parts:
        args = (policy, scheme, t.fmt, t.outside, source.check_tokens, source.sources, overlap)
        kept: list[tuple[Collector, tuple[str, ...]]] | None = [] if keep is not None else None
        counted = score_shards(parts, *args, keep=kept, words=words, labels=labels, pred_scheme=pred_scheme)
        if counted is not None:  # None: the ranges inferred different tag formats; read it in one pass
            if keep is not None and kept is not None:
                keep.extend(kept)
            return counted
    vocab = TagVocab(
        t.fmt, scheme if pred_scheme == "same" else None, t.outside
    )  # two schemes: checked at the end
    acc = ExactAccumulator(vocab, policy, scheme, source.sources, overlap, labels, pred_scheme)
    collector = Collector()
    for each in (source, *more):
        each.words, acc.sources = keep is not None and words, each.sources
        for block in each.blocks(acc.vocab):
            if block.pred is None:
                need = "scoring needs predicted tags: give a merged file or a prediction file"
                raise InputError(each.sources[0], None, need)
            chunks = acc.update(block)
            if keep is not None and chunks is not None:
                collector.add(block, chunks)
    if keep is not None:
        keep.append((collector, tuple(acc.type_names)))
    return acc


def _only_tags(kind: str, plan: Plan) -> None:
    """Refuse the options of tagged input that ``plan`` sets, for span files.

    For tagged input, refuse ``flatten``: entities decoded from one tag column never overlap; and
    ``lenient`` for input whose entities carry no text.
    """
    formats.check_lenient(plan.reading.lenient, kind)
    record = formats.format_named(kind)  # the options it takes are not refused
    if record.kind == "tags":
        if plan.reading.flatten is not None:
            detail = "applies to span input, whose entities can nest; entities decoded from tags never do"
            raise OptionError(options.flag("flatten"), detail)
        return
    refused = [option for option in plan.tagging.given if not record.takes(option)]
    if refused:
        detail = f"applies to tagged (CoNLL) input, but the input reads as {kind} spans"
        raise OptionError(options.flag(refused[0]), detail)


def check_types(labels: LabelMap, names: Sequence[str]) -> None:
    """Refuse kept types (``types``) that no type read becomes: likely typos (none read: nothing to say)."""
    unseen = labels.unseen(names)
    if unseen:
        seen = ", ".join(sorted({labels.renamed(n) for n in names}))
        after = f" after {options.flag('label_map')}" if labels.rename else ""
        detail = (
            f"type {unseen[0]!r} is in neither the gold nor the predicted entities{after} (types: {seen})"
        )
        raise OptionError(options.flag("types"), detail)


def score_aligned(
    gold: Source, pred: Source | None = None, *, words: bool = True, **kwargs: Any
) -> tuple[Result, Aligned]:
    """`score` (with its keyword arguments but the analysis ones), and both sides as `Aligned`.

    ``words=False`` leaves the tokens themselves out (``aligned.tokens.words`` is ``None``),
    which is faster when no text is needed (error counts, the confusion matrix).

    The `Aligned` is what `nerve.analysis` works on: every gold and predicted entity, with the
    sentence, document, line and word of each token for tagged input.
    """
    return aligned_input(gold, pred, plan_of(**kwargs), words)


def aligned_input(gold: Source, pred: Source | None, plan: Plan, words: bool) -> tuple[Result, Aligned]:
    """`score_input` with the `Aligned` corpus kept (with its tokens if ``words``)."""
    result, aligned = score_input(gold, pred, plan, keep=True, words=words)
    assert aligned is not None
    return result, aligned


def score_input(
    gold: Source, pred: Source | None, plan: Plan, *, keep: bool = False, words: bool = False
) -> tuple[Result, Aligned | None]:
    """The score of ``gold`` against ``pred`` under ``plan``; with ``keep``, the `Aligned` corpus too."""
    if keep:
        options.entity_repair(
            plan.tagging.policy, "feed the analysis or the bootstrap: its rules only count chunks"
        )
    r = plan.reading
    where = (r.input_format, r.offsets, r.column, r.pattern, r.reader)
    gold, pred, kinds, reader = _source_kind(gold, pred, *where, named=(r.gold_format, r.pred_format))
    kind = kinds[0]
    if r.gold_annotator is not None or r.pred_annotator is not None:
        from .annotator_sides import check_annotators  # span exports only: plain scoring does not load it

        check_annotators(kind, r)
    for each in dict.fromkeys(kinds):
        _only_tags(each, plan)
    if plan.metrics.sweep and kind == "conll":
        name = path_of(pred) or (os.fspath(gold) if is_path(gold) else "<pred>")  # type: ignore[arg-type]
        detail = f'tagged predictions have no scores: {options.flag("sweep")} needs a "score" on each entity'
        raise InputError(name, None, f"{detail} of a JSON or JSONL span file")
    if kind != "conll":
        reading = (r.offsets, r.column, reader.spans_key, r.lenient)
        return _span_files((gold, pred), kinds, reading, plan, keep, words)
    pairs = _pairs(gold, pred, r.pattern)
    inputs = [Input(g, p, r.comments, r.encoding, r.check_tokens, delimiter=r.delimiter) for g, p in pairs]
    if not keep and _left_by_route(gold, pred):  # the C engine counts them here, where it applies
        counted = compiled_result(inputs, plan)
        if counted is not None:
            return counted, None
    threads = plan.tagging.policy != "conlleval" and r.delimiter is None and len(inputs) == 1
    parts = shards(gold, pred, r.workers, r.comments, r.encoding) if threads else None  # conlleval: 1 thread
    kept: list[tuple[Collector, tuple[str, ...]]] | None = [] if keep else None
    acc = count_inputs(inputs[0], inputs[1:], parts, plan, kept, words)
    result = result_of(acc, plan, reading_notes(inputs))  # notes: a prediction file paired by sentence
    names = inputs[0].sources if len(inputs) == 1 else (os.fspath(gold), path_of(pred) or "")  # type: ignore[arg-type]
    return result, aligned_of(kept, names) if kept is not None else None


def _left_by_route(gold: Source, pred: Source | None) -> bool:
    """Whether `nerve.compiled.route` left these CoNLL inputs to this road: directories and streams.

    Files by name it offered to the C engine already (which may have handed them over).
    """
    if not is_path(gold) or (pred is not None and not is_path(pred)):
        return True
    return os.path.isdir(os.fspath(gold))  # type: ignore[arg-type]


def _source_kind(
    gold: Source,
    pred: Source | None,
    input_format: str | None,
    offsets: str | None,
    column: str | None,
    pattern: str | None,
    reader: ReaderOptions | None,
    named: tuple[str | None, str | None] = (None, None),
) -> tuple[Source, Source | None, tuple[str, str], ReaderOptions]:
    """What each side is (``conll`` for tags); a Hugging Face dataset becomes the `TaggedCorpus` read.

    ``named``: the gold's and the predictions' formats, where given (`input_kinds`).
    """
    both = input_format or ("conll" if pattern else None)
    kind, theirs = input_kinds(gold, pred, (both, *named), offsets)
    reader = reader or ReaderOptions()
    if kind == "hf" or reader.given("tag_column", "label_names", "subwords"):
        gold, pred, kind = _hf(kind, gold, pred, reader), None, "conll"
        theirs = kind
    if column is not None and not any(formats.format_named(k).takes("column") for k in (kind, theirs)):
        check_column(column, kind)
    if kind == "conll" and reader.spans_key is not None:
        raise OptionError(options.flag("spans_key"), "names a span group of spacy DocBins, not of tags")
    return gold, pred, (kind, theirs), reader


def result_of(
    acc: ExactAccumulator, plan: Plan, notes: Mapping[str, Mapping[str, int]] | None = None
) -> Result:
    """The result of the counts under ``plan``, with ``notes``; the ``error`` policy's problems raised."""
    if plan.labels:
        check_types(plan.labels, acc.vocab.type_names)
    totals = acc.finish()
    if plan.tagging.policy == "error" and acc.problems:
        problems = sorted(acc.problems, key=lambda p: (p.line, p.side))
        raise InvalidSequenceError(problems, totals.scheme.name if totals.scheme else "-")
    return Result.of(plan, totals, acc.vocab, notes=notes)


def _span_files(
    sources: tuple[Source, Source | None],
    kinds: tuple[str, str],
    reading: tuple[str | None, str | None, str | None, bool],
    plan: Plan,
    keep: bool,
    words: bool,
) -> tuple[Result, Aligned | None]:
    """`score_input` of span files: the result, and with ``keep`` the `Aligned` spans (after the labels).

    ``reading``: the offset units, the column (HIPE, CoNLL-U), the span group (spaCy), ``lenient``;
    ``kinds``: the gold's and the predictions' formats.
    """
    files = (os.fspath(sources[0]), path_of(sources[1]))  # type: ignore[arg-type]
    offsets, column, key, lenient = reading
    kind, outputs = kinds[0], plan.reading.outputs
    plain = kinds[0] == kinds[1] and not outputs.given()
    whole = keep or lenient or column or key or plan.metrics.sweep
    if plain and chunks_apply(files[0], files[1], kind, not whole):
        result = score_jsonl_chunks(files[0], offsets, partial(spans_result, plan=plan, source=kind))
        return result, None
    from .annotator_sides import annotator_sides  # span files only: plain scoring does not load it

    picked = annotator_sides(files, kind, offsets, plan.reading)
    if picked is None:
        fmts: dict[str, Any] = {"fmt": kind, "pred_fmt": kinds[1], "named": format_options(plan.reading)}
        picked = read_span_columns(
            *files, **fmts, units=offsets, column=column, spans_key=key, lenient=lenient, outputs=outputs
        )
    g, p = picked
    result = spans_result(g, p, plan, source_field(kinds, outputs, lenient), files[1] or files[0])
    if not keep:
        return result, None
    labels = plan.labels
    g, p = flatten_sides(*((labels.spans(g), labels.spans(p)) if labels else (g, p)), plan.reading.flatten)
    p = p.relabel(g.labels)
    g = replace(g, labels=p.labels)
    names = (files[0], files[1] or files[0])
    with lenient_texts(lenient):
        texts = tuple(document_texts(names[0], kind, offsets)) if words else None
    return result, Aligned(g, p, None, names, texts or None)


def source_field(kinds: tuple[str, str], outputs: OutputReading, lenient: bool) -> str:
    """The signature's source: ``jsonl``, ``jsonl/entity-list locate in-order normalize case``..."""
    takes = {name for k in kinds for name in formats.format_named(k).options}
    words = [kinds[0] if kinds[0] == kinds[1] else "/".join(kinds), outputs.describe(takes)]
    return " ".join(w for w in words if w) + " lenient" * lenient


def _pairs(gold: Source, pred: Source | None, pattern: str | None) -> list[tuple[Source, Source | None]]:
    """The gold and prediction files: these, or those paired under two directories (`conll_pairs`)."""
    if is_path(gold) and os.path.isdir(os.fspath(gold)):  # type: ignore[arg-type]
        return list(conll_pairs(os.fspath(gold), path_of(pred), pattern))  # type: ignore[arg-type]
    if pattern is not None:
        raise OptionError(
            options.flag("pattern"), "applies to directories of CoNLL files: give two directories"
        )
    return [(gold, pred)]


def _hf(kind: str, gold: Source, pred: Source | None, reader: ReaderOptions) -> TaggedCorpus:
    """The tags of a Hugging Face dataset (and of a second one, the predictions)."""
    name = reader.given("tag_column", "label_names", "subwords")
    if kind != "hf" and name is not None:
        detail = f"applies to Hugging Face datasets, but the input reads as {kind}"
        raise OptionError(options.flag(name), detail)
    column, subwords = reader.tag_column or "ner_tags", reader.subwords or "auto"
    return read_hf(gold, pred, tag_column=column, label_names=reader.names(), subwords=subwords)  # type: ignore[arg-type]
