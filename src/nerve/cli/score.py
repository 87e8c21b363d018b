"""``nerve score``: exact-match (and MUC) scores of a CoNLL or span file, with the signature.

In: the parsed command line. Out: the rendering for stdout (`nerve.report.renderers`), exit status 0.
"""

from __future__ import annotations

import argparse
import sys

from .. import options
from .options import (
    ANALYSIS,
    INPUT,
    METRICS,
    SCALE,
    SWEEP_HELP,
    add_command,
    add_files,
    add_labels,
    add_output,
    add_outputs,
    add_repair,
    add_sources,
    add_span_reading,
    add_statistics,
    group,
    labels,
    reading,
    source,
    statistics,
)
from .output import Output, write_text
from .progress import Progress

__all__ = ["BYTES_PER_SECOND", "add_parser", "run"]

TYPE_CHECKING = False  # typing's, unimported: the parsers (nerve --help) load no typing
if TYPE_CHECKING:
    from typing import Any

    from ..plan import InstanceQuery, Plan
    from ..results import Result

# The parser (``nerve score --help``) needs only the option names; what a run needs (the plan, the
# engines, the renderers) is imported by `run`.

BYTES_PER_SECOND = 30_000_000  # input read and scored in about a second: below that, no progress bar

ABOUT = """score predicted entities against gold ones

Score predicted entities against gold entities (exact match), with the signature.
"""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``score`` and its options."""
    s = add_command(sub, "score", ABOUT, run)
    add_files(s)
    policies = ", ".join(options.REPAIR_POLICIES)
    add_repair(s, f"what to do with transitions the scheme does not allow: {policies} (default: begin)")
    metrics = group(s, METRICS)
    metrics.add_argument(
        "--metrics",
        default="exact",
        help="metric families, comma-separated: exact (always), muc (the MUC-5/SemEval-2013 modes)",
    )
    metrics.add_argument("--beta", type=float, default=1.0, help="also report the F-beta score for this beta")
    metrics.add_argument("--sweep", action="store_true", help=SWEEP_HELP)
    add_labels(s)
    add_span_reading(s)
    add_outputs(s)
    add_sources(s)
    _add_subwords(s)
    _add_annotators(group(s, INPUT))
    group(s, INPUT).add_argument(  # checked by nerve.options, as in Python
        "--flatten",
        default=None,
        metavar="POLICY",
        help="span input: keep one of overlapping entities of each side before scoring, "
        f"dropped ones counted in the notes: {', '.join(options.FLATTEN_POLICIES)}",
    )
    _add_muc(s)
    _add_analysis(s)
    _add_slices(s)
    add_statistics(s, optional=True)
    add_output(s, list(options.OUTPUTS), "table")
    group(s, SCALE).add_argument(
        "--dask",
        metavar="ADDRESS",
        help="count the files (FILE: a glob, a file or a directory) on Dask workers: tcp://HOST:PORT, "
        "or local:N for N local processes (pip install 'dask[distributed]')",
    )


def _add_subwords(s: argparse.ArgumentParser) -> None:
    """How a Hugging Face model's sub-token labels become word labels."""
    group(s, INPUT).add_argument(
        "--subwords",
        default=None,
        choices=options.SUBWORD_POLICIES,
        help="hf: predictions with word_ids: a word's first (default), last or majority sub-token label; "
        "all: every labelled sub-token scored, the gold spread over them as Hugging Face's label_all_tokens",
    )


def _add_muc(s: argparse.ArgumentParser) -> None:
    """The options of the MUC metrics (``--metrics exact,muc``)."""
    g = group(s, METRICS)
    g.add_argument("--document-average", action="store_true", help="muc: also average P/R/F1 over documents")
    g.add_argument(
        "--matching",
        default="optimal",
        choices=options.MATCHINGS,
        help="muc: optimal one-to-one matching (default), or greedy to reproduce nervaluate 1.2.1",
    )
    g.add_argument("--min-iou", type=float, default=None, help="muc: overlap needs at least this IoU")
    g.add_argument(
        "--min-gold-share",
        type=float,
        default=None,
        help="muc: overlap must cover this share of the gold entity",
    )


def _add_analysis(s: argparse.ArgumentParser) -> None:
    """The opt-in analysis (`nerve.analysis`): plain scoring stays as fast without it."""
    g = group(s, ANALYSIS)
    g.add_argument(
        "--errors",
        action="store_true",
        help="count every entity's error category: correct, type, boundary, boundary_type, missed, spurious",
    )
    g.add_argument(
        "--confusion", action="store_true", help="the confusion matrix of types (exact and overlap views)"
    )
    g.add_argument("--instances", metavar="FILE", help="write every error as a row to FILE (- for stdout)")
    g.add_argument(
        "--instances-format",
        choices=options.INSTANCE_FORMATS,
        help="jsonl, csv or table (default: by FILE's extension, .jsonl, .csv, else table)",
    )
    g.add_argument(
        "--instance-category",
        metavar="C",
        help="instances: only these categories, comma-separated (default: all errors)",
    )
    g.add_argument(
        "--instance-type",
        metavar="T",
        help="instances: only errors with these gold or predicted types, comma-separated",
    )
    g.add_argument("--per-category", type=int, metavar="N", help="instances: at most N rows per category")
    g.add_argument(
        "--sort",
        choices=options.SORTS,
        help="instances: by position (default), or most frequent surface forms first",
    )
    g.add_argument(
        "--context", type=int, metavar="K", help="instances: K tokens of context each side (default 5)"
    )


_INSTANCE_FLAGS = (
    "instances_format",
    "instance_category",
    "instance_type",
    "per_category",
    "sort",
    "context",
)


def _query(ns: argparse.Namespace) -> InstanceQuery | None:
    """The instances asked for by ``--instances`` and its options (refused without it)."""
    from ..errors import OptionError
    from ..plan import InstanceQuery

    if ns.instances is None:
        given = [f"--{n.replace('_', '-')}" for n in _INSTANCE_FLAGS if getattr(ns, n) is not None]
        if given:
            raise OptionError(given[0], "applies to the instance list: add --instances FILE")
        return None

    def names(value: str | None) -> tuple[str, ...] | None:
        return tuple(v.strip() for v in value.split(",") if v.strip()) if value else None

    return InstanceQuery(
        categories=names(ns.instance_category),
        types=names(ns.instance_type),
        per_category=ns.per_category,
        sort=ns.sort or "position",
        context=5 if ns.context is None else ns.context,
    )


def _instance_format(ns: argparse.Namespace) -> str:
    if ns.instances_format is not None:
        return str(ns.instances_format)
    suffix = ns.instances.rsplit(".", 1)[-1].lower() if "." in ns.instances else ""
    return {"jsonl": "jsonl", "json": "jsonl", "csv": "csv"}.get(suffix, "table")


def _add_slices(s: argparse.ArgumentParser) -> None:
    """The slices (P/R/F1 by length, type, document...) and the files two of them need."""
    g = group(s, ANALYSIS)
    g.add_argument(
        "--slices",
        default=None,
        metavar="S",
        help=f"P/R/F1 by slice, comma-separated: {', '.join(options.SLICES)} (every --meta attribute) "
        "or meta:NAME (one)",
    )
    g.add_argument("--train", default=None, metavar="FILE", help="seen: the training CoNLL file (tag last)")
    g.add_argument(
        "--meta",
        default=None,
        metavar="FILE",
        help="meta: document attributes, JSON or CSV, by document number (0, 1, ... in file order)",
    )


_NOT_ON_DASK = (  # the options that --dask does not compute (it counts exact and muc scores of tags)
    "errors confusion instances slices train meta bootstrap seed confidence unit input_format offsets column "
    "spans_key tag_column label_names subwords flatten lenient sweep gold_annotator pred_annotator "
    "gold_format pred_format min_score locate normalize"
)


def _on_dask(ns: argparse.Namespace) -> Result:
    """``--dask``: exact and muc counts of tagged files made on Dask workers (`nerve.integrations.dask`)."""
    from ..api.partial import plan
    from ..errors import OptionError
    from ..integrations.dask import connect, score_files  # only here: plain scoring never imports Dask

    given = [n for n in _NOT_ON_DASK.split() if getattr(ns, n, None) not in (None, False)]
    if given or "-" in (ns.file, ns.pred_file):
        option = f"--{given[0].replace('_', '-')}" if given else "--dask"
        raise OptionError(option, "--dask counts exact and muc scores of tagged files read by the workers")
    kw = _tagged(ns)
    pattern = kw.pop("pattern", None)
    plan(**kw)  # the options checked before a cluster starts
    with connect(ns.dask) as client, Progress("tasks", 1) as progress:  # a cluster run: over a second
        return score_files(ns.file, ns.pred_file, client=client, pattern=pattern, progress=progress, **kw)


def _add_annotators(g: argparse._ArgumentGroup) -> None:
    """``--gold-annotator`` and ``--pred-annotator``: two annotators of a Label Studio or doccano export."""
    for side in ("gold", "pred"):
        g.add_argument(
            f"--{side}-annotator",
            default=None,
            metavar="ID",
            help=f"labelstudio, doccano: the annotator (completed_by id, user) whose entities are {side}",
        )


def _tagged(ns: argparse.Namespace) -> dict[str, Any]:
    """`nerve.score`'s keyword arguments of tagged input (and the metrics), from the command line."""
    kw = {**reading(ns), **labels(ns), "repair": ns.repair, "beta": ns.beta, "metrics": ns.metrics}
    kw.update(min_iou=ns.min_iou, min_gold_share=ns.min_gold_share, matching=ns.matching)
    kw.update(document_average=ns.document_average)
    return kw


def _plan(ns: argparse.Namespace, progress: Progress) -> Plan:
    """The `Plan` of the command line's options, as `nerve.score` makes it of its keyword arguments.

    Made of `nerve.plan.DEFAULTS` (`nerve.score`'s own), so that a run the compiled engine counts
    imports no API module.
    """
    from ..io.reader_options import ReaderOptions
    from ..plan import DEFAULTS, Plan

    kw = _tagged(ns)
    kw.update(input_format=ns.input_format, offsets=ns.offsets, lenient=ns.lenient, column=ns.column)
    kw.update(gold_format=ns.gold_format, pred_format=ns.pred_format, min_score=ns.min_score)
    kw.update(locate=ns.locate, normalize=ns.normalize)
    kw.update(gold_annotator=ns.gold_annotator, pred_annotator=ns.pred_annotator)
    kw.update(errors=ns.errors, confusion=ns.confusion, instances=_query(ns), flatten=ns.flatten)
    kw.update(slices=ns.slices, train=ns.train, meta=ns.meta, **statistics(ns), progress=progress)
    kw.update(sweep=ns.sweep)
    kw.update(reader=ReaderOptions(ns.spans_key, ns.tag_column, ns.label_names, ns.subwords))
    return Plan.of(DEFAULTS, **kw)


def run(ns: argparse.Namespace) -> Output:
    """Score, and hand back the rendering with status 0."""
    from ..compiled import count
    from ..report.renderers import render

    if ns.dask is not None:
        return Output(render(_on_dask(ns), ns.output))
    with Progress("B", BYTES_PER_SECOND) as progress:
        gold, pred, plan = source(ns.file), source(ns.pred_file), _plan(ns, progress)
        result = count(gold, pred, plan)  # the compiled engine, where it counts the run (no numpy)
        if result is None:
            from ..api import numpy_scored  # only here: the numpy engine and the analysis

            result = numpy_scored(gold, pred, plan)  # type: ignore[arg-type]
    for warning in result.warnings:  # in the rendering too; on stderr, where a pipe does not hide it
        sys.stderr.write(f"nerve: warning: {warning}\n")
    text = render(result, ns.output)
    if result.analysis is not None and result.analysis.instances is not None:
        from ..report.instances import render_instances  # only when asked for

        rows = render_instances(result.analysis.instances, _instance_format(ns))
        if ns.instances == "-":
            return Output(text + "\n" + rows)
        write_text(ns.instances, rows, "--instances")
    return Output(text)
