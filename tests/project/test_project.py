"""Project hygiene: the README's commands, the public API, lint and types."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nerve
from conftest import typed_modules_installed
from nerve import _engine

ROOT = Path(__file__).resolve().parents[2]


def quickstart() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, flags=re.S)


def test_quickstart_has_exactly_two_commands() -> None:
    commands = quickstart()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    assert "nerve score examples/" in commands[0]
    assert "[test]" in commands[1]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command_with_the_torch_extra() -> None:
    """CI runs the README's test command with test-torch beside test, and the README says so."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quickstart()[1].replace("'.[test]'", "'.[test,test-torch]'") in ci.splitlines()
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Quickstart", 1)[1].split("\n#", 1)[0]
    said = " ".join(section.split())
    assert "CI (`.ci/run`) runs this command with `'.[test,test-torch]'` in place of `'.[test]'`" in said
    assert 'python -m pytest -m "not slow"' in said
    assert "about 9 minutes on 2 cores" in said


def extra(name: str) -> list[str]:
    """The requirements of one extra of pyproject.toml (tomllib is not on Python 3.10)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(rf"^{re.escape(name)} = \[(.*?)\]$", text, flags=re.M | re.S)
    assert found is not None, name
    return re.findall(r'"([^"]+)"', re.sub(r"#.*", "", found.group(1)))


def test_the_test_extra_leaves_torch_to_test_torch() -> None:
    """PyPI's torch is the CUDA build, gigabytes: the quickstart's test extra must not pull it in."""
    heavy = ("torch", "torchmetrics", "lightning", "pytorch-lightning", "transformers")
    names = [re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0] for r in extra("test")]
    assert not set(names) & set(heavy), names
    assert extra("test-torch") == ["nerve[torch]", "lightning>=2.0", "transformers>=4.40"]
    assert extra("torch") == ["torch>=2.1", "torchmetrics>=1.0"]


def test_example_in_readme_output_is_current() -> None:
    """The README shows real output of the first quickstart command."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = text.split("$ nerve score examples/news.conll\n", 1)[1].split("```", 1)[0]
    result = nerve.score(ROOT / "examples" / "news.conll")
    assert shown == nerve.render(result, "table")


def test_readme_is_a_landing_page_whose_links_resolve() -> None:
    """The README stays short (the docs hold the rest), and each of its relative links names a file."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if "://" not in link]
    assert sum(link.startswith("docs/") for link in local) >= 10
    for link in local:
        assert (ROOT / link).is_file(), link
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for link in local:
        if link.startswith("docs/"):
            assert link.removeprefix("docs/") in nav, f"{link} is not in the site's nav"


def test_all_names_resolve() -> None:
    for name in nerve.__all__:
        assert hasattr(nerve, name), name
    namespace: dict[str, object] = {}
    exec("from nerve import *", namespace)
    assert set(nerve.__all__) <= set(namespace)


def test_console_script_runs() -> None:
    exe = shutil.which("nerve")
    assert exe is not None, "the nerve console script is not installed"
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"nerve {nerve.__version__} (speedups: {_engine.engine()})"


def _tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    "args",
    [
        ("ruff", "check", "src", "tests", "bench"),
        ("ruff", "format", "--check", "."),  # Markdown examples too
        pytest.param(("mypy",), marks=pytest.mark.slow),  # tens of seconds without its cache
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_lint_and_types(args: tuple[str, ...]) -> None:
    if args == ("mypy",):
        typed_modules_installed()
    proc = _tool(*args)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_license_file_matches_the_declared_license() -> None:
    declared = re.search(r'^license = "(.*)"$', (ROOT / "pyproject.toml").read_text(), flags=re.M)
    assert declared is not None
    assert declared.group(1) == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


def test_every_pin_on_a_peer_that_needs_a_newer_python_has_a_marker() -> None:
    """The README names Python 3.10: a pin whose release needs 3.11 must carry a marker."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for name in ("nervaluate==1.2.1", "ie-eval==0.2.0"):
        lines = [line for line in text.splitlines() if name in line]
        assert lines, name
        assert all("python_version >= '3.11'" in line for line in lines), lines


def test_not_slow_leaves_out_the_tests_marked_slow() -> None:
    """``-m "not slow"`` (the README's fast subset) drops the tests marked slow, by hand or by fixture."""
    files = [
        "tests/project/test_release.py",
        "tests/project/test_docs_site.py",
        "tests/project/test_maintenance.py",
    ]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "not slow",
            *files,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    kept = [line.split("::")[0:2] for line in proc.stdout.splitlines() if "::" in line]
    assert kept, proc.stdout + proc.stderr
    assert "tests/project/test_release.py" not in {
        f for f, _ in kept
    }  # every test there uses the built archives
    names = {name.split("[")[0] for _, name in kept}
    assert "test_the_changelog_keeps_a_changelog_and_removes_nothing_early" in names
    assert "test_the_hook_writes_mathml_and_refuses_what_it_cannot_convert" in names  # builds no site
    assert not names & {"test_pre_commit_runs_every_hook_clean", "test_mkdocs_build_strict"}
