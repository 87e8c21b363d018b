"""The commands hand each verb the keywords of its own signature, read from the command line by name."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable
from typing import Any

import pytest

from nerve.api import compare, score_text
from nerve.api.convert import convert
from nerve.api.report import write_report
from nerve.cli import convert as convert_cli
from nerve.cli import report as report_cli
from nerve.cli import text as text_cli
from nerve.cli.compare import add_parser as add_compare
from nerve.cli.options import keywords_of


def _namespace(add: Callable[[Any], None], args: list[str]) -> argparse.Namespace:
    sub = argparse.ArgumentParser(prog="nerve").add_subparsers(dest="command")
    add(sub)
    return sub.choices[args[0]].parse_args(args[1:])


def _keyword_only(verb: Callable[..., Any]) -> set[str]:
    found = inspect.signature(verb).parameters.values()
    return {p.name for p in found if p.kind is inspect.Parameter.KEYWORD_ONLY}


@pytest.mark.parametrize(
    ("add", "args", "verb", "left"),
    [
        (convert_cli.add_parser, ["convert", "in.conll", "out.jsonl", "--to", "jsonl"], convert, set()),
        (text_cli.add_parsers, ["ie-all", "-l", "g", "-p", "p"], score_text, {"metrics", "directories"}),
        (add_compare, ["compare", "g", "a", "b"], compare, set()),
        (report_cli.add_parser, ["report", "g", "p", "-o", "r.html"], write_report, {"names"}),
    ],
)
def test_the_command_line_holds_every_keyword_of_the_verb(
    add: Callable[[Any], None], args: list[str], verb: Callable[..., Any], left: set[str]
) -> None:
    """Each keyword of the verb is an option of its command by the same name (``left``: set apart)."""
    ns = _namespace(add, args)
    given = keywords_of(verb, ns, progress=None)
    assert set(given) == _keyword_only(verb) - left
    assert all(given[name] == getattr(ns, name) for name in given if name != "progress")
    assert keywords_of(verb, ns, progress=print)["progress"] is print  # what the command gives wins
