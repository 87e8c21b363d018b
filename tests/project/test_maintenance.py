"""Maintenance habits: the pre-commit hooks, the changelog's form and the deprecation policy.

Every old module path in `nerve._deprecated.MOVED` is imported in tests/project/test_layout.py, which checks
that it warns and hands out its replacement; the tests here make sure nothing is deprecated past
that test, that the changelog lists each deprecation, and that a removal waits one minor release.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import peer, typed_modules_installed
from nerve._deprecated import MOVED, MOVED_NAMES

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

# --- pre-commit ------------------------------------------------------------------------------


def _hooks() -> list[dict[str, object]]:
    yaml = peer("yaml")
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert [repo["repo"] for repo in config["repos"]] == ["local"], "hooks must run offline"
    return [hook for repo in config["repos"] for hook in repo["hooks"]]


def test_hooks_are_ruff_check_ruff_format_and_mypy_from_this_environment() -> None:
    hooks = _hooks()
    assert [str(h["entry"]) for h in hooks] == ["ruff check", "ruff format --check", "mypy"]
    for hook in hooks:
        assert hook["language"] == "system", hook["id"]
        command = str(hook["entry"]).split()[0]
        assert shutil.which(command, path=str(BIN)) is not None, f"{command} is not in {BIN}"
    (mypy,) = [h for h in hooks if h["id"] == "mypy"]
    assert mypy["pass_filenames"] is False, "mypy must check src with pyproject's settings, not file by file"


@pytest.mark.slow
def test_pre_commit_runs_every_hook_clean(tmp_path: Path) -> None:
    peer("pre_commit")
    typed_modules_installed()  # one of the hooks is mypy
    inside = subprocess.run(
        ["git", "rev-parse", "--is-inside-work-tree"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if inside.stdout.strip() != "true":
        pytest.skip("not a git checkout (an unpacked sdist): pre-commit runs on tracked files")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env["PRE_COMMIT_HOME"] = str(tmp_path)  # nothing is written to the user's cache
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--show-diff-on-failure"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("Passed") == len(_hooks()), proc.stdout


# --- the changelog ---------------------------------------------------------------------------

KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
RELEASE = re.compile(r"\[(\d+)\.(\d+)\.(\d+)\] - \d{4}-\d{2}-\d{2}")


def changelog_sections(text: str) -> list[tuple[str, dict[str, list[str]]]]:
    """The changelog's releases, newest first, each with its kinds of change and their items.

    Raises AssertionError where the text leaves Keep a Changelog's form.
    """
    assert text.startswith("# Changelog\n"), "the first line is '# Changelog'"
    assert "keepachangelog.com" in text.split("\n## ", 1)[0], "the preamble names Keep a Changelog"
    out: list[tuple[str, dict[str, list[str]]]] = []
    for block in text.split("\n## ")[1:]:
        title, _, body = block.partition("\n")
        assert title == "[Unreleased]" or RELEASE.fullmatch(title), f"bad release heading: {title}"
        kinds: dict[str, list[str]] = {}
        for part in ("\n" + body).split("\n### ")[1:]:
            kind, _, items = part.partition("\n")
            assert kind in KINDS, f"{title}: {kind} is not one of {KINDS}"
            assert kind not in kinds, f"{title}: {kind} twice"
            kinds[kind] = re.findall(r"^- `([^`]+)`", items, flags=re.M)
        out.append((title, kinds))
    assert out, "no release section"
    assert out[0][0] == "[Unreleased]", "the newest section is [Unreleased]"
    assert [t for t, _ in out].count("[Unreleased]") == 1
    return out


def early_removals(sections: list[tuple[str, dict[str, list[str]]]]) -> list[str]:
    """Names removed in a release without having been deprecated in an older minor release."""
    problems = []
    for i, (title, kinds) in enumerate(sections):
        version = RELEASE.fullmatch(title)
        minor = (int(version.group(1)), int(version.group(2))) if version else (10**9, 0)
        for name in kinds.get("Removed", []):
            earlier = [
                (int(m.group(1)), int(m.group(2)))
                for t, k in sections[i + 1 :]
                if name in k.get("Deprecated", []) and (m := RELEASE.fullmatch(t))
            ]
            if not any(m < minor for m in earlier):
                problems.append(f"{title}: {name} removed without a minor release of deprecation")
    return problems


def _changelog() -> list[tuple[str, dict[str, list[str]]]]:
    return changelog_sections((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))


def test_the_changelog_keeps_a_changelog_and_removes_nothing_early() -> None:
    assert early_removals(_changelog()) == []


def test_the_changelog_lists_every_deprecated_module_path() -> None:
    deprecated = {name for _, kinds in _changelog() for name in kinds.get("Deprecated", [])}
    assert set(MOVED) <= deprecated
    removed = {name for _, kinds in _changelog() for name in kinds.get("Removed", [])}
    assert not set(MOVED) & removed, "a removed path is still in MOVED"


def test_the_changelog_lists_every_deprecated_name() -> None:
    deprecated = {name for _, kinds in _changelog() for name in kinds.get("Deprecated", [])}
    names = {f"{module}.{name}" for module, moved in MOVED_NAMES.items() for name in moved}
    assert names - deprecated == set()


PREAMBLE = "# Changelog\nAfter [Keep a Changelog](https://keepachangelog.com/en/1.1.0/).\n"


@pytest.mark.parametrize(
    ("releases", "problems"),
    [
        (
            "## [0.2.0] - 2027-01-01\n### Removed\n- `nerve.old`\n\n"
            "## [0.1.0] - 2026-12-01\n### Deprecated\n- `nerve.old`: use `nerve.new`\n",
            [],
        ),
        (
            "## [0.2.0] - 2027-01-01\n### Removed\n- `nerve.old`\n",
            ["[0.2.0] - 2027-01-01: nerve.old removed"],
        ),
        (
            "## [0.1.1] - 2027-01-01\n### Removed\n- `nerve.old`\n\n"
            "## [0.1.0] - 2026-12-01\n### Deprecated\n- `nerve.old`\n",
            ["[0.1.1] - 2027-01-01: nerve.old removed"],
        ),
        (
            "## [0.2.0] - 2027-01-01\n### Removed\n- `nerve.old`\n### Deprecated\n- `nerve.old`\n",
            ["[0.2.0] - 2027-01-01: nerve.old removed"],
        ),
    ],
    ids=["after-a-minor", "never-deprecated", "only-a-patch-later", "same-release"],
)
def test_early_removals_are_found(releases: str, problems: list[str]) -> None:
    found = early_removals(changelog_sections(PREAMBLE + "\n## [Unreleased]\n\n" + releases))
    assert [p.split(" without")[0] for p in found] == problems


@pytest.mark.parametrize(
    "text",
    [
        "# Changes\n",
        PREAMBLE + "\n## [0.1.0]\n",  # no date
        PREAMBLE + "\n## [0.1.0] - 2026-12-01\n",  # no [Unreleased] on top
        PREAMBLE + "\n## [Unreleased]\n### Improved\n- `x`\n",
    ],
    ids=["title", "undated-release", "no-unreleased", "unknown-kind"],
)
def test_changelog_form_errors_are_caught(text: str) -> None:
    with pytest.raises(AssertionError):
        changelog_sections(text)


# --- the deprecation policy ------------------------------------------------------------------


def test_nothing_is_deprecated_outside_the_registry() -> None:
    """Every deprecation goes through nerve._deprecated, whose entries test_layout.py imports."""
    found = []
    for path in sorted((ROOT / "src" / "nerve").rglob("*.py")):
        if path.name == "_deprecated.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name) and node.id in ("DeprecationWarning", "PendingDeprecationWarning"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == [], "deprecate through nerve._deprecated (and its test) instead"


def test_contributing_states_the_deprecation_policy() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Deprecation policy\n", 1)[1].split("\n## ", 1)[0]
    assert "one minor release" in section
    assert "_deprecated" in section
    assert "CHANGELOG.md" in section
