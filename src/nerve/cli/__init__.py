"""The ``nerve`` command: one module per subcommand over shared option groups, and the exit codes.

In: the command line (``-`` names the standard input). Out: the rendering on stdout, and the exit
status: 0 on success, 1 when ``validate`` finds problems, 2 for a user's mistake (a `NerveError`,
printed as one line ``nerve: error: ...``, options spelled as flags) or an output that cannot be
written (`nerve.cli.output`; a reader closing the pipe early keeps the status), 130 on Ctrl-C;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import re
import sys
from collections.abc import Sequence

from .._engine import engine
from .._version import __version__
from .output import Output, StdoutError, check_stdout, emit
from .parser import Parser

# ``nerve --version`` and ``nerve COMMAND --help`` print and exit while the arguments are parsed, so
# what only a run needs (nerve's errors and options, their dataclasses and typing) is imported after.

__all__ = ["COMMANDS", "console", "main"]

_TEXT = ("ecer-ewer", "nerval", "bow", "botw", "boe", "ie-all")  # nerve.report.text.TEXT_COMMANDS
# Each command and the module that adds its parser, in the order of the help. A command line that
# names one imports only that module (and what it needs): ``nerve score`` loads no other command's.
COMMANDS: dict[str, str] = {
    "score": "score",
    "compare": "compare",
    "validate": "validate",
    **{name: "text" for name in _TEXT},
    "conlleval": "conlleval",
    "report": "report",
    "convert": "convert",
    "agree": "agree",
}


def _parser(command: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser of every command, or of ``command`` alone (its help and errors are the same).

    ``--version`` (the first argument) needs none of them: only the version and the engine's name.

    With it, each command's own parser by name.
    """
    parser: argparse.ArgumentParser = Parser(
        prog="nerve",
        description="Evaluation for named-entity recognition and other chunking tasks.",
    )
    parser.add_argument("--version", action="version", version=f"nerve {__version__} (speedups: {engine()})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    modules = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    if command == "--version":
        modules = []  # it prints and exits before a command is parsed: ``nerve --version`` loads none
    for name in modules:
        module = importlib.import_module(f"{__name__}.{name}")
        if name == "text":
            module.add_parsers(sub)
        else:
            module.add_parser(sub)
    return parser, sub.choices


_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")


def _parse(args: list[str]) -> argparse.Namespace:
    """Parse ``args``; an argument the command does not know is reported by the command's parser.

    argparse leaves arguments no subcommand knows to the top-level parser, whose error shows
    ``nerve``'s usage; here the subcommand's usage is shown instead, with the closest flag of the
    subcommand for each unknown one (``did you mean --output?``). Exits with status 2.
    """
    parser, commands = _parser(args[0] if args else None)
    ns, extras = parser.parse_known_args(args)
    if extras:
        import difflib

        command = commands[ns.command]
        flags = sorted(set(_FLAG.findall(command.format_usage())))
        hints = []
        for extra in extras:
            if extra.startswith("-") and len(extra) > 2:
                name = "--" + extra.split("=", 1)[0].lstrip("-")
                hints += difflib.get_close_matches(name, flags, n=1, cutoff=0.6)
        hint = f"; did you mean {' and '.join(dict.fromkeys(hints))}?" if hints else ""
        command.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    return ns


def _fail(message: str) -> int:
    """Print ``message`` as the one line of a user's mistake, and return exit status 2."""
    sys.stderr.write(f"nerve: error: {message}\n")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``nerve`` command and return its exit status (130 when interrupted, as shells do)."""
    return _main(argv, console=False)


def _main(argv: Sequence[str] | None, *, console: bool) -> int:
    try:
        check_stdout()
        return emit(_run(list(sys.argv[1:] if argv is None else argv), console=console))
    except StdoutError as err:
        return _fail(str(err))
    except KeyboardInterrupt:
        return 130


def console() -> int:
    """The ``nerve`` console script (and ``python -m nerve``): `main`, with the collector set for one run.

    Start-up (the imports, the parser, the records) makes about ten thousand objects that live
    until the process ends and hold no garbage, and an interpreter at exit traverses every tracked
    object once more: on a small file the cyclic collector costs more than the scoring (8 ms of a
    48 ms ``nerve score``, issue 27). So the collector is off until the arguments are parsed, and the
    objects made so far are then frozen (`gc.freeze`: never traversed again) before it is turned
    back on for the run; the run's own objects are frozen at the end, for the exit. Memory is freed
    as always (reference counts); only the traversals are saved. In process, `main` leaves the
    collector alone.
    """
    gc.disable()
    try:
        return _main(None, console=True)
    finally:
        gc.freeze()
        gc.enable()


def _started(console: bool) -> None:
    """Start-up is over: under `console`, freeze what it made (never garbage) and collect again."""
    if console:
        gc.freeze()
        gc.enable()


def _run(args: list[str], *, console: bool) -> Output:
    """Run the subcommand of ``args``; a user's mistake is one line on stderr and status 2."""
    if args and args[0] == "conlleval":
        from . import conlleval

        _started(console)
        return conlleval.run(args[1:])  # it parses its arguments as conlleval.pl does
    ns = _parse(args)
    _started(console)
    from ..errors import InvalidSequenceError, NerveError, plural
    from ..options import command_line_names

    try:
        with command_line_names():
            output: Output = ns.run(ns)
            return output
    except InvalidSequenceError as err:
        for problem in err.problems:
            sys.stderr.write(f"{problem}\n")
        transitions = plural(len(err.problems), "invalid transition")
        return Output("", _fail(f"{transitions} for scheme {err.scheme} (--repair error)"))
    except NerveError as err:
        return Output("", _fail(str(err)))


if __name__ == "__main__":
    sys.exit(main())
