"""`score_text`: the text-level metrics of noisy transcriptions, from BIO directories or CoNLL files.

In: a label and a prediction directory (or CoNLL files) and the metrics' options. Out: `TextScores`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import options
from ..errors import NerveError, OptionError
from .sources import Source, is_path

if TYPE_CHECKING:
    from ..metrics.text import TextScores

__all__ = ["score_text"]


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
            than ``"docstart"`` for directories (each file is a document).
    """
    from ..metrics.text import score_texts
    from ..tagging.texts import DOCUMENTS, read_bio_dirs, read_text_files

    options.fraction(threshold, "threshold")
    options.one_of(documents, DOCUMENTS, "documents")
    if directories is None:
        directories = is_path(label) and os.path.isdir(os.fspath(label))  # type: ignore[arg-type]
    if directories:
        if prediction is None:
            raise OptionError(options.flag("prediction"), "a label directory needs a prediction directory")
        if documents != "docstart":
            detail = f"each file of a directory is a document, got {documents!r}"
            raise OptionError(options.flag("documents"), detail)
        corpus = read_bio_dirs(label, prediction, scheme=scheme, repair=repair, pattern=pattern)  # type: ignore[arg-type]
    elif is_path(label):
        corpus = read_text_files(label, prediction, scheme=scheme, repair=repair, documents=documents)  # type: ignore[arg-type]
    else:
        raise NerveError("score_text reads a label directory or a CoNLL file; use score_texts for lists")
    scores = score_texts(corpus.gold, corpus.pred, metrics=metrics, threshold=threshold, progress=progress)
    repairs = sum(corpus.repairs)
    return replace(scores, scheme=corpus.scheme, repair=corpus.repair, repairs=repairs, notes=corpus.notes)
