"""What the error analysis costs: ``nerve score --errors --confusion`` against plain ``nerve score``.

Every command is a whole process (start-up, imports and reading included), run ``--repeats`` times
round robin after one untimed warm-up; the median wall time is reported, with the floor (a bare Python
read of the file and a newline count) as the first row and each row's ratio to plain ``nerve score``.
The target (issue 13) is at most 1.5x plain scoring for ``--errors --confusion``.

Usage::

    python bench/bench_errors.py --tokens 1000000

The corpus is generated into bench/out/ with bench/gen_corpus.py when missing; results are printed as
a Markdown table and written as JSON to bench/out/bench-errors-<tokens>.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
FLOOR = "import sys\nwith open(sys.argv[1], 'rb') as f:\n    data = f.read()\nprint(data.count(b'\\n'))\n"


def corpus(tokens: int) -> Path:
    """The generated merged corpus of ``tokens`` tokens (made when missing)."""
    prefix = OUT / f"corpus-{tokens}-seed1"
    path = prefix.with_suffix(".txt")
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        gen = [sys.executable, str(ROOT / "bench" / "gen_corpus.py"), str(prefix), "--tokens", str(tokens)]
        subprocess.run([*gen, "--seed", "1"], check=True)
    return path


def commands(path: Path, scratch: Path) -> dict[str, list[str]]:
    nerve = shutil.which("nerve") or "nerve"
    return {
        "floor (read + count lines)": [sys.executable, "-c", FLOOR, str(path)],
        "nerve score": [nerve, "score", str(path)],
        "nerve score --errors": [nerve, "score", str(path), "--errors"],
        "nerve score --errors --confusion": [nerve, "score", str(path), "--errors", "--confusion"],
        "nerve score --errors --instances (jsonl)": [
            nerve,
            "score",
            str(path),
            "--errors",
            "--instances",
            str(scratch / "errors.jsonl"),
        ],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    path = corpus(args.tokens)
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(path, Path(tmp))
        walls: dict[str, list[float]] = {k: [] for k in cmds}
        for argv in cmds.values():  # warm-up: caches, bytecode
            subprocess.run(argv, check=True, capture_output=True)
        for _ in range(args.repeats):
            for k, argv in cmds.items():
                t = time.perf_counter()
                subprocess.run(argv, check=True, capture_output=True)
                walls[k].append(time.perf_counter() - t)
    median = {k: statistics.median(v) for k, v in walls.items()}
    base = median["nerve score"]
    print(f"| command ({args.tokens:,} tokens) | median wall (s) | vs nerve score |")
    print("|---|---:|---:|")
    for k, m in median.items():
        print(f"| {k} | {m:.3f} | {m / base:.2f}x |")
    OUT.mkdir(parents=True, exist_ok=True)
    out = {"tokens": args.tokens, "repeats": args.repeats, "walls_s": walls, "median_s": median}
    (OUT / f"bench-errors-{args.tokens}.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
