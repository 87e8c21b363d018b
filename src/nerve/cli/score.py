"""``nerve score``: exact-match (and MUC) scores of a CoNLL or span file, with the signature.

In: the parsed command line. Out: the rendering for stdout (`nerve.report.renderers`), exit status 0.
"""

from __future__ import annotations

import argparse

from .. import options
from ..api import score
from ..report.renderers import RENDERERS, render
from .options import (
    add_files,
    add_format,
    add_output,
    add_reading,
    add_statistics,
    reading,
    source,
    statistics,
)
from .output import Output

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``score`` and its options."""
    s = sub.add_parser(
        "score",
        help="score predicted entities against gold ones",
        description="Score predicted entities against gold entities (exact match), with the signature.",
    )
    add_files(s)
    add_reading(s)
    s.add_argument(  # checked by nerve.options, as in Python
        "--repair",
        default="begin",
        metavar="P",
        help="what to do with transitions the scheme does not allow: "
        f"{', '.join(options.REPAIR_POLICIES)} (default: begin)",
    )
    s.add_argument("--beta", type=float, default=1.0, help="also report the F-beta score for this beta")
    s.add_argument(
        "--metrics",
        default="exact",
        help="metric families, comma-separated: exact (always), muc (the MUC-5/SemEval-2013 modes)",
    )
    add_format(s)
    s.add_argument(
        "--offsets", default=None, choices=options.OFFSET_UNITS, help="json/jsonl: what span offsets count"
    )
    _add_muc(s)
    _add_analysis(s)
    add_statistics(s, optional=True)
    add_output(s, list(RENDERERS), "table")
    s.set_defaults(run=run)


def _add_muc(s: argparse.ArgumentParser) -> None:
    """The options of the MUC metrics (``--metrics exact,muc``)."""
    s.add_argument("--document-average", action="store_true", help="muc: also average P/R/F1 over documents")
    s.add_argument(
        "--matching",
        default="optimal",
        choices=options.MATCHINGS,
        help="muc: optimal one-to-one matching (default), or greedy to reproduce nervaluate 1.2.1",
    )
    s.add_argument("--min-iou", type=float, default=None, help="muc: overlap needs at least this IoU")
    s.add_argument(
        "--min-gold-share",
        type=float,
        default=None,
        help="muc: overlap must cover this share of the gold entity",
    )


def _add_analysis(s: argparse.ArgumentParser) -> None:
    """The opt-in analysis (`nerve.analysis`): plain scoring stays as fast without it."""
    g = s.add_argument_group("analysis")
    g.add_argument(
        "--errors",
        action="store_true",
        help="count every entity's error category: correct, type, boundary, boundary_type, missed, spurious",
    )
    g.add_argument(
        "--confusion", action="store_true", help="the confusion matrix of types (exact and overlap views)"
    )


def run(ns: argparse.Namespace) -> Output:
    """Score, and hand back the rendering with status 0."""
    result = score(
        source(ns.file),  # type: ignore[arg-type]
        source(ns.pred_file),
        repair=ns.repair,
        beta=ns.beta,
        metrics=ns.metrics,
        min_iou=ns.min_iou,
        min_gold_share=ns.min_gold_share,
        input_format=ns.input_format,
        document_average=ns.document_average,
        matching=ns.matching,
        offsets=ns.offsets,
        errors=ns.errors,
        confusion=ns.confusion,
        **statistics(ns),
        **reading(ns),
    )
    return Output(render(result, ns.output))
