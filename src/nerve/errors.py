"""Exceptions raised by nerve, each carrying where the problem is.

Every error a user can cause names the file (or input), the line and what was expected,
so that the CLI can print it as one line and exit with status 2.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: the parsers stay cheap
if TYPE_CHECKING:
    from .problem import Problem

__all__ = [
    "InputError",
    "InvalidSequenceError",
    "NerveError",
    "OptionError",
    "Problem",
    "SchemeError",
    "SchemeOptionError",
    "plural",
]


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1: ``1 document``, ``2 documents``.

    ``nouns`` is the plural when it is not ``noun`` + ``s``: ``plural(n, "id or length", "ids or lengths")``.
    """
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


class NerveError(Exception):
    """Base class of every error nerve raises on purpose.

    The errors a user's input or options cause (`InputError`, `OptionError`, `SchemeError`,
    `InvalidSequenceError`) are also ``ValueError``s, as the errors of the tools nerve stands in
    for (seqeval, nervaluate...) are, so ``except ValueError:`` keeps catching them.
    """


class InputError(NerveError, ValueError):
    """Input that cannot be read: a missing file, a malformed line, misaligned files.

    Attributes:
        source: the file name or a description of the input (``"<gold>"``, ``"document 3, span 2"``).
        line: the 1-based line number, or ``None`` when the problem is not on one line.
        detail: what was found and what was expected.
        option: the option that would fix it (``"--ignore-tokens"``), if there is one.
    """

    def __init__(self, source: str, line: int | None, detail: str, option: str | None = None) -> None:
        self.source = source
        self.line = line
        self.detail = detail
        self.option = option
        where = f"{source}:{line}" if line is not None else source
        hint = f" (use {option})" if option and option not in detail else ""
        super().__init__(f"{where}: {detail}{hint}")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by the constructor's arguments, so the error crosses processes (Dask workers) intact."""
        return type(self), (self.source, self.line, self.detail, self.option)


class OptionError(NerveError, ValueError):
    """An option with a value nerve cannot use, or that does not apply to the input.

    Attributes:
        option: the option's name as the caller spelled it (``"beta"``, ``"--min-iou"``).
        detail: what was given and what was expected.
    """

    def __init__(self, option: str, detail: str) -> None:
        self.option = option
        self.detail = detail
        super().__init__(f"{option}: {detail}")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by the constructor's arguments (see `InputError.__reduce__`)."""
        return type(self), (self.option, self.detail)


class SchemeError(NerveError, ValueError):
    """A tagging scheme, tag format or repair policy that does not fit the input."""


class SchemeOptionError(OptionError, SchemeError):
    """An unknown scheme, tag format or repair policy: an `OptionError`, and a `SchemeError` as before."""


class InvalidSequenceError(NerveError, ValueError):
    """Raised by the ``error`` repair policy: the input has transitions its scheme forbids."""

    def __init__(self, problems: list[Problem], scheme: str) -> None:
        self.problems = problems
        self.scheme = scheme
        first = f"; first: {problems[0]}" if problems else ""
        super().__init__(f"{plural(len(problems), 'invalid transition')} for scheme {scheme}{first}")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by the constructor's arguments (see `InputError.__reduce__`)."""
        return type(self), (self.problems, self.scheme)


def __getattr__(name: str) -> object:
    """`Problem`, from `nerve.problem`, imported when first asked for (``from nerve.errors import Problem``).

    It is a dataclass, and `dataclasses` (with `inspect`) costs about 10 ms of start-up, which
    ``nerve --help`` and the parsers, which import this module, do without.
    """
    if name == "Problem":
        from .problem import Problem

        return Problem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
