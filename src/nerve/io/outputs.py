"""The options of the formats of model outputs: ``min_score``, ``locate`` and ``normalize``.

In: the values given to `nerve.score` (or on the command line), and the formats a run reads. Out:
`OutputReading`, checked (`output_reading`); the readers' view of it while they read
(`reading_outputs`, a context, and `current`); and its part of the signature
(`OutputReading.describe`). Which format takes which option is said by each `Format` record's
``options`` (`nerve.io.spans` refuses an option that no format of the run takes).

- ``min_score`` (``hf-pipeline``): predictions whose ``score`` is below it are dropped, and counted.
- ``locate`` (``entity-list``): how an entity listed without offsets is found in its text:
  ``in-order`` (the default: the k-th listing of a text is its k-th occurrence, left to right),
  ``first`` (its first occurrence) or ``all`` (every occurrence).
- ``normalize`` (``entity-list``): what is ignored when entity texts are matched against the
  text: ``case`` (case-folded), ``space`` (runs of white space are one space), ``punct``
  (punctuation left out), ``nfkc`` (Unicode compatibility forms).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from .. import options
from .._frozen import frozen
from ..errors import OptionError

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from .format import Format

__all__ = [
    "HALLUCINATED",
    "LOCATE",
    "NORMALIZE",
    "OutputReading",
    "current",
    "holds_predictions",
    "output_reading",
    "reading_outputs",
]

LOCATE = ("in-order", "first", "all")
NORMALIZE = ("case", "space", "punct", "nfkc")
_NAMES = ("min_score", "locate", "normalize")


def holds_predictions(record: Format) -> bool:
    """Whether a format is a model's output (it takes an option above): its one side is predictions."""
    return any(record.takes(name) for name in _NAMES)


#: The attribute of an entity list's spans holding a hallucinated entity's listed text (``None``
#: for the located ones; `nerve.io.json.entity_list`).
HALLUCINATED = "hallucinated"


@frozen
class OutputReading:
    """The options of the output formats, checked; ``locate`` and ``normalize`` as given (``None``: not)."""

    min_score: float | None = None
    locate: str | None = None
    normalize: tuple[str, ...] | None = None

    @property
    def rule(self) -> str:
        """The locating rule in force: ``locate``, or ``in-order``."""
        return self.locate or "in-order"

    @property
    def steps(self) -> tuple[str, ...]:
        """The normalisation steps in force, in `NORMALIZE` order."""
        return self.normalize or ()

    def given(self) -> list[str]:
        """The options set, by their keyword names."""
        return [name for name in _NAMES if getattr(self, name) is not None]

    def describe(self, takes: Collection[str]) -> str:
        """The signature's words for formats that take the options ``takes``: ``locate in-order``..."""
        words = []
        if "min_score" in takes and self.min_score is not None:
            words.append(f"min-score {self.min_score:g}")
        if "locate" in takes:
            words.append(f"locate {self.rule}")
            words.append(f"normalize {','.join(self.steps) or 'none'}")
        return " ".join(words)


def output_reading(
    min_score: float | None, locate: str | None, normalize: str | Sequence[str] | None
) -> OutputReading:
    """The options checked: a fraction, one of `LOCATE`, names among `NORMALIZE` (comma-separated)."""
    score = options.fraction(min_score, "min_score")
    rule = None if locate is None else options.one_of(locate, LOCATE, "locate")
    steps = None
    if normalize is not None:
        if not isinstance(normalize, str | list | tuple):
            detail = f"expected names among {', '.join(NORMALIZE)}, got {type(normalize).__name__}"
            raise OptionError(options.flag("normalize"), detail)
        names = [n.strip() for n in (normalize.split(",") if isinstance(normalize, str) else normalize)]
        wrong = [n for n in names if n not in NORMALIZE and n != "none"]
        if wrong or not names:
            got = ", ".join(map(repr, wrong)) or "nothing"
            detail = f"expected names among {', '.join(NORMALIZE)} (or none), comma-separated, but got {got}"
            raise OptionError(options.flag("normalize"), detail)
        steps = tuple(n for n in NORMALIZE if n in names)
    return OutputReading(score, rule, steps)


_DEFAULT = OutputReading()
_CURRENT: ContextVar[OutputReading] = ContextVar("nerve_output_reading", default=_DEFAULT)


@contextmanager
def reading_outputs(given: OutputReading) -> Iterator[None]:
    """Within this context, the readers of output formats read with ``given`` (`current`)."""
    token = _CURRENT.set(given)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def current() -> OutputReading:
    """The options the readers of output formats read with now (the defaults outside `reading_outputs`)."""
    return _CURRENT.get()
