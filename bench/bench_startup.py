"""Start-up cost of the ``nerve`` command: CPU and wall time, and the modules each command imports.

Every row is a whole process, run as the installed ``nerve`` script runs (``from nerve.cli import
main``), with its bytecode cached (``PYTHONDONTWRITEBYTECODE`` is dropped). ``python -c pass`` is
the floor row; ``+cpu`` is a row's median CPU time (user + system, of
the child, from ``os.wait4``) above the floor's. The rows run round robin, ``--repeats`` times each,
after one untimed warm-up run each (which writes the bytecode caches), so that the other processes
of a shared machine slow every row alike. A second pass runs each command once more to list the
nerve modules it imported and whether numpy was among them.

Usage::

    python bench/bench_startup.py                 # table on stdout
    python bench/bench_startup.py --repeats 40    # steadier medians
    python bench/bench_startup.py --check         # exit 1 unless every target below holds
    python bench/bench_startup.py --compare OLD/src   # also each command on another source tree

Targets (issue 27): ``nerve --version`` and ``nerve score --help`` at most 30 ms of CPU above the
floor; ``nerve --version``, ``nerve score --help`` and, on the compiled engine, plain ``nerve score
FILE`` import no numpy.

The row ``compiled road (stub reader)`` runs plain ``nerve score`` through `nerve.compiled` with a
stub in place of the compiled CoNLL reader (it returns fixed totals): the cost of everything on
that road but the reading, until the compiled reader is built.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEWS = str(ROOT / "examples" / "news.conll")
TARGET_CPU_MS = 30.0  # above the floor, for --version and score --help
RUN = "import sys; from nerve.cli import main; sys.exit(main())"  # what the console script does
# Run the command, then print the nerve modules it imported (and numpy's presence) as one JSON line.
COUNT = (
    "import atexit, json, os, sys\n"
    "def _count():\n"
    "    names = sorted(m for m in sys.modules if m.split('.')[0] == 'nerve')\n"
    "    line = json.dumps({'nerve': names, 'all': len(sys.modules), 'numpy': 'numpy' in sys.modules})\n"
    "    os.write(2, ('\\nMODULES ' + line + '\\n').encode())\n"
    "atexit.register(_count)\n"
)


# The compiled engine's road with a stub reader: fixed totals, as if nerve._speedups had read them.
STUB = (
    "import dataclasses\n"
    "from nerve import compiled\n"
    "from nerve.io import formats\n"
    "from nerve.model.counts import Counts, ExactTotals, RepairStats, TokenStats\n"
    "from nerve.model.schemes import SCHEMES, TagFormat\n"
    "from nerve.model.vocab import TagVocab\n"
    "def _read(gold, pred, plan):\n"
    "    counts = {'PER': Counts(3, 1, 2), 'LOC': Counts(2, 2, 2)}\n"
    "    totals = ExactTotals(counts, TokenStats(48, 41), RepairStats('begin'), SCHEMES['IOB2'], 4, 2)\n"
    "    return totals, TagVocab(TagFormat('prefix', '-', 'O')), {}\n"
    "_at = [f.name for f in formats.FORMATS].index('conll')\n"
    "_r = formats.FORMATS[_at]  # a dataclass in trees before Format.replace (--compare)\n"
    "_new = getattr(_r, 'replace', None) or (lambda **kw: dataclasses.replace(_r, **kw))\n"
    "_r = _new(accelerated=_read)\n"
    "formats.FORMATS[_at] = _r\n"
    "compiled.speedups = lambda: compiled\n"
)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Row:
    """One command: its arguments (after ``python``), its environment, and what was measured."""

    name: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)
    total_modules: int = 0
    numpy: bool = False


def rows(engines: bool, compare: str | None) -> list[Row]:
    """The floor, then the commands; with ``engines``, plain score on each engine.

    ``compare``: a source tree (another checkout's ``src``) whose commands run too, row by row.
    """
    out = [
        Row("python -c pass", ["-c", "pass"]),
        Row("nerve --version", ["-c", RUN, "--version"]),
        Row("nerve score --help", ["-c", RUN, "score", "--help"]),
        Row("nerve score news.conll (numpy)", ["-c", RUN, "score", NEWS], {"NERVE_NO_SPEEDUPS": "1"}),
    ]
    if engines:
        out.append(Row("nerve score news.conll (default engine)", ["-c", RUN, "score", NEWS]))
    out.append(Row("nerve score news.conll (compiled road, stub reader)", ["-c", STUB + RUN, "score", NEWS]))
    if compare is None:
        return out
    paired = [out[0]]
    for row in out[1:]:
        if "stub" in row.name:
            paired.append(row)  # the other tree may have no compiled road
            continue
        path = os.pathsep.join([compare, os.environ.get("PYTHONPATH", "")])
        other = Row(f"{row.name} [{compare}]", row.args, {**row.env, "PYTHONPATH": path})
        paired += [other, row]
    return paired


def once(row: Row) -> tuple[float, float]:
    """Run ``row`` once: its CPU time (user + system) and wall time, in seconds."""
    env = {**ENV, **row.env}
    start = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, *row.args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as proc:
        err = proc.stderr.read() if proc.stderr else b""
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{row.name} failed ({proc.returncode}): {err.decode(errors='replace')[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall


def count(row: Row) -> None:
    """Run ``row`` once more, noting the nerve modules it imported and whether numpy was one."""
    args = [COUNT + a if a in (RUN, "pass", STUB + RUN) else a for a in row.args]
    env = {**ENV, **row.env}
    proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, check=False)
    for line in proc.stderr.decode().splitlines():
        if line.startswith("MODULES "):
            found = json.loads(line[len("MODULES ") :])
            row.modules, row.total_modules, row.numpy = found["nerve"], found["all"], found["numpy"]


def table(measured: list[Row]) -> tuple[str, bool]:
    """The Markdown table, and whether every target holds."""
    floor = statistics.median(measured[0].cpu)
    ok = True
    lines = [
        "| command | CPU ms (median) | +CPU ms over floor | wall ms (median) | nerve modules | all modules "
        "| numpy | target |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for row in measured:
        cpu = statistics.median(row.cpu)
        above = (cpu - floor) * 1000
        target = ""
        if row.name in ("nerve --version", "nerve score --help"):
            met = above <= TARGET_CPU_MS and not row.numpy
            target = f"≤ {TARGET_CPU_MS:.0f} ms, no numpy: {'met' if met else 'MISSED'}"
            ok = ok and met
        lines.append(
            f"| `{row.name}` | {cpu * 1000:.1f} | {above:+.1f} | {statistics.median(row.wall) * 1000:.1f} "
            f"| {len(row.modules)} | {row.total_modules} | {'yes' if row.numpy else 'no'} | {target} |"
        )
    return "\n".join(lines), ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=20, help="runs of each command (default: 20)")
    parser.add_argument("--check", action="store_true", help="exit 1 unless every target holds")
    parser.add_argument("--compare", metavar="SRC", help="also run each command on this source tree")
    parser.add_argument("--list", action="store_true", help="also list each command's nerve modules")
    ns = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from nerve._engine import engine

    measured = rows(engine() == "C", ns.compare)
    for row in measured:
        once(row)  # warm-up: bytecode caches, page cache
        count(row)
    for _ in range(ns.repeats):
        for row in measured:
            cpu, wall = once(row)
            row.cpu.append(cpu)
            row.wall.append(wall)
    text, ok = table(measured)
    print(f"{ns.repeats} runs of each row, round robin; Python {sys.version.split()[0]}; engine {engine()}\n")
    print(text)
    if ns.list:
        for row in measured[1:]:
            print(f"\n{row.name}: {' '.join(row.modules)}")
    return 1 if ns.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
