"""``nerve agree`` of 5 annotators against one ``nerve score`` of the same corpus (target: at most 3x).

Writes a corpus of ``--tokens`` tokens (documents of 500 tokens, sentences of 5 to 30) as one CoNLL
file of five tag columns (a gold-like annotator and four noisy copies: entities dropped, retyped,
cut short or added) and as a merged ``token gold pred`` file of the first two columns. Then times,
``--repeats`` times each, interleaved:

- in one process: `nerve.score` of the merged file on the compiled engine (where it is built) and
  on the numpy engine (``NERVE_NO_SPEEDUPS=1``), and `nerve.agree` of the five columns with its
  default 1,000 bootstrap resamples, with every disagreement listed (``all rows``: built when
  read) and with 20 a category (``--per-category 20``, also on the numpy engine); and what agree
  cannot do without, reading the five columns (the compiled reader,
  `nerve.compiled_agree_read`, and the numpy engine's, `nerve.api.agree_input`);
- as whole processes (start-up, imports and exit included, the output written to /dev/null):
  ``nerve score`` of the merged file, ``nerve agree`` of the five columns (its table; the issue's
  target), the same with ``--output json`` (every disagreement row built and written) and on the
  numpy engine, and a bare Python process with and without ``import numpy``.

Wall-clock and CPU seconds are reported (the median of each; a child process's CPU from
``getrusage``), with their ratios: in-process runs against the compiled engine's ``score``, whole
processes against the ``nerve score`` process. The compiled engine reads a big file in two threads,
so CPU adds up beyond wall time. ``--check`` exits 1 when the ``nerve agree`` process takes more
than 3x the ``nerve score`` process's wall time. Results are printed as Markdown and written to
bench/out/bench-agree-<tokens>.json.

Usage::

    python bench/bench_agree.py                     # 1M tokens, 3 repeats
    python bench/bench_agree.py --tokens 200000 --repeats 5 --check
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
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


def _numpy_engine(run: Callable[[], object]) -> Callable[[], object]:
    """``run`` with the compiled engine off (``NERVE_NO_SPEEDUPS=1``), as `nerve._engine` reads it."""
    from nerve import _engine

    def off() -> object:
        old = os.environ.get("NERVE_NO_SPEEDUPS")
        os.environ["NERVE_NO_SPEEDUPS"] = "1"
        _engine.speedups.cache_clear()
        try:
            return run()
        finally:
            if old is None:
                del os.environ["NERVE_NO_SPEEDUPS"]
            else:
                os.environ["NERVE_NO_SPEEDUPS"] = old
            _engine.speedups.cache_clear()

    return off


def _process(*args: str, numpy: bool = False) -> Callable[[], object]:
    """A whole ``nerve`` process (``python -m nerve ARGS``) writing to /dev/null (``numpy``: that engine)."""
    env = {**os.environ, "NERVE_NO_SPEEDUPS": "1"} if numpy else None

    def run() -> object:
        with open(os.devnull, "w") as sink:
            return subprocess.run([sys.executable, "-m", "nerve", *args], stdout=sink, check=True, env=env)

    return run


def _python(code: str) -> Callable[[], object]:
    """A bare Python process running ``code``."""
    return lambda: subprocess.run([sys.executable, "-c", code], check=True)


def _timed_process(run: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user and system) of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    run()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return time.perf_counter() - wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--check", action="store_true", help=f"exit 1 unless agree takes at most {TARGET}x score"
    )
    args = parser.parse_args(argv)

    import nerve
    from nerve._engine import engine
    from nerve.plan import InstanceQuery

    columns, merged = write_files(args.tokens)
    runs: dict[str, Callable[[], object]] = {
        f"score (engine: {engine()})": lambda: nerve.score(merged),
        "score (engine: numpy)": _numpy_engine(lambda: nerve.score(merged)),
        "agree (all rows)": lambda: nerve.agree(columns),
        "agree (--per-category 20)": lambda: nerve.agree(columns, instances=InstanceQuery(per_category=20)),
        "agree (--per-category 20; engine: numpy)": _numpy_engine(
            lambda: nerve.agree(columns, instances=InstanceQuery(per_category=20))
        ),
    }
    from nerve.api.agree_input import read_annotations
    from nerve.compiled_agree_read import read_agree_columns

    # the premise: what agree cannot do without (reading the five columns; python and numpy start-up)
    runs["read the five columns (compiled reader)"] = lambda: read_agree_columns(
        str(columns), None, ("auto", None, "O")
    )
    runs["read the five columns (numpy reader)"] = _numpy_engine(lambda: read_annotations([columns]))
    processes = {"nerve score (process)": _process("score", str(merged))}
    processes["nerve agree (process)"] = _process("agree", str(columns))
    processes["nerve agree --output json (process; every row)"] = _process(
        "agree", str(columns), "--output", "json"
    )
    processes["nerve agree (process; engine: numpy)"] = _process("agree", str(columns), numpy=True)
    processes["python -c pass (process)"] = _python("pass")
    processes["python -c 'import numpy' (process)"] = _python("import numpy")
    for run in runs.values():  # warm: imports and caches
        run()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in [*runs, *processes]}
    for _ in range(args.repeats):
        for name, run in runs.items():
            times[name].append(_timed(run))
        for name, run in processes.items():
            times[name].append(_timed_process(run))
    medians = {
        n: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for n, t in times.items()
    }
    base = medians[f"score (engine: {engine()})"]
    process_base = medians["nerve score (process)"]
    print(f"| {args.tokens:,} tokens, 5 annotators | wall s | CPU s | wall x score | CPU x score |")
    print("|---|---:|---:|---:|---:|")
    report = {}
    for name, (wall, cpu) in medians.items():
        against = process_base if "(process" in name else base  # processes against the score process
        ratios = (wall / against[0], cpu / against[1])
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {ratios[0]:.1f} | {ratios[1]:.1f} |")
        report[name] = {"wall_s": wall, "cpu_s": cpu, "wall_ratio": ratios[0], "cpu_ratio": ratios[1]}
    (OUT / f"bench-agree-{args.tokens}.json").write_text(json.dumps(report, indent=2) + "\n")
    worst = medians["nerve agree (process)"][0] / process_base[0]  # the target: whole processes
    return 1 if args.check and worst > TARGET else 0


if __name__ == "__main__":
    raise SystemExit(main())
