"""``nerve agree FILE_OR_DIR...``: agreement between annotators, and their consensus.

In: the parsed command line: one file or directory per annotator, or one export of several
(Label Studio, doccano, a CoNLL file of several tag columns); ``--annotators`` picks and names
them. Out: the rendering of `nerve.agree`'s result (`nerve.report.agree`) on stdout, exit status 0;
with ``--consensus RULE -o FILE`` the consensus is written to FILE too.
"""

from __future__ import annotations

import argparse

from ..analysis.agree_result import RULES
from ..compiled_agree import agree
from ..io.formats import names
from ..plan import SORTS, InstanceQuery
from .options import ANALYSIS, INPUT, OUTPUT, SCHEME, add_command, add_statistics, group, keywords_of
from .output import Output

__all__ = ["FORMATS", "add_parser", "run"]

FORMATS = ("table", "json", "markdown", "csv", "latex")

ABOUT = """agreement between annotators: pairwise F1, Cohen's and Fleiss' kappa, Krippendorff's alpha

Compare several annotators of the same documents: pairwise exact and partial F1, token-level Cohen's
kappa, Fleiss' kappa and Krippendorff's alpha with bootstrap intervals by document, the
disagreements, and a consensus.
"""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``agree`` and its options."""
    a = add_command(sub, "agree", ABOUT, run)
    a.add_argument(
        "sources",
        metavar="FILE_OR_DIR",
        nargs="+",
        help="one file or directory per annotator, or one Label Studio, doccano or multi-column CoNLL file",
    )
    read = group(a, INPUT)
    read.add_argument(
        "--annotators",
        default=None,
        metavar="A,B,C",
        help="names of the files' annotators, in order; of one export: the annotators to compare "
        "(Label Studio completed_by ids, doccano users, CoNLL tag column numbers counted from 1), "
        "ID=NAME to rename one",
    )
    read.add_argument(
        "--format",
        dest="input_format",
        default=None,
        choices=list(names("tags", "spans")),
        help="input format (default: sniffed file by file)",
    )
    read.add_argument("--offsets", default=None, metavar="U", help="span files: what offsets count")
    tags = group(a, SCHEME)
    tags.add_argument("--scheme", default="auto", metavar="S", help="the tags' scheme (default: auto)")
    tags.add_argument(
        "--tag-format", default=None, metavar="F", help="how tags are spelled (default: inferred)"
    )
    tags.add_argument("--outside", default="O", metavar="TAG", help="the outside tag (default: O)")
    _add_disagreements(group(a, ANALYSIS))
    add_statistics(a, optional=False)
    out = group(a, OUTPUT)
    out.add_argument("--output", default="table", choices=FORMATS, help="output format (default: table)")
    out.add_argument(
        "--consensus",
        default=None,
        choices=RULES,
        help="the entities a majority (or all) of the annotators marked",
    )
    out.add_argument(
        "-o", "--out", default=None, metavar="FILE", help="--consensus: the file (or brat directory) to write"
    )
    out.add_argument(
        "--to", default=None, metavar="FORMAT", help="--consensus: jsonl, brat, conll... (default: from -o)"
    )
    out.add_argument("--force", action="store_true", help="--consensus: write over -o's file if it exists")


# The filters that pick disagreements: flag, type, metavar, what it keeps.
_FILTERS = (
    (
        "--instance-category",
        str,
        "C",
        "only these categories (missed, type, boundary, boundary_type), comma-separated",
    ),
    ("--instance-type", str, "T", "only those with these types"),
    ("--per-category", int, "N", "at most N rows per category"),
)


def _add_disagreements(g: argparse._ArgumentGroup) -> None:
    """The filters of the disagreement list, as ``--instances`` has them, and their order and context."""
    for flag, kind, metavar, keeps in _FILTERS:
        g.add_argument(flag, type=kind, default=None, metavar=metavar, help=f"disagreements: {keeps}")
    g.add_argument(
        "--sort", choices=SORTS, default="position", help="disagreements: by position (default) or frequency"
    )
    g.add_argument(
        "--context", type=int, default=5, metavar="K", help="disagreements: K words of context each side"
    )


def _split(value: str | None) -> tuple[str, ...] | None:
    return tuple(v for v in value.split(",") if v) if value else None


def run(ns: argparse.Namespace) -> Output:
    """Compute the agreement, write the consensus if asked, and hand back the rendering."""
    from ..report.agree import render_agree  # imported when run: other commands start without it

    query = InstanceQuery(
        _split(ns.instance_category), _split(ns.instance_type), ns.per_category, ns.sort, ns.context
    )
    given = keywords_of(agree, ns)
    given.update(annotators=_split(ns.annotators), instances=query)
    result = agree(*ns.sources, **given)
    return Output(render_agree(result, ns.output))
