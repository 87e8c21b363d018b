"""``nerve validate``: every transition the scheme does not allow, with its file and line.

In: the parsed command line. Out: one line per problem and a verdict for stdout; exit status 1 when
there is a problem, 0 when there is none.
"""

from __future__ import annotations

import argparse
from typing import Any

from .. import options
from ..api import validate, validate_spans
from ..api.sources import input_kind
from ..errors import OptionError, plural
from ..io.formats import format_named, names
from ..io.reader_options import ReaderOptions
from ..io.spans import side_formats
from ..io.tags.hf import read_hf
from .options import (
    INPUT,
    add_command,
    add_files,
    add_sources,
    add_span_reading,
    group,
    reading,
    source,
)
from .output import Output
from .progress import Progress

__all__ = ["add_parser", "run"]

BYTES_PER_SECOND = 30_000_000  # input read and checked in about a second: below that, no progress bar

ABOUT = """list every transition the scheme does not allow

List every invalid transition with its file and line; exit 1 if there is any.
"""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``validate`` and its options."""
    v = add_command(sub, "validate", ABOUT, run)
    add_files(v)
    group(v, INPUT).add_argument(
        "--merged", action="store_true", help="FILE is a merged file: check both of its last two columns"
    )
    add_span_reading(v, lenient=False)
    add_sources(v)


#: The options of tagged input and the values that mean "not given".
_TAG_OPTIONS = {"scheme": "auto", "tag_format": None, "outside": "O", "comments": False, "delimiter": None}
_TAG_OPTIONS.update(encoding="utf-8", ignore_tokens=False, merged=False)
#: The options of span files and datasets ("not given": ``None``).
_SPAN_OPTIONS = ("offsets", "column", "spans_key", "tag_column", "label_names")
_OPTION_NAMES = {"ignore_tokens": "check_tokens"}  # a flag's option, as the format records name it


def _refuse_unused(ns: argparse.Namespace, kind: str) -> None:
    """Refuse an option that no format of ``kind``'s kind (tags, spans, dataset) takes.

    Nothing given is ignored. Which formats take which option: `nerve.io.formats`.
    """
    kin = [format_named(name) for name in names(format_named(kind).kind)]

    def taken(option: str) -> bool:
        return any(f.takes(_OPTION_NAMES.get(option, option)) for f in kin)

    for option, unset in _TAG_OPTIONS.items():
        value = getattr(ns, option)
        if taken(option) or value == unset or (option == "scheme" and str(value).lower() == "auto"):
            continue
        raise OptionError(
            options.flag(option), f"applies to tagged (CoNLL) input, but the input reads as {kind}"
        )
    for option in _SPAN_OPTIONS:
        if getattr(ns, option) is not None and not taken(option):
            raise OptionError(options.flag(option), f"does not apply to {kind} input")


def run(ns: argparse.Namespace) -> Output:
    """Validate, and hand back the problems and the verdict, with status 1 if there is a problem."""
    kind = input_kind(ns.file, ns.input_format, None) if ns.file != "-" else "conll"
    _refuse_unused(ns, kind)
    gold: Any = source(ns.file)
    pred: Any = source(ns.pred_file)
    if kind == "hf":  # ids outside the names and rows of different lengths raise; then the tags' transitions
        names = ReaderOptions(label_names=ns.label_names).names()
        gold, pred = (
            read_hf(ns.file, ns.pred_file, tag_column=ns.tag_column or "ner_tags", label_names=names),
            None,
        )
    elif kind != "conll":
        return _spans(ns, kind)
    with Progress("B", BYTES_PER_SECOND) as progress:
        scheme, problems = validate(gold, pred, merged=ns.merged, progress=progress, **reading(ns))
    lines = [f"{problem}\n" for problem in problems]
    n = len(problems)
    inferred = " (auto)" if ns.scheme.lower() == "auto" else ""
    verdict = plural(n, "invalid transition") if n else "valid"
    lines.append(f"{verdict}: scheme {scheme.name}{inferred}\n")
    return Output("".join(lines), 1 if problems else 0)


def _spans(ns: argparse.Namespace, kind: str) -> Output:
    """Every problem of a span file (and its prediction file, sniffed on its own), then the verdict."""
    problems = validate_spans(
        ns.file, ns.pred_file, fmt=ns.input_format, units=ns.offsets, column=ns.column, spans_key=ns.spans_key
    )
    lines = [f"{problem}\n" for problem in problems]
    verdict = plural(len(problems), "problem") if problems else "valid"
    each = "/".join(dict.fromkeys(side_formats(ns.file, ns.pred_file, ns.input_format)))
    lines.append(f"{verdict}: {each} spans\n")
    return Output("".join(lines), 1 if problems else 0)
