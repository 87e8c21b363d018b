"""The path every score takes: read the input, decode and count it, and assemble the `Result`.

In: the sources and options of `nerve.score` (files, lists, a corpus, or span files). Out: the
`Result`, and with ``keep`` the `Aligned` corpus that the analysis works on. `nerve.api` holds the
entry points that call this.
"""

from __future__ import annotations

import codecs
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
from ..io.conll import TaggedCorpus
from ..io.hf import read_hf
from ..io.label_maps import label_map as read_label_map
from ..io.lenient import lenient_texts
from ..io.reader_options import ReaderOptions
from ..io.sources import FileRange
from ..io.span_lists import check_columns, span_lists
from ..io.spans import check_column, document_texts, read_span_columns
from ..metrics.discontinuous import discontinuous_scores
from ..metrics.exact import ExactAccumulator
from ..metrics.muc import MucOptions, muc_columns
from ..model.labels import LabelMap
from ..model.nesting import POLICIES
from ..model.schemes import Scheme, TagFormat
from ..model.spans import SpanArray
from ..model.vocab import TagVocab
from ..results import Counts, ExactScores, RepairStats, Result, Settings, TokenStats
from .dirs import conll_pairs
from .shards import score_shards, shards
from .sources import Input, Source, input_kind, is_path, path_of, reading_notes, scheme_of_inputs
from .span_chunks import chunks_apply, score_jsonl_chunks
from .span_scores import exact_hits, flatten_sides, span_settings

__all__ = ["count_inputs", "muc_options", "result_of", "scheme_pair"]  # the parts `nerve.api.partial` uses
__all__ += ["score_aligned", "score_input", "score_spans"]

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]


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
    g = check_columns(gold, "gold") if isinstance(gold, SpanArray) else span_lists(gold, "gold")
    p = check_columns(pred, "pred") if isinstance(pred, SpanArray) else span_lists(pred, "pred")
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
    return Result(
        settings=span_settings(beta, overlap, source, labels, flatten),
        tokens=TokenStats(),
        exact=ExactScores(counts, beta),
        repairs=RepairStats("none"),
        sentences=0,
        documents=g.n_docs,
        muc=muc,
        notes={side: dict(s.notes) for side, s in (("gold", g), ("pred", p)) if s.notes},
        discontinuous=discontinuous_scores(g, p, beta),
    )


def muc_options(
    metrics: str | Sequence[str],
    policy: str,
    min_iou: float | None,
    min_gold_share: float | None,
    document_average: bool,
    matching: str,
) -> MucOptions | None:
    """The MUC options, or ``None`` when the metric families lack muc (and none of them is given)."""
    families = options.metric_families(metrics)
    given = {"matching": matching, "min_iou": min_iou, "min_gold_share": min_gold_share}
    options.muc_only(families, {**given, "document_average": document_average})
    if "muc" not in families:
        return None
    options.entity_repair(policy, "feed the muc metrics: its rules only count chunks")
    iou = options.fraction(min_iou, "min_iou", zero=False)
    share = options.fraction(min_gold_share, "min_gold_share", zero=False)
    return MucOptions(iou, share, document_average, options.matching(matching))


def count_inputs(
    source: Input,
    more: list[Input],
    parts: list[tuple[FileRange, FileRange | None]] | None,
    policy: str,
    scheme: Scheme | None,
    fmt: TagFormat | None,
    outside: str,
    overlap: MucOptions | None,
    keep: list[tuple[Collector, tuple[str, ...]]] | None = None,
    words: bool = False,
    labels: LabelMap | None = None,
    pred_scheme: Scheme | str | None = "same",
) -> ExactAccumulator:
    """Count the input's blocks: in threads, a range of the file each (``parts``), or in one go.

    With ``keep``, the entities and token columns are collected too (`nerve.analysis.aligned.Collector`),
    and with ``words`` the tokens themselves. ``more``: the pairs of files after ``source`` (directories).
    """
    if scheme is None and policy in ("discard", "error") and pred_scheme == "same":
        scheme = scheme_of_inputs([source, *more], fmt, outside)  # discard, error: the scheme first
    if parts:
        args = (policy, scheme, fmt, outside, source.check_tokens, source.sources, overlap)
        return score_shards(parts, *args, keep=keep, words=words, labels=labels, pred_scheme=pred_scheme)
    vocab = TagVocab(
        fmt, scheme if pred_scheme == "same" else None, outside
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


def _only_tags(kind: str, given: dict[str, Any]) -> None:
    """Refuse the options of tagged input that ``given`` (`score_input`'s arguments) sets, for span files.

    For tagged input, refuse ``flatten``: entities decoded from one tag column never overlap; and
    ``lenient`` for input whose entities carry no text.
    """
    formats.check_lenient(given["lenient"], kind)
    record = formats.format_named(kind)  # the options it takes are not refused
    if record.kind == "tags":
        if given["flatten"] is not None:
            detail = "applies to span input, whose entities can nest; entities decoded from tags never do"
            raise OptionError(options.flag("flatten"), detail)
        return
    unset = {"scheme": "auto", "repair": "begin", "outside": "O", "comments": False, "check_tokens": True}
    unset.update(tag_format=None, delimiter=None, workers=None, gold_scheme=None, pred_scheme=None)
    utf8 = codecs.lookup(options.encoding(given["encoding"])).name == "utf-8"
    for option in (o for o in ("encoding", *unset) if not record.takes(o)):
        if (option == "encoding" and not utf8) or (option != "encoding" and given[option] != unset[option]):
            detail = f"applies to tagged (CoNLL) input, but the input reads as {kind} spans"
            raise OptionError(options.flag(option), detail)


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
    result, aligned = score_input(gold, pred, **kwargs, keep=True, words=words)
    assert aligned is not None
    return result, aligned


def score_input(
    gold: Source,
    pred: Source | None,
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
    keep: bool = False,
    words: bool = False,
    reader: ReaderOptions | None = None,
    flatten: str | None = None,
    lenient: bool = False,
) -> tuple[Result, Aligned | None]:
    """`score`; with ``keep``, the `Aligned` corpus too (else ``None``), with its tokens if ``words``."""
    labels = read_label_map(label_map, types, ignore_types)
    policy = options.repair(repair)
    overlap = muc_options(metrics, policy, min_iou, min_gold_share, document_average, matching)
    beta = options.beta(beta)
    if keep:
        options.entity_repair(policy, "feed the analysis or the bootstrap: its rules only count chunks")
    gold, pred, kind, reader = _source_kind(gold, pred, input_format, offsets, column, pattern, reader)
    _only_tags(kind, dict(locals()))
    if kind != "conll":
        reading = (offsets, column, reader.spans_key, lenient)
        return _span_files((gold, pred), kind, reading, beta, overlap, labels, keep, words, flatten)
    fmt, fixed = options.tag_format(tag_format, outside), options.scheme(scheme)
    fixed, other = scheme_pair(fixed, gold_scheme, pred_scheme, policy)
    pairs = _pairs(gold, pred, pattern)
    inputs = [Input(g, p, comments, encoding, check_tokens, delimiter=delimiter) for g, p in pairs]
    threads = policy != "conlleval" and delimiter is None and len(inputs) == 1  # conlleval: one thread
    parts = shards(gold, pred, workers, comments, encoding) if threads else None
    kept: list[tuple[Collector, tuple[str, ...]]] | None = [] if keep else None
    acc = count_inputs(
        inputs[0], inputs[1:], parts, policy, fixed, fmt, outside, overlap, kept, words, labels, other
    )
    notes = reading_notes(inputs)  # a prediction file paired sentence by sentence
    result = result_of(acc, fixed is None, other is None, policy, beta, overlap, labels, notes)
    names = inputs[0].sources if len(inputs) == 1 else (os.fspath(gold), path_of(pred) or "")  # type: ignore[arg-type]
    return result, aligned_of(kept, names) if kept is not None else None


def _source_kind(
    gold: Source,
    pred: Source | None,
    input_format: str | None,
    offsets: str | None,
    column: str | None,
    pattern: str | None,
    reader: ReaderOptions | None,
) -> tuple[Source, Source | None, str, ReaderOptions]:
    """What the input is (``conll`` for tags); a Hugging Face dataset becomes the `TaggedCorpus` read."""
    kind = input_kind(gold, input_format or ("conll" if pattern else None), offsets)
    reader = reader or ReaderOptions()
    if kind == "hf" or reader.given("tag_column", "label_names", "subwords"):
        gold, pred, kind = _hf(kind, gold, pred, reader), None, "conll"
    check_column(column, kind)
    if kind == "conll" and reader.spans_key is not None:
        raise OptionError(options.flag("spans_key"), "names a span group of spacy DocBins, not of tags")
    return gold, pred, kind, reader


def result_of(
    acc: ExactAccumulator,
    inferred: bool,
    pred_inferred: bool,
    policy: str,
    beta: float,
    overlap: MucOptions | None,
    labels: LabelMap | None,
    notes: Mapping[str, Mapping[str, int]] | None = None,
) -> Result:
    """The result of the counts, with their settings and ``notes``; the ``error`` policy's problems raised."""
    if labels:
        check_types(labels, acc.vocab.type_names)
    totals = acc.finish()
    if policy == "error" and acc.problems:
        raise InvalidSequenceError(sorted(acc.problems, key=lambda p: (p.line, p.side)), totals.scheme.name)
    fields = labels.fields() if labels else ()
    settings = Settings.of_tags(totals.scheme.name, inferred, acc.vocab, policy, beta, overlap, fields)
    if totals.pred_scheme is not None:
        settings = replace(
            settings, pred_scheme=totals.pred_scheme.name + (" (auto)" if pred_inferred else "")
        )
    result = Result.of_totals(settings, totals)
    return replace(result, notes=notes) if notes else result


def scheme_pair(
    fixed: Scheme | None, gold: str | None, pred: str | None, policy: str
) -> tuple[Scheme | None, Scheme | str | None]:
    """The gold scheme, and the predictions' (``"same"`` when it is the gold one): ``scheme`` unless given."""
    g = fixed if gold is None else options.scheme(gold, "gold_scheme")
    p = fixed if pred is None else options.scheme(pred, "pred_scheme")
    if g is p:
        return g, "same"
    if policy in ("discard", "error") and None in (g, p):
        side = "gold_scheme" if g is None else "pred_scheme"
        raise OptionError(
            options.flag(side), f"{policy} decodes each side with its scheme: name it, not auto"
        )
    return g, p


def _span_files(
    sources: tuple[Source, Source | None],
    kind: str,
    reading: tuple[str | None, str | None, str | None, bool],
    beta: float,
    overlap: MucOptions | None,
    labels: LabelMap | None,
    keep: bool,
    words: bool,
    flatten: str | None = None,
) -> tuple[Result, Aligned | None]:
    """`score_input` of span files: the result, and with ``keep`` the `Aligned` spans (after ``labels``).

    ``reading``: the offset units, the column (HIPE, CoNLL-U), the span group (spaCy), ``lenient``.
    """
    files = (os.fspath(sources[0]), path_of(sources[1]))  # type: ignore[arg-type]
    offsets, column, key, lenient = reading
    if chunks_apply(files[0], files[1], kind, not (keep or lenient or column or key)):
        score = partial(score_spans, beta=beta, overlap=overlap, source=kind, labels=labels, flatten=flatten)
        result = score_jsonl_chunks(files[0], offsets, score)
        return result, None
    g, p = read_span_columns(*files, fmt=kind, units=offsets, column=column, spans_key=key, lenient=lenient)
    source = kind + " lenient" * lenient
    result = score_spans(g, p, beta=beta, overlap=overlap, source=source, labels=labels, flatten=flatten)
    if not keep:
        return result, None
    g, p = flatten_sides(*((labels.spans(g), labels.spans(p)) if labels else (g, p)), flatten)
    p = p.relabel(g.labels)
    g = replace(g, labels=p.labels)
    names = (files[0], files[1] or files[0])
    with lenient_texts(lenient):
        texts = tuple(document_texts(names[0], kind, offsets)) if words else None
    return result, Aligned(g, p, None, names, texts or None)


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
