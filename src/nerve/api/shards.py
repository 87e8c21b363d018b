"""Counting a big CoNLL file in threads, one range of whole sentences each.

In: the file names (a merged file, or a gold and a prediction file) and the settings of
`nerve.score`. Out: one `ExactAccumulator` with the counts of every range added up in file order,
the same counts as one thread reading the whole file.
"""

from __future__ import annotations

import codecs
import os
from contextvars import copy_context

from ..analysis.aligned import Collector
from ..io.tags.conll import ConllReader, FileRange, first_token_columns, split_files
from ..io.tags.conll_cuts import SPLIT_BYTES, threads
from ..metrics.exact import ExactAccumulator
from ..metrics.muc import MucOptions
from ..model.labels import LabelMap
from ..model.schemes import Scheme, TagFormat
from ..model.vocab import TagVocab
from .sources import Source, is_path

__all__ = ["SHARD_BYTES", "score_shards", "shards"]

SHARD_BYTES = SPLIT_BYTES  # the C engine's threads follow the same rule (`conll_cuts.threads`)


def shards(
    gold: Source, pred: Source | None, workers: int | None, comments: bool, encoding: str
) -> list[tuple[FileRange, FileRange | None]] | None:
    """Ranges of the files for threads to read, or ``None`` to read them in one go."""
    if not is_path(gold) or (pred is not None and not is_path(pred)) or comments:
        return None
    if codecs.lookup(encoding).name != "utf-8":
        return None
    g = os.fspath(gold)  # type: ignore[arg-type]
    p = os.fspath(pred) if pred is not None else None  # type: ignore[arg-type]
    if not os.path.isfile(g) or (p is not None and not os.path.isfile(p)):
        return None  # the reader reports it
    workers = threads(os.path.getsize(g), workers)
    if workers < 2 or first_token_columns(g) is None or (p is not None and first_token_columns(p) is None):
        return None
    return split_files(g, p, workers)


def score_shards(
    parts: list[tuple[FileRange, FileRange | None]],
    policy: str,
    scheme: Scheme | None,
    fmt: TagFormat | None,
    outside: str,
    check_tokens: bool,
    sources: tuple[str, str],
    overlap: MucOptions | None,
    keep: list[tuple[Collector, tuple[str, ...]]] | None = None,
    words: bool = False,
    labels: LabelMap | None = None,
    pred_scheme: Scheme | str | None = "same",
) -> ExactAccumulator | None:
    """Count each range in its own thread and add the counts up, in file order.

    ``None`` when the ranges inferred different tag formats (``B_G-M``: ``B`` of ``G-M``, or ``M``
    of ``B_G``): one pass, from the file's first tags, decides, and raises. With ``keep``, each
    range's entities and tokens are appended to ``keep`` in file order with its type names; with
    ``words``, the tokens themselves too.
    """
    from concurrent.futures import ThreadPoolExecutor  # imported when needed: the command starts faster

    words = words and keep is not None
    readers = [
        _reader(g, p, TagVocab(fmt, scheme if pred_scheme == "same" else None, outside), check_tokens, words)
        for g, p in parts
    ]
    collectors = [Collector() for _ in parts]
    accs = [ExactAccumulator(r.vocab, policy, scheme, sources, overlap, labels, pred_scheme) for r in readers]
    # Every range checks column counts against the first token line of the file, each file
    # split as its reader splits it (the delimiter is sniffed from the file's start).
    for r in readers:
        _preset(r, parts[0])

    def count(i: int) -> None:
        for block in readers[i]:
            chunks = accs[i].update(block)
            if keep is not None and chunks is not None:
                collectors[i].add(block, chunks)

    with ThreadPoolExecutor(len(parts)) as pool:
        futures = [pool.submit(copy_context().run, count, i) for i in range(len(parts))]  # progress
    formats = {a.vocab.format for a in accs if a.vocab.format is not None}
    if fmt is None and len(formats) > 1:
        return None
    for future in futures:
        future.result()  # the first range's error first
    if keep is not None:
        keep.extend((c, tuple(a.type_names)) for c, a in zip(collectors, accs, strict=True))
    total = accs[0]
    for other in accs[1:]:
        total.absorb(other)
    return total


def _reader(
    g: FileRange, p: FileRange | None, vocab: TagVocab, check_tokens: bool, words: bool
) -> ConllReader:
    return ConllReader(g, p, vocab, check_tokens=check_tokens, words=words)


def _preset(reader: ConllReader, first: tuple[FileRange, FileRange | None]) -> None:
    """Have a range's reader check column counts against the first token line of the file."""
    gold_first, pred_first = first
    reader.gold_columns.preset(first_token_columns(gold_first.path, False, reader.delimiters[0]))
    if pred_first is not None:
        reader.pred_columns.preset(first_token_columns(pred_first.path, False, reader.delimiters[1]))
