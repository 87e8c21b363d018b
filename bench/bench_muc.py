"""End-to-end timing of ``nerve score --metrics muc`` against nervaluate 1.2.1 and eval4ner 0.1.0.

The 1M-token corpus of bench_score.py is converted to span files (one document per sentence) by
gen_spans.py, and every tool reads its own file from disk in its own process, so interpreter start-up,
imports, JSON parsing, scoring and printing are all included. The timing method is bench_score.py's: one
untimed warm-up run per command, then ``--repeats`` runs round robin under ``/usr/bin/time -v``; the median
wall time and the largest peak RSS are reported.

Usage::

    python bench/bench_muc.py                       # 1M tokens, 3 runs each
    python bench/bench_muc.py --tokens 100000 --repeats 5

Corpus and span files are generated into bench/out/ when missing. Results are printed as Markdown and
written as JSON to bench/out/bench-muc-<tokens>.json; the stdout of the last run of every command is kept
in bench/out/logs/muc-<row>-<tokens>.stdout and used for the count check (nerve's overall counts next
to nervaluate's).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_score as bs
from gen_spans import output_paths

TARGET = 25.0  # nerve at least this many times faster than each peer
TYPES = ["PER", "LOC", "ORG", "MISC"]
MODES = ("strict", "exact", "partial", "type")
NERVALUATE_MODE = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
COUNTS = {"cor": "correct", "inc": "incorrect", "par": "partial", "mis": "missed", "spu": "spurious"}

# nervaluate 1.2.1: stdlib json, the dict loader, evaluate(), and the overall results printed as JSON.
NERVALUATE_SCRIPT = f"""\
import json, sys
from dataclasses import asdict
from nervaluate import Evaluator
with open(sys.argv[1], encoding="utf-8") as f:
    data = json.load(f)
results = Evaluator(data["true"], data["pred"], tags={TYPES!r}, loader="dict").evaluate()
print(json.dumps({{mode: asdict(r) for mode, r in results["overall"].items()}}))
"""

# eval4ner 0.1.0: evaluate_all(predictions, golden_labels, texts, verbose=False) takes lists of
# (type, surface) tuples (it calls list.remove with a tuple, so JSON lists must become tuples). It prints
# its per-sentence averaged scores itself; the returned dict is printed as JSON on the last line.
EVAL4NER_SCRIPT = """\
import json, sys
from eval4ner import muc
with open(sys.argv[1], encoding="utf-8") as f:
    docs = json.load(f)
preds = [[tuple(e) for e in d["pred"]] for d in docs]
golds = [[tuple(e) for e in d["gold"]] for d in docs]
texts = [d["text"] for d in docs]
print(json.dumps(muc.evaluate_all(preds, golds, texts)))
"""

# "nerve" reads the nervaluate JSON that nervaluate reads: the primary row. "nerve-greedy" reads it too,
# with --matching greedy, and must give nervaluate's counts exactly. "nerve-eval4ner" reads eval4ner's file.
# "nerve-numpy" is the primary row on the numpy engine (NERVE_NO_SPEEDUPS=1), and "nerve-baseline" the same
# on another source tree (--baseline: the code before the compiled engine), timed in the same run.
NERVE_ROWS = ("nerve", "nerve-numpy", "nerve-baseline", "nerve-greedy", "nerve-jsonl", "nerve-eval4ner")
PEERS = ("nervaluate", "eval4ner")
# The floor of the primary row: a whole process that reads the nervaluate JSON and parses it with orjson.
# The cyclic garbage collector is off during the parse, as nerve's readers have it.
FLOOR_SCRIPT = (
    "import gc, sys, orjson\ngc.disable()\nwith open(sys.argv[1], 'rb') as f:\n"
    "    data = orjson.loads(f.read())\nprint(len(data))\n"
)
ALL_TOOLS = ["floor", *NERVE_ROWS, *PEERS]


# --------------------------------------------------------------------------- inputs


def span_files(tokens: int, seed: int, regenerate: bool) -> dict[str, Path]:
    corpus = bs.corpus_for(tokens, seed)
    prefix = bs.OUT / f"spans-{tokens}-seed{seed}"
    paths = output_paths(prefix)
    stale = [p for p in paths.values() if not p.exists() or p.stat().st_mtime < corpus.stat().st_mtime]
    if regenerate or stale:
        print(f"writing {bs.rel(prefix)}.* from {bs.rel(corpus)} ...", file=sys.stderr)
        cmd = [sys.executable, str(bs.BENCH / "gen_spans.py"), str(corpus), str(prefix)]
        subprocess.run(cmd, check=True)
    return paths


# --------------------------------------------------------------------------- tools


def nerve_row(
    key: str,
    path: Path,
    fmt_args: list[str],
    what: str,
    env: list[str] | None = None,
    source: Path | None = None,
) -> bs.Tool:
    """``nerve score --metrics muc`` of ``path``; ``env``: NAME=VALUE settings, ``source``: another tree."""
    tool = bs.nerve_tool(path)
    command = [sys.executable, "-m", "nerve"] if source is not None else [tool.argv[0]]
    argv = [*command, "score", str(path), *fmt_args, "--metrics", "muc", "--output", "json"]
    if source is not None:
        env = [f"PYTHONPATH={source / 'src'}", *(env or [])]
    label = f"nerve score --metrics muc ({what})"
    return bs.Tool(key, label, ["env", *env, *argv] if env else argv, unavailable=tool.unavailable)


def script_row(key: str, package: str, script: str, path: Path, what: str) -> bs.Tool:
    version = bs.package_version(package)
    label = f"{package} {version or '?'} {what}"
    reason = None if version else f"{package} is not installed"
    return bs.Tool(key, label, [sys.executable, "-c", script, str(path)], unavailable=reason)


def make_tools(paths: dict[str, Path], keys: list[str], baseline: Path | None = None) -> list[bs.Tool]:
    no_speedups = ["NERVE_NO_SPEEDUPS=1"]
    makers = {
        "floor": lambda: script_row(
            "floor", "orjson", FLOOR_SCRIPT, paths["nervaluate"], "floor: orjson.loads of the file"
        ),
        "nerve": lambda: nerve_row(
            "nerve", paths["nervaluate"], ["--format", "nervaluate"], "nervaluate JSON"
        ),
        "nerve-numpy": lambda: nerve_row(
            "nerve-numpy", paths["nervaluate"], ["--format", "nervaluate"], "numpy engine", no_speedups
        ),
        "nerve-baseline": lambda: baseline_row(paths["nervaluate"], baseline),
        "nerve-greedy": lambda: nerve_row(
            "nerve-greedy",
            paths["nervaluate"],
            ["--format", "nervaluate", "--matching", "greedy"],
            "nervaluate JSON, --matching greedy",
        ),
        "nerve-jsonl": lambda: nerve_row("nerve-jsonl", paths["jsonl"], [], "JSONL"),
        "nerve-eval4ner": lambda: nerve_row(
            "nerve-eval4ner", paths["eval4ner"], ["--format", "eval4ner"], "eval4ner JSON"
        ),
        "nervaluate": lambda: script_row(
            "nervaluate", "nervaluate", NERVALUATE_SCRIPT, paths["nervaluate"], "Evaluator(loader='dict')"
        ),
        "eval4ner": lambda: script_row(
            "eval4ner", "eval4ner", EVAL4NER_SCRIPT, paths["eval4ner"], "muc.evaluate_all"
        ),
    }
    return [makers[k]() for k in keys]


def baseline_row(path: Path, baseline: Path | None) -> bs.Tool:
    what = f"numpy engine, the tree at {baseline}" if baseline else "another tree"
    args = ["--format", "nervaluate"]
    tool = nerve_row("nerve-baseline", path, args, what, ["NERVE_NO_SPEEDUPS=1"], baseline or Path("."))
    if baseline is None or not (baseline / "src" / "nerve").is_dir():
        return bs.Tool(tool.key, tool.label, tool.argv, unavailable="give --baseline DIR, a nerve checkout")
    return tool


def shown_command(tool: bs.Tool) -> str:
    argv = list(tool.argv)
    for i, arg in enumerate(argv):
        if arg == NERVALUATE_SCRIPT:
            argv[i] = "<nervaluate script>"
        elif arg == FLOOR_SCRIPT:
            argv[i] = "<read + orjson.loads>"
        elif arg == EVAL4NER_SCRIPT:
            argv[i] = "<eval4ner script>"
    return bs.display(argv, None)


# --------------------------------------------------------------------------- results


def ratios(results: list[bs.Result]) -> dict[str, dict[str, float | None]]:
    """ratio[peer][nerve row] = peer median / nerve-row median."""
    medians = {r.key: r.median_wall_s for r in results}
    table: dict[str, dict[str, float | None]] = {}
    for r in results:
        table[r.key] = {}
        for n in NERVE_ROWS:
            peer, base = r.median_wall_s, medians.get(n)
            table[r.key][n] = round(peer / base, 2) if peer and base else None
    return table


def speed_table(results: list[bs.Result], ratio: dict[str, dict[str, float | None]]) -> str:
    present = [n for n in NERVE_ROWS if any(r.key == n for r in results)]
    head = " | ".join(f"ratio vs {n}" for n in present)
    rows = [
        f"| row | command | input | median wall s | peak RSS MiB | {head} |",
        "|---|---|---|---:|---:|" + "---:|" * len(present),
    ]
    for r in results:
        if r.status != "ok":
            rows.append(f"| {r.key} | {r.label} | {r.corpus} | {r.status} | n/a |" + " n/a |" * len(present))
            continue
        cells = " | ".join(bs.fmt(ratio[r.key][n], ".2f") for n in present)
        rows.append(
            f"| {r.key} | {r.label} | {r.corpus} | {r.median_wall_s:.3f} | {r.peak_rss_mib:.1f} | {cells} |"
        )
    return "\n".join(rows)


def targets(results: list[bs.Result], ratio: dict[str, dict[str, float | None]]) -> list[dict[str, object]]:
    by_key = {r.key: r for r in results}
    out = []
    for n in NERVE_ROWS:
        if n not in by_key:
            continue
        for peer in PEERS:
            if peer not in by_key:
                continue
            value = ratio[peer][n]
            out.append(
                {
                    "target": f"{n} >= {TARGET:g}x faster than {by_key[peer].label}",
                    "primary": n == "nerve",
                    "measured": None if value is None else f"{value:.2f}x",
                    "result": bs.verdict(None if value is None else value >= TARGET),
                }
            )
    numpy, baseline = by_key.get("nerve-numpy"), by_key.get("nerve-baseline")
    if numpy and baseline and numpy.median_wall_s and baseline.median_wall_s:
        value = baseline.median_wall_s / numpy.median_wall_s
        out.append(
            {
                "target": "nerve-numpy no slower than nerve-baseline (within 5 %: a shared machine)",
                "primary": False,
                "measured": f"{value:.2f}x",
                "result": bs.verdict(value >= 0.95),
            }
        )
    return out


def stdout_json(path: Path) -> dict[str, Any] | None:
    """The JSON object a run printed: its whole stdout, or else its last line (eval4ner prints first)."""
    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    for candidate in (text, text.splitlines()[-1] if text else ""):
        try:
            parsed = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        return parsed if isinstance(parsed, dict) else None
    return None


def count_check(results: list[bs.Result], tokens: int) -> dict[str, Any]:
    """Overall MUC counts of every nerve row next to nervaluate's, from each tool's last timed run."""
    ok = {r.key for r in results if r.status == "ok" and r.walls_s}
    printed = {k: stdout_json(Path(f"{bs.log_path(k, tokens, 'muc-')}.stdout")) for k in ALL_TOOLS if k in ok}
    muc = {k: v["muc"] for k in NERVE_ROWS if (v := printed.get(k)) and isinstance(v.get("muc"), dict)}
    nv = printed.get("nervaluate")
    out: dict[str, Any] = {}
    for other in ("nerve-numpy", "nerve-baseline", "nerve-jsonl", "nerve-eval4ner"):
        if "nerve" in muc and other in muc:
            out[f"nerve_equals_{other}"] = muc["nerve"] == muc[other]
    modes = []
    for mode in MODES:
        row: dict[str, Any] = {"mode": mode}
        theirs = nv.get(NERVALUATE_MODE[mode]) if nv else None
        row["nervaluate"] = {k: theirs[v] for k, v in {**COUNTS, "f1": "f1"}.items()} if theirs else None
        for key in ("nerve", "nerve-greedy"):
            ours = muc[key][mode]["overall"] if key in muc else None
            row[key] = {k: ours[k] for k in (*COUNTS, "f1")} if ours else None
            if ours and theirs:
                row[f"{key}_differing"] = [k for k in COUNTS if ours[k] != theirs[COUNTS[k]]]
                row[f"{key}_abs_diff_sum"] = sum(abs(ours[k] - theirs[COUNTS[k]]) for k in COUNTS)
        modes.append(row)
    out["modes"] = modes
    if printed.get("eval4ner"):
        out["eval4ner_sentence_means"] = printed["eval4ner"]
    return out


def check_table(check: dict[str, Any]) -> str:
    head = "COR / INC / PAR / MIS / SPU"
    rows = [
        f"| mode | nervaluate {head} | nerve greedy | nerve optimal | optimal differs in | nervaluate F1 "
        "| nerve optimal F1 |",
        "|---|---|---|---|---|---:|---:|",
    ]

    def counts(c: dict[str, Any] | None) -> str:
        return " / ".join(str(c[k]) for k in COUNTS) if c else "n/a"

    def f1(c: dict[str, Any] | None) -> str:
        return f"{c['f1']:.4f}" if c else "n/a"

    for row in check["modes"]:
        diff = "n/a"
        if "nerve_differing" in row:
            diff = ", ".join(row["nerve_differing"]) or "none"
            if row["nerve_differing"]:
                diff += f" (sum of |differences| {row['nerve_abs_diff_sum']})"
        greedy = counts(row["nerve-greedy"])
        if row.get("nerve-greedy_differing") == []:
            greedy += " (identical)"
        elif row.get("nerve-greedy_differing"):
            greedy += " (DIFFERENT)"
        rows.append(
            f"| {row['mode']} | {counts(row['nervaluate'])} | {greedy} | {counts(row['nerve'])} | {diff} "
            f"| {f1(row['nervaluate'])} | {f1(row['nerve'])} |"
        )
    lines = ["\n".join(rows), ""]
    for other, what in (
        ("nerve-numpy", "the numpy engine"),
        ("nerve-baseline", "the baseline tree"),
        ("nerve-jsonl", "the JSONL"),
        ("nerve-eval4ner", "eval4ner's file"),
    ):
        key = f"nerve_equals_{other}"
        if key in check:
            same = "identical" if check[key] else "different"
            lines.append(f"- nerve's `muc` output from the nervaluate JSON and from {what}: {same}.")
    e4n = check.get("eval4ner_sentence_means")
    if isinstance(e4n, dict):
        parts = [f"{m} {e4n[m]['f1_score']:.4f}" for m in MODES if isinstance(e4n.get(m), dict)]
        lines.append(
            "- eval4ner prints no counts, only means over sentences of per-sentence scores (a sentence "
            f"with neither gold nor predicted entities scores 1): F1 {', '.join(parts)}."
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time nerve score --metrics muc end to end against nervaluate and eval4ner.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--tokens", type=int, default=1_000_000, help="corpus size (gen_corpus.py --tokens)")
    parser.add_argument("--seed", type=int, default=1, help="gen_corpus.py seed")
    parser.add_argument(
        "--repeats", "-r", type=int, default=3, help="runs per command; the median is reported"
    )
    parser.add_argument(
        "--tools",
        type=lambda s: s.split(","),
        default=ALL_TOOLS,
        help=f"comma-separated subset of {','.join(ALL_TOOLS)}",
    )
    parser.add_argument("--regenerate", action="store_true", help="rewrite the span files")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="a nerve checkout timed as the nerve-baseline row"
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per run")
    parser.add_argument(
        "--check", action="store_true", help="exit with status 1 unless the primary targets pass"
    )
    args = parser.parse_args(argv)
    unknown = set(args.tools) - set(ALL_TOOLS)
    if unknown:
        parser.error(f"unknown --tools: {', '.join(sorted(unknown))}")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if not Path(bs.GNU_TIME).exists():
        parser.error(f"{bs.GNU_TIME} (GNU time) is required to measure peak RSS")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    paths = span_files(args.tokens, args.seed, args.regenerate)
    keys = [k for k in ALL_TOOLS if k in args.tools]
    tools = make_tools(paths, keys, args.baseline)
    fmt = {
        "floor": "nervaluate",
        "nerve": "nervaluate",
        "nerve-numpy": "nervaluate",
        "nerve-baseline": "nervaluate",
        "nerve-greedy": "nervaluate",
        "nerve-jsonl": "jsonl",
        "nerve-eval4ner": "eval4ner",
        "nervaluate": "nervaluate",
        "eval4ner": "eval4ner",
    }
    inputs = {k: paths[fmt[k]] for k in keys}
    print(f"timing MUC scorers on {args.tokens} tokens, {args.repeats} runs each", file=sys.stderr)
    results = bs.run_tools(
        tools, inputs, args.tokens, args.repeats, args.timeout, prefix="muc-", shown=shown_command
    )
    ratio = ratios(results)
    for res in results:  # Result.ratio: against the primary row, as in bench_score
        res.ratio = ratio[res.key].get("nerve")
    tgt = targets(results, ratio)
    check = count_check(results, args.tokens)

    print(f"## nerve score --metrics muc vs peers: {args.tokens} tokens, median of {args.repeats} runs\n")
    print(speed_table(results, ratio))
    print("\nTargets (primary: nerve reading the nervaluate JSON that nervaluate reads):")
    for t in tgt:
        star = " (primary)" if t["primary"] else ""
        print(f"- {t['result']}: {t['target']}{star} (measured: {t['measured'] or 'n/a'})")
    print("\nCommands:")
    for r in results:
        runs = f"runs: {', '.join(f'{w:.3f}' for w in r.walls_s)} s" if r.walls_s else r.note
        print(f"- {r.key}: `{r.command}` ({runs})")
    print("\n### Overall counts: nervaluate 1.2.1 (greedy, in list order) and nerve\n")
    print(check_table(check))

    payload = {
        "mode": "muc",
        "tokens": args.tokens,
        "seed": args.seed,
        "repeats": args.repeats,
        "machine": {
            **bs.machine(),
            "nervaluate": bs.package_version("nervaluate"),
            "eval4ner": bs.package_version("eval4ner"),
        },
        "results": [asdict(r) for r in results],
        "ratios": ratio,
        "targets": tgt,
        "count_check": check,
    }
    path = bs.write_json(f"bench-muc-{args.tokens}.json", payload)
    print(f"\nJSON: {bs.rel(path)}", file=sys.stderr)
    primary = [t for t in tgt if t["primary"]]
    if args.check and (not primary or any(t["result"] != "PASS" for t in primary)):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
