"""The ``nerve`` console script keeps the cyclic collector off start-up's objects; `main` leaves it alone.

`nerve.cli.console` turns the collector off for the imports and the parsing, freezes what they made
(`gc.freeze`) and turns it back on for the run, then freezes the run's objects for the exit (issue
27: 8 ms of a 48 ms ``nerve score``). In process, `nerve.cli.main` must not touch the collector:
tests and notebooks call it many times, and a freeze there would keep their garbage for good.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from nerve.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "news.conll"

PROBE = """
import gc, json, sys
import nerve.cli as cli
seen = {}
real_run = cli._run
def run(args, *, console):
    seen["parse_off"] = not gc.isenabled()
    return real_run(args, console=console)
cli._run = run
import nerve.cli.score as score
real = score.run
def scored(ns):
    seen["run_on"] = gc.isenabled()
    seen["frozen_before_run"] = gc.get_freeze_count()
    return real(ns)
score.run = scored
sys.argv = ["nerve", "score", sys.argv[1], "--output", "json"]
status = cli.console()
seen.update(status=status, on_after=gc.isenabled(), frozen_after=gc.get_freeze_count())
print(json.dumps(seen), file=sys.stderr)
"""


def test_console_freezes_start_up_and_runs_with_the_collector_on() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(EXAMPLE)], capture_output=True, text=True, check=False
    )
    seen = json.loads(proc.stderr.strip().splitlines()[-1])
    assert json.loads(proc.stdout)["exact"]["micro"]["f1"] > 0  # the run itself is unchanged
    assert seen["status"] == 0
    assert seen["parse_off"] is True  # off while the command line is parsed
    assert seen["run_on"] is True  # on for the run: its garbage is collected as ever
    assert seen["frozen_before_run"] > 1000  # start-up's objects, frozen before the run
    assert seen["frozen_after"] > seen["frozen_before_run"]  # the run's, for the exit
    assert seen["on_after"] is True


def test_main_in_process_leaves_the_collector_alone(capsys: object) -> None:
    before = (gc.isenabled(), gc.get_freeze_count())
    assert main(["score", str(EXAMPLE), "--output", "json"]) == 0
    assert (gc.isenabled(), gc.get_freeze_count()) == before


def test_python_m_nerve_runs_the_console() -> None:
    source = (Path(__file__).resolve().parents[2] / "src" / "nerve" / "__main__.py").read_text(
        encoding="utf-8"
    )
    assert "sys.exit(console())" in source
    proc = subprocess.run(
        [sys.executable, "-m", "nerve", "score", str(EXAMPLE)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
