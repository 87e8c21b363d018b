"""The examples of the documentation site and the README run and show their output.

The site's build is tests/project/test_docs_site.py. The conventions are in tests/docs_examples.py;
``python tests/docs_examples.py --update`` rewrites the console outputs after a change of behaviour.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path

import pytest

from conftest import need
from docs_examples import ROOT, Block, blocks, commands, pages, run_command, scratch

RUN = {"console", "pycon", "python"}
SHOWN = {"", "text", "json", "sh", "conll", "tsv", "yaml", "toml", "ini"}


def all_blocks() -> list[Block]:
    return [b for path in pages() for b in blocks(path)]


# Imports of the test-torch extra, which a block needs without saying so in a ``# needs:`` line.
TORCH_FAMILY = re.compile(r"^(?:>>> )?(?:import|from) .*?\b(torch|torchmetrics|lightning)\b", re.M)


def needs(block: Block) -> set[str]:
    """The optional modules a block needs: its ``# needs:`` lines', and the torch family it imports."""
    declared = {
        module.strip()
        for line in block.body.splitlines()
        if line.startswith("# needs: ")
        for module in line.removeprefix("# needs: ").split(",")
    }
    return declared | set(TORCH_FAMILY.findall(block.body))


def installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(scratch(tmp_path / "work"))
    return tmp_path / "work"


def test_every_block_is_run_or_plain_text() -> None:
    """A block is a console session, a doctest or a script, all run below; the rest show files or data."""
    found = all_blocks()
    assert sum(b.lang in RUN for b in found) >= 40
    for block in found:
        assert block.lang in RUN | SHOWN, f"{block.where}: unknown block language {block.lang!r}"
        if block.lang == "python":
            assert ">>>" not in block.body, f"{block.where}: a doctest goes in a pycon block"
        if block.lang in SHOWN:
            assert not block.body.lstrip().startswith((">>>", "$ nerve")), f"{block.where}: not run"


def test_every_format_and_peer_has_a_page() -> None:
    from nerve.io.spans import SPAN_FORMATS

    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "formats").glob("*.md"))
    for fmt in SPAN_FORMATS:
        assert f"--format {fmt}" in text or f"`{fmt}`" in text, fmt
    peers = {p.stem for p in (ROOT / "docs" / "coming-from").glob("*.md")}
    assert peers == {
        "conlleval",
        "seqeval",
        "seqscore",
        "nervaluate",
        "eval4ner",
        "nereval",
        "ie-eval",
        "paddle",
    }


CONSOLE = [b for b in all_blocks() if b.lang == "console"]


@pytest.mark.parametrize("block", CONSOLE, ids=[b.where for b in CONSOLE])
def test_console_example(block: Block, workdir: Path) -> None:
    session = commands(block)
    assert session, f"{block.where}: a console block without a $ command"
    for command, status, shown in session:
        got_status, output = run_command(command)
        assert got_status == status, f"{block.where}: {command!r} exits {got_status}\n{output}"
        assert output.rstrip("\n") == shown.rstrip("\n"), f"{block.where}: {command!r} prints\n{output}"


def doctest_pages() -> list[Path]:
    return [p for p in pages() if any(b.lang == "pycon" for b in blocks(p))]


@pytest.mark.parametrize("page", doctest_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pycon_examples(page: Path, workdir: Path) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict[str, object] = {"__name__": "__docs__"}
    left_out: set[str] = set()
    for block in (b for b in blocks(page) if b.lang == "pycon"):
        absent = {m for m in needs(block) if not installed(m)}
        if absent:  # skipped, after the other blocks have run
            left_out |= absent
            continue
        test = parser.get_doctest(block.body, globs, block.where, str(page), block.line)
        runner.run(test, clear_globs=False)
        globs = test.globs  # DocTest copies its globals: the next block continues from these
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 0
    assert failed == 0, f"{failed} of {attempted} examples failed in {page.relative_to(ROOT)}"
    for module in sorted(left_out):
        need(module)  # the blocks that need it were not run: skipped, or failed under CI=true


SCRIPTS = [b for b in all_blocks() if b.lang == "python"]


SLOW = pytest.mark.slow  # Lightning's Trainer takes seconds to start


@pytest.mark.parametrize(
    "block",
    [pytest.param(b, marks=SLOW) if "lightning" in needs(b) else b for b in SCRIPTS],
    ids=[b.where for b in SCRIPTS],
)
def test_python_example(block: Block, workdir: Path) -> None:
    for module in sorted(needs(block)):
        need(module)
    exec(compile(block.body, block.where, "exec"), {"__name__": "__docs__"})


def test_the_torch_examples_say_what_they_need() -> None:
    """The examples that import torch are found, so that they skip (or fail under CI=true) without it."""
    found = {b.where: needs(b) for b in all_blocks() if b.lang in RUN and "torch" in b.body}
    assert {where.split(":")[0] for where in found} >= {"docs/metrics/streaming.md", "docs/training.md"}
    assert all({"torch"} <= n or {"torchmetrics"} <= n for n in found.values()), found
    assert any(n >= {"lightning", "torch", "torchmetrics"} for n in found.values()), found


def test_getting_started_has_the_readme_quickstart() -> None:
    """The two commands of the site's first page are the README's, which CI runs."""
    readme = [b.body for b in blocks(ROOT / "README.md") if b.lang == "sh"][:2]
    index = [b.body for b in blocks(ROOT / "docs" / "index.md") if b.lang == "sh"]
    assert index == readme
