"""``nerve report``: the HTML report of one or more systems, written to one self-contained file.

In: the parsed command line: a gold file and prediction files aligned with it line by line (or
one merged file), and ``--output FILE``. Out: the file (`nerve.api.report.write_report`), nothing
on stdout, exit status 0; a missing or unwritable ``--output`` is a user's mistake (status 2), and
so is an existing file without ``--force``, as for ``nerve convert``.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from .. import options
from ..api.report import DEFAULT_CAP, write_report
from ..errors import OptionError
from .options import (
    ANALYSIS,
    INPUT,
    OUTPUT,
    SWEEP_HELP,
    add_command,
    add_input,
    add_labels,
    add_outputs,
    add_repair,
    add_span_reading,
    add_statistics,
    group,
    keywords_of,
    labels,
    reading,
    source,
)
from .output import Output
from .progress import Progress

__all__ = ["BYTES_PER_SECOND", "add_parser", "run"]

# input read, analysed and bootstrapped in about a second (a bar below that would only flash)
BYTES_PER_SECOND = 5_000_000

ABOUT = """write an HTML report: scores, confusion matrix, error categories and instances

Score each prediction file against the gold file, analyse the errors, and write one self-contained
HTML file that works offline.
"""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``report`` and its options."""
    r = add_command(sub, "report", ABOUT, run)
    _add_systems(r)
    add_input(r)
    _add_agree(group(r, INPUT))
    add_outputs(r)
    add_repair(
        r, "what to do with transitions the scheme does not allow: begin, discard or error (default: begin)"
    )
    add_labels(r, pattern=False)
    add_span_reading(r)
    page = group(r, OUTPUT)
    page.add_argument(
        "--output", "-o", metavar="FILE", default=None, help="the HTML file to write (required)"
    )
    page.add_argument("--force", action="store_true", help="write over the --output file if it exists")
    page.add_argument("--title", default=None, help="the page's title (default: nerve report)")
    analysis = group(r, ANALYSIS)
    analysis.add_argument(
        "--max-instances",
        type=int,
        default=DEFAULT_CAP,
        metavar="N",
        help=f"instances of each error category kept in the page (default: {DEFAULT_CAP})",
    )
    analysis.add_argument(
        "--slices",
        default=None,
        metavar="S",
        help=f"P/R/F1 charts by slice, comma-separated: {', '.join(options.SLICES)} or meta:NAME "
        "(default: length,type,sentence_length)",
    )
    analysis.add_argument(
        "--train", default=None, metavar="FILE", help="seen: the training CoNLL file (tag last)"
    )
    analysis.add_argument(
        "--meta", default=None, metavar="FILE", help="meta: document attributes, JSON or CSV"
    )
    analysis.add_argument("--sweep", action="store_true", help=SWEEP_HELP + "; a precision-recall curve")
    add_statistics(r, optional=False)  # the page always shows intervals


def _add_systems(r: argparse.ArgumentParser) -> None:
    """GOLD and the PRED files of the systems' report (``--agree`` names annotators' files instead)."""
    r.add_argument(
        "file",
        metavar="GOLD",
        nargs="?",
        help="the gold file, or a merged file (..., gold tag, predicted tag); - for stdin",
    )
    r.add_argument(
        "pred_files", metavar="PRED", nargs="*", help="prediction files, each aligned with GOLD line by line"
    )


def _add_agree(g: argparse._ArgumentGroup) -> None:
    """``--agree A B C``: the agreement page of annotators instead of the systems' report."""
    g.add_argument(
        "--agree",
        nargs="+",
        default=None,
        metavar="FILE_OR_DIR",
        help="write the agreement page of these annotators (as nerve agree reads them) instead",
    )
    g.add_argument(
        "--annotators",
        default=None,
        metavar="A,B,C",
        help="--agree: pick and name the annotators (nerve agree)",
    )


# What the agreement page does not use: the systems' options, refused with --agree.
_SYSTEMS_ONLY = (
    "file",
    "pred_files",
    "slices",
    "train",
    "meta",
    "lenient",
    "label_map",
    "types",
    "ignore_types",
)


def _agreement(ns: argparse.Namespace) -> Output:
    """``--agree``: the agreement page; the options of the systems' report refused."""
    from ..api.agree_report import write_agreement

    for name in _SYSTEMS_ONLY:
        if getattr(ns, name, None) not in (None, False, []):
            flag = "GOLD and PRED" if name in ("file", "pred_files") else f"--{name.replace('_', '-')}"
            raise OptionError("--agree", f"writes the agreement page of annotators: leave out {flag}")
    if ns.repair != "begin" or ns.encoding != "utf-8":
        option = "--repair" if ns.repair != "begin" else "--encoding"
        raise OptionError(option, "does not apply to --agree (files are read as nerve agree reads them)")
    names = ns.annotators.split(",") if ns.annotators else None
    stats = {"bootstrap": ns.bootstrap, "seed": ns.seed, "confidence": ns.confidence, "unit": ns.unit}
    given = dict(input_format=ns.input_format, offsets=ns.offsets, scheme=ns.scheme, tag_format=ns.tag_format)
    write_agreement(
        *ns.agree,
        output=ns.output,
        title=ns.title,
        max_instances=ns.max_instances,
        annotators=names,
        outside=ns.outside,
        **given,
        **stats,
    )
    return Output("")


def run(ns: argparse.Namespace) -> Output:
    """Write the report; nothing goes to stdout."""
    if ns.output is None:
        raise OptionError("--output", "expected the HTML file to write, as in --output report.html")
    if os.path.isfile(ns.output) and not ns.force:
        raise OptionError("--force", f"{ns.output} exists; pass it to write over it")
    if ns.agree is not None:
        return _agreement(ns)
    if ns.annotators is not None:
        raise OptionError("--annotators", "applies to --agree: the annotators of the agreement page")
    if ns.file is None:
        raise OptionError("GOLD", "expected the gold file (or --agree and the annotators' files)")
    preds = [source(p) for p in ns.pred_files]
    with Progress("B", BYTES_PER_SECOND) as progress:
        _write(ns, preds, progress)
    return Output("")


def _write(ns: argparse.Namespace, preds: Sequence[object], progress: Progress) -> None:
    """`write_report` with the command line's options, telling ``progress`` of the bytes read."""
    gold: Any = source(ns.file)
    systems: Any = preds or None
    given = keywords_of(write_report, ns, progress=progress)  # its own options
    scoring = dict(repair=ns.repair, input_format=ns.input_format, offsets=ns.offsets, lenient=ns.lenient)
    scoring.update(gold_format=ns.gold_format, pred_format=ns.pred_format, min_score=ns.min_score)
    scoring.update(locate=ns.locate, normalize=ns.normalize)
    scoring.update(sweep=ns.sweep)
    write_report(gold, systems, ns.output, **given, **scoring, **reading(ns), **labels(ns))
