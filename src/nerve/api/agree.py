"""`agree`: agreement between several annotators of the same documents.

In: one file or directory per annotator, or one export of several (`nerve.api.agree_input`). Out: an
`nerve.analysis.agree_result.Agreement`: every pair's exact and partial (MUC) F1, micro and per type,
computed as `nerve.score` computes it (one annotator as gold, the other as predictions, on the
documents both annotated; `nerve.api.agree_measure`); Cohen's kappa of every pair, Fleiss' kappa
and Krippendorff's alpha on token labels (`nerve.analysis.agreement`); bootstrap intervals of the
mean pairwise F1 and of alpha by document (`nerve.analysis.agree_stats`); the disagreements; the
documents each annotator left out; and, when asked, the consensus (`nerve.api.agree_rows`).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from .. import options
from ..analysis.agree_result import Agreement, Annotator
from ..analysis.agree_votes import RULES, votes_of
from ..errors import OptionError, plural
from ..plan import InstanceQuery, statistics_of
from .agree_input import AnnotatorSpans, read_annotations
from .agree_measure import measured
from .agree_rows import check_agree_query, consensus_of, disagreements_of

__all__ = ["agree"]

PathLike = str | os.PathLike[str]


def _annotators(ann: AnnotatorSpans) -> tuple[tuple[Annotator, ...], tuple[str, ...]]:
    """Each annotator, with the documents they left out, and the warnings that name them."""
    out: list[Annotator] = []
    warnings: list[str] = []
    for a, name in enumerate(ann.names):
        missing = tuple(d for d, here in zip(ann.documents, ann.present[a].tolist(), strict=True) if not here)
        notes = ann.notes[a] if ann.notes else {}
        out.append(
            Annotator(name, ann.sources[a], len(ann.spans[a]), int(ann.present[a].sum()), missing, notes)
        )
        warnings.extend(f"annotator {name}: {n} {why}" for why, n in notes.items())
        if missing:
            shown = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
            warnings.append(
                f"annotator {name} left out {plural(len(missing), 'document')} ({shown}): "
                "each pair is compared on the documents both annotated"
            )
    return tuple(out), tuple(warnings)


def _consensus_rule(consensus: str | None, out: PathLike | None, to: str | None, force: bool) -> str | None:
    """The consensus rule asked for, checked with where it is written (``out`` over a file with ``force``)."""
    rule = options.one_of(consensus, RULES, "consensus") if consensus is not None else None
    if rule is None and (out is not None or to is not None):
        written = f"{options.flag('out')} and {options.flag('to')} write the consensus"
        detail = f"{written}: name its rule, majority or unanimous"
        raise OptionError(options.flag("consensus"), detail)
    if out is not None and os.path.exists(out) and not force:
        raise OptionError(options.flag("force"), f"{os.fspath(out)} exists; pass it to write over it")
    return rule


def agree(
    *sources: PathLike | Sequence[PathLike],
    annotators: str | Sequence[str] | None = None,
    input_format: str | None = None,
    offsets: str | None = None,
    scheme: str = "auto",
    tag_format: str | None = None,
    outside: str = "O",
    bootstrap: int | None = 1000,
    seed: int | None = None,
    confidence: float | None = None,
    unit: str | None = None,
    instances: InstanceQuery | None = None,
    consensus: str | None = None,
    out: PathLike | None = None,
    to: str | None = None,
    force: bool = False,
) -> Agreement:
    """Agreement between the annotators of ``sources`` (see the module).

    ``sources``: one file or directory per annotator (``annotators`` names them), or one Label
    Studio, doccano or CoNLL file of several (``annotators`` picks them by id, user or column
    number). ``bootstrap`` resamples of documents (``None`` or 0: no intervals; ``unit`` can only
    be ``document``) drawn with ``seed`` give intervals at ``confidence``. ``instances`` filters
    the disagreements listed (categories ``missed``, ``type``, ``boundary``, ``boundary_type``).
    ``consensus`` (``majority`` or ``unanimous``) computes the consensus, written to ``out`` in
    format ``to`` (default: from ``out``'s extension, else ``jsonl``), over an existing ``out`` only
    with ``force``.

    Raises:
        InputError: unreadable or unpairable input (see `nerve.api.agree_input`).
        OptionError: an option nerve cannot use.
    """
    paths = [p for s in sources for p in ([s] if isinstance(s, (str, os.PathLike)) else s)]
    wanted = annotators.split(",") if isinstance(annotators, str) else annotators
    query = check_agree_query(instances)
    rule = _consensus_rule(consensus, out, to, force)
    if unit not in (None, "auto", "document"):
        detail = f"agreement resamples documents (the statistics pair annotators within them), got {unit!r}"
        raise OptionError(options.flag("unit"), detail)
    stats = statistics_of(None if bootstrap in (None, 0, "0") else bootstrap, seed, confidence, None)
    with _collector_paused():
        ann = read_annotations(paths, wanted, input_format, offsets, (scheme, tag_format, outside))
        people, warnings = _annotators(ann)
        votes = votes_of(list(ann.spans), ann.present)
        agreed = consensus_of(votes, ann, rule, out, to) if rule is not None else None
        if agreed is not None and agreed.ties:
            ties = plural(agreed.ties, "entity", "entities")
            warnings += (
                f"{ties} tied (marked by exactly half of the annotators): left out of the consensus",
            )
        return replace(
            measured(ann, stats),
            annotators=people,
            disagreements=disagreements_of(votes, ann, query),
            consensus=agreed,
            warnings=warnings,
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused, and resumed as it was.

    Agreement makes many small objects that hold no cycles (a row, its marks, each pair's matches:
    hundreds of thousands at 1M tokens), and the collector's passes over them took a third of
    building the rows. Cycles made meanwhile are collected once it resumes.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
