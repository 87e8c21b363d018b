"""Every option's check, once, with one wording wherever the option is taken.

In: an option's value as a caller gave it. Out: the value nerve uses (a `Scheme`, a `TagFormat`, a
tuple of names, the number itself), or an `OptionError(option, detail)`. The API, the streaming
metric, the compat layers and the ``nerve`` command all call these, so a bad ``beta`` reads the
same everywhere. Inside `command_line_names` (the ``nerve`` command runs in it) options are spelled
as flags: ``--min-iou`` rather than ``min_iou``, ``--metrics exact,muc`` rather than
``metrics='exact,muc'``.
"""

from __future__ import annotations

import codecs
import numbers
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import OptionError, SchemeOptionError
from .model.schemes import ALIASES, SCHEMES, SUPPORTED_SCHEMES, Scheme, TagFormat

__all__ = [
    "FORMAT_OFFSETS",
    "MATCHINGS",
    "METRIC_FAMILIES",
    "OFFSET_UNITS",
    "REPAIR_POLICIES",
    "TEXT_METRICS",
    "beta",
    "command_line_names",
    "encoding",
    "entity_repair",
    "flag",
    "fraction",
    "matching",
    "metric_families",
    "muc_only",
    "offsets",
    "one_of",
    "outside",
    "percentage",
    "repair",
    "scheme",
    "setting",
    "stream_repair",
    "tag_format",
    "text_metrics",
]

REPAIR_POLICIES = ("begin", "conlleval", "discard", "error")
METRIC_FAMILIES = ("exact", "muc")
TEXT_METRICS = ("ecer-ewer", "nerval", "bow", "botw", "boe")
MATCHINGS = ("optimal", "greedy")
OFFSET_UNITS = ("char", "token", "utf16")
#: The offset units each span format may be told it has (``--offsets``): characters (code points,
#: as Python counts them), tokens, or UTF-16 code units (JavaScript tools), converted on read.
FORMAT_OFFSETS = {
    "json": ("char", "token"),
    "jsonl": ("char", "token"),
    "doccano": ("char", "utf16"),
    "labelstudio": ("char", "utf16"),
}
SPAN_OFFSET_FORMATS = tuple(FORMAT_OFFSETS)
# Flags whose name is not the API's with dashes.
FLAGS = {"input_format": "--format", "categories": "--category", "types": "--type"}

_COMMAND_LINE: ContextVar[bool] = ContextVar("nerve_command_line_names", default=False)


@contextmanager
def command_line_names() -> Iterator[None]:
    """Within this context, errors spell options as the ``nerve`` command's flags."""
    token = _COMMAND_LINE.set(True)
    try:
        yield
    finally:
        _COMMAND_LINE.reset(token)


def flag(option: str) -> str:
    """``option`` as the caller spells it: ``min_iou`` in Python, ``--min-iou`` on the command line."""
    if not _COMMAND_LINE.get():
        return option
    return FLAGS.get(option, "--" + option.replace("_", "-"))


def setting(option: str, value: str) -> str:
    """How to set ``option`` to ``value``: ``metrics='exact,muc'``, or ``--metrics exact,muc``."""
    return f"{flag(option)} {value}" if _COMMAND_LINE.get() else f"{option}={value!r}"


def one_of(value: str, choices: Sequence[str], option: str) -> str:
    """``value``, checked to be one of ``choices``."""
    if value not in choices:
        raise OptionError(flag(option), f"expected one of {', '.join(choices)}, but got {value!r}")
    return value


def _names(value: str | Sequence[str], known: Sequence[str], option: str) -> list[str]:
    """The names of a comma-separated string or a sequence, each checked to be in ``known``."""
    names = [m.strip() for m in (value.split(",") if isinstance(value, str) else value) if m.strip()]
    unknown = [m for m in names if m not in known]
    if unknown:
        got = ", ".join(unknown)
        raise OptionError(flag(option), f"expected metrics among {', '.join(known)}, but got {got}")
    return names


# --------------------------------------------------------------------------- tags


def scheme(name: str, option: str = "scheme") -> Scheme | None:
    """The scheme called ``name`` (any case; BIO, BIOES, BIOLU are aliases), ``None`` for ``auto``."""
    key = name.upper()
    if key == "AUTO":
        return None
    key = ALIASES.get(key, key)
    if key not in SCHEMES:
        detail = f"expected one of {', '.join(SUPPORTED_SCHEMES)}, but got {name!r}"
        raise SchemeOptionError(flag(option), detail)
    return SCHEMES[key]


def outside(tag: str, option: str = "outside") -> str:
    """The outside tag, checked to be one token: not empty, no spaces."""
    if not isinstance(tag, str) or tag.split() != [tag]:
        raise OptionError(flag(option), f"expected a tag without spaces, such as O, but got {tag!r}")
    return tag


def tag_format(
    value: str | TagFormat | None, outside_tag: str = "O", option: str = "tag_format"
) -> TagFormat | None:
    """``"B-X"``, ``"X-B"``, ``"B_X"``, ``"X"`` (bare types)... as a `TagFormat`; ``None`` to infer it."""
    outside(outside_tag)
    if value is None or value == "auto":
        return None
    if isinstance(value, TagFormat):
        return value
    text = value.strip()
    if text == "X":
        return TagFormat("bare", "-", outside_tag)
    if len(text) == 3 and text[0] == "B" and text[2] == "X":
        return TagFormat("prefix", text[1], outside_tag)
    if len(text) == 3 and text[0] == "X" and text[2] == "B":
        return TagFormat("suffix", text[1], outside_tag)
    detail = f"expected a format like B-X, X-B, B_X or X (bare types), but got {value!r}"
    raise SchemeOptionError(flag(option), detail)


def repair(name: str, option: str = "repair") -> str:
    """The repair policy called ``name``."""
    if name not in REPAIR_POLICIES:
        detail = f"expected one of {', '.join(REPAIR_POLICIES)}, but got {name!r}"
        raise SchemeOptionError(flag(option), detail)
    return name


def entity_repair(name: str, use: str, option: str = "repair") -> str:
    """A repair policy that decodes entities: conlleval's rules only count chunks, so not for ``use``.

    ``use`` completes "conlleval cannot ...", e.g. ``"decode entities: its rules only count chunks"``.
    """
    policy = repair(name, option)
    if policy == "conlleval":
        raise SchemeOptionError(flag(option), f"conlleval cannot {use}; use begin, discard or error")
    return policy


def stream_repair(name: str, option: str = "repair") -> str:
    """A repair policy for streaming: conlleval's state crosses sentences, so it cannot stream."""
    return entity_repair(name, "stream: its state carries from one sentence to the next", option)


# --------------------------------------------------------------------------- scores


def _is_real(value: object) -> bool:
    """Whether ``value`` is a real number (numpy's included), not a string."""
    return isinstance(value, numbers.Real)


def beta(value: float, option: str = "beta") -> float:
    """The F-score's beta, > 0; ``inf`` weighs recall alone. NaN is refused."""
    if not _is_real(value) or not value > 0:
        raise OptionError(flag(option), f"expected a number > 0 (inf for recall alone), but got {value}")
    return value


def fraction(value: float | None, option: str, *, zero: bool = True) -> float | None:
    """A share in [0, 1] (``zero=False``: in (0, 1]), or ``None`` when not given. NaN is refused."""
    if value is None:
        return None
    inside = _is_real(value) and (value >= 0 if zero else value > 0) and value <= 1
    if not inside:
        interval = "[0, 1]" if zero else "(0, 1]"
        raise OptionError(flag(option), f"expected a fraction in {interval}, but got {value}")
    return value


def percentage(value: float | None, option: str) -> float | None:
    """A percentage in [0, 100] as a fraction in [0, 1] (30 is 0.3), or ``None`` when not given."""
    if value is None:
        return None
    if not (_is_real(value) and 0 <= value <= 100):
        raise OptionError(flag(option), f"expected a percentage in [0, 100], but got {value}")
    return value / 100


def metric_families(metrics: str | Sequence[str], option: str = "metrics") -> tuple[str, ...]:
    """``"exact,muc"`` as ``("exact", "muc")``; exact match is always there (it is the headline)."""
    return tuple(dict.fromkeys(["exact", *_names(metrics, METRIC_FAMILIES, option)]))


def text_metrics(metrics: str | Sequence[str], option: str = "metrics") -> tuple[str, ...]:
    """The text-level metrics named (``ecer-ewer``, ``nerval``, ``bow``, ``botw``, ``boe``)."""
    return tuple(dict.fromkeys(_names(metrics, TEXT_METRICS, option)))


def matching(name: str, option: str = "matching") -> str:
    """MUC's matching: ``optimal`` one-to-one, or ``greedy`` as nervaluate 1.2.1."""
    return one_of(name, MATCHINGS, option)


def muc_only(families: Sequence[str], given: Mapping[str, object]) -> None:
    """Refuse MUC's options (``given``: name to value) when ``families`` lacks muc.

    A value of ``None``, ``False`` or ``"optimal"`` (the defaults) counts as not given.
    """
    if "muc" in families:
        return
    for option, value in given.items():
        if value not in (None, False, "optimal"):
            raise OptionError(flag(option), f"applies to MUC scoring: add {setting('metrics', 'exact,muc')}")


# --------------------------------------------------------------------------- reading


def encoding(name: str, option: str = "encoding") -> str:
    """A text encoding Python knows (``rot13`` is a codec, but not a text encoding)."""
    try:
        codecs.lookup(name)
        "".encode(name)  # LookupError for codecs that are not text encodings
    except LookupError:
        detail = f"expected a text encoding such as utf-8 or latin-1, but got {name!r}"
        raise OptionError(flag(option), detail) from None
    return name


def offsets(units: str | None, input_format: str, option: str = "offsets") -> str | None:
    """What span offsets count (`FORMAT_OFFSETS` of ``input_format``); refused for other input."""
    if units is None:
        return None
    one_of(units, OFFSET_UNITS, option)
    allowed = FORMAT_OFFSETS.get(input_format)
    if allowed is None:
        formats = ", ".join(SPAN_OFFSET_FORMATS[:-1]) + f" and {SPAN_OFFSET_FORMATS[-1]}"
        hint = f"(set {setting('input_format', 'jsonl')} if it is one)"
        detail = f"applies to {formats} span files, but the input reads as {input_format} {hint}"
        raise OptionError(flag(option), detail)
    if units not in allowed:
        detail = f"{input_format} offsets count {' or '.join(allowed)}, not {units}"
        raise OptionError(flag(option), detail)
    return units
