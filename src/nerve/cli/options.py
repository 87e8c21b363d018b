"""Option groups that several subcommands share, and the command's reading of ``-`` as stdin.

In: an `argparse.ArgumentParser` to add options to, or the parsed namespace. Out: the parser with
the group's options, or the keyword arguments of the API function that takes them. The values are
checked by `nerve.options` when the API function runs, with the flags' spelling.

Every option sits under one of the headings of `GROUPS` in a subcommand's ``--help`` (`group`), so
that a user finds a flag by what it is for; a heading with no option in a subcommand is not shown.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from ..io.formats import input_choices, option_help, text_formats
from ..model.scheme_names import SUPPORTED_SCHEMES
from ..options import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_RESAMPLES,
    OFFSET_UNITS,
    UNITS,
)

__all__ = [
    "ANALYSIS",
    "GROUPS",
    "INPUT",
    "LABELS",
    "METRICS",
    "OUTPUT",
    "SCALE",
    "SCHEME",
    "STATISTICS",
    "SWEEP_HELP",
    "add_command",
    "add_files",
    "add_format",
    "add_output",
    "add_outputs",
    "add_reading",
    "add_repair",
    "add_sources",
    "add_span_reading",
    "add_statistics",
    "group",
    "outputs",
    "reading",
    "source",
    "statistics",
]

TYPE_CHECKING = False  # typing's, unimported: the parsers (nerve --help) load no typing
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# The headings of the option groups, in the order of every subcommand's help.
INPUT = "input and format"
SCHEME = "scheme and repair"
LABELS = "labels"
METRICS = "metrics"
ANALYSIS = "analysis"
STATISTICS = "statistics"
OUTPUT = "output"
SCALE = "scale"
GROUPS = (INPUT, SCHEME, LABELS, METRICS, ANALYSIS, STATISTICS, OUTPUT, SCALE)
SWEEP_HELP = (
    'P/R/F1 at each confidence threshold of predictions with a "score" (JSON/JSONL spans), and the best'
)


def group(p: argparse.ArgumentParser, title: str) -> argparse._ArgumentGroup:
    """The option group of ``p`` headed ``title`` (one of `GROUPS`).

    The first call makes every group of `GROUPS` in their order, so the help lists them in that
    order whichever option is added first; argparse leaves out a group that stays empty.
    """
    if title not in GROUPS:
        raise ValueError(f"no option group {title!r}: one of {', '.join(GROUPS)}")
    groups = {g.title: g for g in p._action_groups}
    if title not in groups:
        groups.update((t, p.add_argument_group(t)) for t in GROUPS if t not in groups)
    return groups[title]


def add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    about: str,
    run: Callable[[argparse.Namespace], Any],
) -> argparse.ArgumentParser:
    """The parser of subcommand ``name``, which ``run`` runs.

    ``about`` reads as a docstring: the one-line help of ``nerve --help``, a blank line, then the
    description of ``nerve NAME --help`` (its line breaks are spaces: argparse wraps it anew).
    """
    help, _, description = about.partition("\n\n")
    p = sub.add_parser(name, help=help, description=" ".join(description.split()))
    p.set_defaults(run=run)
    return p


def add_files(p: argparse.ArgumentParser) -> None:
    """FILE and the optional PRED_FILE (``-`` reads one of them from stdin), and how they are read."""
    p.add_argument(
        "file",
        metavar="FILE",
        help="a merged file (..., gold tag, predicted tag) or the gold file; - for stdin",
    )
    p.add_argument(
        "pred_file", metavar="PRED_FILE", nargs="?", help="the prediction file, aligned line by line"
    )
    add_input(p)


def add_input(p: argparse.ArgumentParser) -> None:
    """How the input is read: ``--format`` (`add_format`) and the options of `add_reading`."""
    add_format(p)
    add_reading(p)


def add_reading(p: argparse.ArgumentParser) -> None:
    """How tag files are read: scheme, tag format, outside tag, comments, delimiter, encoding, tokens."""
    tags, read = group(p, SCHEME), group(p, INPUT)
    tags.add_argument(
        "--scheme",
        default="auto",
        metavar="S",
        help=f"tagging scheme: {', '.join(SUPPORTED_SCHEMES)} (default: auto, inferred from the tags)",
    )
    tags.add_argument(
        "--tag-format",
        default=None,
        metavar="F",
        help="how tags are spelled: B-X, X-B, B_X, X_B, ... or X for bare types (default: inferred)",
    )
    tags.add_argument("--outside", default="O", metavar="TAG", help="the outside tag (default: O)")
    read.add_argument("--comments", action="store_true", help="treat lines starting with # as comments")
    read.add_argument(
        "--delimiter",
        default=None,
        metavar="D",
        help="what separates columns: whitespace (runs of spaces and tabs), or tab, space or one character, "
        "each occurrence of which separates two columns, so empty columns are kept and an empty tag is O "
        "(default: sniffed file by file: tab where every token line has as many tabs, else whitespace)",
    )
    read.add_argument("--encoding", default="utf-8", help="the files' encoding (default: utf-8)")
    read.add_argument(
        "--ignore-tokens",
        action="store_true",
        help="do not require the token columns of the gold and prediction files to agree",
    )


def add_format(p: argparse.ArgumentParser) -> None:
    """``--format``: CoNLL or a span format, sniffed from the file when not given."""
    group(p, INPUT).add_argument(
        "--format",
        dest="input_format",
        default=None,
        choices=list(input_choices()),
        help="input format (default: sniffed from the file)",
    )


def add_outputs(p: argparse.ArgumentParser) -> None:
    """Each side's format; the options of model outputs: ``--min-score``, ``--locate``, ``--normalize``."""
    g, choices = group(p, INPUT), list(input_choices())
    g.add_argument(
        "--gold-format",
        default=None,
        choices=choices,
        help="the gold file's format (default: --format, else sniffed)",
    )
    g.add_argument(
        "--pred-format",
        default=None,
        choices=choices,
        help="the prediction file's format (default: --format, else sniffed)",
    )
    g.add_argument("--min-score", type=float, default=None, metavar="S", help=option_help("min_score"))
    g.add_argument("--locate", default=None, metavar="RULE", help=option_help("locate"))  # checked in Python
    g.add_argument("--normalize", default=None, metavar="STEPS", help=option_help("normalize"))


def outputs(ns: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of `add_outputs`'s options, for `nerve.score` and `nerve.compare`."""
    names = ("gold_format", "pred_format", "min_score", "locate", "normalize")
    return {name: getattr(ns, name) for name in names}


def add_span_reading(p: argparse.ArgumentParser, lenient: bool = True) -> None:
    """``--offsets`` and ``--lenient``: how span files' offsets count, and entity texts unlike them."""
    g = group(p, INPUT)
    g.add_argument("--offsets", default=None, choices=OFFSET_UNITS, help="span files: what offsets count")
    if lenient:
        g.add_argument("--lenient", action="store_true", help=option_help("lenient", text_formats()))


def add_sources(p: argparse.ArgumentParser) -> None:
    """Which part of a HIPE or CoNLL-U file, a spaCy DocBin or a dataset holds the entities."""
    g = group(p, INPUT)
    g.add_argument(
        "--column",
        "--misc-key",
        dest="column",
        default=None,
        help=option_help("column"),
    )
    g.add_argument("--spans-key", default=None, metavar="KEY", help=option_help("spans_key"))
    g.add_argument("--tag-column", default=None, metavar="COL", help=option_help("tag_column"))
    g.add_argument(
        "--label-names",
        default=None,
        metavar="NAMES",
        help=option_help("label_names"),
    )


def add_repair(p: argparse.ArgumentParser, help: str, policies: Sequence[str] | None = None) -> None:
    """``--repair``: among ``policies``, or any value, which `nerve.options` checks as in Python."""
    metavar = None if policies else "P"
    group(p, SCHEME).add_argument("--repair", default="begin", choices=policies, metavar=metavar, help=help)


def add_output(p: argparse.ArgumentParser, formats: Sequence[str], default: str) -> None:
    """``--output`` / ``-o``, among ``formats``."""
    group(p, OUTPUT).add_argument(
        "--output", "-o", default=default, choices=list(formats), help=f"output format (default: {default})"
    )


def source(name: str | None) -> str | BinaryIO | None:
    """The file named ``name``, or the standard input for ``-``."""
    return sys.stdin.buffer if name == "-" else name


def reading(ns: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of `add_reading`'s options, for `nerve.score` and `nerve.validate`."""
    return {
        "scheme": ns.scheme,
        "tag_format": ns.tag_format,
        "outside": ns.outside,
        "comments": ns.comments,
        "encoding": ns.encoding,
        "check_tokens": not ns.ignore_tokens,
        "delimiter": ns.delimiter,
    }


def add_statistics(p: argparse.ArgumentParser, optional: bool) -> None:
    """``--bootstrap``, ``--seed``, ``--confidence`` and ``--unit``: how units are resampled.

    ``optional``: the bootstrap is asked for by ``--bootstrap [N]`` (``nerve score``), and the
    other three are refused without it; otherwise it always runs (``nerve compare``). The values
    are checked by `nerve.options`, with one wording.
    """
    g = group(p, STATISTICS)
    n, top = DEFAULT_RESAMPLES, f"{MAX_RESAMPLES:,}"
    if optional:
        help = (
            f"percentile bootstrap intervals of every score from N resamples (default N: {n}, at most {top})"
        )
        g.add_argument("--bootstrap", nargs="?", const=str(n), default=None, metavar="N", help=help)
    else:
        g.add_argument(
            "--bootstrap",
            default=str(n),
            metavar="N",
            help=f"resamples and trials (default: {n}, at most {top})",
        )
    g.add_argument("--seed", default=None, help=f"the seed of the resamples (default: {DEFAULT_SEED})")
    g.add_argument(
        "--confidence",
        default=None,
        metavar="C",
        help=f"the intervals' confidence level in (0, 1) (default: {DEFAULT_CONFIDENCE})",
    )
    g.add_argument(
        "--unit",
        default=None,
        metavar="U",
        help=f"what is resampled: {', '.join(UNITS)} (default: {UNITS[0]}, documents when there are at "
        "least 20, else sentences)",
    )


def keywords_of(verb: Callable[..., Any], ns: argparse.Namespace, **given: Any) -> dict[str, Any]:
    """``verb``'s keyword-only arguments that the command line holds by the same name, then ``given``.

    ``verb``'s signature is the list: the command line does not declare its options' names again.
    """
    import inspect  # here, at a run: ``--help`` does without it

    found = inspect.signature(verb).parameters.values()
    names = [p.name for p in found if p.kind is inspect.Parameter.KEYWORD_ONLY and hasattr(ns, p.name)]
    return {**{name: getattr(ns, name) for name in names}, **given}


def statistics(ns: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of `add_statistics`' options, for `nerve.score` and `nerve.compare`."""
    return {"bootstrap": ns.bootstrap, "seed": ns.seed, "confidence": ns.confidence, "unit": ns.unit}


def add_labels(p: argparse.ArgumentParser, pattern: bool = True) -> None:
    """The options that say which entities are compared: types mapped or filtered, a scheme per side.

    ``--map``, ``--types``, ``--ignore-types`` (both sides, before matching), ``--gold-scheme`` and
    ``--pred-scheme``; with ``pattern``, ``--pattern`` for directories too.
    """
    g, tags = group(p, LABELS), group(p, SCHEME)
    g.add_argument(
        "--map",
        default=None,
        metavar="MAP",
        help="rename types on both sides: OTH=MISC,person=PER, or a file of FROM=TO lines or a JSON object",
    )
    g.add_argument(
        "--types", default=None, metavar="T", help="score only these types (after --map), comma-separated"
    )
    g.add_argument(
        "--ignore-types",
        default=None,
        metavar="T",
        help="remove these types from both sides before matching (after --map), comma-separated",
    )
    tags.add_argument(
        "--gold-scheme", default=None, metavar="S", help="decode the gold tags with S (default: --scheme)"
    )
    tags.add_argument(
        "--pred-scheme",
        default=None,
        metavar="S",
        help="decode the predicted tags with S (default: --scheme)",
    )
    if not pattern:
        return
    group(p, INPUT).add_argument(
        "--pattern",
        default=None,
        help="directories: the CoNLL files to pair by relative name (default: *.conll)",
    )


def labels(ns: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of `add_labels`'s options, for `nerve.score`."""
    names = ("types", "ignore_types", "pattern", "gold_scheme", "pred_scheme")
    return {"label_map": ns.map, **{n: getattr(ns, n) for n in names if hasattr(ns, n)}}
