"""``nerve validate``: every transition the scheme does not allow, with its file and line.

In: the parsed command line. Out: one line per problem and a verdict for stdout; exit status 1 when
there is a problem, 0 when there is none.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..api import validate, validate_spans
from ..api.sources import input_kind
from ..errors import plural
from ..io.hf import read_hf
from .options import add_files, add_format, add_reading, reading, source
from .output import Output

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``validate`` and its options."""
    v = sub.add_parser(
        "validate",
        help="list every transition the scheme does not allow",
        description="List every invalid transition with its file and line; exit 1 if there is any.",
    )
    add_files(v)
    add_reading(v)
    v.add_argument(
        "--merged", action="store_true", help="FILE is a merged file: check both of its last two columns"
    )
    add_format(v)
    v.set_defaults(run=run)


def run(ns: argparse.Namespace) -> Output:
    """Validate, and hand back the problems and the verdict, with status 1 if there is a problem."""
    kind = input_kind(ns.file, ns.input_format, None) if ns.file != "-" else "conll"
    gold: Any = source(ns.file)
    pred: Any = source(ns.pred_file)
    if kind == "hf":  # ids outside the names and rows of different lengths raise; then the tags' transitions
        gold, pred = read_hf(ns.file, ns.pred_file), None
    elif kind != "conll":
        return _spans(ns.file, ns.pred_file, kind)
    scheme, problems = validate(
        gold,
        pred,
        merged=ns.merged,
        **reading(ns),
    )
    lines = [f"{problem}\n" for problem in problems]
    n = len(problems)
    inferred = " (auto)" if ns.scheme.lower() == "auto" else ""
    verdict = plural(n, "invalid transition") if n else "valid"
    lines.append(f"{verdict}: scheme {scheme.name}{inferred}\n")
    return Output("".join(lines), 1 if problems else 0)


def _spans(gold: str, pred: str | None, kind: str) -> Output:
    """Every problem of a span file (and its prediction file), then the verdict."""
    problems = validate_spans(gold, pred, fmt=kind)
    lines = [f"{problem}\n" for problem in problems]
    verdict = plural(len(problems), "problem") if problems else "valid"
    lines.append(f"{verdict}: {kind} spans\n")
    return Output("".join(lines), 1 if problems else 0)
