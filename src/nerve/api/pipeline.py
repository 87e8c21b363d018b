"""The path every score takes: read the input, decode and count it, and assemble the `Result`.

In: the sources and options of `nerve.score` (files, lists, a corpus, or span files). Out: the
`Result`, and with ``keep`` the `Aligned` corpus that the analysis works on. `nerve.api` holds the
entry points that call this.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import options
from ..analysis.aligned import Aligned, Collector, aligned_of
from ..errors import InputError, InvalidSequenceError, NerveError, OptionError
from ..io.conll import TaggedCorpus
from ..io.hf import read_hf
from ..io.reader_options import ReaderOptions
from ..io.sources import FileRange
from ..io.spans import check_columns, document_texts, read_span_columns, span_lists
from ..matching.exact import exact_match_fragments, exact_match_types
from ..metrics.exact import ExactAccumulator
from ..metrics.muc import MucOptions, muc_columns
from ..model.schemes import Scheme, TagFormat
from ..model.spans import SpanArray
from ..model.vocab import TagVocab
from ..results import Counts, ExactScores, RepairStats, Result, Settings, TokenStats
from .shards import score_shards, shards
from .sources import Input, Source, infer_scheme, input_kind, path_of

__all__ = ["score_aligned", "score_input", "score_spans"]

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
) -> Result:
    """Score documents of spans ``(start, end, label)`` (half-open): exact match, and MUC.

    Duplicated spans are matched at most once each.
    """
    g = check_columns(gold, "gold") if isinstance(gold, SpanArray) else span_lists(gold, "gold")
    p = check_columns(pred, "pred") if isinstance(pred, SpanArray) else span_lists(pred, "pred")
    if g.n_docs != p.n_docs:
        raise NerveError(
            f"Expected as many predicted documents as gold ones, but got {p.n_docs} and {g.n_docs}"
        )
    p = p.relabel(g.labels)  # one vocabulary: the gold types, then the others
    names, gt, pt = list(p.labels), g.label, p.label
    width = int(max(g.end.max(initial=0), p.end.max(initial=0))) + 1
    n = len(names)
    hits = _exact_hits(g, p, width, n, source)
    g_count = np.bincount(gt, minlength=n)
    p_count = np.bincount(pt, minlength=n)
    counts = {
        name: Counts(int(hits[i]), int(p_count[i] - hits[i]), int(g_count[i] - hits[i]))
        for i, name in enumerate(names)
    }
    muc = None
    if overlap is not None:
        muc = muc_columns((g.doc, g.start, g.end, gt), (p.doc, p.start, p.end, pt), names, g.n_docs, overlap)
    settings = Settings(
        scheme="-",
        scheme_inferred=False,
        tag_format=None,
        outside="-",
        repair="none",
        beta=beta,
        match="exact" if overlap is None else f"exact, muc ({overlap.describe()})",
        source=source,
    )
    return Result(
        settings=settings,
        tokens=TokenStats(),
        exact=ExactScores(counts, beta),
        repairs=RepairStats("none"),
        sentences=0,
        documents=g.n_docs,
        muc=muc,
        notes={side: dict(s.notes) for side, s in (("gold", g), ("pred", p)) if s.notes},
    )


def _muc(
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


def _count(
    source: Input,
    parts: list[tuple[FileRange, FileRange | None]] | None,
    policy: str,
    scheme: Scheme | None,
    fmt: TagFormat | None,
    outside: str,
    overlap: MucOptions | None,
    keep: list[tuple[Collector, tuple[str, ...]]] | None = None,
    words: bool = False,
) -> ExactAccumulator:
    """Count the input's blocks: in threads, a range of the file each (``parts``), or in one go.

    With ``keep``, the entities and token columns are collected too (`nerve.analysis.aligned.Collector`),
    and with ``words`` the tokens themselves.
    """
    if scheme is None and policy in ("discard", "error"):
        scheme = infer_scheme(source, fmt, outside)  # these policies need the scheme while decoding
    if parts:
        args = (policy, scheme, fmt, outside, source.check_tokens, source.sources, overlap)
        return score_shards(parts, *args, keep=keep, words=words)
    acc = ExactAccumulator(TagVocab(fmt, scheme, outside), policy, scheme, source.sources, overlap)
    collector = Collector()
    source.words = keep is not None and words
    for block in source.blocks(acc.vocab):
        if block.pred is None:
            need = "scoring needs predicted tags: give a merged file or a prediction file"
            raise InputError(source.sources[0], None, need)
        chunks = acc.update(block)
        if keep is not None and chunks is not None:
            collector.add(block, chunks)
    if keep is not None:
        keep.append((collector, tuple(acc.vocab.type_names)))
    return acc


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
    document_average: bool = False,
    matching: str = "optimal",
    delimiter: str | None = None,
    keep: bool = False,
    words: bool = False,
    reader: ReaderOptions | None = None,
) -> tuple[Result, Aligned | None]:
    """`score`; with ``keep``, the `Aligned` corpus too (else ``None``), with its tokens if ``words``."""
    policy = options.repair(repair)
    overlap = _muc(metrics, policy, min_iou, min_gold_share, document_average, matching)
    beta = options.beta(beta)
    if keep:
        options.entity_repair(policy, "feed the analysis or the bootstrap: its rules only count chunks")
    kind = input_kind(gold, input_format, offsets)
    reader = reader or ReaderOptions()
    if kind == "hf" or reader.given("tag_column", "label_names", "subwords"):
        gold, pred, kind = _hf(kind, gold, pred, reader), None, "conll"
    if kind != "conll":
        names = (os.fspath(gold), path_of(pred) or os.fspath(gold))  # type: ignore[arg-type]
        key = reader.spans_key
        return _span_file(names, pred is not None, kind, offsets, key, beta, overlap, keep, words)
    if reader.spans_key is not None:
        raise OptionError(options.flag("spans_key"), "names a span group of spacy DocBins, not of tags")
    fmt, fixed = options.tag_format(tag_format, outside), options.scheme(scheme)
    source = Input(gold, pred, comments, encoding, check_tokens, delimiter=delimiter)
    threads = policy != "conlleval" and delimiter is None  # conlleval's state crosses sentences
    parts = shards(gold, pred, workers, comments, encoding) if threads else None
    kept: list[tuple[Collector, tuple[str, ...]]] | None = [] if keep else None
    acc = _count(source, parts, policy, fixed, fmt, outside, overlap, kept, words)
    totals = acc.finish()
    if policy == "error" and acc.problems:
        raise InvalidSequenceError(sorted(acc.problems, key=lambda p: (p.line, p.side)), totals.scheme.name)
    settings = Settings.of_tags(totals.scheme.name, fixed is None, acc.vocab, policy, beta, overlap)
    result = Result.of_totals(settings, totals)
    return result, aligned_of(kept, source.sources) if kept is not None else None


def _span_file(
    names: tuple[str, str],
    two: bool,
    kind: str,
    offsets: str | None,
    spans_key: str | None,
    beta: float,
    overlap: MucOptions | None,
    keep: bool,
    words: bool,
) -> tuple[Result, Aligned | None]:
    """`score_input` of a span file (or two): the `Result`, and with ``keep`` the `Aligned` corpus."""
    pred = names[1] if two else None
    g, p = read_span_columns(names[0], pred, fmt=kind, units=offsets, spans_key=spans_key)
    result = score_spans(g, p, beta=beta, overlap=overlap, source=kind)
    if not keep:
        return result, None
    p = p.relabel(g.labels)
    g = replace(g, labels=p.labels)
    texts = tuple(document_texts(names[0], kind, offsets)) if words else None
    return result, Aligned(g, p, None, names, texts or None)


def _hf(kind: str, gold: Source, pred: Source | None, reader: ReaderOptions) -> TaggedCorpus:
    """The tags of a Hugging Face dataset (and of a second one, the predictions)."""
    name = reader.given("tag_column", "label_names", "subwords")
    if kind != "hf" and name is not None:
        detail = f"applies to Hugging Face datasets, but the input reads as {kind}"
        raise OptionError(options.flag(name), detail)
    column, subwords = reader.tag_column or "ner_tags", reader.subwords or "auto"
    return read_hf(gold, pred, tag_column=column, label_names=reader.names(), subwords=subwords)  # type: ignore[arg-type]


def _exact_hits(g: SpanArray, p: SpanArray, width: int, n: int, source: str) -> Int:
    """Exact matches per type, keying a position by document * width + offset.

    Discontinuous entities match when every piece is equal (`exact_match_fragments`).
    """
    if g.fragments is not None or p.fragments is not None:
        return exact_match_fragments(g, p, n)
    too_far = f"{g.n_docs} documents with offsets up to {width - 1}: too many to match in 64-bit keys"
    if g.n_docs * width >= 2**62:
        raise InputError(source, None, too_far)
    try:
        return exact_match_types(
            (g.doc * width + g.start, g.doc * width + g.end, g.label),
            (p.doc * width + p.start, p.doc * width + p.end, p.label),
            n,
        )
    except OverflowError:  # the key of (position, length, type)
        raise InputError(source, None, f"{too_far} with spans this long") from None
