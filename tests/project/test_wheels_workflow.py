"""The wheels workflow (.github/workflows/wheels.yml) and cibuildwheel's options in pyproject.toml.

The workflow cannot run here, so its configuration is checked: it parses, its jobs build the sdist
and one cp310-abi3 wheel per platform (Linux x86_64 and aarch64 under QEMU, macOS x86_64 and arm64,
Windows AMD64), and cibuildwheel itself, asked for the build identifiers of each job, names exactly
those targets, each tested on every Python from 3.10 on by the test-command.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import peer

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"
# Each job of the matrix: cibuildwheel's platform, its arch, and the wheel's platform tag.
TARGETS = {
    ("linux", "x86_64"): "manylinux_x86_64",
    ("linux", "aarch64"): "manylinux_aarch64",
    ("macos", "x86_64"): "macosx_x86_64",
    ("macos", "arm64"): "macosx_arm64",
    ("windows", "AMD64"): "win_amd64",
}
PYTHONS = ["cp310", "cp311", "cp312", "cp313", "cp314"]
# GitHub's runner images that are gone: a job that asks for one fails.
RETIRED = {"macos-11", "macos-12", "macos-13", "ubuntu-18.04", "ubuntu-20.04", "windows-2019"}


def _workflow() -> dict[Any, Any]:
    yaml = peer("yaml")
    loaded = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _cibuildwheel() -> dict[str, Any]:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["cibuildwheel"]


def _steps(job: dict[str, Any]) -> str:
    """The job's steps as text: each step's uses, run and env, for the tests to search."""
    keys = ("uses", "run", "env", "with", "if")
    return "\n".join(str({k: step.get(k) for k in keys}) for step in job["steps"])


def test_the_workflow_parses_and_runs_on_tags_and_on_changes_to_the_build() -> None:
    workflow = _workflow()
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key `on` as true
    assert on["push"]["tags"] == ["v*"]
    assert {"csrc/**", "setup.py", "pyproject.toml"} <= set(on["pull_request"]["paths"])
    assert set(workflow["jobs"]) == {"wheels", "sdist"}


def test_the_wheel_jobs_name_every_target() -> None:
    job = _workflow()["jobs"]["wheels"]
    matrix = job["strategy"]["matrix"]["include"]
    assert {(m["os"], m["archs"]) for m in matrix} == set(TARGETS)
    assert len(matrix) == len(TARGETS)
    runners = {(m["os"], m["archs"]): m["runner"] for m in matrix}
    assert runners["macos", "x86_64"].endswith("-intel")  # GitHub's macOS images are arm64 otherwise
    assert runners["macos", "arm64"].startswith("macos-")
    assert runners["linux", "aarch64"].startswith("ubuntu-")  # QEMU on an x86_64 runner
    assert not set(runners.values()) & RETIRED
    steps = _steps(job)
    assert "docker/setup-qemu-action" in steps
    (qemu,) = [s for s in job["steps"] if "setup-qemu-action" in s.get("uses", "")]
    assert qemu["if"] == "matrix.archs == 'aarch64'"
    assert re.search(r"pip install cibuildwheel==\d+\.\d+\.\d+", steps)
    assert "python -m cibuildwheel --output-dir wheelhouse" in steps
    assert "${{ matrix.archs }}" in steps
    assert "${{ matrix.os }}" in steps
    assert "wheelhouse/*-cp310-abi3-*.whl" in steps  # one abi3 wheel, not one per Python
    assert "actions/upload-artifact" in steps


def test_the_sdist_job_builds_and_checks_the_sdist_and_a_wheel_from_it() -> None:
    steps = _steps(_workflow()["jobs"]["sdist"])
    assert "python -m build --sdist" in steps
    assert "twine check --strict" in steps
    assert "NERVE_REQUIRE_SPEEDUPS" in steps
    assert "wheel_smoke.py" in steps
    assert "actions/upload-artifact" in steps


def test_cibuildwheel_builds_cp310_for_the_stable_abi_and_tests_each_wheel() -> None:
    options = _cibuildwheel()
    assert options["build"] == [f"{python}-*" for python in PYTHONS]
    assert options["skip"] == ["*-musllinux_*"]
    oses = ("linux", "macos", "windows")
    archs = {(os_name, arch) for os_name in oses for arch in options[os_name]["archs"]}
    assert archs == set(TARGETS)
    smoke = "tests/project/wheel_smoke.py"
    assert options["test-command"] == f"python {{project}}/{smoke} {{project}}/examples/news.conll"
    assert (ROOT / smoke).is_file()
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert '"py_limited_api": "cp310"' in setup  # the wheel's tag: cp310-abi3
    assert 'os.environ.get("CIBUILDWHEEL") == "1"' in setup  # a failed build is an error there


@pytest.mark.slow
@pytest.mark.parametrize(("platform", "arch"), list(TARGETS), ids=[f"{p}-{a}" for p, a in TARGETS])
def test_cibuildwheel_prints_the_build_identifiers_of_each_job(platform: str, arch: str) -> None:
    """What the job of the matrix asks cibuildwheel for (CIBW_ARCHS), as cibuildwheel reads it."""
    peer("cibuildwheel")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}
    env["CIBW_ARCHS"] = arch
    proc = subprocess.run(
        [sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform", platform],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [f"{python}-{TARGETS[platform, arch]}" for python in PYTHONS]
