"""``nerve compare``: systems against a baseline on one gold file, with paired significance tests.

In: the parsed command line: the gold file, then the systems' prediction files (the baseline
first), each aligned line by line with the gold file as for ``nerve score GOLD PRED``, or model outputs
read as ``nerve score`` reads them (each file's format sniffed on its own, ``--gold-format`` and
``--pred-format``, ``--min-score``, ``--locate``, ``--normalize``, ``--offsets``, ``--lenient``). Out: the
rendering of `nerve.compare`'s result (`nerve.report.stats`), exit status 0.
"""

from __future__ import annotations

import argparse

from .. import options
from ..api import compare
from ..report.renderers import RENDERERS
from .options import (
    add_command,
    add_input,
    add_labels,
    add_output,
    add_outputs,
    add_repair,
    add_span_reading,
    add_statistics,
    keywords_of,
    labels,
    outputs,
    reading,
)
from .output import Output
from .progress import Progress

__all__ = ["BYTES_PER_SECOND", "add_parser", "run"]

# bytes read (the gold file once per system) and counted in about a second: below that, no bar
BYTES_PER_SECOND = 10_000_000

ABOUT = """compare systems with a baseline: F1 difference, interval and p-values

Compare each system with the first (the baseline) on the same gold file: the micro F1 difference
with its paired-bootstrap interval, the paired-bootstrap and approximate-randomisation p-values, and
Holm's correction across systems.
"""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``compare`` and its options."""
    c = add_command(sub, "compare", ABOUT, run)
    c.add_argument("gold", metavar="GOLD", help="the gold file")
    c.add_argument(
        "systems",
        metavar="SYSTEM",
        nargs="+",
        help="prediction files aligned line by line with GOLD, the baseline first (two or more)",
    )
    add_input(c)
    add_outputs(c)  # model outputs: each side's format, --min-score, --locate, --normalize
    add_span_reading(c)  # --offsets, --lenient (which an entity text unlike its offsets' names)
    add_repair(c, f"invalid transitions: {', '.join(options.REPAIR_POLICIES)} (default: begin)")
    add_labels(c, pattern=False)
    add_statistics(c, optional=False)
    add_output(c, list(RENDERERS), "table")  # the formats of `nerve.report.stats.COMPARE_RENDERERS`


def run(ns: argparse.Namespace) -> Output:
    """Compare, and hand back the rendering with status 0."""
    from ..report.stats import render_compare  # imported when run: `nerve score` starts without it

    with Progress("B", BYTES_PER_SECOND) as progress:
        given = keywords_of(compare, ns, progress=progress)  # the statistics' options
        result = compare(
            ns.gold,
            ns.systems,
            **given,
            repair=ns.repair,
            input_format=ns.input_format,
            **reading(ns),
            **labels(ns),
            **outputs(ns),
            offsets=ns.offsets,
            lenient=ns.lenient,
        )
    return Output(render_compare(result, ns.output))
