"""``nerve agree`` of 5 annotators against one ``nerve score`` of the same corpus (target: at most 3x).

Writes a corpus of ``--tokens`` tokens (documents of 500 tokens, sentences of 5 to 30) as one CoNLL
file of five tag columns (a gold-like annotator and four noisy copies: entities dropped, retyped,
cut short or added) and as a merged ``token gold pred`` file of the first two columns. Then times,
in one process and interleaved, ``--repeats`` times each: `nerve.score` of the merged file, and
`nerve.agree` of the five columns with its default 1,000 bootstrap resamples, with every
disagreement listed (``all rows``) and with 20 a category (``--per-category 20``).
Both wall-clock and CPU seconds are reported (the median of each); the ratio is of CPU seconds,
which other processes on the machine disturb less. Results are printed as Markdown and written to
bench/out/bench-agree-<tokens>.json.

Usage::

    python bench/bench_agree.py                     # 1M tokens, 3 repeats
    python bench/bench_agree.py --tokens 200000 --repeats 5 --check
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
TARGET = 3.0
TYPES = ("PER", "LOC", "ORG", "MISC")


def _tags(rng: random.Random, n: int) -> list[str]:
    tags: list[str] = []
    while len(tags) < n:
        if rng.random() < 0.15:
            kind, length = rng.choice(TYPES), rng.randint(1, 3)
            tags += [f"B-{kind}"] + [f"I-{kind}"] * (length - 1)
        else:
            tags.append("O")
    return tags[:n]


def _noisy(rng: random.Random, tags: list[str]) -> list[str]:
    out = list(tags)
    for i, tag in enumerate(tags):
        r = rng.random()
        if tag.startswith("B-") and r < 0.05:  # retyped
            out[i] = f"B-{rng.choice(TYPES)}"
        elif tag.startswith("I-") and r < 0.1:  # cut short
            out[i] = "O"
        elif tag == "O" and r < 0.01:  # added
            out[i] = f"B-{rng.choice(TYPES)}"
    return out


def write_files(tokens: int, seed: int = 1) -> tuple[Path, Path]:
    """The five-column file and the merged file of its first two columns (kept in bench/out)."""
    OUT.mkdir(exist_ok=True)
    columns, merged = OUT / f"agree-5-{tokens}.conll", OUT / f"agree-merged-{tokens}.conll"
    if columns.exists() and merged.exists():
        return columns, merged
    rng = random.Random(seed)
    with columns.open("w", encoding="utf-8") as c, merged.open("w", encoding="utf-8") as m:
        written = 0
        while written < tokens:
            c.write("-DOCSTART- O O O O O\n\n")
            m.write("-DOCSTART- O O\n\n")
            in_doc = 0
            while in_doc < 500 and written < tokens:
                n = rng.randint(5, 30)
                gold = _tags(rng, n)
                others = [_noisy(rng, gold) for _ in range(4)]
                for k in range(n):
                    word = f"w{rng.randint(0, 20000)}"
                    c.write(" ".join([word, gold[k], *(o[k] for o in others)]) + "\n")
                    m.write(f"{word} {gold[k]} {others[0][k]}\n")
                c.write("\n")
                m.write("\n")
                in_doc += n
                written += n
    return columns, merged


def _timed(run: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--check", action="store_true", help=f"exit 1 unless agree takes at most {TARGET}x score"
    )
    args = parser.parse_args(argv)

    import nerve
    from nerve.plan import InstanceQuery

    columns, merged = write_files(args.tokens)
    runs: dict[str, Callable[[], object]] = {
        "score": lambda: nerve.score(merged),
        "agree (all rows)": lambda: nerve.agree(columns),
        "agree (--per-category 20)": lambda: nerve.agree(columns, instances=InstanceQuery(per_category=20)),
    }
    for run in runs.values():  # warm: imports and caches
        run()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(args.repeats):
        for name, run in runs.items():
            times[name].append(_timed(run))
    medians = {
        n: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for n, t in times.items()
    }
    base = medians["score"][1]
    print(f"| {args.tokens:,} tokens, 5 annotators | wall s | CPU s | CPU x score |")
    print("|---|---:|---:|---:|")
    for name, (wall, cpu) in medians.items():
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {cpu / base:.1f} |")
    report = {name: {"wall_s": w, "cpu_s": c, "cpu_ratio": c / base} for name, (w, c) in medians.items()}
    (OUT / f"bench-agree-{args.tokens}.json").write_text(json.dumps(report, indent=2) + "\n")
    worst = max(c for n, (_, c) in medians.items() if n != "score") / base
    return 1 if args.check and worst > TARGET else 0


if __name__ == "__main__":
    raise SystemExit(main())
