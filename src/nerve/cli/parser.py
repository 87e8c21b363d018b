"""The argument parser of every ``nerve`` command: argparse's, with its help as wide as the terminal.

argparse finds the terminal's width through `shutil.get_terminal_size`, and so imports `shutil`
(with `fnmatch` and the compression modules: about 2 ms of every start-up) as soon as a parser
takes its first argument. `Help` finds the same width with `os` alone.
"""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: ``nerve --version`` stays cheap
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Help", "Parser", "terminal_width"]


def terminal_width() -> int:
    """The terminal's width, as `shutil.get_terminal_size().columns` gives it (80 when there is none)."""
    try:
        width = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        width = 0
    if width <= 0:
        try:
            width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            width = 0
    return width or 80


class Help(argparse.HelpFormatter):
    """argparse's help layout, two columns narrower than the terminal, as argparse makes it."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        if kwargs.get("width") is None:
            kwargs["width"] = terminal_width() - 2
        super().__init__(prog, **kwargs)


class Parser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` whose help is laid out by `Help`; its subcommands' parsers are too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Help)
        super().__init__(*args, **kwargs)
