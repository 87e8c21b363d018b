"""`agree`: agreement between several annotators of the same documents.

In: one file or directory per annotator, or one export of several (`nerve.api.agree_input`). Out: an
`nerve.analysis.agree_result.Agreement`: every pair's exact and partial (MUC) F1, micro and per type,
computed as `nerve.score` computes it (one annotator as gold, the other as predictions, on the
documents both annotated; `nerve.api.agree_measure`); Cohen's kappa of every pair, Fleiss' kappa
and Krippendorff's alpha on token labels (`nerve.analysis.agreement`); bootstrap intervals of the
mean pairwise F1 and of alpha by document (`nerve.analysis.agree_stats`); the disagreements; the
documents each annotator left out; and, when asked, the consensus (`nerve.api.agree_rows`).

This is the numpy engine's road (`numpy_agreement`); `agree` itself lives in
`nerve.compiled_agree`, which takes a CoNLL file of several tag columns through the compiled
engine where it is built, with the same result, and comes here only when that does not apply.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..analysis.agree_result import Agreement, Annotator
from ..errors import plural
from ..plan import InstanceQuery, Statistics

if TYPE_CHECKING:
    from .agree_input import AnnotatorSpans

__all__ = ["numpy_agreement"]

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


def numpy_agreement(
    paths: list[PathLike],
    wanted: Sequence[str] | None,
    reading: tuple[str | None, str | None, tuple[str, str | None, str]],
    stats: Statistics | None,
    asked: tuple[InstanceQuery, str | None, PathLike | None, str | None],
) -> Agreement:
    """`agree` on the numpy engine: any input, the consensus too."""
    from ..analysis.agree_votes import votes_of
    from .agree_input import read_annotations
    from .agree_measure import measured
    from .agree_rows import consensus_of, disagreements_of

    input_format, offsets, how = reading
    query, rule, out, to = asked
    ann = read_annotations(paths, wanted, input_format, offsets, how)
    people, warnings = _annotators(ann)
    votes = votes_of(list(ann.spans), ann.present)
    agreed = consensus_of(votes, ann, rule, out, to) if rule is not None else None
    if agreed is not None and agreed.ties:
        ties = plural(agreed.ties, "entity", "entities")
        warnings += (f"{ties} tied (marked by exactly half of the annotators): left out of the consensus",)
    return replace(
        measured(ann, stats),
        annotators=people,
        disagreements=disagreements_of(votes, ann, query),
        consensus=agreed,
        warnings=warnings,
    )
