"""The input formats nerve reads, one `Format` record each, and the tables made of them.

In: a format's name, or a path to sniff. Out: its record (`format_named`), the format a path is in
(`sniff`), and what the readers, the checks and the ``nerve`` command list: the names ``--format``
takes, the offset units each span format takes, the formats that take an option, and the option's
help. Every such list is made from `FORMATS` when it is asked for, so a format registered there
is known everywhere at once.

A new format is one module here that builds its record (see ``nereval.py``) and one line in
`FORMATS`. The order of `FORMATS` is the order the names are listed in: tag formats, the dataset,
then the span formats; the sniffing chain runs by each `Rule`'s ``order`` instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import options
from ...errors import OptionError
from ..format import Format, Probe
from . import (
    bio,
    brat,
    conll,
    conllu,
    doccano,
    entity_list,
    eval4ner,
    hf,
    hf_pipeline,
    hipe,
    jsonl,
    labelstudio,
    nereval,
    nervaluate,
    nested,
    spacy,
    spacy_jsonl,
)

__all__ = [
    "FORMATS",
    "check_column",
    "check_lenient",
    "check_offsets",
    "format_named",
    "input_choices",
    "listed",
    "names",
    "offset_units",
    "option_help",
    "sniff",
    "taking",
    "targets",
    "text_formats",
]

#: Every format nerve reads, one record each, in the order they are listed.
FORMATS: list[Format] = [
    conll.FORMAT,
    bio.FORMAT,
    hf.FORMAT,
    jsonl.JSONL,
    jsonl.JSON,
    nereval.FORMAT,
    nervaluate.FORMAT,
    eval4ner.FORMAT,
    brat.FORMAT,
    doccano.FORMAT,
    labelstudio.FORMAT,
    hipe.FORMAT,
    conllu.FORMAT,
    nested.FORMAT,
    hf_pipeline.FORMAT,
    entity_list.FORMAT,
    spacy.FORMAT,
    spacy_jsonl.FORMAT,
]


def format_named(name: str) -> Format:
    """The record of the format called ``name`` (or one of its aliases); `KeyError` if none is."""
    for each in FORMATS:
        if name == each.name or name in each.aliases:
            return each
    raise KeyError(name)


def names(*kinds: str, scored: bool = False) -> tuple[str, ...]:
    """The names of the formats of ``kinds``, kind by kind; ``scored``: only those `nerve.score` reads."""
    return tuple(f.name for kind in kinds for f in FORMATS if f.kind == kind and (f.scored or not scored))


def input_choices() -> tuple[str, ...]:
    """What ``--format`` of ``score`` and ``validate`` takes: CoNLL, a dataset, a span format."""
    return names("tags", "dataset", "spans", scored=True)


def targets() -> tuple[str, ...]:
    """The formats ``nerve convert --to`` writes: those with a writer, tag formats first."""
    return tuple(f.name for kind in ("tags", "spans") for f in FORMATS if f.kind == kind and f.write)


def taking(option: str) -> tuple[str, ...]:
    """The formats that take ``option``, in the order they are listed."""
    return tuple(f.name for f in FORMATS if f.takes(option))


def listed(items: Sequence[str]) -> str:
    """``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def sniff(path: str) -> str:
    """The format ``path`` is in: the first of every format's sniffing rules, by order, that holds."""
    probe = Probe(path)
    rules = sorted(((rule, f.name) for f in FORMATS for rule in f.sniff), key=lambda pair: pair[0].order)
    return next((name for rule, name in rules if rule.test(probe)), "conll")


def offset_units() -> dict[str, tuple[str, ...]]:
    """The offset units each span format may be told it has, the widest choices first."""
    taken = sorted((f for f in FORMATS if f.offsets), key=lambda f: (-len(f.offsets), f.name))
    return {f.name: f.offsets for f in taken}


def text_formats() -> tuple[str, ...]:
    """The formats whose entities carry their text (``lenient``): those of token offsets first."""
    taken = sorted(
        (f for f in FORMATS if f.takes("lenient")), key=lambda f: ("token" not in f.offsets, f.name)
    )
    return tuple(f.name for f in taken)


def check_offsets(units: str | None, fmt: str, option: str = "offsets") -> str | None:
    """`nerve.options.offsets`, against the formats' offset units."""
    return options.offsets(units, fmt, offset_units(), option)


def check_lenient(value: bool, fmt: str, option: str = "lenient") -> None:
    """`nerve.options.lenient`, against the formats whose entities carry their text."""
    options.lenient(value, fmt, text_formats(), option)


def check_column(value: str | None, fmt: str) -> None:
    """Refuse ``column`` (the HIPE tag columns or the CoNLL-U MISC key) for other input."""
    if value is None:
        return
    if fmt not in taking("column"):
        detail = f"applies to {listed(taking('column'))} input, but the input reads as {fmt}"
        raise OptionError(options.flag("column"), detail)
    if not value.strip(", "):
        raise OptionError(options.flag("column"), "expected a column name, got an empty one")


def option_help(option: str, formats: Sequence[str] | None = None, common: str = "") -> str:
    """The help of ``option``: each format that takes it with its help, ``; ``-separated.

    Formats whose help is the same share it (``json, jsonl: ...``); ``formats``: those to list, in
    that order (default: every one that takes it); ``common``: the help of every format.
    """
    helps: dict[str, list[str]] = {}
    for name in formats if formats is not None else taking(option):
        helps.setdefault(common or format_named(name).options[option], []).append(name)
    return "; ".join(f"{', '.join(group)}: {text}" for text, group in helps.items())
