"""Throughput of scoring on Dask: one, two and four local worker processes on the same shards.

The shards are merged ``token gold pred`` files made by gen_corpus.py (seed = shard number), the
tokens split evenly between them; they are generated once into bench/out/dask-<tokens>-<shards>/.
Rows:

- ``floor``: one process reading every shard and counting its lines, the floor of issue 27;
- ``one process, no Dask``: `nerve.api.partial` counting the shards one after another
  in this process, the counts added up: what a worker does, without the scheduler;
- ``Dask, N workers``: `nerve.integrations.dask.score_files` on the cluster of ``--dask local:N``
  (a `LocalCluster` of N processes, one thread each, on loopback); the workers read the shards
  themselves. The cluster is started and nerve imported on every worker before the clock starts.
  ``--keep-trim`` adds the same rows on plain `LocalCluster`s, whose workers keep distributed's
  default ``MALLOC_TRIM_THRESHOLD_=65536`` (see `nerve.integrations.dask.worker_environ`).

Every row must give the one process's `Result` (checked). Each run is repeated ``--repeats`` times and
the median kept; throughput is sentence tokens per second, per worker too, so that a cluster can be
sized, and each worker's time over the floor's (a worker reads its shards on the C engine where it is
built; ``--engine numpy`` sets ``NERVE_NO_SPEEDUPS=1`` here and, inherited, on the workers).

Usage::

    python bench/bench_dask.py                                   # 10M tokens in 50 shards
    python bench/bench_dask.py --tokens 100000000 --shards 50    # the issue's size (about 1.1 GB of shards)

Results are printed as Markdown and written to bench/out/bench-dask-<tokens>-<shards>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_corpus  # noqa: E402


def make_shards(tokens: int, shards: int) -> list[Path]:
    """The shards, generated when missing (each of tokens // shards tokens, the rest in the last)."""
    out = HERE / "out" / f"dask-{tokens}-{shards}"
    paths = []
    for i in range(shards):
        size = tokens // shards + (tokens % shards if i == shards - 1 else 0)
        prefix = out / f"shard-{i:03d}"
        if not Path(f"{prefix}.txt").exists():
            gen_corpus.main([str(prefix), "--tokens", str(size), "--seed", str(i + 1)])
        paths.append(Path(f"{prefix}.txt"))
    return paths


def read_floor(paths: list[Path]) -> int:
    """The floor: every shard read and its lines counted, in one process."""
    lines = 0
    for path in paths:
        with path.open("rb") as f:
            lines += f.read().count(b"\n")
    return lines


def floor(paths: list[Path]) -> Any:
    """One process, no Dask: the shards counted in turn and added up."""
    from nerve.api.partial import count_files, finish, plan

    p = plan()
    return finish(p, [count_files(p, [(str(path), None)]) for path in paths])


@contextmanager
def cluster(workers: int, keep_trim: bool) -> Iterator[Any]:
    """A client of ``nerve --dask local:N``'s cluster, or (``keep_trim``) of a plain `LocalCluster`.

    The plain one keeps distributed's default worker environment, MALLOC_TRIM_THRESHOLD_ included
    (`nerve.integrations.dask.worker_environ` says why nerve's own cluster starts without it).
    """
    from distributed import Client, LocalCluster

    from nerve.integrations.dask import connect

    if not keep_trim:
        with connect(f"local:{workers}") as client:
            yield client
        return
    kw: dict[str, Any] = {"threads_per_worker": 1, "host": "127.0.0.1", "dashboard_address": None}
    with LocalCluster(n_workers=workers, processes=True, **kw) as local, Client(local) as client:
        yield client


def on_dask(paths: list[Path], workers: int, repeats: int, keep_trim: bool) -> tuple[list[float], Any]:
    """The times of ``repeats`` runs on a fresh local cluster of ``workers`` processes, and the result."""
    from nerve.integrations.dask import score_files

    with cluster(workers, keep_trim) as client:
        client.run(lambda: __import__("nerve.integrations.dask"))  # imports off the clock
        times, result = [], None
        for _ in range(repeats):
            t0 = time.perf_counter()
            result = score_files([str(p) for p in paths], client=client)
            times.append(time.perf_counter() - t0)
    return times, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, default=10_000_000, help="sentence tokens in all (default 10M)")
    parser.add_argument("--shards", type=int, default=50, help="files the tokens are split into (default 50)")
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[1, 2, 4], help="cluster sizes (default 1 2 4)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs per row, the median kept (default 3)")
    parser.add_argument(
        "--keep-trim",
        action="store_true",
        help="also time plain LocalClusters, whose workers keep distributed's MALLOC_TRIM_THRESHOLD_",
    )
    parser.add_argument("--engine", choices=["C", "numpy"], default="C", help="the engine that counts")
    args = parser.parse_args(argv)
    if args.engine == "numpy":
        os.environ["NERVE_NO_SPEEDUPS"] = "1"  # here, and on the workers, which inherit it

    paths = make_shards(args.tokens, args.shards)
    size = sum(p.stat().st_size for p in paths)
    rows: list[dict[str, Any]] = []
    times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        read_floor(paths)
        times.append(time.perf_counter() - t0)
    floor_s = statistics.median(times)
    rows.append({"run": "floor: read the shards, count their lines", "workers": 1, "seconds": floor_s})
    times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        reference = floor(paths)
        times.append(time.perf_counter() - t0)
    assert reference.tokens.count == args.tokens, reference.tokens
    rows.append({"run": "one process, no Dask", "workers": 1, "seconds": statistics.median(times)})
    for keep_trim in (False, True) if args.keep_trim else (False,):
        for n in args.workers:
            times, result = on_dask(paths, n, args.repeats, keep_trim)
            if result != reference:
                raise SystemExit(f"Dask with {n} workers gave another result than one process")
            run = f"Dask, {n} worker{'s' * (n > 1)}" + (", MALLOC_TRIM_THRESHOLD_=65536" if keep_trim else "")
            rows.append({"run": run, "workers": n, "seconds": statistics.median(times)})
    one = rows[2]["seconds"] if len(rows) > 2 else rows[1]["seconds"]
    from nerve._engine import engine

    shown = f"{args.tokens:,} tokens in {args.shards} shards ({size / 1e6:,.0f} MB), {os.cpu_count()} CPUs"
    print(f"{shown}, engine {engine()}\n")
    print(
        "| run | s | M tokens/s | M tokens/s per worker | speed-up over 1 worker | time per worker / floor |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        rate = args.tokens / row["seconds"] / 1e6
        over = row["seconds"] * row["workers"] / floor_s  # a worker's share of the time, over the floor's
        row.update(rate=rate, per_worker=rate / row["workers"], speedup=one / row["seconds"], over_floor=over)
        cells = (row["seconds"], rate, row["per_worker"], row["speedup"], over)
        print(f"| {row['run']} | " + " | ".join(f"{c:.2f}" for c in cells) + " |")
    out = HERE / "out" / f"bench-dask-{args.tokens}-{args.shards}-{args.engine}.json"
    meta = {"tokens": args.tokens, "shards": args.shards, "bytes": size, "cpus": os.cpu_count()}
    out.write_text(json.dumps({**meta, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
