"""Timing of the bootstrap: ``nerve score --bootstrap 1000`` end to end, and the resampling in process.

Two tables:

1. Whole processes (as ``bench_score.py`` times them, median of ``--repeats``) on the 1M-token corpus of
   ``gen_corpus.py`` laid out again in 5,000 documents (a ``-DOCSTART-`` line before every 11th or 12th
   sentence): the floor ``python -c "import nerve.cli"`` (start-up and imports), plain ``nerve score``,
   and ``nerve score --bootstrap 1000``. Target: the bootstrap adds under 1 s to plain scoring.
2. In process (median of ``--repeats``), the same corpus laid out in 10,000 documents: the count matrix
   (`unit_counts`), then 10,000 resamples of the 10,000 documents (`bootstrap`, intervals of every score),
   with two floors: drawing the 10,000 x 10,000 unit indices alone (``rng.integers`` in the chunks
   `bootstrap` uses) and the resampled totals alone (draws, ``bincount`` and the matrix product:
   `resample_totals`). Target: `bootstrap` under 2 s.

Usage::

    python bench/bench_analysis.py                 # both tables, 1M tokens
    python bench/bench_analysis.py --repeats 5 --check

Results are printed as Markdown and written as JSON to bench/out/bench-analysis.json.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import numpy as np

from bench_score import (
    OUT,
    Tool,
    corpus_for,
    machine,
    nerve_tool,
    rel,
    run_tools,
    targets_text,
    verdict,
    write_json,
)

TARGET_PROCESS_S = 1.0  # --bootstrap 1000 adds at most this to plain nerve score
TARGET_RESAMPLE_S = 2.0  # 10,000 resamples of 10,000 documents
RESAMPLES, UNITS = 10_000, 10_000


def relayout(corpus: Path, documents: int) -> Path:
    """The corpus with its ``-DOCSTART-`` lines moved so that it has ``documents`` documents."""
    path = corpus.with_name(f"{corpus.stem}-docs{documents}.txt")
    if path.exists():
        return path
    sentences, current = [], []
    for line in corpus.read_text(encoding="utf-8").splitlines():
        if line.startswith("-DOCSTART-"):
            continue
        if line.strip():
            current.append(line)
        elif current:
            sentences.append(current)
            current = []
    if current:
        sentences.append(current)
    starts = set(np.linspace(0, len(sentences), documents, endpoint=False).astype(int).tolist())
    with path.open("w", encoding="utf-8") as out:
        for i, sentence in enumerate(sentences):
            if i in starts:
                out.write("-DOCSTART- O O\n\n")
            out.write("\n".join(sentence) + "\n\n")
    return path


def process_table(args: argparse.Namespace) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    corpus = relayout(corpus_for(args.tokens, args.seed), 5_000)
    base = nerve_tool(corpus)
    python = sys.executable
    tools = [
        Tool("floor", 'floor: python -c "import nerve.cli"', [python, "-c", "import nerve.cli"]),
        Tool("nerve", "nerve score --output json", base.argv, unavailable=base.unavailable),
        Tool(
            "bootstrap",
            "nerve score --bootstrap 1000 --output json",
            [*base.argv, "--bootstrap", "1000"],
            unavailable=base.unavailable,
        ),
    ]
    print(f"timing processes on {rel(corpus)}, {args.repeats} runs each", file=sys.stderr)
    results = run_tools(tools, corpus, args.tokens, args.repeats, args.timeout, prefix="analysis-")
    by = {r.key: r.median_wall_s for r in results}
    extra = by["bootstrap"] - by["nerve"] if by.get("bootstrap") and by.get("nerve") else None
    print(
        f"## nerve score --bootstrap 1000: {args.tokens} tokens in 5,000 documents, "
        f"median of {args.repeats}\n"
    )
    print("| command | median wall s | peak RSS MiB |\n|---|---:|---:|")
    for r in results:
        wall = f"{r.median_wall_s:.3f}" if r.median_wall_s else r.status
        print(f"| {r.label} | {wall} | {r.peak_rss_mib if r.peak_rss_mib is not None else 'n/a'} |")
    target = {
        "target": f"--bootstrap 1000 adds < {TARGET_PROCESS_S:g} s to nerve score",
        "measured": None if extra is None else f"{extra:.3f} s",
        "result": verdict(None if extra is None else extra < TARGET_PROCESS_S),
    }
    return [asdict(r) for r in results], [target]


def _median(call: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def resample_table(args: argparse.Namespace) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    from nerve.analysis.bootstrap import CHUNK, bootstrap, resample_totals, unit_counts
    from nerve.api import score_aligned

    corpus = relayout(corpus_for(args.tokens, args.seed), UNITS)
    _, aligned = score_aligned(corpus)
    counts = unit_counts(aligned)
    assert counts.n_units == UNITS, counts.n_units
    matrix = counts.counts.reshape(UNITS, -1)

    def draws() -> None:
        rng = np.random.default_rng(1)
        for _ in range(0, RESAMPLES, CHUNK):
            rng.integers(0, UNITS, size=(CHUNK, UNITS), dtype=np.int64)

    rows = [
        ("count matrix: unit_counts (10,000 documents)", lambda: unit_counts(aligned)),
        ("floor: draw 10,000 x 10,000 unit indices", draws),
        (
            "floor: resampled totals (draws, bincount, matrix product)",
            lambda: resample_totals(matrix, RESAMPLES, np.random.default_rng(1)),
        ),
        (
            "bootstrap: 10,000 resamples, intervals of every score",
            lambda: bootstrap(counts, RESAMPLES, 1, 0.95),
        ),
    ]
    print(
        f"\n## 10,000 resamples of 10,000 documents ({len(counts.types)} types), in process, "
        f"median of {args.repeats}\n"
    )
    print("| step | median s |\n|---|---:|")
    measured = []
    for label, call in rows:
        seconds = _median(call, args.repeats)
        measured.append({"step": label, "median_s": round(seconds, 4)})
        print(f"| {label} | {seconds:.3f} |")
    total = measured[-1]["median_s"]
    target = {
        "target": f"10,000 resamples of 10,000 documents < {TARGET_RESAMPLE_S:g} s",
        "measured": f"{total:.3f} s",
        "result": verdict(float(total) < TARGET_RESAMPLE_S),  # type: ignore[arg-type]
    }
    return measured, [target]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1, help="gen_corpus.py seed")
    parser.add_argument("--repeats", "-r", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--check", action="store_true", help="exit 1 unless every target passes")
    args = parser.parse_args(argv)
    processes, targets = process_table(args)
    steps, more = resample_table(args)
    targets += more
    print("\nTargets:\n" + targets_text(targets))
    payload = {
        "machine": machine(),
        "repeats": args.repeats,
        "processes": processes,
        "steps": steps,
        "targets": targets,
    }
    print(f"\nJSON: {rel(write_json('bench-analysis.json', payload))}", file=sys.stderr)
    OUT.mkdir(exist_ok=True)
    return 1 if args.check and any(t["result"] != "PASS" for t in targets) else 0


if __name__ == "__main__":
    sys.exit(main())
