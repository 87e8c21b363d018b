"""Each subcommand's ``--help`` lists its flags under headings that say what they are for.

The table below is the record of every flag each subcommand had before the options were grouped
(its parser's option strings), placed under the heading it belongs to. A flag that moves, appears
or disappears fails here: grouping the help changes no flag. ``conlleval`` is left out: it parses
conlleval.pl's own four flags itself, and its help is conlleval.pl's.
"""

from __future__ import annotations

import argparse
import importlib
import re

import pytest

from nerve.cli import COMMANDS, main

INPUT = "input and format"
SCHEME = "scheme and repair"
READING = ("--comments", "--delimiter", "--encoding", "--ignore-tokens")
TAGS = ("--scheme", "--tag-format", "--outside", "--repair")
LABELS = ("--map", "--types", "--ignore-types")
SIDES = ("--gold-scheme", "--pred-scheme")
STATISTICS = ("--bootstrap", "--seed", "--confidence", "--unit")
SPANS = ("--offsets", "--column", "--misc-key", "--spans-key", "--tag-column", "--label-names")
OUTPUTS = ("--gold-format", "--pred-format", "--min-score", "--locate", "--normalize")
TEXT_INPUT = ("--label-dir", "-l", "--prediction-dir", "-p", "--pattern", "--documents")
TEXT = {
    INPUT: TEXT_INPUT,
    SCHEME: ("--scheme", "--repair"),
    "output": ("--output", "-o", "--by-category", "-c"),
}
NERVAL = {**TEXT, "metrics": ("--threshold", "-t", "--nerval-threshold")}
# The headings, in the order every subcommand's help shows those it has.
ORDER = (INPUT, SCHEME, "labels", "metrics", "analysis", "statistics", "output", "scale")

HELP: dict[str, dict[str, tuple[str, ...]]] = {
    "score": {
        INPUT: (
            "--format",
            *READING,
            "--pattern",
            *SPANS,
            "--lenient",
            *OUTPUTS,
            "--subwords",
            "--gold-annotator",
            "--pred-annotator",
            "--flatten",
        ),
        SCHEME: (*TAGS, *SIDES),
        "labels": LABELS,
        "metrics": (
            "--metrics",
            "--beta",
            "--document-average",
            "--matching",
            "--min-iou",
            "--min-gold-share",
            "--sweep",
        ),
        "analysis": (
            "--errors",
            "--confusion",
            "--instances",
            "--instances-format",
            "--instance-category",
            "--instance-type",
            "--per-category",
            "--sort",
            "--context",
            "--slices",
            "--train",
            "--meta",
        ),
        "statistics": STATISTICS,
        "output": ("--output", "-o"),
        "scale": ("--dask",),
    },
    "compare": {
        INPUT: ("--format", *READING, *OUTPUTS, "--offsets", "--lenient"),
        SCHEME: (*TAGS, *SIDES),
        "labels": LABELS,
        "statistics": STATISTICS,
        "output": ("--output", "-o"),
    },
    "report": {
        INPUT: ("--format", *READING, "--agree", "--annotators", *OUTPUTS, "--offsets", "--lenient"),
        SCHEME: (*TAGS, *SIDES),
        "labels": LABELS,
        "analysis": ("--max-instances", "--slices", "--train", "--meta", "--sweep"),
        "statistics": STATISTICS,
        "output": ("--output", "-o", "--force", "--title"),
    },
    "validate": {
        INPUT: ("--format", *READING, "--merged", *SPANS),
        SCHEME: ("--scheme", "--tag-format", "--outside"),
    },
    "convert": {
        INPUT: ("--format", "--side", "--offsets"),
        SCHEME: ("--from-scheme", "--tag-format", "--outside"),
        "output": ("--to", "--scheme", "--flatten", "--force", "--report"),
    },
    "agree": {
        INPUT: ("--annotators", "--format", "--offsets"),
        SCHEME: ("--scheme", "--tag-format", "--outside"),
        "analysis": ("--instance-category", "--instance-type", "--per-category", "--sort", "--context"),
        "statistics": ("--bootstrap", "--seed", "--confidence", "--unit"),
        "output": ("--output", "--consensus", "-o", "--out", "--to", "--force"),
    },
    **{name: TEXT for name in ("ecer-ewer", "bow", "botw", "boe")},
    "nerval": NERVAL,
    "ie-all": NERVAL,
}


def sections(text: str) -> dict[str, list[str]]:
    """The flags under each heading of a help text, in the order of the headings."""
    found: dict[str, list[str]] = {}
    heading = None
    for line in text.splitlines():
        if re.fullmatch(r"\S.*:", line):
            heading = line[:-1]
            found[heading] = []
        elif heading is not None and re.match(r"  -", line):
            invocation = re.split(r"\s{2,}", line.strip())[0]
            found[heading] += [part.split()[0] for part in invocation.split(", ")]
    return found


def test_every_subcommand_is_in_the_table() -> None:
    assert set(HELP) == set(COMMANDS) - {"conlleval"}


@pytest.mark.parametrize("command", list(HELP))
def test_help_lists_each_flag_under_its_heading(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as exit:
        main([command, "--help"])
    assert exit.value.code == 0
    found = sections(capsys.readouterr().out)
    expected = {"options": ["-h", "--help"], **{h: list(flags) for h, flags in HELP[command].items()}}
    assert {h: sorted(flags) for h, flags in found.items() if h != "positional arguments"} == {
        h: sorted(flags) for h, flags in expected.items()
    }
    headings = [h for h in found if h in ORDER]
    assert headings == [h for h in ORDER if h in headings]  # in the one order of every subcommand


@pytest.mark.parametrize("command", list(HELP))
def test_the_flags_are_the_parsers_own(command: str) -> None:
    """The table holds every option string of the parser, and no other: grouping dropped none."""
    sub = argparse.ArgumentParser(prog="nerve").add_subparsers()
    module = importlib.import_module(f"nerve.cli.{COMMANDS[command]}")
    (module.add_parsers if COMMANDS[command] == "text" else module.add_parser)(sub)
    strings = {s for action in sub.choices[command]._actions for s in action.option_strings}
    assert strings == {"-h", "--help"} | {flag for flags in HELP[command].values() for flag in flags}
