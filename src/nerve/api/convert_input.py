r"""What `nerve.api.convert` reads: any input nerve reads, as one side's entities and its documents.

In: a CoNLL file (tags in any scheme, decoded with every invalid transition counted by kind), a
directory of ``*.bio`` files, or a span file of any `nerve.io.spans.SPAN_FORMATS`. Out: a `Corpus`:
the entities of one side (gold, or pred), offsets relative to each document, and each document's
text (character offsets) or tokens (token offsets) where the input has them.

Between the two units:

- `tokenised`: a text is cut into tokens by `TOKEN_PATTERN` (``\w+|[^\w\s]``: runs of word
  characters, and every other non-space character alone), sentences breaking at line breaks that
  fall outside every entity. An entity whose start or end falls inside a token is widened to the
  token's edge, and counted; one that covers no token at all is dropped, and counted.
- `detokenised`: tokens are joined by a space, sentences by a line break.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import options
from .._frozen import frozen
from ..errors import InputError, SchemeError, SchemeOptionError
from ..io import formats
from ..io.bytes import intern
from ..io.json.entity_list import located
from ..io.outputs import holds_predictions
from ..io.spans import document_texts
from ..io.tags.bio_dirs import TagLines, bio_names, load_files, parse_tag_lines
from ..io.tags.conll_lines import first_token_columns
from ..io.tools.brat_files import DISCONTINUOUS, brat_documents
from ..io.tools.doccano import doccano_ids
from ..io.write.tags import TokenColumns
from ..metrics.exact import TransitionTable, infer_from
from ..model.schemes import Scheme, check_letters
from ..model.spans import SpanArray
from ..model.vocab import TagVocab
from ..plan import Converting
from ..tagging.decode import DecodeRules, decode_block, repair_kinds
from .convert_fates import Fates

if TYPE_CHECKING:
    from ..model.arrays import Bool, Int

__all__ = [
    "TAG_FORMATS",
    "TOKEN_PATTERN",
    "Corpus",
    "decoded",
    "default_names",
    "detokenised",
    "given_names",
    "read_corpus",
    "tokenised",
]

#: The tag inputs: a CoNLL file, and a directory of ``*.bio`` files (one document each).
TAG_FORMATS = formats.names("tags")
#: How a text is cut into tokens for a tag format.
TOKEN_PATTERN = re.compile(r"\w+|[^\w\s]")
WIDENED = "entities widened to token boundaries (a boundary fell inside a token)"
NO_TOKEN = "entities dropped: they cover no token"


@frozen
class Corpus:
    """One side's entities and its documents, as read.

    Attributes:
        spans: the entities, offsets relative to their document (characters of ``texts`` or
            tokens of ``tokens``; neither when the input has no text).
        texts: each document's text, for character offsets.
        tokens: the tokens of all documents, for token offsets.
        names: a name for each document (brat's file names; ``doc0001``... otherwise).
        fmt: the input's format.
        scheme: the scheme the tags were read in (tag inputs only).
        repairs: invalid transitions of the tags, repaired by beginning an entity, by kind.
        lost: what was read and not converted, by reason.
        notes: what the reader noted (`SpanArray.notes`).
    """

    spans: SpanArray
    texts: list[str] | None
    tokens: TokenColumns | None
    names: list[str]
    fmt: str
    scheme: str | None = None
    repairs: dict[str, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    notes: dict[str, int] = field(default_factory=dict)


def default_names(n: int) -> list[str]:
    """``doc0001``, ``doc0002``... (wider when there are more documents)."""
    width = max(4, len(str(n)))
    return [f"doc{i + 1:0{width}d}" for i in range(n)]


def given_names(ids: list[str | None], defaults: list[str]) -> list[str]:
    """Each document's id as a file name, where it has one no other document shares; else its default.

    ``/`` and the other characters a name cannot hold become ``_``.
    """
    made = [re.sub(r"[^\w.-]+", "_", i).strip("._") if i is not None else "" for i in ids]
    taken = Counter(made)
    names = [m if m and taken[m] == 1 else d for m, d in zip(made, defaults, strict=True)]
    return names if len(set(names)) == len(names) else defaults


def read_corpus(path: str, fmt: str, how: Converting, units: str | None) -> Corpus:
    """The side of ``path`` in ``fmt`` (a tag format or a span format) that ``how`` converts."""
    if fmt in TAG_FORMATS:
        return _read_tags(path, fmt, how.side, how.from_scheme, how.tag_format, how.outside)
    return _read_spans(path, fmt, how.side, units)


def _read_tags(path: str, fmt: str, side: str, scheme: str, tag_format: str | None, outside: str) -> Corpus:
    """A CoNLL file (a merged file's gold or pred column) or a BIO directory, decoded."""
    fixed = options.scheme(scheme, "from_scheme")
    vocab = TagVocab(options.tag_format(tag_format, outside), None, outside)
    lost: dict[str, int] = {}
    if fmt == "bio":
        if side != "gold":
            raise InputError(path, None, "BIO files hold one side", option=options.flag("side"))
        if not os.path.isdir(path):
            raise InputError(path, None, "expected a directory of .bio files")
        names = bio_names(path)
        others = sorted({os.path.splitext(n)[1] for n in os.listdir(path)} - {""})
        if not names and others:
            detail = (
                f"holds no .bio files (its files end in {', '.join(others)}); a directory converts as "
                "BIO files of token and tag columns, named *.bio: rename them, or convert each file"
            )
            raise InputError(path, None, detail)
        files = load_files(names, None, path)
        lines = parse_tag_lines(files, np.arange(len(names), dtype=np.int64), vocab, "last")
        names = [n.removesuffix(".bio") for n in names]
    else:
        first = first_token_columns(path)
        merged = first is not None and first[0] >= 3
        if side == "pred" and not merged:
            raise InputError(path, None, "holds one tag column, no predictions", option=options.flag("side"))
        column = "second_last" if merged and side == "gold" else "last"
        lines = parse_tag_lines(load_files([path]), None, vocab, column)
        if merged and side == "gold":
            pred = options.setting("side", "pred")
            lost[f"tokens whose predicted tag was not converted ({pred} converts them)"] = int(
                lines.ids.shape[0]
            )
        extra = (first[0] if first is not None else 0) - (3 if merged else 2)
        if extra > 0:
            lost[f"tokens whose other columns ({extra} besides token and tags) were not converted"] = int(
                lines.ids.shape[0]
            )
        names = default_names(lines.n_docs)
    return _decoded(lines, fixed, names, fmt, lost)


def _decoded(
    lines: TagLines, fixed: Scheme | None, names: list[str], fmt: str, lost: dict[str, int]
) -> Corpus:
    """The entities of tagged lines (every invalid transition begins one, counted by kind), and tokens."""
    ids, values = intern(lines.buf, lines.token_start, lines.token_end)
    words = np.asarray([v.decode("utf-8") for v in values] + [""], dtype=object)[ids].tolist()
    sides = (lines.ids, lines.sentence_start, lines.doc, lines.n_docs)
    return decoded(sides, lines.vocab, words, fixed, (names, fmt, lost))


def decoded(
    lines: tuple[Any, Bool, Int, int],
    vocab: TagVocab,
    words: list[str],
    fixed: Scheme | None,
    about: tuple[list[str], str, dict[str, int]],
) -> Corpus:
    """The entities of tag ids (every invalid transition begins one, counted by kind), and their words.

    ``lines`` are the tag ids, where sentences start, the document of each token and the number
    of documents; ``about`` the documents' names, the input's format and what was lost reading it.
    """
    tag_ids, sentence_start, token_doc, n_docs = lines
    names, fmt, lost = about
    found = decode_block(
        tag_ids, sentence_start, vocab, DecodeRules.of(vocab, None), "begin", transitions=True
    )
    assert found.transitions is not None
    table = TransitionTable()
    table.add_counts(found.transitions)
    known = fixed or infer_from(vocab, [table])
    try:
        check_letters(known, vocab.letters, "input")
    except SchemeError as err:
        raise SchemeOptionError(options.flag("from_scheme"), str(err)) from None
    rules = DecodeRules.of(vocab, known)
    repairs = repair_kinds(found.transitions, rules.invalid)
    doc_start = np.searchsorted(token_doc, np.arange(n_docs + 1)).astype(np.int64)
    tokens = TokenColumns(words, doc_start, sentence_start.copy())
    chunks = found.chunks
    doc = token_doc[chunks.start].astype(np.int64)
    base = doc_start[doc]
    spans = SpanArray(
        doc,
        chunks.start - base,
        chunks.end - base,
        chunks.type.astype(np.int64),
        tuple(vocab.type_names),
        n_docs,
    )
    return Corpus(spans, None, tokens, names, fmt, known.name, repairs, lost)


def _read_spans(path: str, fmt: str, side: str, units: str | None) -> Corpus:
    """A span file's side, with its documents' texts or tokens where it has them."""
    formats.check_offsets(units, fmt)
    read = formats.format_named(fmt).read
    assert read is not None  # a span format
    gold, pred = read(path, units, None)
    lost: dict[str, int] = {}
    if side == "pred" and pred is None and holds_predictions(formats.format_named(fmt)):
        pred = gold  # a model's output (hf-pipeline, entity-list): its one side is the predictions
    if side == "pred":
        if pred is None:
            detail = f"holds no predictions ({options.setting('side', 'gold')} converts its entities)"
            raise InputError(path, None, detail)
        spans = pred
    else:
        spans = gold
        if pred is not None and len(pred):
            lost[f"predicted entities not converted ({options.setting('side', 'pred')} converts them)"] = len(
                pred
            )
    spans, invented = located(spans)  # entity-list: those not found in their text have no offsets
    if invented:
        lost["hallucinated entities (not found in their text: no offsets to write)"] = invented
    notes = {k: v for k, v in spans.notes.items() if k != DISCONTINUOUS}
    names = default_names(spans.n_docs)
    if fmt == "brat":
        names = [n for n, _, _ in brat_documents(path)]
    elif fmt == "doccano":
        names = given_names(doccano_ids(path), names)
    bounds = document_texts(path, fmt, units) if spans.n_docs else []
    if len(bounds) == spans.n_docs and all(isinstance(b, str) for b in bounds):
        return Corpus(spans, [str(b) for b in bounds], None, names, fmt, lost=lost, notes=notes)
    if len(bounds) == spans.n_docs and all(isinstance(b, tuple) for b in bounds):
        tokens = [list(b) for b in bounds if isinstance(b, tuple)]
        lengths = np.asarray([len(t) for t in tokens], dtype=np.int64)
        doc_start = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        sentence_start = np.zeros(int(doc_start[-1]), dtype=np.bool_)
        sentence_start[doc_start[:-1][lengths > 0]] = True
        columns = TokenColumns([w for t in tokens for w in t], doc_start, sentence_start)
        return Corpus(spans, None, columns, names, fmt, lost=lost, notes=notes)
    return Corpus(spans, None, None, names, fmt, lost=lost, notes=notes)


def _char_tokens(texts: list[str], spans: SpanArray) -> tuple[TokenColumns, Int, Int]:
    """The tokens of ``texts``, and each one's start and end character, corpus-wide.

    Sentences break at line breaks between tokens that no entity covers. Character offsets are
    counted over the texts end to end.
    """
    starts: list[int] = []
    ends: list[int] = []
    words: list[str] = []
    counts = []
    base = 0
    newline_parts = []
    for text in texts:
        found = [(m.start() + base, m.end() + base, m.group()) for m in TOKEN_PATTERN.finditer(text)]
        counts.append(len(found))
        for s, e, w in found:
            starts.append(s)
            ends.append(e)
            words.append(w)
        newline_parts.append(np.frombuffer(text.encode("utf-32-le"), dtype="<u4") == 10)
        base += len(text)
    start = np.asarray(starts, dtype=np.int64)
    end = np.asarray(ends, dtype=np.int64)
    lengths = np.asarray(counts, dtype=np.int64)
    doc_start = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    char_base = np.concatenate([[0], np.cumsum([len(t) for t in texts])]).astype(np.int64)
    newline = np.concatenate([np.zeros(0, dtype=np.bool_), *newline_parts])
    covered = np.zeros(int(char_base[-1]) + 1, dtype=np.int64)
    if len(spans):
        g0 = char_base[spans.doc]
        np.add.at(covered, g0 + spans.start, 1)
        np.add.at(covered, g0 + spans.end, -1)
    inside = np.cumsum(covered)[:-1] > 0
    breaks = np.concatenate([[0], np.cumsum(newline & ~inside)]).astype(np.int64)
    sentence_start = np.ones(start.shape[0], dtype=np.bool_)
    if start.shape[0] > 1:
        sentence_start[1:] = breaks[start[1:]] > breaks[end[:-1]]
    sentence_start[doc_start[:-1][lengths > 0]] = True
    return TokenColumns(words, doc_start, sentence_start), start, end


def tokenised(corpus: Corpus, fates: Fates) -> Corpus:
    """``corpus`` with token offsets: a text is cut into tokens (see the module), widenings counted.

    ``fates`` records the entities widened and those dropped (they cover no token).
    """
    if corpus.tokens is not None or corpus.texts is None:
        return corpus
    spans = corpus.spans
    tokens, t_start, t_end = _char_tokens(corpus.texts, spans)
    char_base = np.concatenate([[0], np.cumsum([len(t) for t in corpus.texts])]).astype(np.int64)
    g_start = char_base[spans.doc] + spans.start
    g_end = char_base[spans.doc] + spans.end
    first = np.searchsorted(t_end, g_start, side="right")  # the first token ending after the start
    last = np.searchsorted(t_start, g_end, side="left")  # one past the last token starting before the end
    doc_start = tokens.doc_start
    keep = (first < last) & (first >= doc_start[spans.doc]) & (last <= doc_start[spans.doc + 1])
    exact = np.isin(g_start, t_start) & np.isin(g_end, t_end)
    fates.changed(keep & ~exact, WIDENED)
    fates.dropped(~keep, NO_TOKEN)
    kept = spans.select(keep)
    base = doc_start[kept.doc]
    moved = replace(kept, start=first[keep] - base, end=last[keep] - base, fragments=None)
    return replace(corpus, spans=moved, texts=None, tokens=tokens)


def detokenised(corpus: Corpus) -> Corpus:
    """``corpus`` with character offsets: tokens joined by a space, sentences by a line break."""
    if corpus.tokens is None:
        return corpus
    tokens = corpus.tokens
    n = len(tokens.words)
    lengths = np.asarray([len(w) for w in tokens.words], dtype=np.int64)
    starts = tokens.doc_start
    first = starts[:-1][starts[:-1] < starts[1:]]  # each non-empty document's first token
    separator = np.ones(n, dtype=np.int64)  # before each token: a space or a line break
    separator[first] = 0
    place = np.cumsum(separator + lengths) - lengths  # corpus-wide, documents end to end
    doc_of_token = np.repeat(np.arange(tokens.n_docs, dtype=np.int64), np.diff(starts))
    in_doc = place - place[starts[doc_of_token]] if n else place
    texts = []
    for d in range(tokens.n_docs):
        a, b = int(starts[d]), int(starts[d + 1])
        seps = np.where(tokens.sentence_start[a:b], "\n", " ").tolist()
        texts.append("".join(map(str.__add__, seps, tokens.words[a:b]))[1:])
    spans = corpus.spans
    first_token = starts[spans.doc] + spans.start
    last_token = starts[spans.doc] + spans.end - 1
    char_start, char_end = in_doc[first_token], in_doc[last_token] + lengths[last_token]
    moved = replace(spans, start=char_start, end=char_end, fragments=None)
    return replace(corpus, spans=moved, texts=texts, tokens=None)
