"""End-to-end timing of nerve's text-level metrics against ie-eval 0.2.0, on BIO directories.

The 1M-token corpus of bench_score.py is split by gen_bio_dirs.py into ie-eval's layout twice: one
sentence per document (about 20 tokens, 57,267 files per side) and 100 sentences per document (about
2,000 tokens, 573 files per side). On each layout four commands run as whole processes:

- ``nerve ecer-ewer -l LABELS -p PREDICTIONS`` against ``ie-eval cer --order-independent``;
- ``nerve ie-all -l LABELS -p PREDICTIONS`` against ``ie-eval all``.

The timing loop is bench_score.run_tools: one untimed warm-up per command, then ``--repeats`` runs round
robin under ``/usr/bin/time -v``, the median wall time and the largest peak RSS. ie-eval's ``all`` on the
2,000-token layout takes many minutes, so ``--repeats 1 --no-warmup`` is the usual choice there (the
files are then read once by gen_bio_dirs.py just before, and are in the page cache anyway).

Usage::

    python bench/bench_text.py                        # both layouts, 1 run each
    python bench/bench_text.py --layouts 1 --repeats 3

Results are printed as Markdown and written to bench/out/bench-text-<tokens>-s<layouts>.json; the
stdout of the last run of every command is kept in bench/out/logs/, and the total rows of nerve and
ie-eval are shown side by side (ECER and EWER, and the F1 columns of ``all``).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_score as bs

TARGET = 20.0
PAIRS = (("nerve-ecer-ewer", "ie-eval-cer-oi"), ("nerve-ie-all", "ie-eval-all"))


def layout_dirs(tokens: int, seed: int, sentences: int) -> Path:
    corpus = bs.corpus_for(tokens, seed)
    out = bs.OUT / f"bio-{tokens}-s{sentences}"
    labels = out / "labels"
    if not labels.exists() or labels.stat().st_mtime < corpus.stat().st_mtime:
        print(f"writing {bs.rel(out)} from {bs.rel(corpus)} ...", file=sys.stderr)
        cmd = [sys.executable, str(bs.BENCH / "gen_bio_dirs.py"), str(corpus), str(out)]
        subprocess.run([*cmd, "--sentences-per-document", str(sentences)], check=True)
    return out


def tools(out: Path) -> list[bs.Tool]:
    dirs = ["-l", str(out / "labels"), "-p", str(out / "predictions")]
    nerve = bs.nerve_tool(out)
    ie_eval = shutil.which("ie-eval", path=str(Path(sys.executable).parent)) or shutil.which("ie-eval")
    version = bs.package_version("ie-eval")
    missing = None if ie_eval and version else "ie-eval is not installed (pip install ie-eval==0.2.0)"
    return [
        bs.Tool(
            "nerve-ecer-ewer",
            "nerve ecer-ewer",
            [nerve.argv[0], "ecer-ewer", *dirs],
            unavailable=nerve.unavailable,
        ),
        bs.Tool(
            "nerve-ie-all", "nerve ie-all", [nerve.argv[0], "ie-all", *dirs], unavailable=nerve.unavailable
        ),
        bs.Tool(
            "ie-eval-cer-oi",
            f"ie-eval {version or '?'} cer --order-independent",
            [ie_eval or "ie-eval", "cer", "--order-independent", *dirs],
            unavailable=missing,
        ),
        bs.Tool(
            "ie-eval-all",
            f"ie-eval {version or '?'} all",
            [ie_eval or "ie-eval", "all", *dirs],
            unavailable=missing,
        ),
    ]


def total_row(path: Path) -> dict[str, float] | None:
    """The total row of a Markdown table printed by nerve or ie-eval, by column name."""
    if not path.exists():
        return None
    lines = [
        line
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.startswith("|")
    ]
    if len(lines) < 3:
        return None
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == "total":
            numeric = re.compile(r"^-?[0-9.]+$")
            return {h: float(c) for h, c in zip(head[1:], cells[1:], strict=True) if numeric.match(c)}
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time nerve's text metrics against ie-eval 0.2.0.")
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--layouts",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1, 100],
        help="sentences per document",
    )
    parser.add_argument("--repeats", "-r", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=3600.0)
    parser.add_argument("--no-warmup", action="store_true", help="skip the untimed warm-up runs")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {
        "tokens": args.tokens,
        "repeats": args.repeats,
        "machine": bs.machine(),
        "layouts": {},
    }
    print(f"## nerve text metrics vs ie-eval: {args.tokens} tokens, median of {args.repeats} run(s)\n")
    for sentences in args.layouts:
        out = layout_dirs(args.tokens, args.seed, sentences)
        n_docs = sum(1 for _ in (out / "labels").glob("*.bio"))
        results = bs.run_tools(
            tools(out),
            out,
            args.tokens,
            args.repeats,
            args.timeout,
            prefix=f"text-s{sentences}-",
            warmup=not args.no_warmup,
        )
        by_key = {r.key: r for r in results}
        print(f"### {n_docs} documents of {sentences} sentence(s) each\n")
        print("| row | command | median wall s | peak RSS MiB |")
        print("|---|---|---:|---:|")
        for r in results:
            wall = f"{r.median_wall_s:.3f}" if r.median_wall_s else r.status
            rss = f"{r.peak_rss_mib:.1f}" if r.peak_rss_mib else "n/a"
            print(f"| {r.key} | `{r.command}` | {wall} | {rss} |")
        print()
        layout: dict[str, Any] = {"documents": n_docs, "results": [asdict(r) for r in results], "targets": []}
        for ours, theirs in PAIRS:
            a, b = by_key[ours].median_wall_s, by_key[theirs].median_wall_s
            ratio = round(b / a, 2) if a and b else None
            ok = None if ratio is None else ratio >= TARGET
            line = f"{ours} >= {TARGET:g}x faster than {by_key[theirs].label}"
            print(f"- {bs.verdict(ok)}: {line} (measured: {bs.fmt(ratio, '.2f')}x)")
            layout["targets"].append({"target": line, "ratio": ratio, "result": bs.verdict(ok)})
        rows = {
            k: total_row(bs.log_path(k, args.tokens, f"text-s{sentences}-").with_suffix(".stdout"))
            for k in by_key
        }
        layout["total_rows"] = rows
        print(f"\nTotal rows: `{json.dumps(rows)}`\n")
        report["layouts"][str(sentences)] = layout
    layouts = "-".join(f"s{n}" for n in args.layouts)
    path = bs.write_json(f"bench-text-{args.tokens}-{layouts}.json", report)
    print(f"JSON: {bs.rel(path)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
