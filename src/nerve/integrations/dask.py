"""Scoring past one machine, on Dask: a map over files or documents on the workers, a reduce of counts.

In: a `distributed.Client` (``None``: the current one), and the data: files or globs (merged CoNLL
files, or gold and prediction pairs, or two directories paired by ``pattern``), a `dask.bag` of
documents, or a `dask.dataframe` with a gold and a prediction column; with `nerve.score`'s options
(exact and MUC) or `nerve.score_text`'s (the text metrics). Out: the `Result` (or `TextScores`) that
one process gives on the same data, signature included: the counts are additive
(`nerve.api.partial`), and the scheme is inferred once from every part's transitions.

Only names go out to the workers, which expand the globs and read the files themselves; only counts
come back. A part that fails fails the run with its own `NerveError` (file and line), the first in
file order, raised here as it was raised there; no partial result is ever returned. A worker that
dies is replaced and its tasks rerun by Dask. Dask is imported only by the functions that need it.
"""

from __future__ import annotations

import glob
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import reduce
from typing import Any

from ..api.dirs import conll_pairs
from ..api.partial import Plan, count_documents, count_files, finish, plan, transitions, with_scheme
from ..api.text import score_text
from ..errors import InputError, NerveError, OptionError
from ..io.progress import ProgressFn
from ..metrics.text import TextScores
from ..options import flag
from ..results import Result

__all__ = [
    "connect",
    "expand",
    "score_bag",
    "score_dataframe",
    "score_files",
    "score_text_files",
    "worker_environ",
]

Files = str | os.PathLike[str] | Sequence[str | os.PathLike[str] | tuple[str, str]]
Pair = tuple[str, str | None]


def _distributed() -> Any:
    """The `distributed` module, imported only here (plain scoring never imports Dask)."""
    try:
        import distributed
    except ImportError:
        raise NerveError("scoring on Dask needs it: pip install 'dask[distributed]'") from None
    return distributed


def _client(client: Any) -> Any:
    return client if client is not None else _distributed().get_client()


@contextmanager
def connect(address: str) -> Iterator[Any]:
    """A client of the scheduler at ``address`` (``tcp://HOST:PORT``), or of a new ``local:N`` cluster.

    ``local:N`` starts a `distributed.LocalCluster` of N worker processes, one thread each, on
    loopback, and stops it on leaving. Its workers start without the ``MALLOC_TRIM_THRESHOLD_`` that
    distributed sets for them by default (`worker_environ`).
    """
    Client, LocalCluster = _distributed().Client, _distributed().LocalCluster
    if address.startswith("local:"):
        n = address[len("local:") :]
        if not n.isdigit() or int(n) < 1:
            raise OptionError(
                "--dask", f"expected local:N with N a number of workers, 1 or more, got {address!r}"
            )
        import dask.config

        kw: dict[str, Any] = {"threads_per_worker": 1, "host": "127.0.0.1", "dashboard_address": ":0"}
        kw["silence_logs"] = logging.CRITICAL  # a part's error is raised here once, not logged by each worker
        with (
            dask.config.set({"distributed.nanny.pre-spawn-environ": worker_environ()}),
            LocalCluster(n_workers=int(n), processes=True, **kw) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    if "://" not in address:
        raise OptionError("--dask", f"expected tcp://HOST:PORT or local:N, got {address!r}")
    try:
        client = Client(address, timeout="20s")
    except OSError as err:
        raise OptionError("--dask", f"cannot reach the scheduler at {address}: {err}") from None
    with client:
        yield client


def worker_environ() -> dict[str, Any]:
    """The environment distributed gives for new worker processes, less ``MALLOC_TRIM_THRESHOLD_``.

    distributed sets it to 64 KiB so that workers hand freed memory back at once. glibc then stops
    raising its mmap threshold, so every array of more than 128 KiB is mapped and unmapped anew and
    its pages faulted in again: a 2M-token file took 1.2 s on a worker against 0.5 s in a plain
    process (bench/README.md). Counting allocates a few arrays per block and frees them, so nerve's
    workers start without it. For a cluster started elsewhere, drop it from that cluster's config.
    """
    import dask.config

    env = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {})
    env.pop("MALLOC_TRIM_THRESHOLD_", None)
    return env


def expand(
    files: Files, pred: str | os.PathLike[str] | None = None, pattern: str | None = None
) -> list[Pair]:
    """The parts to read, in order (run on a worker: the files need only be visible there).

    ``files``: a glob, a file, or a list of them (merged files; each glob's matches sorted), or a
    list of ``(gold, prediction)`` pairs; or a directory with ``pred`` one beside it, paired by
    relative name under ``pattern`` as `nerve.score` pairs them. Names are read as the workers see
    them (relative ones from their working directory).
    """
    if isinstance(files, (str, os.PathLike)) and os.path.isdir(files):
        return list(conll_pairs(os.fspath(files), None if pred is None else os.fspath(pred), pattern))
    if (
        isinstance(files, (str, os.PathLike))
        and pred is not None
        and pattern is None
        and not glob.has_magic(os.fspath(files))
    ):
        return [(os.fspath(files), os.fspath(pred))]  # one gold and one prediction file
    if pred is not None or pattern is not None:
        name = "pred" if pred is not None else flag("pattern")
        raise OptionError(
            name, "applies to two directories; give files or globs alone, or (gold, pred) pairs"
        )
    out: list[Pair] = []
    for each in [files] if isinstance(files, (str, os.PathLike)) else files:
        if isinstance(each, tuple):
            out.append((os.fspath(each[0]), os.fspath(each[1])))
            continue
        name = os.fspath(each)
        if not glob.has_magic(name):
            if os.path.isdir(name):
                raise InputError(
                    name, None, "is a directory: give a glob of its files, or it and a prediction one"
                )
            out.append((name, None))  # a missing file is the reader's error, with its name
            continue
        found = [f for f in sorted(glob.glob(name, recursive=True)) if not os.path.isdir(f)]
        if not found:
            raise InputError(name, None, "matches no file")
        out.extend((f, None) for f in found)
    return out


Tell = Callable[[], None]


def _teller(progress: ProgressFn | None, total: int) -> Tell | None:
    """A call per finished task, telling ``progress`` ``(tasks done, total)``; ``None`` without one."""
    if progress is None:
        return None
    done = [0]
    progress(0, total)

    def tell() -> None:
        done[0] += 1
        progress(min(done[0], total), total)

    return tell


def _gather(client: Any, futures: list[Any], tell: Tell | None = None) -> list[Any]:
    """The futures' values in order; the first failure in that order raised as itself, less Dask's frames.

    ``tell`` is called as each future finishes (for a progress bar), in the order they finish.
    """
    try:
        if tell is None:
            _distributed().wait(futures)
        else:
            for _ in _distributed().as_completed(futures):
                tell()
        for future in futures:
            if future.status == "error":
                err = future.exception()
                raise err.with_traceback(None) from None
        return list(client.gather(futures))
    finally:
        client.cancel(futures)


def _map_files(
    client: Any, fn: Callable[..., Any], first: Any, pairs: list[Pair], tell: Tell | None = None
) -> list[Any]:
    futures = client.map(fn, [first] * len(pairs), [[pair] for pair in pairs], pure=False)
    return _gather(client, futures, tell)


def _parts(client: Any, files: Files, pred: Any, pattern: str | None) -> list[Pair]:
    pairs: list[Pair] = _gather(client, [client.submit(expand, files, pred, pattern, pure=False)])[0]
    if not pairs:
        raise OptionError(flag("pattern"), f"no file to score in {files!r}")
    return pairs


def score_files(
    files: Files,
    pred: str | os.PathLike[str] | None = None,
    *,
    client: Any = None,
    pattern: str | None = None,
    progress: ProgressFn | None = None,
    **kwargs: Any,
) -> Result:
    """`nerve.score` of files on Dask workers: one task per file (see `expand` for ``files``).

    The result is that of one process reading the files one after another, each starting a document
    (as `nerve.score` reads a directory). ``kwargs``: `nerve.score`'s options of tagged input.
    ``progress``: called ``(tasks done, tasks)`` as the workers finish (two per file when the scheme
    is inferred first, for ``discard`` and ``error``: one pass for the transitions, one for the counts).
    """
    p = plan(**kwargs)  # options checked here, before any task
    client = _client(client)
    pairs = _parts(client, files, pred, pattern)
    tell = _teller(progress, len(pairs) * (2 if p.tagging.needs_scheme else 1))
    if p.tagging.needs_scheme:
        p = with_scheme(p, _map_files(client, transitions, p, pairs, tell))
    return finish(p, _map_files(client, count_files, p, pairs, tell))


def _partitions(documents: list[Any], p: Plan) -> list[Any]:
    return [count_documents(p, [(d[0], d[1]) for d in documents])]


def score_bag(bag: Any, *, client: Any = None, progress: ProgressFn | None = None, **kwargs: Any) -> Result:
    """`nerve.score` of a `dask.bag` of documents, each ``(gold sentences, predicted sentences)``.

    A document's sentences are lists of tag strings. The result is one process's on the documents in
    bag order, each counted as one document. ``kwargs``: `nerve.score`'s options of tagged input;
    ``discard`` and ``error`` need a named scheme here. ``progress``: called ``(partitions done,
    partitions)``.
    """
    p = plan(**kwargs)
    if p.tagging.needs_scheme:
        detail = f"the {p.tagging.policy} policy decodes with the scheme: name it for a bag"
        raise OptionError(flag("scheme"), detail)
    client = _client(client)
    futures = client.compute(bag.map_partitions(_partitions, p).to_delayed())
    parts = _gather(client, futures, _teller(progress, len(futures)))
    return finish(p, [a for part in parts for a in part])


def score_dataframe(
    frame: Any,
    gold: str = "gold",
    pred: str = "pred",
    *,
    client: Any = None,
    progress: ProgressFn | None = None,
    **kwargs: Any,
) -> Result:
    """`score_bag` of a `dask.dataframe`: a row per document, its ``gold`` and ``pred`` cells its sentences.

    (A frame of sentences, one tag list per cell, is scored with one-sentence documents: wrap each cell.)
    Dask turns object columns into strings unless ``dataframe.convert-string`` is off (`dask.config`)
    or the columns are Arrow lists: strings are refused (`InputError`), never read as tags.
    """
    missing = [c for c in (gold, pred) if c not in frame.columns]
    if missing:
        raise OptionError(
            missing[0], f"is not a column of the frame (columns: {', '.join(map(str, frame.columns))})"
        )
    return score_bag(frame[[gold, pred]].to_bag(index=False), client=client, progress=progress, **kwargs)


def _text(kwargs: dict[str, Any], pairs: list[Pair]) -> TextScores:
    ((label, prediction),) = pairs
    return score_text(label, prediction, directories=False, **kwargs)


def score_text_files(
    files: Files,
    pred: str | os.PathLike[str] | None = None,
    *,
    client: Any = None,
    pattern: str | None = None,
    progress: ProgressFn | None = None,
    **kwargs: Any,
) -> TextScores:
    """`nerve.score_text` of files on Dask workers, one task per file, the scores merged in order.

    Every text metric is a sum of per-document counts (`TextScores.merge`), so the result is that of
    the files read together. ``kwargs``: `score_text`'s options but ``directories`` and ``pattern``.
    ``progress``: called ``(files done, files)``.
    """
    if "directories" in kwargs:
        raise OptionError("directories", "is set by the files given: a list, globs or two directories")
    client = _client(client)
    pairs = _parts(client, files, pred, pattern)
    parts = _map_files(client, _text, kwargs, pairs, _teller(progress, len(pairs)))
    if not parts:
        raise NerveError("nothing to score")
    return reduce(TextScores.merge, parts)
