"""Writing `nerve.api.convert`'s corpus in a target format, each entity dropped or changed counted.

In: a `Corpus` (`nerve.api.convert_input`), the target format, its scheme and flattening policy.
Out: the files written, the entities written, and what was lost, by reason (see `nerve.api.convert`
for what each target holds; `nerve.api.convert_fates` counts each entity once).
"""

from __future__ import annotations

import errno
import os
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import options
from ..errors import InputError, OptionError, plural
from ..io.write.spans import write_brat, write_jsonl, write_spacy_jsonl
from ..io.write.tags import (
    TokenColumns,
    clean_words,
    encode_tags,
    io_merged,
    tag_strings,
    write_bio_dir,
    write_conll,
)
from ..model import nesting
from ..model.quoting import quote
from ..model.schemes import TagFormat
from ..model.spans import SpanArray
from ..plan import Converting
from .convert_fates import Fates
from .convert_input import TAG_FORMATS, Corpus, detokenised, tokenised

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["DISCONTINUOUS", "write_corpus"]

DISCONTINUOUS = "discontinuous entities written as their extent"


def _attributes(spans: SpanArray, to: str, fates: Fates) -> None:
    """Record the entities with attributes or normalisations as changed, when ``to`` holds none."""
    if to == "brat" or not spans.attributes:
        return
    held = np.zeros(len(spans), dtype=np.bool_)
    for column in spans.attributes.values():
        held |= column != None  # noqa: E711
    why = f"entities whose attributes and normalizations were not written (--to {to} holds none)"
    fates.changed(held, why)


def _discontinuous(spans: SpanArray, fates: Fates) -> SpanArray:
    """``spans`` with each discontinuous entity as its extent, recorded in ``fates``."""
    f = spans.fragments
    if f is None:
        return spans
    fates.changed(np.diff(f.offsets) > 1, DISCONTINUOUS)
    return replace(spans, fragments=None)


def _first_overlap(spans: SpanArray) -> tuple[int, int]:
    """The first two entities (rows) that share a token, by document and start; some must."""
    order = spans.order()
    width = int(spans.end.max(initial=0)) + 1
    start = (spans.doc * width + spans.start)[order]
    end = (spans.doc * width + spans.end)[order]
    reach = np.maximum.accumulate(end)
    later = int(np.argmax(start[1:] < reach[:-1])) + 1
    return int(order[int(np.argmax(end[:later]))]), int(order[later])


def _overlap(corpus: Corpus, spans: SpanArray, src: str) -> str:
    """Where the first two overlapping entities are, and their words and types."""
    tokens = corpus.tokens
    assert tokens is not None
    a, b = _first_overlap(spans)
    d = int(spans.doc[a])
    base = int(tokens.doc_start[d])
    shown = [
        f"{quote(' '.join(tokens.words[base + int(spans.start[i]) : base + int(spans.end[i])]))} "
        f"({spans.labels[int(spans.label[i])]})"
        for i in (a, b)
    ]
    where = os.path.join(src, f"{corpus.names[d]}.ann") if corpus.fmt == "brat" else f"{src}: document {d}"
    return f"{where}: entity {shown[0]} and entity {shown[1]} overlap"


def _flat(corpus: Corpus, src: str, how: Converting, fates: Fates) -> SpanArray:
    """The entities without nesting and overlaps: refused, or flattened by ``how.flatten`` and counted."""
    spans = corpus.spans
    to, policy = how.to, how.flatten
    nested = int(np.count_nonzero(nesting.roles(spans) != 0))
    if not nested:
        return spans
    if policy is None:
        detail = (
            f"{_overlap(corpus, spans, src)}; {plural(nested, 'entity', 'entities')} nest or overlap "
            f"in all, which {to} tags cannot hold; "
            f"{options.setting('flatten', 'POLICY')} ({', '.join(nesting.POLICIES)}) "
            "keeps some and counts the rest"
        )
        raise OptionError(options.flag("flatten"), detail)
    keep = nesting.flatten_mask(spans, policy)
    fates.dropped(~keep, f"nested or overlapping entities dropped ({options.setting('flatten', policy)})")
    return spans.select(keep)


def _unbroken(tokens: TokenColumns, start: Any, end: Any, lost: dict[str, int]) -> TokenColumns:
    """``tokens`` without sentence breaks inside an entity (counted), which tags would split it at."""
    inside = np.zeros(len(tokens.words) + 1, dtype=np.int64)
    np.add.at(inside, start + 1, 1)
    np.add.at(inside, end, -1)
    broken = tokens.sentence_start & (np.cumsum(inside)[:-1] > 0)
    n = int(np.count_nonzero(broken))
    if not n:
        return tokens
    lost["sentence breaks inside an entity removed"] = n
    return replace(tokens, sentence_start=tokens.sentence_start & ~broken)


def _write_tags(
    corpus: Corpus, paths: tuple[str, str], how: Converting, losses: tuple[dict[str, int], Fates]
) -> int:
    """Write a CoNLL file or a BIO directory (``how.to``, in ``how.scheme``); the entities written.

    ``paths``: the source and the output.
    """
    tokens = corpus.tokens
    assert tokens is not None
    (src, out), to = paths, how.to
    lost, fates = losses
    assert how.scheme is not None  # convert names the default, IOB2
    target = options.scheme(how.scheme)
    assert target is not None  # refused by _check_options
    spans = _flat(corpus, src, how, fates)
    order = spans.order()
    spans = spans.select(order)
    fates.select(order)
    start = tokens.doc_start[spans.doc] + spans.start
    end = tokens.doc_start[spans.doc] + spans.end
    tokens = _unbroken(tokens, start, end, lost)
    sentence = tokens.sentence_ids()
    merged: npt.NDArray[np.bool_] = np.zeros(len(spans), dtype=np.bool_)
    if target.name == "IO":
        merged = io_merged(start, end, spans.label, sentence)
    kinds, types = encode_tags(start, end, spans.label, len(tokens.words), sentence, target)
    tags = tag_strings(kinds, types, spans.labels, target, TagFormat())
    words, changed = clean_words(tokens.words)
    if changed:
        lost["tokens with white space (or empty) written with _"] = changed
    tokens = replace(tokens, words=words)
    if to == "conll":
        parent = os.path.dirname(out)
        if parent:
            os.makedirs(parent, exist_ok=True)
        write_conll(out, tokens, tags)
    else:
        write_bio_dir(out, [name.replace("/", "__") for name in corpus.names], tokens, tags)
    fates.dropped(merged, "entities IO tags merge into a touching one of the same type")
    return len(spans) - int(np.count_nonzero(merged))


def _write_spans(corpus: Corpus, out: str, to: str, losses: tuple[dict[str, int], Fates]) -> int:
    """Write nerve's JSONL, spaCy JSONL or a brat directory; the number of entities written."""
    spans = corpus.spans
    lost, fates = losses
    if to == "jsonl":
        bounds: list[Any] = [None] * spans.n_docs
        if corpus.texts is not None:
            bounds = list(corpus.texts)
        elif corpus.tokens is not None:
            t = corpus.tokens
            bounds = [
                t.words[int(a) : int(b)] for a, b in zip(t.doc_start[:-1], t.doc_start[1:], strict=True)
            ]
            breaks = int(np.count_nonzero(t.sentence_start)) - int(np.count_nonzero(np.diff(t.doc_start)))
            if breaks:
                lost["sentence breaks (JSONL documents of tokens hold none)"] = breaks
        write_jsonl(out, spans, bounds)
        return len(spans)
    assert corpus.texts is not None
    if to == "spacy-jsonl":
        write_spacy_jsonl(out, spans, corpus.texts)
        return len(spans)
    bad = [i for i, name in enumerate(spans.labels) if re.search(r"\s", name) or not name]
    if bad:
        fates.changed(np.isin(spans.label, bad), "entities whose type has white space (written with _)")
        spans = replace(spans, labels=tuple(re.sub(r"\s", "_", n) or "_" for n in spans.labels))
    untexted = write_brat(out, corpus.names, spans, corpus.texts)
    fates.changed(untexted, "entities written without their text (it holds a line break)")
    return len(spans)


def _in_units(corpus: Corpus, to: str, source: str, fates: Fates) -> Corpus:
    """``corpus`` in the units ``to`` needs: tokens for tags, texts for brat and spaCy JSONL."""
    if to == "jsonl":
        return corpus
    if corpus.texts is None and corpus.tokens is None:
        detail = (
            f"its documents carry no text or tokens, which --to {to} needs (--to jsonl writes spans alone)"
        )
        raise InputError(source, None, detail)
    return tokenised(corpus, fates) if to in ("conll", "bio") else detokenised(corpus)


def write_corpus(
    corpus: Corpus, paths: tuple[str, str], how: Converting
) -> tuple[Corpus, int, dict[str, int]]:
    """Write ``corpus`` from ``paths`` (source, out) as ``how`` says: its format, scheme and flattening.

    Returns the corpus as written, the entities written, and what was lost, by reason.
    """
    (src, dst), to = paths, how.to
    fates = Fates(len(corpus.spans))
    scored = _scores(corpus.spans, to)
    if to != "brat" or corpus.texts is None:
        corpus = replace(corpus, spans=_discontinuous(corpus.spans, fates))
    corpus = _in_units(corpus, to, src, fates)
    _attributes(corpus.spans, to, fates)
    lost = dict(corpus.lost)
    try:
        if to in TAG_FORMATS:
            written = _write_tags(corpus, paths, how, (lost, fates))
        else:
            written = _write_spans(corpus, dst, to, (lost, fates))
    except OSError as err:
        raise _unwritable(dst, err) from None
    lost.update(fates.counts())
    lost.update(scored)
    return corpus, written, lost


def _scores(spans: SpanArray, to: str) -> dict[str, int]:
    """The scores of ``spans`` that ``to`` cannot hold, counted: jsonl writes them, no other target does.

    Counted apart from the entities' fates: an entity written changed (widened to tokens...) loses
    its score too.
    """
    n = 0 if spans.score is None or to == "jsonl" else int(np.count_nonzero(~np.isnan(spans.score)))
    held = f"{options.setting('to', to)} holds none; {options.setting('to', 'jsonl')} does"
    return {f"prediction scores not written ({held})": n} if n else {}


def _unwritable(out: str, err: OSError) -> InputError:
    """The `InputError` of an output ``out`` that could not be written (a full disk...)."""
    fix = {
        errno.ENOSPC: "free space on its disk, or write OUT elsewhere",
        errno.EDQUOT: "free space within your quota, or write OUT elsewhere",
        errno.EACCES: "write OUT where you have permission",
        errno.EPERM: "write OUT where you have permission",
        errno.EROFS: "write OUT on a writable disk",
    }.get(err.errno or 0, "write OUT elsewhere")
    where = os.fspath(err.filename) if isinstance(err.filename, (str, os.PathLike)) else out
    return InputError(where, None, f"cannot be written: {err.strerror or err} ({fix})")
