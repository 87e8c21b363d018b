"""What ``--sweep`` adds to ``nerve score`` over many scored predictions (target: at most 1 s at 100k).

Writes a gold and a prediction JSONL file of ``--predictions`` entities (2,000 documents; each
prediction right, a boundary off, or of another type, with a random score in 0..1 to six
decimals, so nearly every prediction is its own threshold), then times, in one process and
interleaved, ``--repeats`` times each:

- ``score``: `nerve.score` of the two files, and ``score --sweep``: the same with ``sweep=True``;
- ``json``, ``csv``, ``table``: rendering the swept result (every row in JSON and CSV, 20 in the table);
- ``sweep alone``: `nerve.metrics.sweep.threshold_sweep` on the columns already read.

The added time is the median of ``score --sweep`` less that of ``score``, plus the rendering.
Results are printed as Markdown and written to bench/out/bench-sweep-<predictions>.json.

Usage::

    python bench/bench_sweep.py                       # 100k predictions, 5 repeats
    python bench/bench_sweep.py --predictions 1000000 --repeats 3 --check
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
TARGET_S = 1.0


def write_files(n: int, seed: int = 1) -> tuple[Path, Path]:
    """Gold and scored prediction files of ``n`` entities over 2,000 documents (kept in bench/out)."""
    OUT.mkdir(exist_ok=True)
    gold, pred = OUT / f"sweep-gold-{n}.jsonl", OUT / f"sweep-pred-{n}.jsonl"
    if gold.exists() and pred.exists():
        return gold, pred
    rng = random.Random(seed)
    docs = 2000
    per = max(n // docs, 1)
    with gold.open("w", encoding="utf-8") as g, pred.open("w", encoding="utf-8") as p:
        for _ in range(docs):
            spans = [(i * 20, i * 20 + rng.randint(1, 10), rng.choice("ABCD")) for i in range(per)]
            guesses = []
            for s, e, t in spans:
                r = rng.random()
                guess = (s, e, t) if r < 0.6 else (s, e + 1, t) if r < 0.8 else (s, e, rng.choice("ABCD"))
                guesses.append(
                    {"start": guess[0], "end": guess[1], "label": guess[2], "score": round(rng.random(), 6)}
                )
            text = "x" * (20 * per + 20)
            g.write(
                json.dumps({"text": text, "spans": [{"start": s, "end": e, "label": t} for s, e, t in spans]})
                + "\n"
            )
            p.write(json.dumps({"text": text, "spans": guesses}) + "\n")
    return gold, pred


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--predictions", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--check", action="store_true", help=f"exit 1 unless --sweep adds at most {TARGET_S} s"
    )
    args = parser.parse_args(argv)

    import nerve
    from nerve.io.spans import read_span_columns
    from nerve.metrics.sweep import threshold_sweep
    from nerve.report.renderers import render

    gold, pred = write_files(args.predictions)
    g, p = read_span_columns(str(gold), str(pred))
    p = p.relabel(g.labels)
    swept = nerve.score(gold, pred, sweep=True)
    runs: dict[str, Callable[[], object]] = {
        "score": lambda: nerve.score(gold, pred),
        "score --sweep": lambda: nerve.score(gold, pred, sweep=True),
        "json": lambda: render(swept, "json"),
        "csv": lambda: render(swept, "csv"),
        "table": lambda: render(swept, "table"),
        "sweep alone": lambda: threshold_sweep(g, p),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeats):  # interleaved: the load of a shared machine falls on every row alike
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    median = {name: statistics.median(t) for name, t in times.items()}
    added = median["score --sweep"] - median["score"]
    assert swept.sweep is not None
    print(f"{len(p):,} predictions, {len(swept.sweep.micro):,} thresholds, median of {args.repeats}\n")
    print("| run | median s | min s |\n|---|---:|---:|")
    for name, t in times.items():
        print(f"| {name} | {median[name]:.3f} | {min(t):.3f} |")
    worst = added + max(median["json"], median["csv"], median["table"])
    print(
        f"\nadded by --sweep: {added:.3f} s scoring, {worst:.3f} s with the slowest output"
        f" (target {TARGET_S} s)"
    )
    OUT.mkdir(exist_ok=True)
    record = {"predictions": len(p), "thresholds": len(swept.sweep.micro), "times": times, "added_s": worst}
    (OUT / f"bench-sweep-{args.predictions}.json").write_text(json.dumps(record, indent=2) + "\n")
    return 1 if args.check and worst > TARGET_S else 0


if __name__ == "__main__":
    sys.exit(main())
