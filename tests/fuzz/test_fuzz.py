"""The fuzz targets of tests/fuzz/ (one per parser core of csrc/), and valgrind over the same harnesses.

Each target runs for its share of a minute under AddressSanitizer and UBSan (libFuzzer, clang), from
the corpus kept in tests/fuzz/corpus/ and the seeds its harness names; every harness also checks
properties of what the core returns (a block boundary changes nothing, counts stay within what was
read), so a finding is a crash, a sanitizer report, a leak or a broken property. The replay builds
(no sanitizer) then read the whole corpus under valgrind's memcheck. Both skip without their tool
and fail under CI=true, where .ci/run installs clang and valgrind. The long runs are made by hand:
``MERGE=1 tests/fuzz/run.sh NAME 1800`` (tests/fuzz/README.md).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import missing

HERE = Path(__file__).resolve().parent
TARGETS = sorted(p.stem.removeprefix("fuzz_") for p in HERE.glob("fuzz_*.c"))
SECONDS = 60  # in all, shared by the targets


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None or sys.platform != "linux":
        missing(name, "apt-get install clang valgrind (the fuzz targets are built on Linux)")
    return str(found)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _tool("clang")
    out = tmp_path_factory.mktemp("fuzz")
    env = {**os.environ, "PYTHON": sys.executable}
    proc = subprocess.run(["bash", str(HERE / "build.sh"), str(out)], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sorted(p.name for p in out.glob("fuzz_*")) == [f"fuzz_{t}" for t in TARGETS]
    return out


def test_each_harness_has_a_corpus_and_seeds() -> None:
    assert TARGETS, "no fuzz target"
    for target in TARGETS:
        seeds = re.search(r"^// seeds: (.+)$", (HERE / f"fuzz_{target}.c").read_text(encoding="utf-8"), re.M)
        assert seeds is not None, target
        corpus = HERE / "corpus" / target
        assert corpus.is_dir(), f"{corpus}: run MERGE=1 tests/fuzz/run.sh {target} SECONDS"
        inputs = list(corpus.iterdir())
        assert inputs, corpus
        assert sum(p.stat().st_size for p in inputs) < 2 << 20, f"{corpus}: minimise it (run.sh with MERGE=1)"


@pytest.mark.slow
@pytest.mark.parametrize("target", TARGETS)
def test_the_fuzz_target_finds_nothing_in_its_share_of_a_minute(built: Path, target: str) -> None:
    seconds = max(5, SECONDS // len(TARGETS))
    env = {**os.environ, "FUZZ_OUT": str(built)}
    env.pop("MERGE", None)
    proc = subprocess.run(
        ["bash", str(HERE / "run.sh"), target, str(seconds)], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, f"fuzz_{target} found something:\n{proc.stderr[-6000:]}"
    runs = re.search(r"stat::number_of_executed_units: (\d+)", proc.stderr)
    assert runs is not None, proc.stderr[-3000:]
    assert int(runs.group(1)) > len(list((HERE / "corpus" / target).iterdir())), "it only replayed its corpus"


@pytest.mark.slow
def test_valgrind_memcheck_is_clean_over_every_corpus(built: Path) -> None:
    _tool("valgrind")
    command = ["bash", str(HERE / "valgrind.sh"), "replay", str(built)]
    proc = subprocess.run(command, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]
    for target in TARGETS:
        assert f"== {target}: " in proc.stdout
