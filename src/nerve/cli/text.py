"""The text-level commands: ``ecer-ewer``, ``nerval``, ``bow``, ``botw``, ``boe`` and ``ie-all``.

In: a label and a prediction directory of ``*.bio`` files, or CoNLL files. Out: the table on
stdout, a line on stderr saying how many documents were read and repaired, exit status 0.
"""

from __future__ import annotations

import argparse
import sys

from .. import options
from ..api import score_text
from ..errors import OptionError, plural
from ..report.text import TEXT_COMMANDS, render_text
from .options import INPUT, METRICS, OUTPUT, SCHEME, add_command, add_output, add_repair, group, keywords_of
from .output import Output
from .progress import Progress

__all__ = ["add_parsers", "run"]

PAIRS_PER_SECOND = 3_000_000  # entity pairs compared in about a second: below that, no progress bar

HELP = {
    "ecer-ewer": "order-independent entity character and word error rates (OI-ECER/EWER)",
    "nerval": "order-independent Nerval: precision, recall and F1 of entities matched by text",
    "bow": "bag of words: the words of the entities",
    "botw": "bag of tagged words: (category, word)",
    "boe": "bag of entities: (category, entity text)",
    "ie-all": "all of the text-level metrics, in one pass over the data",
}

# Each command's help line, then its description (`add_command`).
ABOUT = """{help}

Text-level metrics for noisy transcriptions: {help}. Input: a label and a prediction directory of
*.bio files paired by name (ie-eval's layout), or CoNLL files with documents at -DOCSTART- lines.
"""


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add each text-level command and its options."""
    for name in TEXT_COMMANDS:
        t = add_command(sub, name, ABOUT.format(help=HELP[name]), run)
        t.add_argument(
            "files", metavar="FILE", nargs="*", help="a merged CoNLL file, or a gold and a prediction file"
        )
        _add_inputs(t)
        if name in ("nerval", "ie-all"):
            metrics = group(t, METRICS)
            metrics.add_argument(
                "--threshold",
                "-t",
                type=float,
                default=None,
                help="the largest character error rate of a match, a fraction in [0, 1] (default: 0.3)",
            )
            metrics.add_argument(
                "--nerval-threshold",
                type=float,
                default=None,
                metavar="PCT",
                help="ie-eval's spelling of the same, a percentage in [0, 100]: 30 is --threshold 0.3",
            )
        group(t, SCHEME).add_argument(
            "--scheme", default="IOB2", metavar="S", help="tagging scheme (default: IOB2)"
        )
        policies = [p for p in options.REPAIR_POLICIES if p != "conlleval"]
        add_repair(t, "what to do with invalid transitions (default: begin; every one is counted)", policies)
        add_output(t, ["markdown", "json", "table"], "markdown")
        group(t, OUTPUT).add_argument(
            "--by-category", "-c", action="store_true", help="add a row per category"
        )


def _add_inputs(t: argparse.ArgumentParser) -> None:
    """Where the documents come from: two directories of ``*.bio`` files, or CoNLL files."""
    g = group(t, INPUT)
    g.add_argument("--label-dir", "-l", metavar="DIR", help="the directory of gold *.bio files")
    g.add_argument("--prediction-dir", "-p", metavar="DIR", help="the directory of predicted *.bio files")
    g.add_argument(
        "--pattern", default="*.bio", metavar="GLOB", help="the files of a directory (default: *.bio)"
    )
    g.add_argument(
        "--documents",
        default="docstart",
        choices=["docstart", "sentence"],
        help="CoNLL files: documents start at -DOCSTART- lines (default), or each sentence is one",
    )


def _inputs(ns: argparse.Namespace) -> tuple[str, str | None, bool]:
    """The label and prediction (directories or files), and whether they are directories."""
    dirs = ns.label_dir is not None or ns.prediction_dir is not None
    if dirs and ns.files:
        detail = "give either --label-dir and --prediction-dir, or CoNLL files, not both"
        raise OptionError("--label-dir" if ns.label_dir is not None else "--prediction-dir", detail)
    if dirs:
        if ns.label_dir is None or ns.prediction_dir is None:
            given, missing = (
                ("--label-dir", "--prediction-dir")
                if ns.prediction_dir is None
                else ("--prediction-dir", "--label-dir")
            )
            raise OptionError(given, f"--label-dir and --prediction-dir go together: add {missing}")
        return ns.label_dir, ns.prediction_dir, True
    if not 1 <= len(ns.files) <= 2:
        raise OptionError("FILE", "expected --label-dir DIR --prediction-dir DIR, or FILE [PRED_FILE]")
    return ns.files[0], ns.files[1] if len(ns.files) == 2 else None, False


def _threshold(ns: argparse.Namespace) -> float:
    """OI-Nerval's threshold, a fraction: ``--threshold`` as it is, ``--nerval-threshold`` / 100."""
    fraction = getattr(ns, "threshold", None)
    percent = options.percentage(getattr(ns, "nerval_threshold", None), "nerval_threshold")
    if fraction is not None and percent is not None:
        detail = "give --threshold (a fraction) or --nerval-threshold (a percentage, as ie-eval), not both"
        raise OptionError("--nerval-threshold", detail)
    if percent is not None:
        return percent
    return 0.3 if fraction is None else fraction


def run(ns: argparse.Namespace) -> Output:
    """Score the texts, say how many documents were read, and hand back the table (status 0)."""
    label, prediction, dirs = _inputs(ns)
    metrics = list(options.TEXT_METRICS) if ns.command == "ie-all" else [ns.command]
    with Progress("pairs", PAIRS_PER_SECOND) as progress:
        given = dict(metrics=metrics, threshold=_threshold(ns), directories=dirs, progress=progress)
        scores = score_text(label, prediction, **keywords_of(score_text, ns, **given))
    for note in scores.notes:
        sys.stderr.write(f"nerve: note: {note}\n")
    repairs = plural(scores.repairs, "invalid transition")
    repaired = f"; {repairs} repaired ({ns.repair})" if scores.repairs else ""
    sys.stderr.write(f"nerve: {plural(scores.documents, 'document')}, complete and valid{repaired}\n")
    return Output(render_text(scores, ns.command, ns.output, ns.by_category))
