"""What `nerve.agree` reads: the entities of several annotators of the same documents.

In: several files or directories, one per annotator (or a brat project laid out as bratiaa reads
it: one subdirectory per annotator), in any format nerve reads (each sniffed on
its own, read by its `Format` record through `nerve.api.convert_input.read_corpus`); or one file
that holds several annotators: a Label Studio export (told apart by ``completed_by``), a doccano
export whose spans carry a ``user``, or a CoNLL file with one tag column per annotator after the
token. ``annotators`` picks and names them. Out: `AnnotatorSpans`: every annotator's entities over one
list of documents, in character offsets where every input has the text (else in tokens), the
same entities in tokens (texts cut by `nerve.api.convert_input.TOKEN_PATTERN`), and which
documents each annotator annotated.

Documents are paired by name where every input is a brat directory (a file one annotator lacks
is a document they left out), and by position otherwise; a paired document must have the same
text (or tokens) for every annotator who annotated it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from .. import options
from .._frozen import frozen
from ..errors import InputError, OptionError
from ..io import formats
from ..io.sniff import sniff_format
from ..io.sources import not_found
from ..io.tools.doccano import doccano_ids, doccano_texts, read_doccano_users
from ..io.tools.labelstudio import labelstudio_texts, read_labelstudio_annotators, tasks
from ..io.write.tags import TokenColumns
from ..model.spans import SpanArray
from ..plan import Converting
from .agree_columns import read_tag_columns
from .convert_fates import Fates
from .convert_input import Corpus, default_names, given_names, read_corpus, tokenised

if TYPE_CHECKING:
    from ..model.arrays import Bool

__all__ = ["AnnotatorSpans", "read_annotations"]

MANY = "several annotators: one file or directory each, or one Label Studio, doccano or CoNLL file of several"


@frozen(eq=False)
class AnnotatorSpans:
    """Several annotators' entities of the same documents.

    Attributes:
        names: each annotator's name; ``sources``: the file each was read from.
        spans: each annotator's entities, over all ``documents`` (characters of ``texts``, or tokens).
        token_spans: the same entities in token offsets of ``tokens``.
        present: ``(annotators, documents)``: which documents each annotator annotated.
        documents: each document's name; ``texts``: its text, where every input has it.
        tokens: every document's tokens; ``fmt``: the format of each source.
        notes: what reading each annotator's entities changed, by reason: invalid transitions
            repaired (tags), entities widened to token edges or covering no token (texts cut).
    """

    names: tuple[str, ...]
    sources: tuple[str, ...]
    spans: tuple[SpanArray, ...]
    token_spans: tuple[SpanArray, ...]
    present: Bool
    documents: list[str]
    texts: list[str] | None
    tokens: TokenColumns
    fmt: tuple[str, ...]
    notes: tuple[dict[str, int], ...] = ()


def _format(path: str, given: str | None) -> str:
    if given is not None:
        return options.one_of(given, formats.names("tags", "spans"), "input_format")
    found = sniff_format(path)
    return "bio" if found == "conll" and os.path.isdir(path) else found


Split = dict[str, tuple[Corpus, list[bool]]]


def _split(path: str, fmt: str, units: str | None, how: tuple[str, str | None, str]) -> Split:
    """The annotators of one export: each one's `Corpus`, and which documents they annotated."""
    if fmt == "labelstudio":
        formats.check_offsets(units, fmt)
        sides, present = read_labelstudio_annotators(path, units)
        texts = labelstudio_texts(path)
        ids = [t.get("id") if isinstance(t, dict) else None for t in tasks(path)]
        given = [f"task-{i}" if isinstance(i, (int, str)) and not isinstance(i, bool) else None for i in ids]
    elif fmt == "doccano":
        formats.check_offsets(units, fmt)
        sides, present = read_doccano_users(path, units)
        if not sides:
            raise InputError(
                path, None, f"holds one annotator's entities (no span names a user); give {MANY}"
            )
        texts = doccano_texts(path)
        given = [None if i is None else f"doc-{i}" for i in doccano_ids(path)]
    elif fmt == "conll":
        columns = read_tag_columns(path, *how)
        return {who: (c, [True] * c.spans.n_docs) for who, c in columns.items()}
    else:
        raise InputError(path, None, f"holds one annotator's entities ({fmt}); give {MANY}")
    names = given_names(given, default_names(len(texts)))  # the tool's ids where each is one's own
    return {who: (Corpus(spans, texts, None, names, fmt), present[who]) for who, spans in sides.items()}


def _picked(path: str, found: Split, wanted: Sequence[str] | None) -> Split:
    """The annotators ``wanted`` of an export (all by default), in that order; at least two.

    ``ID=NAME`` picks annotator ``ID`` and names it ``NAME``.
    """
    pairs = [(n, n) for n in found]
    if wanted is not None:
        pairs = [(w.split("=", 1)[0], w.split("=", 1)[-1]) for w in wanted]
        unknown = [who for who, _ in pairs if who not in found]
        if unknown:
            detail = f"has no annotator {unknown[0]!r}: its annotators are {', '.join(found)}"
            raise InputError(path, None, detail, option=options.flag("annotators"))
        if len({n for _, n in pairs}) < len(pairs):
            raise OptionError(options.flag("annotators"), f"names an annotator twice: {', '.join(wanted)}")
    if len(pairs) < 2:
        only = f"one annotator only ({', '.join(n for _, n in pairs) or 'none'})"
        fix = f"pick two or more with {options.flag('annotators')}" if len(found) > 1 else f"give {MANY}"
        raise InputError(path, None, f"{only}: agreement needs two or more; {fix}")
    return {name: found[who] for who, name in pairs}


def _brat_project(path: str) -> list[str]:
    """The annotators' directories of a brat project laid out as bratiaa reads it.

    They are its subdirectories that hold ``.ann`` files, where the project itself holds none;
    none otherwise (or fewer than two).
    """
    if not os.path.isdir(path) or any(n.endswith(".ann") for n in os.listdir(path)):
        return []
    subdirs = sorted(os.path.join(path, n) for n in os.listdir(path) if os.path.isdir(os.path.join(path, n)))
    found = [d for d in subdirs if any(f.endswith(".ann") for _, _, files in os.walk(d) for f in files)]
    return found if len(found) > 1 else []


def _names(paths: list[str], given: Sequence[str] | None) -> list[str]:
    """Each file's annotator: ``given`` in order, else the file name without its extension."""
    if given is not None:
        if len(given) != len(paths) or len(set(given)) != len(given):
            detail = f"expected {len(paths)} distinct names, one per file, got {', '.join(given)}"
            raise OptionError(options.flag("annotators"), detail)
        return list(given)
    stems = [os.path.splitext(os.path.basename(os.path.normpath(p)))[0] or p for p in paths]
    return stems if len(set(stems)) == len(stems) else [f"{s}#{i + 1}" for i, s in enumerate(stems)]


def _by_name(corpora: list[Corpus]) -> tuple[list[str], list[Corpus], Bool]:
    """Brat directories: documents paired by file name; a file one lacks is a document left out."""
    union = list(dict.fromkeys(n for c in corpora for n in c.names))
    where = {n: i for i, n in enumerate(union)}
    out, present = [], np.zeros((len(corpora), len(union)), dtype=np.bool_)
    for a, c in enumerate(corpora):
        index = np.asarray([where[n] for n in c.names], dtype=np.int64)
        present[a, index] = True
        texts = [""] * len(union)
        for n, t in zip(c.names, c.texts or [""] * len(c.names), strict=True):
            texts[where[n]] = t
        spans = replace(c.spans, doc=index[c.spans.doc] if len(c.spans) else c.spans.doc, n_docs=len(union))
        out.append(replace(c, spans=spans, texts=texts if c.texts is not None else None, names=union))
    return union, out, present


def _by_position(
    paths: list[str], corpora: list[Corpus], given: list[list[bool]] | None
) -> tuple[list[str], list[Corpus], Bool]:
    counts = [c.spans.n_docs for c in corpora]
    for path, count in zip(paths[1:], counts[1:], strict=True):
        if count != counts[0]:
            detail = (
                f"has {count} documents, but {paths[0]} has {counts[0]}: documents are paired in order, "
                "so every annotator must give the same documents (brat directories pair by file name)"
            )
            raise InputError(path, None, detail)
    present = np.ones((len(corpora), counts[0]), dtype=np.bool_)
    if given is not None:
        present = np.asarray(given, dtype=np.bool_).reshape(len(corpora), counts[0])
    return corpora[0].names, corpora, present


def read_annotations(
    sources: Sequence[str | os.PathLike[str]],
    annotators: Sequence[str] | None = None,
    input_format: str | None = None,
    offsets: str | None = None,
    how: tuple[str, str | None, str] = ("auto", None, "O"),
) -> AnnotatorSpans:
    """The annotators of ``sources`` (see the module); ``how``: the scheme, tag format and outside tag.

    Raises:
        InputError: a missing file, one annotator only, an annotator not in an export, documents
            that cannot be paired, or a document whose text differs between annotators.
        OptionError: as many ``annotators`` names as files, or a format nerve does not read.
    """
    paths = [os.fspath(s) for s in sources]
    if not paths:
        raise OptionError("sources", f"expected {MANY}, got none")
    for path in paths:
        if not os.path.exists(path):
            raise not_found(path, "no such file or directory")
    project = _brat_project(paths[0]) if len(paths) == 1 and input_format in (None, "brat") else []
    if project:  # bratiaa's layout: one directory per annotator under the project's
        paths = project
        annotators = annotators or [os.path.basename(p) for p in project]
    fmts = [_format(p, input_format) for p in paths]
    if len(paths) == 1:
        picked = _picked(paths[0], _split(paths[0], fmts[0], offsets, how), annotators)
        names, corpora = list(picked), [c for c, _ in picked.values()]
        given: list[list[bool]] | None = [p for _, p in picked.values()]
        paths, fmts = paths * len(names), fmts * len(names)
    else:
        names, given = _names(paths, annotators), None
        scheme, tag_format, outside = how
        reading = Converting("jsonl", from_scheme=scheme, tag_format=tag_format, outside=outside)
        pairs = zip(paths, fmts, strict=True)
        corpora = [read_corpus(p, f, reading, offsets) for p, f in pairs]
    if all(f == "brat" for f in fmts) and len(set(paths)) > 1:
        documents, corpora, present = _by_name(corpora)
    else:
        documents, corpora, present = _by_position(paths, corpora, given)
    return _aligned(names, paths, corpora, present, documents, fmts)


def _aligned(
    names: list[str],
    paths: list[str],
    corpora: list[Corpus],
    present: Bool,
    documents: list[str],
    fmts: list[str],
) -> AnnotatorSpans:
    """The corpora in one unit, their texts (or tokens) checked to be the same document by document."""
    chars = all(c.texts is not None for c in corpora)
    if chars:
        texts = _agreed(names, paths, [c.texts or [] for c in corpora], present, documents, "text")
    fates = [Fates(len(c.spans)) for c in corpora]
    tokened = [tokenised(c, f) for c, f in zip(corpora, fates, strict=True)]
    where = "for the token labels" if chars else "(all statistics use tokens)"
    notes = tuple(
        {
            **{
                f"invalid transitions repaired by beginning an entity ({k})": n
                for k, n in c.repairs.items()
                if n
            },
            **{f"{reason} {where}": n for reason, n in f.counts().items()},
        }
        for c, f in zip(corpora, fates, strict=True)
    )
    if any(c.tokens is None for c in tokened):
        a = next(i for i, c in enumerate(tokened) if c.tokens is None)
        raise InputError(paths[a], None, "holds no text or tokens to compare annotators on")
    if not _shared([c.tokens for c in tokened]):
        words = [_words(c.tokens) for c in tokened if c.tokens is not None]
        _agreed(names, paths, words, present, documents, "tokens")
    first = next(a for a in range(len(names)) if present[a].any()) if present.any() else 0
    tokens = _merged([c.tokens for c in tokened], present, first)
    token_spans = tuple(c.spans for c in tokened)
    spans = tuple(c.spans for c in corpora) if chars else token_spans
    return AnnotatorSpans(
        tuple(names),
        tuple(paths),
        spans,
        token_spans,
        present,
        documents,
        texts if chars else None,
        tokens,
        tuple(fmts),
        notes,
    )


def _shared(columns: list[TokenColumns | None]) -> bool:
    """Whether every annotator has the very same tokens (the tag columns of one file): nothing to compare."""
    first = columns[0]
    return first is not None and all(
        c is not None and c.words is first.words and np.array_equal(c.doc_start, first.doc_start)
        for c in columns
    )


def _words(tokens: TokenColumns | None) -> list[tuple[str, ...]]:
    assert tokens is not None
    s = tokens.doc_start.tolist()
    return [tuple(tokens.words[a:b]) for a, b in pairwise(s)]


def _agreed(
    names: list[str],
    paths: list[str],
    docs: Sequence[Sequence[object]],
    present: Bool,
    documents: list[str],
    what: str,
) -> list[str]:
    """Each document's text (or tokens) as every annotator who annotated it has it; else `InputError`."""
    out: list[object] = []
    for d, name in enumerate(documents):
        seen = [(a, docs[a][d]) for a in range(len(names)) if present[a, d]]
        for a, value in seen[1:]:
            if value != seen[0][1]:
                b = seen[0][0]
                detail = (
                    f"document {name}: its {what} {'differs' if what == 'text' else 'differ'} from "
                    f"{names[b]}'s ({paths[b]}); every annotator "
                    "must annotate the same text"
                )
                raise InputError(paths[a], None, detail)
        out.append(seen[0][1] if seen else docs[0][d])
    return out  # type: ignore[return-value]


def _merged(columns: list[TokenColumns | None], present: Bool, first: int) -> TokenColumns:
    """One token list: each document's tokens from an annotator who annotated it."""
    n_docs = present.shape[1]
    words: list[str] = []
    starts, sentence = [0], []
    for d in range(n_docs):
        here = np.flatnonzero(present[:, d])
        c = columns[int(here[0]) if here.shape[0] else first]
        assert c is not None
        a, b = int(c.doc_start[d]), int(c.doc_start[d + 1])
        words.extend(c.words[a:b])
        sentence.append(c.sentence_start[a:b])
        starts.append(starts[-1] + b - a)
    flags = np.concatenate(sentence) if sentence else np.zeros(0, dtype=np.bool_)
    return TokenColumns(words, np.asarray(starts, dtype=np.int64), flags.astype(np.bool_))
