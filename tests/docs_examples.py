"""The code examples of docs/ and README.md: find them, run them, and (``--update``) rewrite their outputs.

Conventions (CONTRIBUTING.md, "Documentation"):

- A ```` ```console ```` block (not indented) holds ``$ nerve ...`` lines, each followed by what
  the command prints (stdout, then stderr).
  Commands run in a scratch directory holding copies of ``docs/examples`` and
  ``examples``; a command must exit 0 unless its line ends with ``# exit N``.
- A ```` ```pycon ```` block is a doctest (``>>>`` lines and their output); the blocks of one page run in
  order in one namespace, in the same scratch directory.
- A ```` ```python ```` block is a script: it runs, and must not raise (it shows no output to compare).
  A ``# needs: module, ...`` line in it names the optional modules it needs.
- A block that imports torch, torchmetrics or lightning (the test-torch extra) needs them too. Without
  what it needs, a block is skipped (a page's other doctests still run), and fails under CI=true.
- Any other fenced block (``text``, ``json``, ``sh``, a snippet of an example file) is not run; ``sh``
  holds installation commands only, which tests/project/test_project.py and CI run.

``python tests/docs_examples.py --update`` reruns every console block and writes the outputs back.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(
    r"^(?P<indent>[ ]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ ]*$", re.M | re.S
)
EXIT = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, its text and where it starts."""

    path: Path
    lang: str
    body: str
    line: int
    span: tuple[int, int]  # character offsets of the body in the page

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        indent = len(m.group("indent"))
        body = "\n".join(line[indent:] for line in m.group("body").splitlines())
        line = text.count("\n", 0, m.start()) + 1
        found.append(Block(path, m.group("lang"), body, line, (m.start("body"), m.end("body"))))
    return found


def commands(block: Block) -> list[tuple[str, int, str]]:
    """The ``(command, expected exit status, expected output)`` of a console block."""
    out: list[tuple[str, int, str]] = []
    for chunk in re.split(r"^\$ ", block.body + "\n", flags=re.M)[1:]:
        command, _, shown = chunk.partition("\n")
        status = EXIT.search(command)
        out.append((EXIT.sub("", command), int(status.group(1)) if status else 0, shown))
    return out


def scratch(directory: Path) -> Path:
    """A working directory with copies of the example files."""
    for name in ("docs/examples", "examples"):
        shutil.copytree(ROOT / name, directory / name)
    return directory


def run_command(command: str) -> tuple[int, str]:
    """Run one ``nerve ...`` line in-process; its status and its stdout followed by its stderr."""
    from nerve.cli import main

    argv = shlex.split(command)
    if not argv or argv[0] != "nerve":
        raise ValueError(f"a console example runs nerve only: {command!r}")
    streams = [
        io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n", write_through=True) for _ in "ab"
    ]
    with contextlib.redirect_stdout(streams[0]), contextlib.redirect_stderr(streams[1]):
        status = main(argv[1:])
    out, err = (s.buffer.getvalue().decode("utf-8") for s in streams)  # type: ignore[attr-defined]
    if out and err and not out.endswith("\n"):
        out += "\n"
    return status, out + err


def render_console(block: Block) -> str:
    """The block's body with every command's output as it is now."""
    parts = []
    for command, expected, _ in commands(block):
        status, output = run_command(command)
        suffix = f"  # exit {status}" if status else ""
        parts.append(f"$ {command}{suffix}\n{output}")
        if status != expected:
            print(f"{block.where}: {command!r} exits {status}", file=sys.stderr)
    return "".join(parts).rstrip("\n")


def update(directory: Path) -> None:
    """Rerun every console block, each in a fresh copy of the examples, and write the outputs back."""
    import os

    here = Path.cwd()
    try:
        for path in pages():
            text = path.read_text(encoding="utf-8")
            for n, block in enumerate(reversed([b for b in blocks(path) if b.lang == "console"])):
                os.chdir(scratch(directory / f"{path.stem}-{n}"))
                start, end = block.span
                text = text[:start] + render_console(block) + "\n" + text[end:]
            path.write_text(text, encoding="utf-8")
    finally:
        os.chdir(here)


if __name__ == "__main__":
    import tempfile

    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/docs_examples.py --update")
    with tempfile.TemporaryDirectory() as tmp:
        update(Path(tmp))
