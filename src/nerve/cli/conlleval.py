"""``nerve conlleval``: the byte-identical drop-in for conlleval.pl, which reads its own arguments.

In: conlleval.pl's arguments (``-d``, ``-l``, ``-r``, ``-o``) and a file or stdin. Out: its report
(bytes, written as they are) and its exit status (`nerve.compat.conlleval`).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence

from ..compat import conlleval
from ..io.progress import file_bytes, reporting
from .output import Output
from .progress import Progress

__all__ = ["add_parser", "run"]

BYTES_PER_SECOND = 20_000_000  # input read and counted in about a second: below that, no progress bar


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """List ``conlleval`` in the command's help (its arguments never reach argparse)."""
    sub.add_parser(
        "conlleval",
        help="a byte-identical drop-in for conlleval.pl",
        description="A drop-in for conlleval.pl; run `nerve conlleval --help`.",
        add_help=False,
    )


def run(args: Sequence[str]) -> Output:
    """Run conlleval.pl's drop-in with ``args``; hand back its report (bytes) and exit status."""
    report = io.BytesIO()
    try:
        path = conlleval.parse_args(args)[1]
    except conlleval.ConllevalExit:  # `run` says why, as conlleval.pl does
        path = None
    total = file_bytes([sys.stdin.buffer if path in (None, "-") else path])
    with Progress("B", BYTES_PER_SECOND) as progress, reporting(progress, total):
        status = conlleval.run(args, sys.stdin.buffer, report, sys.stderr.buffer)
    return Output(report.getvalue(), status)
