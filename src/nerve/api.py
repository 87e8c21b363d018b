"""The public entry points: `score`, `validate`, `decode` and `encode`.

They compose readers, the vocabulary, repair policies and metrics; the CLI calls only these.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from .errors import InputError, InvalidSequenceError, NerveError, OptionError, Problem, SchemeError
from .io.bytes import FileRange
from .io.conll import ConllReader, TaggedCorpus, split_files
from .io.conll_lines import first_token_columns
from .io.lists import iter_lists
from .io.spans import SPAN_FORMATS, check_columns, read_span_columns, sniff_format, span_lists
from .matching.exact import exact_match_types
from .metrics.exact import ExactAccumulator, TransitionTable, infer_from
from .metrics.muc import MucOptions, muc_columns
from .model.blocks import TagBlock
from .model.schemes import Scheme, TagFormat, encode_sequence, get_scheme
from .model.spans import Span, SpanArray
from .model.vocab import TagVocab
from .results import Counts, ExactScores, RepairStats, Result, Settings, TokenStats
from .tagging.decode import DecodeRules, decode_block, get_policy, neighbours

__all__ = ["decode", "encode", "score", "score_spans", "validate"]

if TYPE_CHECKING:
    import numpy.typing as npt

    from .metrics.text import TextScores

    Int = npt.NDArray[np.int64]

PathLike: TypeAlias = "str | os.PathLike[str]"
Tags: TypeAlias = Sequence[Sequence[str]]
Source: TypeAlias = "PathLike | Tags | TaggedCorpus"


def _is_path(x: object) -> bool:
    return isinstance(x, (str, os.PathLike))


def _parse_tag_format(tag_format: str | TagFormat | None, outside: str) -> TagFormat | None:
    """``"B-X"``, ``"X-B"``, ``"B_X"``, ``"X"`` (bare types) and so on, or a `TagFormat`."""
    if tag_format is None or tag_format == "auto":
        return None
    if isinstance(tag_format, TagFormat):
        return tag_format
    text = tag_format.strip()
    if text == "X":
        return TagFormat("bare", "-", outside)
    if len(text) == 3 and text[0] == "B" and text[2] == "X":
        return TagFormat("prefix", text[1], outside)
    if len(text) == 3 and text[0] == "X" and text[2] == "B":
        return TagFormat("suffix", text[1], outside)
    msg = f"Expected a tag format like B-X, X-B, B_X or X (bare types), but got {tag_format!r}"
    raise SchemeError(msg)


class _Input:
    """Where blocks come from: files (re-readable) or in-memory lists or a corpus."""

    def __init__(
        self,
        gold: Source,
        pred: Source | None,
        comments: bool,
        encoding: str,
        check_tokens: bool,
        single: bool = False,
    ):
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise NerveError(f"unknown encoding {encoding!r}") from None
        self.gold, self.pred = gold, pred
        self.comments, self.encoding, self.check_tokens, self.single = (
            comments,
            encoding,
            check_tokens,
            single,
        )
        if isinstance(gold, TaggedCorpus):
            self.sources = (gold.source, gold.source)
        elif _is_path(gold):
            g = os.fspath(gold)  # type: ignore[arg-type]
            self.sources = (g, os.fspath(pred) if pred is not None and _is_path(pred) else g)  # type: ignore[arg-type]
        else:
            self.sources = ("<gold>", "<pred>")

    def blocks(self, vocab: TagVocab) -> Iterator[TagBlock]:
        gold, pred = self.gold, self.pred
        if isinstance(gold, TaggedCorpus):
            yield from _remap(gold, vocab)
        elif _is_path(gold):
            if pred is not None and not _is_path(pred):
                raise NerveError("give both gold and pred as files, or both as tag lists")
            yield from ConllReader(
                gold,  # type: ignore[arg-type]
                pred,  # type: ignore[arg-type]
                vocab,
                comments=self.comments,
                encoding=self.encoding,
                check_tokens=self.check_tokens,
                single=self.single,
            )
        else:
            if pred is not None and (_is_path(pred) or isinstance(pred, TaggedCorpus)):
                raise NerveError("give both gold and pred as files, or both as tag lists")
            yield from iter_lists(gold, pred, vocab)  # type: ignore[arg-type]


def _remap(corpus: TaggedCorpus, vocab: TagVocab) -> Iterator[TagBlock]:
    """The corpus's blocks with ids of ``vocab`` (which may parse tags differently)."""
    ids = vocab.add(corpus.vocab.tags)
    if (ids < 0).any():
        raise SchemeError(f"{corpus.source}: {vocab.explain(corpus.vocab.tags[int(np.argmin(ids))])}")
    for b in corpus.blocks:
        yield TagBlock(
            ids[b.gold],
            ids[b.pred] if b.pred is not None else None,
            b.sentence_start,
            b.document_start,
            b.line,
            b.pred_line,
        )


def _infer(source: _Input, tag_format: TagFormat | None, outside: str) -> Scheme:
    """Read the input once to infer the scheme (needed before decoding by discard and error)."""
    vocab = TagVocab(tag_format, None, outside)
    gold, pred = TransitionTable(), TransitionTable()
    for block in source.blocks(vocab):
        size = len(vocab)
        gold.add(block.gold, block.sentence_start, neighbours(block.gold, block.sentence_start)[0], size)
        if block.pred is not None:
            pred.add(block.pred, block.sentence_start, neighbours(block.pred, block.sentence_start)[0], size)
    return infer_from(vocab, [gold, pred])


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
    too_far = f"{g.n_docs} documents with offsets up to {width - 1}: too many to match in 64-bit keys"
    if g.n_docs * width >= 2**62:  # exact and MUC matching key a position by document * width
        raise InputError(source, None, too_far)
    try:
        hits = exact_match_types(
            (g.doc * width + g.start, g.doc * width + g.end, gt),
            (p.doc * width + p.start, p.doc * width + p.end, pt),
            n,
        )
    except OverflowError:  # the key of (position, length, type)
        raise InputError(source, None, f"{too_far} with spans this long") from None
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
    )


METRIC_FAMILIES = ("exact", "muc")


def _metric_families(metrics: str | Sequence[str]) -> tuple[str, ...]:
    """Parse ``"exact,muc"`` (exact match is always computed: it is the headline)."""
    names = [m.strip() for m in (metrics.split(",") if isinstance(metrics, str) else metrics) if m.strip()]
    unknown = [m for m in names if m not in METRIC_FAMILIES]
    if unknown:
        raise NerveError(f"Expected metrics among {', '.join(METRIC_FAMILIES)}, but got {', '.join(unknown)}")
    return tuple(dict.fromkeys(["exact", *names]))


SHARD_BYTES = 8 << 20


def _shards(
    gold: Source, pred: Source | None, workers: int | None, comments: bool, encoding: str
) -> list[tuple[FileRange, FileRange | None]] | None:
    """Ranges of the files for threads to read, or ``None`` to read them in one go."""
    if not _is_path(gold) or (pred is not None and not _is_path(pred)) or comments:
        return None
    if codecs.lookup(encoding).name != "utf-8":
        return None
    g = os.fspath(gold)  # type: ignore[arg-type]
    p = os.fspath(pred) if pred is not None else None  # type: ignore[arg-type]
    if not os.path.isfile(g) or (p is not None and not os.path.isfile(p)):
        return None  # the reader reports it
    if workers is None:
        workers = 2 if (os.cpu_count() or 1) >= 2 and os.path.getsize(g) >= SHARD_BYTES else 1
    if workers < 2 or first_token_columns(g) is None or (p is not None and first_token_columns(p) is None):
        return None
    return split_files(g, p, workers)


def _score_shards(
    parts: list[tuple[FileRange, FileRange | None]],
    policy: str,
    scheme: Scheme | None,
    fmt: TagFormat | None,
    outside: str,
    check_tokens: bool,
    sources: tuple[str, str],
    overlap: MucOptions | None,
) -> ExactAccumulator:
    """Count each range in its own thread and add the counts up, in file order."""
    from concurrent.futures import ThreadPoolExecutor

    readers = [ConllReader(g, p, TagVocab(fmt, scheme, outside), check_tokens=check_tokens) for g, p in parts]
    accs = [ExactAccumulator(r.vocab, policy, scheme, sources, overlap) for r in readers]
    # Every range checks column counts against the first token line of the file.
    gold_first, pred_first = parts[0]
    for r in readers:
        r.gold_columns.preset(first_token_columns(gold_first.path))
        if pred_first is not None:
            r.pred_columns.preset(first_token_columns(pred_first.path))

    def count(i: int) -> None:
        for block in readers[i]:
            accs[i].update(block)

    with ThreadPoolExecutor(len(parts)) as pool:
        futures = [pool.submit(count, i) for i in range(len(parts))]
    for future in futures:
        future.result()  # the first range's error first
    total = accs[0]
    for other in accs[1:]:
        total.absorb(other)
    return total


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
    document_average: bool = False,
    matching: str = "optimal",
) -> Result:
    """Score predicted entities against gold entities, exactly matched.

    Args:
        gold: a merged CoNLL file (last two columns gold and predicted tag), a gold CoNLL file,
            a list of gold tag lists (one per sentence), or a `TaggedCorpus`.
        pred: the prediction file or tag lists; ``None`` when ``gold`` holds both.
        scheme: ``"auto"`` (inferred from the tags), or IO, IOB1, IOB2/BIO, IOE1, IOE2,
            IOBES/BIOES, BILOU, BMES.
        repair: what to do with transitions the scheme does not allow: ``"begin"``,
            ``"conlleval"``, ``"discard"`` or ``"error"``.
        tag_format: ``"B-X"``, ``"X-B"``, ``"B_X"``, ``"X"`` (bare types, IO only)...; inferred when
            ``None``.
        outside: the outside tag.
        beta: the beta of the F-score reported as ``fbeta`` besides F1.
        comments: in files, treat lines starting with ``#`` as comments.
        encoding: the files' encoding.
        check_tokens: require the token column of gold and prediction files to agree.
        workers: how many threads read a file, each a range of whole sentences; ``None`` uses two
            for files of `SHARD_BYTES` or more on a machine with two or more cores. The counts
            are the same either way (``conlleval`` always reads in one thread: its state crosses
            sentences).
        metrics: the metric families besides exact match: ``"muc"`` adds the MUC-5/SemEval-2013
            modes (strict, exact, partial, type) with optimal one-to-one matching; a string
            may list several, comma-separated.
        min_iou: for ``muc``, also require this intersection over union for an overlap.
        min_gold_share: for ``muc``, also require the overlap to cover this share of the gold
            entity.
        input_format: for files, ``"conll"`` or a span format of `nerve.span_readers`
            (``jsonl``, ``json``, ``nereval``, ``nervaluate``, ``eval4ner``); sniffed when ``None``.
        offsets: for json/jsonl spans, ``"char"`` or ``"token"`` (see `nerve.span_readers`).
        document_average: for ``muc``, also average precision, recall and F1 over documents
            (``-DOCSTART-`` documents, span-file documents); micro totals stay the headline.
        matching: for ``muc``, ``"optimal"`` one-to-one matching, or ``"greedy"`` to reproduce
            nervaluate 1.2.1's counts (see `nerve.muc.muc_score`).

    Returns:
        A `Result`; ``result.micro.f1`` is the headline.

    Raises:
        InputError: unreadable or malformed input, with file and line.
        SchemeError: an unknown scheme or policy, or tags no scheme fits.
        InvalidSequenceError: with ``repair="error"``, listing every invalid transition.
    """
    policy = get_policy(repair)
    families = _metric_families(metrics)
    overlap = MucOptions(min_iou, min_gold_share, document_average, matching) if "muc" in families else None
    if _is_path(gold):
        kind = input_format or sniff_format(os.fspath(gold))  # type: ignore[arg-type]
        if kind in SPAN_FORMATS:
            g_docs, p_docs = read_span_columns(
                os.fspath(gold),  # type: ignore[arg-type]
                os.fspath(pred) if pred is not None else None,  # type: ignore[arg-type]
                fmt=kind,
                units=offsets,
            )
            return score_spans(g_docs, p_docs, beta=beta, overlap=overlap, source=kind)
        if kind != "conll":
            raise NerveError(
                f"Expected an input format among conll, {', '.join(SPAN_FORMATS)}, but got {kind!r}"
            )
    if beta <= 0:
        raise NerveError(f"Expected beta > 0, but got {beta}")
    fmt = _parse_tag_format(tag_format, outside)
    fixed = None if scheme.lower() == "auto" else get_scheme(scheme)
    source = _Input(gold, pred, comments, encoding, check_tokens)
    inferred = fixed is None
    if fixed is None and policy in ("discard", "error"):
        fixed = _infer(source, fmt, outside)  # these policies need the scheme while decoding
    parts = _shards(gold, pred, workers, comments, encoding) if policy != "conlleval" else None
    if parts:
        acc = _score_shards(parts, policy, fixed, fmt, outside, check_tokens, source.sources, overlap)
    else:
        acc = ExactAccumulator(TagVocab(fmt, fixed, outside), policy, fixed, source.sources, overlap)
        for block in source.blocks(acc.vocab):
            if block.pred is None:
                raise NerveError("scoring needs predicted tags: give a merged file or a prediction file")
            acc.update(block)
    vocab = acc.vocab
    totals = acc.finish()
    if policy == "error" and acc.problems:
        raise InvalidSequenceError(sorted(acc.problems, key=lambda p: (p.line, p.side)), totals.scheme.name)
    settings = Settings(
        scheme=totals.scheme.name,
        scheme_inferred=inferred,
        tag_format=vocab.format.describe() if vocab.format is not None else None,
        outside=vocab.outside,
        repair=policy,
        beta=beta,
        match="exact" if overlap is None else f"exact, muc ({overlap.describe()})",
    )
    return Result(
        settings=settings,
        tokens=totals.tokens,
        exact=ExactScores(totals.counts, beta),
        repairs=totals.repairs,
        sentences=totals.sentences,
        documents=totals.documents,
        muc=totals.muc,
    )


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
) -> tuple[Scheme, list[Problem]]:
    """List every transition that ``scheme`` does not allow, with its file and line.

    ``gold`` is a file whose last column is the tag (with ``merged=True``: a merged file, whose
    last two columns are both checked), or tag lists; ``pred`` an aligned prediction file or tag
    lists, checked too.

    Returns:
        The scheme checked against (inferred for ``auto``) and the problems, in line order.
    """
    fmt = _parse_tag_format(tag_format, outside)
    fixed = None if scheme.lower() == "auto" else get_scheme(scheme)
    single = pred is None and not merged
    source = _Input(gold, pred, comments, encoding, check_tokens, single=single)
    known = fixed or _infer(source, fmt, outside)
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
    policy = get_policy(repair)
    if policy == "conlleval":
        raise SchemeError("decode() offers begin, discard and error; conlleval's rules only count chunks")
    nested = bool(tags) and not isinstance(tags[0], str)
    seqs: Tags = tags if nested else [tags]  # type: ignore[list-item]
    fmt = _parse_tag_format(tag_format, outside)
    fixed = None if scheme.lower() == "auto" else get_scheme(scheme)
    if fixed is None:
        fixed = _infer(_Input(seqs, None, False, "utf-8", True), fmt, outside)
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
    target = get_scheme(scheme)
    fmt = _parse_tag_format(tag_format, outside) or TagFormat(outside=outside)
    if fmt.position == "bare" and target.name != "IO":
        raise SchemeError(f"bare tags (no letter) can only be written with the IO scheme, not {target.name}")
    lengths = [length] if isinstance(length, int) else list(length)
    per_seq: list[list[tuple[int, int, str]]] = [[] for _ in lengths]
    for item in spans:
        if isinstance(item, Span):
            q, triple = item.seq, (item.start, item.end, item.label)
        else:
            q, triple = 0, (int(item[0]), int(item[1]), str(item[2]))
        if not 0 <= q < len(lengths):
            raise ValueError(f"Expected span sequence index below {len(lengths)}, but got {q}")
        per_seq[q].append(triple)
    out = [
        [fmt.join(letter, typ) for letter, typ in encode_sequence(s, n, target)]
        for s, n in zip(per_seq, lengths, strict=True)
    ]
    return out[0] if isinstance(length, int) else out


def score_text(
    label: Source,
    prediction: Source | None = None,
    *,
    metrics: Sequence[str] = ("ecer-ewer", "nerval", "bow", "botw", "boe"),
    threshold: float = 0.3,
    scheme: str = "IOB2",
    repair: str = "begin",
    directories: bool | None = None,
    pattern: str = "*.bio",
    documents: str = "docstart",
) -> TextScores:
    """Score entities by their text (OI-ECER/EWER, OI-Nerval, bags): see `nerve.text_metrics`.

    Args:
        label: a directory of ``*.bio`` files (one document each; ``prediction`` is then the
            prediction directory), or a CoNLL file (merged, or gold with ``prediction`` the
            prediction file; documents at ``-DOCSTART-`` lines).
        prediction: the prediction directory or file.
        metrics: which of ``ecer-ewer``, ``nerval``, ``bow``, ``botw``, ``boe`` to compute.
        threshold: OI-Nerval's largest character error rate of a match, a fraction in [0, 1].
        scheme: the tagging scheme of the files (IOB2 by default, as ie-eval reads them).
        repair: the policy for invalid transitions: ``begin``, ``discard`` or ``error``.
        directories: whether ``label`` and ``prediction`` are directories; ``None`` looks.
        pattern: the glob that picks a directory's files by name (``*.txt``; ``.txt`` alone
            means the same); files are paired by name.
        documents: for CoNLL files, ``"docstart"`` (documents start at ``-DOCSTART-`` lines;
            a file without any is one document, which ``notes`` says when it has several
            sentences) or ``"sentence"`` (each sentence is a document).

    Raises:
        InputError: a missing directory, no file matching ``pattern``, a file on one side only,
            a line that is not ``token TAG``, an unknown tag; with the file and line.
        OptionError: an empty ``pattern`` or one with a path separator; ``documents`` other
            than ``"docstart"`` for directories (each file is a document).
    """
    from .metrics.text import score_texts
    from .tagging.texts import read_bio_dirs, read_text_files

    if not 0.0 <= threshold <= 1.0:
        raise NerveError(f"Expected a Nerval threshold in [0, 1] (a fraction, e.g. 0.3), but got {threshold}")
    if directories is None:
        directories = _is_path(label) and os.path.isdir(os.fspath(label))  # type: ignore[arg-type]
    if directories:
        if prediction is None:
            raise NerveError("a label directory needs a prediction directory")
        if documents != "docstart":
            raise OptionError("documents", f"each file of a directory is a document, got {documents!r}")
        corpus = read_bio_dirs(label, prediction, scheme=scheme, repair=repair, pattern=pattern)  # type: ignore[arg-type]
    elif _is_path(label):
        corpus = read_text_files(label, prediction, scheme=scheme, repair=repair, documents=documents)  # type: ignore[arg-type]
    else:
        raise NerveError("score_text reads a label directory or a CoNLL file; use score_texts for lists")
    scores = score_texts(corpus.gold, corpus.pred, metrics=metrics, threshold=threshold)
    scores = replace(scores, scheme=corpus.scheme, repair=corpus.repair, repairs=sum(corpus.repairs))
    return replace(scores, notes=corpus.notes)
