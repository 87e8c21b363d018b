"""The ``nerve`` command: a thin layer over the public API.

It parses arguments, calls `nerve.score` / `nerve.validate` / the conlleval drop-in, renders, and
maps errors to exit statuses: 0 success, 1 problems found by ``validate``, 2 unusable input or
arguments (a one-line message naming the file and line; no traceback).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .._version import __version__
from ..api import score, score_text, validate
from ..compat import conlleval
from ..errors import InvalidSequenceError, NerveError
from ..model.schemes import SUPPORTED_SCHEMES
from ..report.renderers import RENDERERS, TEXT_COMMANDS, render, render_text
from ..tagging.decode import REPAIR_POLICIES

__all__ = ["main"]


def _input_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file", metavar="FILE", help="a merged file (..., gold tag, predicted tag) or the gold file"
    )
    p.add_argument(
        "pred_file", metavar="PRED_FILE", nargs="?", help="the prediction file, aligned line by line"
    )
    p.add_argument(
        "--scheme",
        default="auto",
        metavar="S",
        help=f"tagging scheme: {', '.join(SUPPORTED_SCHEMES)} (default: auto, inferred from the tags)",
    )
    p.add_argument(
        "--tag-format",
        default=None,
        metavar="F",
        help="how tags are spelled: B-X, X-B, B_X, X_B, ... or X for bare types (default: inferred)",
    )
    p.add_argument("--outside", default="O", metavar="TAG", help="the outside tag (default: O)")
    p.add_argument("--comments", action="store_true", help="treat lines starting with # as comments")
    p.add_argument(
        "--delimiter",
        default=None,
        metavar="D",
        help="what separates columns: tab, space or one character, each occurrence of which separates "
        "two columns, so empty columns are kept and an empty tag is O (default: runs of spaces and tabs)",
    )
    p.add_argument("--encoding", default="utf-8", help="the files' encoding (default: utf-8)")
    p.add_argument(
        "--ignore-tokens",
        action="store_true",
        help="do not require the token columns of the gold and prediction files to agree",
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nerve",
        description="Evaluation for named-entity recognition and other chunking tasks.",
    )
    parser.add_argument("--version", action="version", version=f"nerve {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser(
        "score",
        help="score predicted entities against gold ones",
        description="Score predicted entities against gold entities (exact match), with the signature.",
    )
    _input_options(s)
    s.add_argument(
        "--repair",
        default="begin",
        choices=REPAIR_POLICIES,
        help="what to do with transitions the scheme does not allow (default: begin)",
    )
    s.add_argument("--beta", type=float, default=1.0, help="also report the F-beta score for this beta")
    s.add_argument(
        "--metrics",
        default="exact",
        help="metric families, comma-separated: exact (always), muc (the MUC-5/SemEval-2013 modes)",
    )
    s.add_argument(
        "--format",
        dest="input_format",
        default=None,
        choices=["conll", "jsonl", "json", "nereval", "nervaluate", "eval4ner"],
        help="input format (default: sniffed from the file)",
    )
    s.add_argument(
        "--offsets", default=None, choices=["char", "token"], help="json/jsonl: what span offsets count"
    )
    s.add_argument("--document-average", action="store_true", help="muc: also average P/R/F1 over documents")
    s.add_argument(
        "--matching",
        default="optimal",
        choices=["optimal", "greedy"],
        help="muc: optimal one-to-one matching (default), or greedy to reproduce nervaluate 1.2.1",
    )
    s.add_argument("--min-iou", type=float, default=None, help="muc: overlap needs at least this IoU")
    s.add_argument(
        "--min-gold-share",
        type=float,
        default=None,
        help="muc: overlap must cover this share of the gold entity",
    )
    s.add_argument(
        "--output", "-o", default="table", choices=list(RENDERERS), help="output format (default: table)"
    )

    v = sub.add_parser(
        "validate",
        help="list every transition the scheme does not allow",
        description="List every invalid transition with its file and line; exit 1 if there is any.",
    )
    _input_options(v)
    v.add_argument(
        "--merged", action="store_true", help="FILE is a merged file: check both of its last two columns"
    )

    text_help = {
        "ecer-ewer": "order-independent entity character and word error rates (OI-ECER/EWER)",
        "nerval": "order-independent Nerval: precision, recall and F1 of entities matched by text",
        "bow": "bag of words: the words of the entities",
        "botw": "bag of tagged words: (category, word)",
        "boe": "bag of entities: (category, entity text)",
        "ie-all": "all of the text-level metrics, in one pass over the data",
    }
    for name in TEXT_COMMANDS:
        t = sub.add_parser(
            name,
            help=text_help[name],
            description=f"Text-level metrics for noisy transcriptions: {text_help[name]}. Input: a "
            "label and a prediction directory of *.bio files paired by name (ie-eval's layout), or "
            "CoNLL files with documents at -DOCSTART- lines.",
        )
        t.add_argument(
            "files", metavar="FILE", nargs="*", help="a merged CoNLL file, or a gold and a prediction file"
        )
        t.add_argument("--label-dir", "-l", metavar="DIR", help="the directory of gold *.bio files")
        t.add_argument("--prediction-dir", "-p", metavar="DIR", help="the directory of predicted *.bio files")
        t.add_argument("--by-category", "-c", action="store_true", help="add a row per category")
        if name in ("nerval", "ie-all"):
            t.add_argument(
                "--threshold",
                "-t",
                type=float,
                default=0.3,
                help="the largest character error rate of a match, a fraction in [0, 1] (default: 0.3)",
            )
        t.add_argument("--scheme", default="IOB2", metavar="S", help="tagging scheme (default: IOB2)")
        t.add_argument(
            "--repair",
            default="begin",
            choices=[p for p in REPAIR_POLICIES if p != "conlleval"],
            help="what to do with invalid transitions (default: begin; every one is counted)",
        )
        t.add_argument(
            "--output",
            "-o",
            default="markdown",
            choices=["markdown", "json", "table"],
            help="output format (default: markdown)",
        )

    sub.add_parser(
        "conlleval",
        help="a byte-identical drop-in for conlleval.pl",
        description="A drop-in for conlleval.pl; run `nerve conlleval --help`.",
        add_help=False,
    )
    return parser


def _fail(message: str) -> int:
    sys.stderr.write(f"nerve: error: {message}\n")
    return 2


def _text_command(ns: argparse.Namespace) -> int:
    """Run one of the text-metric commands."""
    dirs = ns.label_dir is not None or ns.prediction_dir is not None
    if dirs and ns.files:
        return _fail("give either --label-dir and --prediction-dir, or CoNLL files, not both")
    if dirs:
        if ns.label_dir is None or ns.prediction_dir is None:
            return _fail("--label-dir and --prediction-dir go together")
        label, prediction = ns.label_dir, ns.prediction_dir
    elif 1 <= len(ns.files) <= 2:
        label, prediction = ns.files[0], ns.files[1] if len(ns.files) == 2 else None
    else:
        return _fail("expected --label-dir DIR --prediction-dir DIR, or FILE [PRED_FILE]")
    metrics = ["ecer-ewer", "nerval", "bow", "botw", "boe"] if ns.command == "ie-all" else [ns.command]
    scores = score_text(
        label,
        prediction,
        metrics=metrics,
        threshold=getattr(ns, "threshold", 0.3),
        scheme=ns.scheme,
        repair=ns.repair,
        directories=dirs,
    )
    repaired = f"; {scores.repairs} invalid transitions repaired ({ns.repair})" if scores.repairs else ""
    sys.stderr.write(f"nerve: {scores.documents} documents, complete and valid{repaired}\n")
    sys.stdout.write(render_text(scores, ns.command, ns.output, ns.by_category))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``nerve`` command and return its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "conlleval":
        return conlleval.main(args[1:])
    ns = _parser().parse_args(args)
    try:
        if ns.command in TEXT_COMMANDS:
            return _text_command(ns)
        reading = {
            "scheme": ns.scheme,
            "tag_format": ns.tag_format,
            "outside": ns.outside,
            "comments": ns.comments,
            "encoding": ns.encoding,
            "check_tokens": not ns.ignore_tokens,
            "delimiter": ns.delimiter,
        }
        if ns.command == "score":
            result = score(
                ns.file,
                ns.pred_file,
                repair=ns.repair,
                beta=ns.beta,
                metrics=ns.metrics,
                min_iou=ns.min_iou,
                min_gold_share=ns.min_gold_share,
                input_format=ns.input_format,
                document_average=ns.document_average,
                matching=ns.matching,
                offsets=ns.offsets,
                **reading,
            )
            sys.stdout.write(render(result, ns.output))
            return 0
        scheme, problems = validate(ns.file, ns.pred_file, merged=ns.merged, **reading)
        for problem in problems:
            sys.stdout.write(f"{problem}\n")
        n = len(problems)
        inferred = " (auto)" if ns.scheme.lower() == "auto" else ""
        verdict = f"{n} invalid transition{'s' if n != 1 else ''}" if n else "valid"
        sys.stdout.write(f"{verdict}: scheme {scheme.name}{inferred}\n")
        return 1 if problems else 0
    except InvalidSequenceError as err:
        for problem in err.problems:
            sys.stderr.write(f"{problem}\n")
        return _fail(f"{len(err.problems)} invalid transitions for scheme {err.scheme} (--repair error)")
    except (NerveError, ValueError) as err:
        return _fail(str(err))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
