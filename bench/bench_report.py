"""What the HTML report costs: ``nerve report`` on a generated corpus, its time and its file's size.

Every command is a whole process (start-up, imports, reading, scoring, the analysis, the charts and
writing the page), run ``--repeats`` times round robin after one untimed warm-up; the median wall time
is reported, with the floor (a bare Python read of the file and a newline count) as the first row,
plain ``nerve score`` as the reference, and each row's ratio to it. The report rows also give the size
of the page written. The targets (issue 13): at 1M tokens the report is written in under 10 s and the
page stays under 20 MB.

Usage::

    python bench/bench_report.py --tokens 1000000

The corpus (merged, and split into gold and prediction files) is generated into bench/out/ with
bench/gen_corpus.py when missing; results are printed as a Markdown table and written as JSON to
bench/out/bench-report-<tokens>.json. The last page written by each report row is kept in bench/out/.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
FLOOR = "import sys\nwith open(sys.argv[1], 'rb') as f:\n    data = f.read()\nprint(data.count(b'\\n'))\n"
TARGET_S = 10.0
TARGET_BYTES = 20 * 10**6


def corpus(tokens: int) -> Path:
    """The prefix of the generated corpus of ``tokens`` tokens (``.txt``, ``.gold.txt``, ``.pred.txt``)."""
    prefix = OUT / f"corpus-{tokens}-seed1"
    if not all(Path(f"{prefix}{s}").exists() for s in (".txt", ".gold.txt", ".pred.txt")):
        OUT.mkdir(parents=True, exist_ok=True)
        gen = [sys.executable, str(ROOT / "bench" / "gen_corpus.py"), str(prefix), "--tokens", str(tokens)]
        subprocess.run([*gen, "--seed", "1", "--split"], check=True)
    return prefix


def commands(prefix: Path, tokens: int) -> dict[str, tuple[list[str], Path | None]]:
    """Each row's command, and the page it writes (``None`` for the rows that write none)."""
    nerve = shutil.which("nerve") or "nerve"
    merged, gold, pred = (Path(f"{prefix}{s}") for s in (".txt", ".gold.txt", ".pred.txt"))
    page_merged = OUT / f"report-{tokens}-merged.html"
    page_split = OUT / f"report-{tokens}-split.html"
    return {
        "floor (read + count lines)": ([sys.executable, "-c", FLOOR, str(merged)], None),
        "nerve score": ([nerve, "score", str(merged)], None),
        "nerve report MERGED": ([nerve, "report", str(merged), "-o", str(page_merged)], page_merged),
        "nerve report GOLD PRED": (
            [nerve, "report", str(gold), str(pred), "-o", str(page_split)],
            page_split,
        ),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--check", action="store_true", help="exit with status 1 unless both targets pass")
    args = ap.parse_args()
    cmds = commands(corpus(args.tokens), args.tokens)
    walls: dict[str, list[float]] = {k: [] for k in cmds}
    for argv, _ in cmds.values():  # warm-up: caches, bytecode, matplotlib's font cache
        subprocess.run(argv, check=True, capture_output=True)
    for rep in range(args.repeats):
        for k, (argv, _) in cmds.items():
            t = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True)
            walls[k].append(time.perf_counter() - t)
            print(f"  [{rep + 1}/{args.repeats}] {k}: {walls[k][-1]:.3f} s", file=sys.stderr)
    median = {k: statistics.median(v) for k, v in walls.items()}
    sizes = {k: page.stat().st_size for k, (_, page) in cmds.items() if page is not None}
    base = median["nerve score"]
    print(f"| command ({args.tokens:,} tokens) | median wall (s) | vs nerve score | page (MB) |")
    print("|---|---:|---:|---:|")
    for k, m in median.items():
        size = f"{sizes[k] / 1e6:.2f}" if k in sizes else ""
        print(f"| {k} | {m:.3f} | {m / base:.2f}x | {size} |")
    slowest = max(median[k] for k in sizes)
    largest = max(sizes.values())
    checks = [
        (f"report written in under {TARGET_S:g} s", f"{slowest:.3f} s", slowest < TARGET_S),
        (f"page under {TARGET_BYTES / 1e6:g} MB", f"{largest / 1e6:.2f} MB", largest < TARGET_BYTES),
    ]
    print()
    for target, measured, ok in checks:
        print(f"- {'PASS' if ok else 'FAIL'}: {target} (measured: {measured})")
    out = {
        "tokens": args.tokens,
        "repeats": args.repeats,
        "walls_s": walls,
        "median_s": median,
        "page_bytes": sizes,
        "targets": [{"target": t, "measured": m, "pass": ok} for t, m, ok in checks],
    }
    (OUT / f"bench-report-{args.tokens}.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 1 if args.check and not all(ok for *_, ok in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
