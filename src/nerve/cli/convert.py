"""``nerve convert IN OUT --to FORMAT``: one side of any input nerve reads, written in another format.

In: the parsed command line. Out: the files `nerve.api.convert.convert` writes, and its report: as
text lines on stderr (the default), or as JSON on stdout (``--report json``). Every value is
checked by the API, so a bad ``--to``, ``--side`` or ``--flatten`` is one line and status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from .. import options
from ..api.convert import SIDES, ConvertReport, convert
from ..errors import plural
from ..io.formats import names, targets
from ..model.nesting import POLICIES
from ..model.scheme_names import SUPPORTED_SCHEMES
from .options import INPUT, OUTPUT, SCHEME, add_command, group, keywords_of
from .output import Output
from .progress import Progress

__all__ = ["BYTES_PER_SECOND", "REPORTS", "add_parser", "render_report", "run"]

REPORTS = ("text", "json")
BYTES_PER_SECOND = 5_000_000  # input read and decoded in about a second: below that, no progress bar

ABOUT = """write one side of an input in another format, reporting what could not be kept

Convert CoNLL tags, BIO directories and span files into CoNLL (any scheme), BIO directories, JSONL,
brat or spaCy JSONL. What the target cannot hold is refused or counted.
"""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``convert`` and its options."""
    c = add_command(sub, "convert", ABOUT, run)
    c.add_argument("source", metavar="IN", help="a CoNLL file, a directory of .bio files, or a span file")
    c.add_argument("out", metavar="OUT", help="the file (conll, jsonl, spacy-jsonl) or directory (bio, brat)")
    read, tags, out = group(c, INPUT), group(c, SCHEME), group(c, OUTPUT)
    read.add_argument(
        "--format",
        dest="input_format",
        default=None,
        metavar="F",
        help=f"IN's format: {', '.join(names('tags', 'spans', 'dataset'))}",
    )
    read.add_argument(
        "--side", default="gold", metavar="SIDE", help=f"the side converted: {', '.join(SIDES)}"
    )
    read.add_argument("--offsets", default=None, metavar="U", help="the offset units of a span input")
    tags.add_argument(
        "--from-scheme", default="auto", metavar="S", help="the scheme of IN's tags (default: auto)"
    )
    tags.add_argument(
        "--tag-format", default=None, metavar="F", help="how IN's tags are spelled (default: inferred)"
    )
    tags.add_argument("--outside", default="O", metavar="TAG", help="IN's outside tag (default: O)")
    out.add_argument(
        "--to", required=True, metavar="FORMAT", help=f"the format to write: {', '.join(targets())}"
    )
    schemes = ", ".join(s for s in SUPPORTED_SCHEMES if s != "auto")
    out.add_argument(
        "--scheme",
        default=None,
        metavar="S",
        help=f"conll, bio: the scheme written: {schemes} (default: IOB2)",
    )
    out.add_argument(
        "--flatten",
        default=None,
        metavar="POLICY",
        help=f"for conll and bio: keep non-overlapping entities by {', '.join(POLICIES)}; "
        "without it nested entities are refused",
    )
    out.add_argument("--force", action="store_true", help="write over OUT if it exists")
    out.add_argument(
        "--report", default="text", metavar="R", help="text on stderr (default) or json on stdout"
    )


def render_report(report: ConvertReport) -> str:
    """The report as text lines: what was read and written, then repairs, losses and notes."""
    written = report.output_format + (f" ({report.scheme})" if report.scheme else "")
    read = report.input_format + (f" ({report.input_scheme})" if report.input_scheme else "")
    lines = [
        f"{report.source} ({read}) -> {report.target} ({written}): {plural(report.documents, 'document')}, "
        f"{plural(report.entities_read, 'entity', 'entities')} read, {report.entities_written} written"
    ]
    for title, counts in (("repaired", report.repairs), ("lost", report.lost), ("note", report.notes)):
        lines.extend(f"  {title}: {n} {what}" for what, n in counts.items())
    if not report.lost:
        lines.append("  lossless")
    return "".join(f"{line}\n" for line in lines)


def run(ns: argparse.Namespace) -> Output:
    """Convert, and hand back the report (on stderr as text, or JSON for stdout)."""
    options.one_of(ns.report, REPORTS, "report")
    with Progress("B", BYTES_PER_SECOND) as progress:
        report = _convert(ns, progress)
    if ns.report == "json":
        return Output(json.dumps(report.to_dict(), indent=2) + "\n")
    sys.stderr.write(render_report(report))
    return Output("")


def _convert(ns: argparse.Namespace, progress: Progress) -> ConvertReport:
    """`convert` with the command line's options, telling ``progress`` of the bytes read."""
    return convert(ns.source, ns.out, **keywords_of(convert, ns, progress=progress))
