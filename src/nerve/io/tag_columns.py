"""Entity spans from a column of tags: the decoding shared by the HIPE and CoNLL-U readers.

In: one tag per token (any scheme: IOB1, IOB2, IOE, IOBES, BILOU... spelled ``B-X``), the
document of each token and where sentences start. Out: `SpanArray` columns in token offsets
within each document.

The rule is nerve's shared decoding rule (``repair="begin"``, `nerve.tagging.decode.decode_ids`),
built from the same model tables (`TagVocab`, `continuation_table`): an entity tag continues the
open entity when the table says so, else it begins one; no entity crosses a sentence start. The
``io`` layer sits below ``tagging``, so the few lines of the rule are repeated here; a test checks
that both give the same entities on random tags. Tags are looked up once per distinct tag.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError
from ..model.schemes import OUT, continuation_table
from ..model.spans import SpanArray
from ..model.vocab import TagVocab
from .brat import read_bytes
from .offsets import decode_utf8

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]
    Bool = npt.NDArray[np.bool_]

__all__ = ["decode_tag_column", "merge_layers", "text_lines"]


def decode_tag_column(
    tags: Sequence[str],
    doc: Int,
    sentence_start: Bool,
    n_docs: int,
    where: tuple[str, Int],
    outside: str = "O",
) -> SpanArray:
    """The entities of ``tags``, offsets counted in tokens from the start of each document.

    Args:
        tags: one tag per token, all documents end to end.
        doc: the document of each token (non-decreasing).
        sentence_start: whether each token starts a sentence (a document start is one too).
        n_docs: the number of documents, with those without tokens.
        where: the file and the line of each token, for the error of a tag nerve cannot read.
        outside: the outside tag.

    Raises:
        InputError: a tag that has not the form of the others (``B-X``), at its line.
    """
    n = len(tags)
    if n == 0:
        return SpanArray.from_documents([[] for _ in range(n_docs)])
    distinct, inverse = np.unique(np.asarray(tags, dtype=object), return_inverse=True)
    vocab = TagVocab(outside=outside)
    known = vocab.add([str(t) for t in distinct])
    if (known < 0).any():
        bad = int(np.argmin(known))
        k = int(np.argmax(inverse == bad))
        path, lines = where
        raise InputError(path, int(lines[k]), f"{vocab.explain(str(distinct[bad]))}")
    ids = known.astype(np.int64)[inverse.reshape(-1)]
    kinds, types = vocab.kinds, vocab.types
    continues = continuation_table(kinds, types)
    starts_doc = sentence_start.copy()
    starts_doc[0] = True
    starts_doc[1:] |= doc[1:] != doc[:-1]  # no entity crosses a document either
    prev = np.zeros(n, dtype=np.int64)  # the outside tag (id 0) before every sentence
    prev[1:] = ids[:-1]
    prev[starts_doc] = 0
    inside = (kinds != OUT)[ids]
    begins = inside & ~continues[prev, ids]
    last = np.ones(n, dtype=bool)
    last[:-1] = begins[1:] | ~inside[1:]
    last &= inside
    start, end = np.flatnonzero(begins), np.flatnonzero(last) + 1
    first_token = np.searchsorted(doc, np.arange(n_docs, dtype=np.int64))  # of each document
    span_doc = doc[start]
    base = first_token[span_doc]
    return SpanArray(
        doc=span_doc.astype(np.int64),
        start=(start - base).astype(np.int64),
        end=(end - base).astype(np.int64),
        label=types[ids[start]].astype(np.int64),
        labels=tuple(vocab.type_names),
        n_docs=n_docs,
    )


def text_lines(path: str) -> list[str]:
    """The lines of the UTF-8 file ``path``: a byte order mark dropped, CR LF line ends read as LF.

    Raises:
        InputError: no such file, or bytes that are not UTF-8.
    """
    text = decode_utf8(path, read_bytes(path))
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def merge_layers(layers: Sequence[SpanArray]) -> SpanArray:
    """The spans of every layer in one `SpanArray` (overlapping spans kept), labels in order met."""
    first = layers[0]
    if len(layers) == 1:
        return first
    names: list[str] = []
    moved = []
    for layer in layers:
        layer = layer.relabel(names)
        names = list(layer.labels)
        moved.append(layer)
    moved = [m.relabel(names) for m in moved]
    cols = {k: np.concatenate([getattr(m, k) for m in moved]) for k in ("doc", "start", "end", "label")}
    order = np.lexsort((cols["label"], cols["end"], cols["start"], cols["doc"]))
    return SpanArray(
        doc=cols["doc"][order],
        start=cols["start"][order],
        end=cols["end"][order],
        label=cols["label"][order],
        labels=tuple(names),
        n_docs=first.n_docs,
    )
