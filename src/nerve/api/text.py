"""`score_text`: the text-level metrics of noisy transcriptions, from BIO directories or CoNLL files.

In: a label and a prediction directory (or CoNLL files) and the metrics' options, which travel as one
`Plan` (`text_plan`, its `Texts` group; `planned` binds them as `nerve.score`'s). Out: `TextScores`.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import options
from ..errors import NerveError, OptionError
from ..plan import Feedback, Plan, Reading, Texts
from .planned import keyword_defaults, planned
from .sources import Source, is_path

if TYPE_CHECKING:
    from ..metrics.text import TextScores

__all__ = ["score_text", "scored_text", "text_plan"]


@functools.cache
def _defaults() -> dict[str, Any]:
    """`score_text`'s keyword arguments and their defaults, read from its signature."""
    return keyword_defaults(score_text)


def text_plan(**given: Any) -> Plan:
    """The `Plan` of `score_text`'s keywords ``given`` (its defaults for the others), checked once.

    Raises:
        OptionError: a value nerve cannot use, or ``threshold`` set without the nerval metric.
    """
    from ..tagging.texts import DOCUMENTS  # when called: `import nerve` does not load the text readers

    defaults = _defaults()
    k = {**defaults, **given}
    threshold = options.fraction(k["threshold"], "threshold")
    if threshold is None:
        raise OptionError(options.flag("threshold"), "expected a fraction in [0, 1], but got None")
    options.one_of(k["documents"], DOCUMENTS, "documents")
    metrics = options.text_metrics(k["metrics"])
    changed = tuple(name for name, value in given.items() if value != defaults[name])
    if "threshold" in changed and "nerval" not in metrics:
        detail = f"applies to the nerval metric, but the metrics are {', '.join(metrics)}: add nerval"
        raise OptionError(options.flag("threshold"), detail)
    texts = Texts(metrics, threshold, k["scheme"], k["repair"], k["directories"], k["documents"], changed)
    return Plan(Reading(pattern=k["pattern"]), output=Feedback(k["progress"]), texts=texts)


def scored_text(label: Source, prediction: Source | None, plan: Plan) -> TextScores:
    """`score_text` under ``plan`` (`text_plan`): the corpus read, then scored (see `score_text`)."""
    from ..metrics.text import score_texts
    from ..tagging.texts import read_bio_dirs, read_text_files

    t, pattern = plan.texts, plan.reading.pattern
    assert t is not None
    assert pattern is not None
    directories = t.directories
    if directories is None:
        directories = is_path(label) and os.path.isdir(os.fspath(label))  # type: ignore[arg-type]
    if directories:
        if prediction is None:
            raise OptionError(options.flag("prediction"), "a label directory needs a prediction directory")
        if t.documents != "docstart":
            detail = f"each file of a directory is a document, got {t.documents!r}"
            raise OptionError(options.flag("documents"), detail)
        read = functools.partial(read_bio_dirs, pattern=pattern)
        corpus = read(label, prediction, scheme=t.scheme, repair=t.repair)  # type: ignore[arg-type]
    elif is_path(label):
        if "pattern" in t.given:  # as `nerve.score` refuses it for files
            detail = f"applies to directories of BIO files, but {os.fspath(label)} is a file"  # type: ignore[arg-type]
            raise OptionError(options.flag("pattern"), detail)
        read = functools.partial(read_text_files, documents=t.documents)
        corpus = read(label, prediction, scheme=t.scheme, repair=t.repair)  # type: ignore[arg-type]
    else:
        raise NerveError("score_text reads a label directory or a CoNLL file; use score_texts for lists")
    progress = plan.output.progress
    scores = score_texts(
        corpus.gold, corpus.pred, metrics=t.metrics, threshold=t.threshold, progress=progress
    )
    repairs = sum(corpus.repairs)
    return replace(scores, scheme=corpus.scheme, repair=corpus.repair, repairs=repairs, notes=corpus.notes)


@planned(scored_text, text_plan)
def score_text(
    label: Source,
    prediction: Source | None = None,
    *,
    metrics: Sequence[str] = ("ecer-ewer", "nerval", "bow", "botw", "boe"),
    threshold: float = 0.3,
    scheme: str = "IOB2",
    repair: str = "begin",
    directories: bool | None = None,
    pattern: str = "*.bio",
    documents: str = "docstart",
    progress: Callable[[int, int], None] | None = None,
) -> TextScores:
    """Score entities by their text (OI-ECER/EWER, OI-Nerval, bags): see `nerve.metrics.text`.

    Args:
        label: a directory of ``*.bio`` files (one document each; ``prediction`` is then the
            prediction directory), or a CoNLL file (merged, or gold with ``prediction`` the
            prediction file; documents at ``-DOCSTART-`` lines).
        prediction: the prediction directory or file.
        metrics: which of ``ecer-ewer``, ``nerval``, ``bow``, ``botw``, ``boe`` to compute.
        threshold: OI-Nerval's largest character error rate of a match, a fraction in [0, 1].
        scheme: the tagging scheme of the files (IOB2 by default, as ie-eval reads them).
        repair: the policy for invalid transitions: ``begin``, ``discard`` or ``error``.
        directories: whether ``label`` and ``prediction`` are directories; ``None`` looks.
        pattern: the glob that picks a directory's files by name (``*.txt``; ``.txt`` alone
            means the same); files are paired by name.
        documents: for CoNLL files, ``"docstart"`` (documents start at ``-DOCSTART-`` lines;
            a file without any is one document, which ``notes`` says when it has several
            sentences) or ``"sentence"`` (each sentence is a document).
        progress: called with the entity pairs compared so far and their total (`score_texts`).

    Raises:
        InputError: a missing directory, no file matching ``pattern``, a file on one side only,
            a line that is not ``token TAG``, an unknown tag; with the file and line.
        OptionError: an empty ``pattern`` or one with a path separator; ``documents`` other
            than ``"docstart"`` for directories (each file is a document); options the input does
            not use (``pattern`` for CoNLL files, ``threshold`` without the nerval metric).
    """
    raise AssertionError("planned() runs scored_text with the plan of these keywords")  # pragma: no cover
