"""The plan of a run: every option of `nerve.score` (and of the verbs built on it), checked once.

In: the keyword arguments a caller gave (`Plan.of`), with ``nerve.score``'s names and defaults, or
`nerve.convert`'s (`Converting`). Out:
one frozen `Plan` in groups, each read only by the code that needs it: `Reading` (where entities
come from and how files are read), `Tagging` (the scheme, tag format and repair policy), the labels
(a `LabelMap`, or ``None``), `Metrics` (beta and the MUC options), `Analysing` (the opt-in analysis),
`Statistics` (the bootstrap) and `Feedback` (progress). Every value is checked by `nerve.options`,
with its wording, in the order `nerve.score` has always checked them; what can only be checked
against the input (an option of tagged input given for span files) is checked when it is read,
against `Tagging.given`.

The option values that other layers take too live here: `MucOptions` (how MUC matches) and
`InstanceQuery` (which error instances to list).
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field, fields

from . import options
from ._frozen import frozen
from .errors import OptionError
from .io.label_maps import label_map as read_label_map
from .io.outputs import OutputReading, output_reading
from .io.reader_options import ReaderOptions
from .model.labels import LabelMap
from .model.schemes import Scheme, TagFormat
from .options import INSTANCE_FORMATS, SORTS

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from typing import Any

__all__ = ["CATEGORIES", "ERRORS", "INSTANCE_FORMATS", "SORTS", "Analysing", "InstanceQuery", "Metrics"]
__all__ += ["Converting", "Feedback", "MucOptions", "Plan", "Reading"]
__all__ += ["ANALYSIS", "DEFAULTS", "Statistics", "Tagging", "check_query", "reading_of", "refuse"]
__all__ += ["Texts", "stream_plan"]

CATEGORIES = ("correct", "type", "boundary", "boundary_type", "missed", "spurious")
ERRORS = CATEGORIES[1:]
GREEDY_GOLD_SHARE = 0.01  # nervaluate's default min_overlap_percentage, 1 %
PathLike = str | os.PathLike[str]
#: `nerve.score`'s keyword arguments and their defaults, as its signature has them (the tests hold
#: them equal), for a caller that plans a run without importing the API: the ``nerve`` command.
DEFAULTS: Mapping[str, Any] = {
    **dict(scheme="auto", repair="begin", tag_format=None, outside="O", beta=1.0, comments=False),
    **dict(encoding="utf-8", check_tokens=True, workers=None, metrics=("exact",), min_iou=None),
    **dict(min_gold_share=None, input_format=None, gold_format=None, pred_format=None, offsets=None),
    **dict(column=None, min_score=None, locate=None, normalize=None, document_average=False),
    **dict(matching="optimal", delimiter=None, label_map=None, types=None, ignore_types=None),
    **dict(pattern=None, gold_scheme=None, pred_scheme=None, errors=False, confusion=False),
    **dict(instances=None, slices=None, train=None, meta=None, bootstrap=None, seed=None),
    **dict(confidence=None, unit=None, reader=None, flatten=None, lenient=False, gold_annotator=None),
    **dict(pred_annotator=None, sweep=False, progress=None),
}


@frozen
class MucOptions:
    """How the MUC modes are computed.

    Overlap means sharing a position, and also reaching ``min_iou`` and covering
    ``min_gold_share`` of the gold span when those are set; ``document_average`` adds the
    average over documents to the micro totals.
    """

    min_iou: float | None = None
    min_gold_share: float | None = None
    document_average: bool = False
    matching: str = "optimal"

    def __post_init__(self) -> None:
        options.fraction(self.min_iou, "min_iou", zero=False)
        options.fraction(self.min_gold_share, "min_gold_share", zero=False)
        options.matching(self.matching)

    @property
    def gold_share(self) -> float | None:
        """The minimum share of the gold span; greedy matching defaults to nervaluate's 1 %."""
        if self.min_gold_share is None and self.matching == "greedy":
            return GREEDY_GOLD_SHARE
        return self.min_gold_share

    def describe(self) -> str:
        """For the signature, e.g. ``overlap any`` or ``greedy, overlap gold-share>=0.01``."""
        parts = []
        if self.min_iou is not None:
            parts.append(f"iou>={self.min_iou:g}")
        if self.gold_share is not None:
            parts.append(f"gold-share>={self.gold_share:g}")
        text = "overlap " + (",".join(parts) or "any")
        if self.matching == "greedy":
            text = "greedy as nervaluate 1.2.1, " + text
        return text + (", document average" if self.document_average else "")


def check_query(
    categories: Sequence[str] | None, sort: str, per_category: int | None, context: int
) -> tuple[str, ...]:
    """The categories asked for (every error category by default); each option checked."""
    wanted = tuple(categories) if categories else ERRORS
    for c in wanted:
        options.one_of(c, CATEGORIES, "categories")
    options.one_of(sort, SORTS, "sort")
    if per_category is not None and per_category < 1:
        raise OptionError(
            options.flag("per_category"), f"Expected at least 1 row per category, but got {per_category}"
        )
    if context < 0:
        raise OptionError(options.flag("context"), f"Expected 0 or more tokens of context, but got {context}")
    return wanted


@frozen
class InstanceQuery:
    """Which instances to list: see `nerve.analysis.instances.instances` (checked when made)."""

    categories: tuple[str, ...] | None = None
    types: tuple[str, ...] | None = None
    per_category: int | None = None
    sort: str = "position"
    context: int = 5

    def __post_init__(self) -> None:
        check_query(self.categories, self.sort, self.per_category, self.context)


@frozen
class Reading:
    """Where the entities come from, and how files are read (checked against the input when read)."""

    input_format: str | None = None
    offsets: str | None = None
    column: str | None = None
    pattern: str | None = None
    reader: ReaderOptions = field(default_factory=ReaderOptions)
    lenient: bool = False
    flatten: str | None = None  # span input's flattening policy (checked where spans are scored)
    comments: bool = False
    encoding: str = "utf-8"
    check_tokens: bool = True
    delimiter: str | None = None
    workers: int | None = None
    gold_annotator: str | None = None  # the annotators picked from an export of several (`nerve.agree`'s)
    pred_annotator: str | None = None
    gold_format: str | None = None  # each side's format, where it is not input_format's
    pred_format: str | None = None
    min_score: float | None = None  # the options of model outputs (`nerve.io.outputs`), checked
    locate: str | None = None
    normalize: tuple[str, ...] | None = None

    @property
    def outputs(self) -> OutputReading:
        """The options of the model output formats: ``min_score``, ``locate``, ``normalize``."""
        return OutputReading(self.min_score, self.locate, self.normalize)


#: The options of tagged input, in the order a span input refuses them.
TAG_OPTIONS: tuple[str, ...] = ("scheme", "repair", "outside", "comments", "check_tokens", "tag_format")
TAG_OPTIONS += ("delimiter", "workers", "gold_scheme", "pred_scheme")


@frozen
class Tagging:
    """How tags become entities: the repair policy, the schemes (``None``: inferred), the tag format.

    ``pred_scheme`` is ``"same"`` when the predictions are decoded with the gold scheme. ``given``
    names the options of tagged input set away from their defaults (``encoding`` first when it is
    not UTF-8): a span input refuses them.
    """

    policy: str = "begin"
    scheme: Scheme | None = None
    pred_scheme: Scheme | str | None = "same"
    fmt: TagFormat | None = None
    outside: str = "O"
    inferred: bool = True  # the gold scheme was "auto" (still so once it is inferred from parts)
    pred_inferred: bool = False
    given: tuple[str, ...] = ()

    @property
    def needs_scheme(self) -> bool:
        """Whether the scheme must be known while decoding (``discard``, ``error``) but is to be inferred."""
        return self.scheme is None and self.policy in ("discard", "error") and self.pred_scheme == "same"


@frozen
class Metrics:
    """The F-score's beta, the MUC options when the muc family is asked for, and the threshold sweep."""

    beta: float = 1.0
    overlap: MucOptions | None = None
    sweep: bool = False  # P/R/F at each confidence threshold of the predictions (`nerve.metrics.sweep`)


@frozen
class Analysing:
    """The opt-in analysis: error categories, the confusion matrix, instances, slices and their files."""

    errors: bool = False
    confusion: bool = False
    instances: InstanceQuery | None = None
    slices: tuple[str, ...] = ()
    train: PathLike | None = None
    meta: PathLike | None = None

    @property
    def asked(self) -> bool:
        """Whether any analysis is asked for (else the score alone is computed)."""
        return self.errors or self.confusion or self.instances is not None or bool(self.slices)

    @property
    def words(self) -> bool:
        """Whether the analysis reads the tokens themselves (instances, and the text slices)."""
        return self.instances is not None or bool({"frequency", "seen"} & set(self.slices))


@frozen
class Statistics:
    """The bootstrap: resamples, seed, confidence level, and the unit resampled (``auto`` chosen later)."""

    resamples: int
    seed: int
    confidence: float
    unit: str


@frozen
class Feedback:
    """What the caller is told while the run goes: ``progress(bytes read, total)``."""

    progress: Callable[[int, int], None] | None = None


@frozen
class Converting:
    """What `nerve.convert` writes, and how it reads the one side it converts (`nerve.api.convert`).

    ``to`` is the target format, written in ``scheme`` (tag targets; ``None``: IOB2) with nesting
    resolved by ``flatten``, over an existing output only with ``force``. ``side`` is ``gold`` or
    ``pred``; ``from_scheme``, ``tag_format`` and ``outside`` say how the input's tags are read. Each
    is checked by `nerve.api.convert`, which knows the input's format.
    """

    to: str
    scheme: str | None = None
    side: str = "gold"
    flatten: str | None = None
    force: bool = False
    from_scheme: str = "auto"
    tag_format: str | None = None
    outside: str = "O"


@frozen
class Texts:
    """`nerve.score_text`'s options (`nerve.api.text`) but its pattern and progress; ``given``: those set."""

    metrics: tuple[str, ...]
    threshold: float
    scheme: str = "IOB2"
    repair: str = "begin"
    directories: bool | None = None
    documents: str = "docstart"
    given: tuple[str, ...] = ()


@frozen
class Plan:
    """Every option of a run, checked, in groups (see the module)."""

    reading: Reading = field(default_factory=Reading)
    tagging: Tagging = field(default_factory=Tagging)
    labels: LabelMap | None = None
    metrics: Metrics = field(default_factory=Metrics)
    analysing: Analysing = field(default_factory=Analysing)
    statistics: Statistics | None = None
    output: Feedback = field(default_factory=Feedback)
    converting: Converting | None = None  # `nerve.convert`'s plan: its reading, and its target
    texts: Texts | None = None  # `nerve.score_text`'s plan: its metrics, and how it reads

    @classmethod
    def of(cls, defaults: Mapping[str, Any], /, **given: Any) -> Plan:
        """The plan of `nerve.score`'s keyword arguments ``given`` (``defaults``: the rest), checked once.

        ``defaults`` holds each keyword `nerve.score` takes with its default (`nerve.api.planned` reads
        them from its signature); the options of tagged input set away from them are `Tagging.given`.

        Raises:
            OptionError: an option value nerve cannot use, or an option that does not apply.
        """
        k = {**defaults, **given}
        if k["reader"] is None:
            k["reader"] = ReaderOptions()
        statistics = statistics_of(k["bootstrap"], k["seed"], k["confidence"], k["unit"])
        names = options.slices(k["slices"], k["train"], k["meta"])
        labels = read_label_map(k["label_map"], k["types"], k["ignore_types"])
        policy = options.repair(k["repair"])
        overlap = muc_options(k, policy)
        metrics = Metrics(options.beta(k["beta"]), overlap, bool(k["sweep"]))
        return cls(
            reading=reading_of(k),
            tagging=_tagging(k, defaults, policy),
            labels=labels,
            metrics=metrics,
            analysing=Analysing(k["errors"], k["confusion"], k["instances"], names, k["train"], k["meta"]),
            statistics=statistics,
            output=Feedback(k["progress"]),
        )


def reading_of(k: Mapping[str, Any]) -> Reading:
    """The `Reading` group of the keywords ``k``; the options of the output formats checked."""
    outputs = output_reading(k["min_score"], k["locate"], k["normalize"])
    given = {f.name: k[f.name] for f in fields(Reading)}
    return Reading(
        **{**given, "min_score": outputs.min_score, "locate": outputs.locate, "normalize": outputs.normalize}
    )


def stream_plan(
    scheme: str, repair: str, tag_format: str | TagFormat | None, outside: str, beta: float
) -> Plan:
    """The plan of a streaming metric (`nerve.StreamingMetric`): its `Tagging` and `Metrics`, checked.

    The scheme is ``None`` for ``auto``; the metric takes it from its label list when its repair
    policy needs it while decoding.
    """
    policy, checked = options.stream_repair(repair), options.beta(beta)
    fmt, fixed = options.tag_format(tag_format, outside), options.scheme(scheme)
    return Plan(tagging=Tagging(policy, fixed, "same", fmt, outside, fixed is None), metrics=Metrics(checked))


#: The keywords of the analysis: `nerve.compare` and the Dask functions take none of them.
ANALYSIS = ("errors", "confusion", "instances", "slices", "train", "meta", "sweep")


def refuse(keywords: Mapping[str, Any], verb: str, names: Sequence[str]) -> None:
    """Refuse each of ``names`` in ``keywords`` as Python refuses an unknown keyword: ``verb`` takes none."""
    for name in keywords:
        if name in names:
            raise TypeError(f"{verb}() got an unexpected keyword argument {name!r}")


def statistics_of(
    n: int | str | None, seed: int | str | None, level: float | str | None, unit: str | None
) -> Statistics | None:
    """The bootstrap's `Statistics` (`nerve.options.bootstrap` checks them), ``None`` when not asked for."""
    checked = options.bootstrap(n, seed, level, unit)
    return None if checked is None else Statistics(*checked)


def muc_options(k: dict[str, Any], policy: str) -> MucOptions | None:
    """The MUC options, or ``None`` when the metric families lack muc (and none of them is given)."""
    families = options.metric_families(k["metrics"])
    given = {"matching": k["matching"], "min_iou": k["min_iou"], "min_gold_share": k["min_gold_share"]}
    options.muc_only(families, {**given, "document_average": k["document_average"]})
    if "muc" not in families:
        return None
    options.entity_repair(policy, "feed the muc metrics: its rules only count chunks")
    iou = options.fraction(k["min_iou"], "min_iou", zero=False)
    share = options.fraction(k["min_gold_share"], "min_gold_share", zero=False)
    return MucOptions(iou, share, k["document_average"], options.matching(k["matching"]))


def _tagging(k: dict[str, Any], defaults: Mapping[str, Any], policy: str) -> Tagging:
    """The `Tagging` group: the tag format and outside tag, then the schemes, then the encoding."""
    fmt, fixed = options.tag_format(k["tag_format"], k["outside"]), options.scheme(k["scheme"])
    gold, pred = scheme_pair(fixed, k["gold_scheme"], k["pred_scheme"], policy)
    utf8 = codecs.lookup(options.encoding(k["encoding"])).name == "utf-8"
    given = tuple(name for name in TAG_OPTIONS if k[name] != defaults[name])
    given = ("encoding",) * (not utf8) + given
    return Tagging(policy, gold, pred, fmt, k["outside"], gold is None, pred is None, given)


def scheme_pair(
    fixed: Scheme | None, gold: str | None, pred: str | None, policy: str
) -> tuple[Scheme | None, Scheme | str | None]:
    """The gold scheme, and the predictions' (``"same"`` when it is the gold one): ``scheme`` unless given."""
    g = fixed if gold is None else options.scheme(gold, "gold_scheme")
    p = fixed if pred is None else options.scheme(pred, "pred_scheme")
    if g is p:
        return g, "same"
    if policy in ("discard", "error") and None in (g, p):
        side = "gold_scheme" if g is None else "pred_scheme"
        raise OptionError(
            options.flag(side), f"{policy} decodes each side with its scheme: name it, not auto"
        )
    return g, p
