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
from ..metrics.exact import ExactAccumulator
from ..metrics.muc import MucOptions
from ..model.labels import LabelMap
from ..model.schemes import Scheme, TagFormat
from ..model.vocab import TagVocab
from .sources import Source, is_path

__all__ = ["SHARD_BYTES", "score_shards", "shards"]

SHARD_BYTES = 8 << 20


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
    if workers is None:
        workers = 2 if (os.cpu_count() or 1) >= 2 and os.path.getsize(g) >= SHARD_BYTES else 1
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
) -> ExactAccumulator:
    """Count each range in its own thread and add the counts up, in file order.

    With ``keep``, each range's entities and tokens are collected too, and appended to ``keep``
    in file order with the range's type names; with ``words``, the tokens themselves too.
    """
    from concurrent.futures import ThreadPoolExecutor  # imported when needed: the command starts faster

    words = words and keep is not None
    readers = [
        ConllReader(
            g,
            p,
            TagVocab(fmt, scheme if pred_scheme == "same" else None, outside),
            check_tokens=check_tokens,
            words=words,
        )
        for g, p in parts
    ]
    collectors = [Collector() for _ in parts]
    accs = [ExactAccumulator(r.vocab, policy, scheme, sources, overlap, labels, pred_scheme) for r in readers]
    # Every range checks column counts against the first token line of the file, each file
    # split as its reader splits it (the delimiter is sniffed from the file's start).
    gold_first, pred_first = parts[0]
    for r in readers:
        r.gold_columns.preset(first_token_columns(gold_first.path, False, r.delimiters[0]))
        if pred_first is not None:
            r.pred_columns.preset(first_token_columns(pred_first.path, False, r.delimiters[1]))

    def count(i: int) -> None:
        for block in readers[i]:
            chunks = accs[i].update(block)
            if keep is not None and chunks is not None:
                collectors[i].add(block, chunks)

    with ThreadPoolExecutor(len(parts)) as pool:
        futures = [pool.submit(copy_context().run, count, i) for i in range(len(parts))]  # progress
    for future in futures:
        future.result()  # the first range's error first
    if keep is not None:
        keep.extend((c, tuple(a.type_names)) for c, a in zip(collectors, accs, strict=True))
    total = accs[0]
    for other in accs[1:]:
        total.absorb(other)
    return total
