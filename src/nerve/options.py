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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar

from .errors import OptionError, SchemeOptionError
from .model.scheme_names import ALIASES, SUPPORTED_SCHEMES

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: the parsers stay cheap
if TYPE_CHECKING:
    from .model.schemes import Scheme, TagFormat

__all__ = ["FLATTEN_POLICIES", "INSTANCE_FORMATS", "MATCHINGS", "METRIC_FAMILIES", "OFFSET_UNITS", "OUTPUTS"]
__all__ += ["REPAIR_POLICIES", "SLICES", "SORTS", "SUBWORD_POLICIES", "TEXT_METRICS", "beta", "bootstrap"]
__all__ += ["command_line_names", "confidence", "encoding", "entity_repair", "flag", "fraction", "lenient"]
__all__ += ["matching", "metric_families", "muc_only", "offsets", "one_of", "outside", "percentage"]
__all__ += ["positive_int", "renamed", "repair", "resamples", "scheme", "seed", "setting", "slices"]
__all__ += ["stream_repair", "systems", "tag_format", "text_metrics", "unit"]

REPAIR_POLICIES = ("begin", "conlleval", "discard", "error")
METRIC_FAMILIES = ("exact", "muc")
TEXT_METRICS = ("ecer-ewer", "nerval", "bow", "botw", "boe")
MATCHINGS = ("optimal", "greedy")
OFFSET_UNITS = ("char", "token", "utf16", "byte")
SLICES = ("length", "type", "sentence_length", "document", "frequency", "seen", "meta", "nesting")
SUBWORD_POLICIES = ("first", "last", "majority", "all")  # hf: sub-token labels to word labels
SORTS = ("position", "frequency")  # of the error instances
INSTANCE_FORMATS = ("jsonl", "csv", "table")
OUTPUTS = ("table", "json", "markdown", "csv", "latex")  # nerve.report.renderers.RENDERERS' names
FLATTEN_POLICIES = ("outermost", "innermost", "longest", "first")  # = model.nesting.POLICIES, no numpy
UNITS = ("auto", "document", "sentence")  # what the bootstrap resamples; auto: documents if 20 or more
DEFAULT_RESAMPLES = 1000
MAX_RESAMPLES = 1_000_000  # resamples and trials: every resample's scores are kept in memory
DEFAULT_SEED = 12345  # the bootstrap's seed when none is given (sacreBLEU's default too)
DEFAULT_CONFIDENCE = 0.95
# Flags whose name is not the API's with dashes.
FLAGS = {"input_format": "--format", "categories": "--instance-category", "label_map": "--map"}
FLAGS.update(systems="SYSTEM", check_tokens="--ignore-tokens")

_COMMAND_LINE: ContextVar[bool] = ContextVar("nerve_command_line_names", default=False)


@contextmanager
def command_line_names() -> Iterator[None]:
    """Within this context, errors spell options as the ``nerve`` command's flags."""
    token = _COMMAND_LINE.set(True)
    try:
        yield
    finally:
        _COMMAND_LINE.reset(token)


_RENAMED: ContextVar[dict[str, str] | None] = ContextVar("nerve_renamed_options", default=None)


@contextmanager
def renamed(**names: str) -> Iterator[None]:
    """Within this context, errors name ``option`` as ``names[option]`` (agree's scheme: from_scheme)."""
    token = _RENAMED.set({**(_RENAMED.get() or {}), **names})
    try:
        yield
    finally:
        _RENAMED.reset(token)


def flag(option: str) -> str:
    """``option`` as the caller spells it: ``min_iou`` in Python, ``--min-iou`` on the command line."""
    option = (_RENAMED.get() or {}).get(option, option)
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
    from .model.schemes import SCHEMES  # here: the parsers check no scheme, and import no dataclass

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
    from .model.schemes import TagFormat  # here, as `scheme` imports SCHEMES

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
    if type(value) in (int, float):
        return True  # what a command line gives: `numbers`, an import of its own, only for the rest
    import numbers

    return isinstance(value, numbers.Real)


def beta(value: float, option: str = "beta") -> float:
    """The F-score's beta, > 0; ``inf`` weighs recall alone. NaN is refused."""
    if not _is_real(value) or not value > 0:
        raise OptionError(flag(option), f"expected a number > 0 (inf for recall alone), but got {value}")
    return value


def positive_int(value: object, option: str) -> int:
    """A whole number >= 1 (a count or a cap); booleans and floats are refused."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise OptionError(flag(option), f"expected a whole number >= 1, but got {value}")
    return int(value)


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


def slices(
    value: str | Sequence[str] | None, train: object = None, meta: object = None, option: str = "slices"
) -> tuple[str, ...]:
    """The slices named (`SLICES`, ``meta:NAME``, ``attr:NAME`` for one attribute); ``()`` when none is.

    They are checked against ``train`` and ``meta``: ``seen`` needs a training file and the meta
    slices a sidecar, and each file needs a slice that uses it.
    """
    items = value.split(",") if isinstance(value, str) else value or ()
    names = list(dict.fromkeys(m.strip() for m in items if m.strip()))
    unknown = [m for m in names if m not in SLICES and not (m[:5] in ("meta:", "attr:") and m[5:])]
    if unknown:
        detail = f"expected slices among {', '.join(SLICES)}, meta:NAME, attr:NAME; got {', '.join(unknown)}"
        raise OptionError(flag(option), detail)
    metas = [m for m in names if m.startswith("meta")]
    if "seen" in names and train is None:
        raise OptionError(flag(option), f"seen needs a training file: give {setting('train', 'FILE')}")
    if metas and meta is None:
        raise OptionError(
            flag(option), f"{metas[0]} needs a sidecar of document attributes: give {setting('meta', 'FILE')}"
        )
    if train is not None and "seen" not in names:
        raise OptionError(flag("train"), f"applies to the seen slice: add {setting(option, 'seen')}")
    if meta is not None and not metas:
        raise OptionError(flag("meta"), f"applies to the meta slices: add {setting(option, 'meta')}")
    return tuple(names)


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


def offsets(
    units: str | None, input_format: str, allowed: Mapping[str, Sequence[str]], option: str = "offsets"
) -> str | None:
    """What span offsets count, among ``allowed[input_format]`` (`nerve.io.formats.offset_units`)."""
    if units is None:
        return None
    one_of(units, OFFSET_UNITS, option)
    units_of = allowed.get(input_format)
    if units_of is None:
        formats = ", ".join(list(allowed)[:-1]) + f" and {list(allowed)[-1]}"
        hint = f"(set {setting('input_format', 'jsonl')} if it is one)"
        detail = f"applies to {formats} span files, but the input reads as {input_format} {hint}"
        raise OptionError(flag(option), detail)
    if units not in units_of:
        detail = f"{input_format} offsets count {', '.join(units_of[:-1])} or {units_of[-1]}, not {units}"
        raise OptionError(flag(option), detail)
    return units


def lenient(value: bool, input_format: str, allowed: Sequence[str], option: str = "lenient") -> None:
    """Refuse ``lenient`` (texts unlike their offsets') but for ``allowed`` (`io.formats.text_formats`)."""
    if value and input_format not in allowed:
        raise OptionError(flag(option), f"applies to {', '.join(allowed)} spans, not to {input_format}")


# --------------------------------------------------------------------------- statistics


def _whole(value: object) -> int | None:
    """``value`` as an int when it is a whole number (a string of digits from the command line)."""
    import numbers

    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("+").isdecimal():
        return int(value)
    return None


def resamples(value: int | str, option: str = "bootstrap") -> int:
    """How many bootstrap resamples (or randomisation trials): a whole number from 1 to `MAX_RESAMPLES`."""
    n = _whole(value)
    if n is None or not 1 <= n <= MAX_RESAMPLES:
        detail = f"expected a whole number from 1 to {MAX_RESAMPLES:,}, such as 1000, but got {value!r}"
        raise OptionError(flag(option), detail)
    return n


def seed(value: int | str, option: str = "seed") -> int:
    """The seed of the resampling: a whole number >= 0."""
    n = _whole(value)
    if n is None or n < 0:
        raise OptionError(flag(option), f"expected a whole number >= 0, but got {value!r}")
    return n


def confidence(value: float | str, option: str = "confidence") -> float:
    """The confidence level of an interval, in (0, 1): 0.95 for 95 %."""
    number = float("nan")
    if isinstance(value, str):
        with suppress(ValueError):
            number = float(value)
    elif _is_real(value):
        number = float(value)
    if not 0 < number < 1:
        hint = " (0.95 for 95%)" if 1 < number <= 100 else ""
        raise OptionError(flag(option), f"expected a fraction in (0, 1){hint}, but got {value!r}")
    return number


def unit(name: str, option: str = "unit") -> str:
    """What the bootstrap resamples: ``auto`` (documents if 20 or more), ``document`` or ``sentence``."""
    return one_of(name, UNITS, option)


def bootstrap(
    n: int | str | None,
    seed_value: int | str | None = None,
    level: float | str | None = None,
    unit_name: str | None = None,
) -> tuple[int, int, float, str] | None:
    """The bootstrap's (resamples, seed, confidence, unit), or ``None`` when ``n`` is ``None``.

    Without ``n``, a seed, confidence or unit is refused: they apply to the bootstrap alone.
    """
    if n is None:
        for option, value in {"seed": seed_value, "confidence": level, "unit": unit_name}.items():
            if value is not None:
                add = f"{flag('bootstrap')} 1000" if _COMMAND_LINE.get() else "bootstrap=1000"
                raise OptionError(flag(option), f"applies to bootstrap intervals: add {add}")
        return None
    return (
        resamples(n),
        seed(DEFAULT_SEED if seed_value is None else seed_value),
        confidence(DEFAULT_CONFIDENCE if level is None else level),
        unit(UNITS[0] if unit_name is None else unit_name),
    )


def systems(names: Sequence[object], option: str = "systems") -> None:
    """At least two systems to compare: the baseline first."""
    if len(names) < 2:
        detail = f"expected at least two systems, the baseline first, but got {len(names)}"
        raise OptionError(flag(option), detail)
