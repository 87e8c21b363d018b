"""In-loop timing of nerve's streaming metric against seqeval called per batch.

The 1M-token corpus of bench_score.py is turned into id batches of 32 x 128, as a training loop
sees them, in two layouts:

- ``packed``: rows are consecutive 128-token slices of the corpus (about 245 full batches);
- ``sentences``: one sentence per row, cut at 128 tokens, the rest padded with -100 (about
  1,600 mostly padded batches, as Hugging Face's token-classification collator makes them).

Per layout, each of these loops over all batches and ends with the corpus totals:

- ``nerve numpy``: ``StreamingMetric.update(gold, pred)`` on numpy arrays, ``compute()``;
- ``nerve torch cpu``: the same on CPU tensors (read through numpy, the default there);
- ``nerve torch cpu, tensor decoder``: the same with ``device_decode=True``, the static-shape
  tensor decoder that CUDA tensors use, run on the CPU (shown, not part of the target);
- ``nerve torch cuda``: the same on CUDA tensors, when a CUDA device is at hand;
- ``seqeval per batch``: ids to tag strings in Python (dropping -100), then seqeval's
  ``get_entities`` on both sides and a per-type set intersection, added up: what PaddleNLP's
  ``ChunkEvaluator.compute`` does for every batch.

Batches are built before timing. Every loop runs ``--repeats`` times; the median is reported.
The counts of all loops are checked to be equal (IOB2 tags, where seqeval's default mode and
nerve's ``begin`` policy agree).

``--device cuda`` times the loops on CUDA tensors only (``nerve torch cuda`` against ``nerve
numpy`` on the same batches, no seqeval), and exits with status 2 and a message when torch or a
CUDA device is missing. ``--memory`` instead streams the corpus file as packed id batches, made
while reading (never all held), through one ``StreamingMetric``, and reports the wall time and
the process's peak RSS (``ru_maxrss``): what the metric holds over a whole run.

Usage::

    python bench/bench_stream.py                    # 1M tokens, 5 repeats
    python bench/bench_stream.py --tokens 100000 --repeats 3
    python bench/bench_stream.py --device cuda      # the tensor path on a GPU
    python bench/bench_stream.py --memory --tokens 10000000

Results are printed as Markdown and written to bench/out/bench-stream-<tokens>.json.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_score as bs

TARGET = 20.0
ROWS, WIDTH = 32, 128


def read_corpus(path: Path) -> tuple[list[str], list[list[int]], list[list[int]]]:
    """Label list and, per sentence, gold and predicted ids (last two columns of a merged file)."""
    labels: dict[str, int] = {"O": 0}
    gold: list[list[int]] = []
    pred: list[list[int]] = []
    g_row: list[int] = []
    p_row: list[int] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0] == "-DOCSTART-":
                if g_row:
                    gold.append(g_row)
                    pred.append(p_row)
                    g_row, p_row = [], []
                continue
            g_row.append(labels.setdefault(fields[-2], len(labels)))
            p_row.append(labels.setdefault(fields[-1], len(labels)))
    if g_row:
        gold.append(g_row)
        pred.append(p_row)
    return list(labels), gold, pred


def batches(gold: list[list[int]], pred: list[list[int]], layout: str) -> list[tuple[Any, Any]]:
    """Padded ``(ROWS, WIDTH)`` gold and predicted id arrays; gold -100 marks padding."""
    if layout == "packed":
        g = np.concatenate([np.asarray(s) for s in gold])
        p = np.concatenate([np.asarray(s) for s in pred])
        n_rows = -(-g.shape[0] // WIDTH)
        g_rows = np.full(n_rows * WIDTH, -100, dtype=np.int64)
        p_rows = np.zeros(n_rows * WIDTH, dtype=np.int64)
        g_rows[: g.shape[0]] = g
        p_rows[: p.shape[0]] = p
        g_rows, p_rows = g_rows.reshape(n_rows, WIDTH), p_rows.reshape(n_rows, WIDTH)
    else:
        g_rows = np.full((len(gold), WIDTH), -100, dtype=np.int64)
        p_rows = np.zeros((len(gold), WIDTH), dtype=np.int64)
        for i, (gs, ps) in enumerate(zip(gold, pred, strict=True)):
            n = min(len(gs), WIDTH)
            g_rows[i, :n] = gs[:n]
            p_rows[i, :n] = ps[:n]
    return [(g_rows[i : i + ROWS], p_rows[i : i + ROWS]) for i in range(0, g_rows.shape[0], ROWS)]


def run_nerve(labels: list[str], data: list[tuple[Any, Any]], **options: Any) -> tuple[int, int, int]:
    import nerve

    metric = nerve.StreamingMetric(labels, **options)
    for g, p in data:
        metric.update(g, p)
    micro = metric.compute().micro
    return micro.predicted, micro.gold, micro.tp


def run_seqeval(labels: list[str], data: list[tuple[Any, Any]]) -> tuple[int, int, int]:
    from seqeval.metrics.sequence_labeling import get_entities

    infer = gold_n = correct = 0
    for g, p in data:
        g_l, p_l = g.tolist(), p.tolist()
        y_true = [[labels[x] for x in row if x != -100] for row in g_l]
        y_pred = [
            [labels[y] for x, y in zip(gr, pr, strict=True) if x != -100]
            for gr, pr in zip(g_l, p_l, strict=True)
        ]
        t = set(get_entities(y_true))
        q = set(get_entities(y_pred))
        infer += len(q)
        gold_n += len(t)
        correct += len(t & q)
    return infer, gold_n, correct


def timed(fn: Callable[[], tuple[int, int, int]], repeats: int) -> tuple[float, tuple[int, int, int]]:
    times, out = [], (0, 0, 0)
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def corpus_labels(path: Path) -> list[str]:
    """The tags of the last two columns of a merged file, ``O`` first (one pass, in C mostly)."""
    tags: set[str] = set()
    with open(path, encoding="utf-8") as f:
        for lines in iter(lambda: f.readlines(1 << 20), []):
            tags.update(t for line in lines for t in line.split()[-2:])
    tags.discard("-DOCSTART-")
    return ["O", *sorted(tags - {"O"})]


def stream_batches(path: Path, labels: list[str]) -> Iterator[tuple[Any, Any]]:
    """Packed ``(ROWS, WIDTH)`` id batches of the file, made while reading it."""
    index = {t: i for i, t in enumerate(labels)}
    size = ROWS * WIDTH
    gold: list[int] = []
    pred: list[int] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 3 or fields[0] == "-DOCSTART-":
                continue
            gold.append(index[fields[-2]])
            pred.append(index[fields[-1]])
            if len(gold) == size:
                yield np.asarray(gold).reshape(ROWS, WIDTH), np.asarray(pred).reshape(ROWS, WIDTH)
                gold, pred = [], []
    if gold:
        g = np.full(size, -100, dtype=np.int64)
        p = np.zeros(size, dtype=np.int64)
        g[: len(gold)], p[: len(pred)] = gold, pred
        yield g.reshape(ROWS, WIDTH), p.reshape(ROWS, WIDTH)


def memory_mode(args: argparse.Namespace) -> int:
    import resource

    import nerve

    corpus = bs.corpus_for(args.tokens, args.seed)
    labels = corpus_labels(corpus)
    start = time.perf_counter()
    metric = nerve.StreamingMetric(labels)
    n = 0
    for g, p in stream_batches(corpus, labels):
        metric.update(g, p)
        n += 1
    micro = metric.compute().micro
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    counts = (micro.predicted, micro.gold, micro.tp)
    print(f"| {args.tokens} tokens | {n} batches | {seconds:.2f} s | {rss:.1f} MiB | {counts} |")
    path = bs.write_json(
        f"bench-stream-memory-{args.tokens}.json",
        {"tokens": args.tokens, "batches": n, "seconds": seconds, "peak_rss_mib": rss, "counts": counts},
    )
    print(f"written: {bs.rel(path)}")
    return 0


def cuda_or_exit() -> Any:
    """torch, when a CUDA device is at hand; otherwise a message and exit status 2."""
    try:
        import torch
    except ImportError:
        print("bench_stream.py --device cuda: torch is not installed", file=sys.stderr)
        raise SystemExit(2) from None
    if not torch.cuda.is_available():
        print("bench_stream.py --device cuda: no CUDA device is available here", file=sys.stderr)
        raise SystemExit(2)
    return torch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time nerve's streaming metric against seqeval per batch.")
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", "-r", type=int, default=5)
    parser.add_argument("--layouts", default="packed,sentences")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu", help="cuda: the GPU loops only")
    parser.add_argument("--memory", action="store_true", help="peak RSS of one streamed run instead")
    args = parser.parse_args(argv)
    if args.memory:
        return memory_mode(args)
    if args.device == "cuda":
        cuda_or_exit()
    labels, gold, pred = read_corpus(bs.corpus_for(args.tokens, args.seed))
    try:
        import torch
    except ImportError:
        torch = None
    report: dict[str, Any] = {
        "tokens": args.tokens,
        "repeats": args.repeats,
        "machine": bs.machine(),
        "layouts": {},
    }
    print(
        f"## nerve streaming metric vs seqeval per batch: {args.tokens} tokens, 32 x 128, "
        f"median of {args.repeats}\n"
    )
    ok = True
    for layout in args.layouts.split(","):
        data = batches(gold, pred, layout)
        loops: dict[str, Callable[[], tuple[int, int, int]]] = {
            "nerve numpy": lambda data=data: run_nerve(labels, data),
        }
        if torch is not None and args.device == "cuda":
            cpu = [(torch.as_tensor(g), torch.as_tensor(p)) for g, p in data]
        elif torch is not None:
            cpu = [(torch.as_tensor(g), torch.as_tensor(p)) for g, p in data]
            loops["nerve torch cpu"] = lambda cpu=cpu: run_nerve(labels, cpu)
            loops["nerve torch cpu, tensor decoder"] = lambda cpu=cpu: run_nerve(
                labels, cpu, device_decode=True
            )
            if torch.cuda.is_available():
                cuda = [(g.cuda(), p.cuda()) for g, p in cpu]

                def on_cuda(cuda: list[tuple[Any, Any]] = cuda) -> tuple[int, int, int]:
                    out = run_nerve(labels, cuda)
                    torch.cuda.synchronize()
                    return out

                on_cuda()  # warm up the kernels
                loops["nerve torch cuda"] = on_cuda
        if args.device == "cuda":
            assert torch is not None
            cuda = [(g.cuda(), p.cuda()) for g, p in cpu]

            def cuda_loop(cuda: list[tuple[Any, Any]] = cuda) -> tuple[int, int, int]:
                out = run_nerve(labels, cuda)
                torch.cuda.synchronize()
                return out

            loops["nerve torch cuda"] = cuda_loop
            loops["nerve torch cuda, host decoder"] = lambda cuda=cuda: run_nerve(
                labels, cuda, device_decode=False
            )
        else:
            loops["seqeval per batch"] = lambda data=data: run_seqeval(labels, data)
        rows = {}
        for name, fn in loops.items():
            fn()  # warm-up: imports, table building
            seconds, counts = timed(fn, args.repeats)
            rows[name] = {"seconds": seconds, "counts": counts}
        base = rows["seqeval per batch" if args.device == "cpu" else "nerve numpy"]
        counts = {tuple(r["counts"]) for r in rows.values()}
        if len(counts) != 1:
            print(f"counts differ: {rows}", file=sys.stderr)
            ok = False
        print(f"### {layout}: {len(data)} batches\n")
        reference = "seqeval per batch" if args.device == "cpu" else "nerve numpy"
        print(f"| loop | median wall | vs {reference} |\n|---|---:|---:|")
        for name, r in rows.items():
            r["ratio"] = base["seconds"] / r["seconds"]
            print(f"| {name} | {r['seconds']:.3f} s | {r['ratio']:.2f}x |")
        print(f"\n(predicted, gold, correct) = {rows['nerve numpy']['counts']}\n")
        report["layouts"][layout] = {"batches": len(data), "rows": rows}
        for name in rows:
            if args.device == "cpu" and name.startswith("nerve"):
                ok &= rows[name]["ratio"] >= TARGET or "cuda" in name or "tensor decoder" in name
    suffix = "-cuda" if args.device == "cuda" else ""
    path = bs.write_json(f"bench-stream-{args.tokens}{suffix}", report)
    verdict = "PASS" if ok else "FAIL"
    if args.device == "cuda":  # no seqeval loop runs here: only the counts' agreement is judged
        print(f"counts of every loop agree: {verdict}")
    else:
        print(f"target: nerve numpy and torch cpu at least {TARGET:g}x seqeval per batch: {verdict}")
    print(f"written: {bs.rel(path)}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
