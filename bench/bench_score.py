"""End-to-end timing of ``nerve score`` against seqeval, conlleval 0.2 (PyPI) and, optionally, conlleval.pl.

Every command is a whole process, so interpreter start-up, imports and file reading are included. Each
command runs ``--repeats`` times (round robin), the median wall time is reported, and the peak RSS is the
largest "Maximum resident set size" that ``/usr/bin/time -v`` reported over the runs.

Usage::

    python bench/bench_score.py --tokens 1000000            # speed table: nerve vs peers
    python bench/bench_score.py --memory-check              # nerve only, peak RSS at 1M and 10M tokens
    python bench/bench_score.py --conlleval-pl PATH/conlleval.pl
    python bench/bench_score.py --targets --conlleval-pl PATH/conlleval.pl   # the CoNLL rows of the
        # compiled engine's targets: 1M tokens against the floor and the peers, the numpy engine against
        # the baseline's (main's tree, exported into bench/out), 100M tokens, and WNUT-16 test

Corpora are generated into bench/out/ with bench/gen_corpus.py when missing. Results are printed as a
Markdown table and written as JSON to bench/out/.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import json
import os
import platform
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
OUT = BENCH / "out"
GNU_TIME = "/usr/bin/time"

# Targets (see bench/README.md).
TARGET_VS_SEQEVAL = 50.0
TARGET_VS_CONLLEVAL = 25.0
TARGET_VS_CONLLEVAL_PL = 20.0
TARGET_FLOOR_FACTOR = 3.0  # nerve's time is at most this many times the floor's
TARGET_RSS_BYTES = 150 * 10**6  # 150 MB
FLAT_FACTOR = 1.25
# Every tool runs as an installed package would: with its bytecode cached, after one untimed warm-up
# run (which also brings the corpus into the page cache).
ENV = {
    k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"
}  # "flat": peak RSS at the largest corpus is at most this times the RSS at the smallest

# Reads a merged `token gold pred` file into lists of lists and prints seqeval's default-mode report.
SEQEVAL_SCRIPT = """\
import sys
from seqeval.metrics import classification_report
y_true, y_pred, gold, pred = [], [], [], []
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        fields = line.split()
        if not fields or fields[0] == "-DOCSTART-":
            if gold:
                y_true.append(gold)
                y_pred.append(pred)
                gold, pred = [], []
            continue
        gold.append(fields[-2])
        pred.append(fields[-1])
if gold:
    y_true.append(gold)
    y_pred.append(pred)
print(classification_report(y_true, y_pred, digits=4))
"""


@dataclass
class Tool:
    key: str
    label: str
    argv: list[str]
    stdin: Path | None = None
    unavailable: str | None = None  # reason the tool cannot run
    env: dict[str, str] = field(default_factory=dict)  # set for this tool only


@dataclass
class Result:
    key: str
    label: str
    command: str
    corpus: str
    tokens: int | None
    status: str = "ok"  # ok | unavailable | failed
    note: str = ""
    walls_s: list[float] = field(default_factory=list)
    peak_rss_kib: list[int] = field(default_factory=list)
    cpus_s: list[float] = field(default_factory=list)  # user + system time of each run
    median_wall_s: float | None = None
    median_cpu_s: float | None = None
    peak_rss_mib: float | None = None
    ratio: float | None = None  # this tool's median / nerve's median


# --------------------------------------------------------------------------- helpers


def rel(path: Path | str) -> str:
    """Path relative to the repository root when inside it, so that no machine path is recorded."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return path.name


def display(argv: list[str], stdin: Path | None) -> str:
    shown = []
    for i, arg in enumerate(argv):
        if i == 0 and (arg == sys.executable or Path(arg).name in ("nerve", "perl")):
            shown.append("python" if arg == sys.executable else Path(arg).name)
        elif arg == SEQEVAL_SCRIPT:
            shown.append("<seqeval script>")
        elif os.path.isabs(arg) and Path(arg).exists():
            shown.append(rel(arg))
        else:
            shown.append(arg)
    text = shlex.join(shown)
    return f"{text} < {rel(stdin)}" if stdin else text


def package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def corpus_for(tokens: int, seed: int) -> Path:
    """The merged corpus of ``tokens`` tokens, generated with gen_corpus.py if it does not exist yet."""
    prefix = OUT / f"corpus-{tokens}-seed{seed}"
    path = OUT / f"{prefix.name}.txt"
    if not path.exists():
        print(f"generating {rel(path)} ...", file=sys.stderr)
        cmd = [sys.executable, str(BENCH / "gen_corpus.py"), str(prefix), "--tokens", str(tokens)]
        subprocess.run([*cmd, "--seed", str(seed)], check=True)
    return path


def count_tokens(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for line in f if line.strip() and not line.startswith(b"-DOCSTART-"))


# --------------------------------------------------------------------------- tools


def nerve_tool(corpus: Path) -> Tool:
    label = "nerve score --output json"
    bindir = Path(sys.executable).parent  # the venv's bin/ when run with the venv's python
    script = bindir / "nerve"
    found = str(script) if script.exists() else shutil.which("nerve")
    argv = [found or "nerve", "score", str(corpus), "--output", "json"]
    if not found:
        return Tool("nerve", label, argv, unavailable="no `nerve` console script (pip install -e '.[bench]')")
    python = Path(found).parent / "python"
    python_cmd = str(python) if python.exists() else sys.executable
    probe = subprocess.run([python_cmd, "-c", "import nerve.cli"], capture_output=True, text=True)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["import failed"])[-1]
        return Tool("nerve", label, argv, unavailable=f"`import nerve.cli` fails: {last}")
    return Tool("nerve", label, argv)


# The floor: a whole Python process that reads the file's bytes and counts its newlines.
FLOOR_SCRIPT = (
    "import sys\nwith open(sys.argv[1], 'rb') as f:\n    data = f.read()\nprint(data.count(b'\\n'))\n"
)


def floor_tool(corpus: Path) -> Tool:
    return Tool(
        "floor",
        "floor: python -c (read the bytes, count newlines)",
        [sys.executable, "-c", FLOOR_SCRIPT, str(corpus)],
    )


def seqeval_tool(corpus: Path) -> Tool:
    version = package_version("seqeval")
    label = f"seqeval {version or '?'} classification_report (default mode)"
    argv = [sys.executable, "-c", SEQEVAL_SCRIPT, str(corpus)]
    return Tool("seqeval", label, argv, unavailable=None if version else "seqeval is not installed")


def conlleval_tool(corpus: Path) -> Tool:
    version = package_version("conlleval")
    label = f"conlleval {version or '?'} (python -m conlleval)"
    argv = [sys.executable, "-m", "conlleval", str(corpus)]
    return Tool("conlleval", label, argv, unavailable=None if version else "conlleval is not installed")


def conlleval_pl_tool(corpus: Path, script: Path) -> Tool:
    perl = shutil.which("perl")
    reason = None if perl else "perl not found"
    if not script.is_file():
        reason = f"{script.name} not found"
    return Tool("conlleval.pl", "conlleval.pl (perl)", [perl or "perl", str(script)], corpus, reason)


# --------------------------------------------------------------------------- timing


def time_once(tool: Tool, log_prefix: Path, timeout: float) -> tuple[float, int, int, float]:
    """Run once; return (wall seconds, peak RSS KiB, exit status, CPU seconds). Output goes to log files.

    The wait blocks, and a timer kills the process group when the timeout passes:
    ``subprocess.run(..., timeout=...)`` waits by polling with sleeps of up to 50 ms, which would
    round every measured time up by as much (about 9 % of a 0.5 s run).
    """
    stdin = tool.stdin.open("rb") if tool.stdin else subprocess.DEVNULL
    with (
        tempfile.NamedTemporaryFile("r", suffix=".time") as report,
        Path(f"{log_prefix}.stdout").open("wb") as out,
        Path(f"{log_prefix}.stderr").open("wb") as err,
    ):
        expired = threading.Event()
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [GNU_TIME, "-v", "-o", report.name, *tool.argv],
            stdin=stdin,
            stdout=out,
            stderr=err,
            env={**ENV, **tool.env},
            start_new_session=True,  # its own process group, so that a timeout kills the tool too
        )

        def kill() -> None:
            expired.set()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            status = proc.wait()
        finally:
            timer.cancel()
            if tool.stdin:
                stdin.close()
        wall = time.perf_counter() - t0
        if expired.is_set():
            raise subprocess.TimeoutExpired(tool.argv, timeout)
        text = Path(report.name).read_text()
        match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
        cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", text))
    return wall, int(match.group(1)) if match else 0, status, cpu


def failure_note(log_prefix: Path, status: int) -> str:
    lines = Path(f"{log_prefix}.stderr").read_text(errors="replace").strip().splitlines()
    return f"exit status {status}: {lines[-1] if lines else 'no stderr'}"


def run_tools(
    tools: list[Tool],
    corpus: Path | dict[str, Path],
    tokens: int | None,
    repeats: int,
    timeout: float,
    *,
    prefix: str = "",
    shown: Callable[[Tool], str] | None = None,
    warmup: bool = True,
) -> list[Result]:
    """Time every available tool ``repeats`` times, round robin, after one untimed warm-up each.

    ``corpus`` is the input of every tool, or of each tool by key. Logs go to
    ``bench/out/logs/<prefix><key>-<tokens>.*``; ``shown`` gives the command as reported.
    ``warmup=False`` skips the warm-up runs (for commands that take many minutes).
    """
    logs = OUT / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    inputs = corpus if isinstance(corpus, dict) else {t.key: corpus for t in tools}
    show = shown or (lambda t: display(t.argv, t.stdin))
    results = {t.key: Result(t.key, t.label, show(t), rel(inputs[t.key]), tokens) for t in tools}
    for t in tools:
        if t.unavailable:
            results[t.key].status, results[t.key].note = "unavailable", t.unavailable
    for t in tools:
        if warmup and results[t.key].status == "ok":
            with contextlib.suppress(subprocess.TimeoutExpired):
                time_once(t, logs / f"{prefix}warmup-{t.key}", timeout)
    for rep in range(repeats):
        for t in tools:
            res = results[t.key]
            if res.status != "ok":
                continue
            log_prefix = log_path(t.key, tokens or inputs[t.key].stem, prefix)
            print(f"  [{rep + 1}/{repeats}] {res.label} ...", end=" ", file=sys.stderr, flush=True)
            try:
                wall, rss, status, cpu = time_once(t, log_prefix, timeout)
            except subprocess.TimeoutExpired:
                res.status, res.note = "failed", f"timed out after {timeout:g} s"
                print("timeout", file=sys.stderr)
                continue
            print(f"{wall:.3f} s, {rss / 1024:.1f} MiB", file=sys.stderr)
            if status != 0:
                res.status, res.note = "failed", failure_note(log_prefix, status)
                continue
            res.walls_s.append(round(wall, 4))
            res.cpus_s.append(round(cpu, 3))
            res.peak_rss_kib.append(rss)
    for res in results.values():
        if res.status == "ok" and res.walls_s:
            res.median_wall_s = statistics.median(res.walls_s)
            res.median_cpu_s = statistics.median(res.cpus_s)
            res.peak_rss_mib = round(max(res.peak_rss_kib) / 1024, 1)
    add_ratios(list(results.values()))
    return list(results.values())


def log_path(key: str, size: int | str, prefix: str = "") -> Path:
    """Where the last timed run of a tool keeps its stdout and stderr (add ``.stdout``/``.stderr``)."""
    return OUT / "logs" / f"{prefix}{key}-{size}"


def add_ratios(results: list[Result]) -> None:
    nerve = next((r for r in results if r.key == "nerve" and r.median_wall_s), None)
    for res in results:
        if nerve and res.median_wall_s:
            res.ratio = round(res.median_wall_s / nerve.median_wall_s, 2)


# --------------------------------------------------------------------------- reporting


def fmt(value: float | None, spec: str) -> str:
    return "n/a" if value is None else format(value, spec)


def speed_table(results: list[Result]) -> str:
    rows = [
        "| command | median wall s | peak RSS MiB | ratio (row time / nerve time) |",
        "|---|---:|---:|---:|",
    ]
    for r in results:
        if r.status != "ok":
            rows.append(f"| {r.label} | {r.status} | n/a | n/a |")
        else:
            rows.append(
                f"| {r.label} | {r.median_wall_s:.3f} | {r.peak_rss_mib:.1f} | {fmt(r.ratio, '.2f')} |"
            )
    return "\n".join(rows)


def memory_table(results: list[Result]) -> str:
    base = results[0].peak_rss_mib if results else None
    rows = [
        "| command | corpus tokens | median wall s | peak RSS MiB | RSS / RSS at smallest |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in results:
        growth = r.peak_rss_mib / base if (base and r.peak_rss_mib) else None
        wall = fmt(r.median_wall_s, ".3f") if r.status == "ok" else r.status
        rows.append(
            f"| {r.label} | {r.tokens} | {wall} | {fmt(r.peak_rss_mib, '.1f')} | {fmt(growth, '.2f')} |"
        )
    return "\n".join(rows)


def verdict(ok: bool | None) -> str:
    return {True: "PASS", False: "FAIL", None: "n/a"}[ok]


def speed_targets(results: list[Result]) -> list[dict[str, object]]:
    by_key = {r.key: r for r in results}

    def ratio_check(key: str, target: float) -> dict[str, object]:
        ratio = by_key[key].ratio if key in by_key else None
        return {
            "target": f"nerve >= {target:g}x faster than {by_key[key].label if key in by_key else key}",
            "measured": None if ratio is None else f"{ratio:.2f}x",
            "result": verdict(None if ratio is None else ratio >= target),
        }

    nerve = by_key.get("nerve")
    rss = nerve.peak_rss_mib if nerve else None
    floor = by_key.get("floor")
    times = floor.ratio if floor else None  # the floor's time / nerve's
    over = None if not times else 1 / times
    checks = [ratio_check("seqeval", TARGET_VS_SEQEVAL), ratio_check("conlleval", TARGET_VS_CONLLEVAL)]
    if "conlleval.pl" in by_key:
        checks.append(ratio_check("conlleval.pl", TARGET_VS_CONLLEVAL_PL))
    return [
        *checks,
        {
            "target": f"nerve takes at most {TARGET_FLOOR_FACTOR:g}x the floor's time",
            "measured": None if over is None else f"{over:.2f}x the floor",
            "result": verdict(None if over is None else over <= TARGET_FLOOR_FACTOR),
        },
        {
            "target": "nerve peak RSS < 150 MB",
            "measured": None if rss is None else f"{rss:.1f} MiB",
            "result": verdict(None if rss is None else rss * 2**20 < TARGET_RSS_BYTES),
        },
    ]


def memory_targets(results: list[Result]) -> list[dict[str, object]]:
    rss = [r.peak_rss_mib for r in results if r.peak_rss_mib is not None]
    complete = bool(rss) and len(rss) == len(results)
    largest = max(rss) if complete else None
    growth = rss[-1] / rss[0] if complete else None
    return [
        {
            "target": "nerve peak RSS < 150 MB at every size",
            "measured": None if largest is None else f"max {largest:.1f} MiB",
            "result": verdict(None if largest is None else largest * 2**20 < TARGET_RSS_BYTES),
        },
        {
            "target": f"flat: RSS at largest <= {FLAT_FACTOR:g}x RSS at smallest",
            "measured": None if growth is None else f"{growth:.2f}x",
            "result": verdict(None if growth is None else growth <= FLAT_FACTOR),
        },
    ]


def targets_text(targets: list[dict[str, object]]) -> str:
    return "\n".join(f"- {t['result']}: {t['target']} (measured: {t['measured'] or 'n/a'})" for t in targets)


def machine() -> dict[str, object]:
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "nerve": package_version("nerve"),
        "seqeval": package_version("seqeval"),
        "conlleval": package_version("conlleval"),
    }


def write_json(name: str, payload: dict[str, object]) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / name
    path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- modes


def speed_mode(args: argparse.Namespace) -> list[dict[str, object]]:
    if args.corpus:
        corpus = args.corpus.resolve()
        tokens = count_tokens(corpus)
    else:
        corpus, tokens = corpus_for(args.tokens, args.seed), args.tokens
    makers = {"floor": floor_tool, "nerve": nerve_tool, "seqeval": seqeval_tool, "conlleval": conlleval_tool}
    tools = [makers[k](corpus) for k in args.tools]
    if args.conlleval_pl:
        tools.append(conlleval_pl_tool(corpus, args.conlleval_pl.resolve()))
    print(f"timing on {rel(corpus)} ({tokens} tokens), {args.repeats} runs each", file=sys.stderr)
    results = run_tools(tools, corpus, tokens, args.repeats, args.timeout)
    targets = speed_targets(results)
    print(f"## nerve score vs peers: {tokens} tokens, median of {args.repeats} runs\n")
    print(speed_table(results))
    print("\nTargets:\n" + targets_text(targets))
    for r in results:
        if r.note:
            print(f"\nNote ({r.key}): {r.note}")
    payload = {
        "mode": "speed",
        "corpus": rel(corpus),
        "tokens": tokens,
        "repeats": args.repeats,
        "machine": machine(),
        "results": [asdict(r) for r in results],
        "targets": targets,
    }
    path = write_json(f"bench-score-{tokens}.json", payload)
    print(f"\nJSON: {rel(path)}", file=sys.stderr)
    return targets


def memory_mode(args: argparse.Namespace) -> list[dict[str, object]]:
    results = []
    for tokens in args.memory_tokens:
        corpus = corpus_for(tokens, args.seed)
        print(f"timing nerve on {rel(corpus)}, {args.repeats} runs", file=sys.stderr)
        results += run_tools([nerve_tool(corpus)], corpus, tokens, args.repeats, args.timeout)
    targets = memory_targets(results)
    sizes = ", ".join(str(t) for t in args.memory_tokens)
    print(f"## nerve score peak RSS by corpus size ({sizes} tokens), median of {args.repeats} runs\n")
    print(memory_table(results))
    print("\nTargets:\n" + targets_text(targets))
    for note in dict.fromkeys(f"{r.key}: {r.note}" for r in results if r.note):
        print(f"\nNote ({note})")
    payload = {
        "mode": "memory",
        "repeats": args.repeats,
        "machine": machine(),
        "results": [asdict(r) for r in results],
        "targets": targets,
    }
    path = write_json("bench-memory.json", payload)
    print(f"\nJSON: {rel(path)}", file=sys.stderr)
    return targets


# --------------------------------------------------------------------------- the compiled engine's targets

TARGETS_1M = {"floor": 2.0, "seqeval": 100.0, "conlleval.pl": 40.0, "conlleval": 30.0}
TARGET_100M_FLOOR, TARGET_100M_RSS_MB, TARGET_WNUT_PASS = 1.5, 50.0, 3.0
WNUT = Path("wnut16/predictions/wnut16_CelmoWglove_lstmCrf_29275447_4533.txt")


def baseline_src(ref: str) -> Path:
    """``src/`` of the git ref ``ref`` (main: the numpy engine before the C one), exported into bench/out."""
    where = OUT / f"baseline-{ref.replace('/', '-')}"
    if not (where / "src").exists():
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "src"], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where / "src"


def python_tool(key: str, label: str, code: str, *args: str) -> Tool:
    return Tool(key, label, [sys.executable, "-c", code, *args])


def numpy_tools(corpus: Path, ref: str) -> list[Tool]:
    """nerve on the numpy engine (``NERVE_NO_SPEEDUPS=1``), here and in the baseline's tree."""
    argv = [sys.executable, "-m", "nerve", "score", str(corpus), "--output", "json"]
    here = Tool("numpy", "nerve, numpy engine (NERVE_NO_SPEEDUPS=1)", argv, env={"NERVE_NO_SPEEDUPS": "1"})
    pythonpath = str(baseline_src(ref))
    before = Tool("baseline", f"nerve of {ref}, numpy engine", argv, env={"PYTHONPATH": pythonpath})
    return [here, before]


def over(results: list[Result], key: str, base: str, cpu: bool = False) -> float | None:
    """The time of ``key`` over the time of ``base`` (wall, or CPU), within one run."""
    by = {r.key: r.median_cpu_s if cpu else r.median_wall_s for r in results}
    return by[key] / by[base] if by.get(key) and by.get(base) else None


def cpu_table(results: list[Result], base: str) -> str:
    """Wall and CPU medians, and each row's times over ``base``'s."""
    rows = ["| command | wall s | CPU s | peak RSS MiB | wall / " + base + " | CPU / " + base + " |"]
    rows.append("|---|---:|---:|---:|---:|---:|")
    for r in results:
        if r.status != "ok":
            rows.append(f"| {r.label} | {r.status} | | | | |")
            continue
        ratios = (fmt(over(results, r.key, base), ".2f"), fmt(over(results, r.key, base, True), ".2f"))
        rows.append(
            f"| {r.label} | {r.median_wall_s:.3f} | {fmt(r.median_cpu_s, '.3f')} | {r.peak_rss_mib:.1f} | "
            + " | ".join(ratios)
            + " |"
        )
    return "\n".join(rows)


def both_checks(
    target: str, results: list[Result], key: str, base: str, ok: Callable[[float], bool]
) -> list[dict[str, object]]:
    """A target checked on wall time and on CPU time (the machine is shared: CPU time is steadier)."""
    return [
        check(f"{target} (wall)", over(results, key, base), ok),
        check(f"{target} (CPU)", over(results, key, base, True), ok),
    ]


def check(
    target: str, measured: float | None, ok: Callable[[float], bool], unit: str = "x"
) -> dict[str, object]:
    return {
        "target": target,
        "measured": None if measured is None else f"{measured:.2f}{unit}",
        "result": verdict(None if measured is None else ok(measured)),
    }


def targets_mode(args: argparse.Namespace) -> list[dict[str, object]]:
    """The CoNLL rows of the compiled engine's targets, each with its floor, ratios within one run."""
    corpus = corpus_for(1_000_000, args.seed)
    tools = [floor_tool(corpus), nerve_tool(corpus), seqeval_tool(corpus), conlleval_tool(corpus)]
    if args.conlleval_pl:
        tools.append(conlleval_pl_tool(corpus, args.conlleval_pl.resolve()))
    tools += numpy_tools(corpus, args.baseline)
    one = run_tools(tools, corpus, 1_000_000, args.repeats, args.timeout, prefix="targets-")
    print("## 1M tokens\n\n" + cpu_table(one, "nerve"))
    checks = both_checks("1M: nerve <= 2x the floor", one, "nerve", "floor", lambda x: x <= 2.0)
    for key, target in TARGETS_1M.items():
        if key != "floor":
            at_least = f"1M: nerve >= {target:g}x faster than {key}"
            checks += both_checks(at_least, one, key, "nerve", lambda x, t=target: x >= t)
    same = f"1M: numpy engine no slower than {args.baseline}'s"
    checks += both_checks(same, one, "numpy", "baseline", lambda x: x <= 1.05)
    big = corpus_for(args.big_tokens, args.seed)
    hundred = run_tools([floor_tool(big), nerve_tool(big)], big, args.big_tokens, args.repeats, args.timeout)
    print(f"\n## {args.big_tokens} tokens\n\n" + cpu_table(hundred, "nerve"))
    checks += both_checks("100M: nerve <= 1.5x the floor", hundred, "nerve", "floor", lambda x: x <= 1.5)
    rss = next((r.peak_rss_mib for r in hundred if r.key == "nerve"), None)
    checks.append(check("100M: peak RSS <= 50 MB", rss and rss * 2**20 / 1e6, lambda x: x <= 50.0, " MB"))
    wnut = shared_data() / WNUT
    pass_tool = python_tool("floor", "python -c pass", "pass")
    small = run_tools(
        [pass_tool, nerve_tool(wnut)], wnut, None, args.repeats * 3, args.timeout, prefix="wnut-"
    )
    print("\n## WNUT-16 test (62k tokens)\n\n" + cpu_table(small, "nerve"))
    checks += both_checks("WNUT-16: nerve <= 3x python -c pass", small, "nerve", "floor", lambda x: x <= 3.0)
    print("\nTargets:\n" + targets_text(checks))
    results = [asdict(r) for r in (*one, *hundred, *small)]
    write_json(
        "bench-targets.json", {"mode": "targets", "machine": machine(), "results": results, "targets": checks}
    )
    return checks


def shared_data() -> Path:
    """The real corpora, ``../shared/data`` beside the repository."""
    return ROOT.parent / "shared" / "data"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time nerve score end to end against seqeval and conlleval.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--tokens", type=int, default=1_000_000, help="corpus size for the speed table")
    parser.add_argument("--seed", type=int, default=1, help="gen_corpus.py seed")
    parser.add_argument("--corpus", type=Path, help="time on this merged `token gold pred` file instead")
    parser.add_argument(
        "--repeats", "-r", type=int, default=3, help="runs per command; the median is reported"
    )
    parser.add_argument(
        "--tools",
        type=lambda s: s.split(","),
        default=["floor", "nerve", "seqeval", "conlleval"],
        help="comma-separated subset of floor,nerve,seqeval,conlleval",
    )
    parser.add_argument("--conlleval-pl", type=Path, help="also time this conlleval.pl (perl, reads stdin)")
    parser.add_argument(
        "--memory-check", action="store_true", help="time only nerve score at --memory-tokens sizes"
    )
    parser.add_argument(
        "--memory-tokens",
        type=int,
        nargs="+",
        default=[1_000_000, 10_000_000],
        help="corpus sizes for --memory-check, smallest first",
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per run")
    parser.add_argument(
        "--targets",
        action="store_true",
        help="the compiled engine's CoNLL targets (1M, 100M, WNUT-16, numpy)",
    )
    parser.add_argument(
        "--baseline", default="main", help="--targets: the git ref the numpy engine is timed against"
    )
    parser.add_argument(
        "--big-tokens", type=int, default=100_000_000, help="--targets: the big corpus's size"
    )
    parser.add_argument("--check", action="store_true", help="exit with status 1 unless every target passes")
    args = parser.parse_args(argv)
    unknown = set(args.tools) - {"floor", "nerve", "seqeval", "conlleval"}
    if unknown:
        parser.error(f"unknown --tools: {', '.join(sorted(unknown))}")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if not Path(GNU_TIME).exists():
        parser.error(f"{GNU_TIME} (GNU time) is required to measure peak RSS")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.targets:
        targets = targets_mode(args)
    else:
        targets = memory_mode(args) if args.memory_check else speed_mode(args)
    if args.check and any(t["result"] != "PASS" for t in targets):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
