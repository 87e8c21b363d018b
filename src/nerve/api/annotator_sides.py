"""`nerve.score` of one annotator against another: the sides picked from exports of several annotators.

In: the gold and prediction files of a span format, and ``gold_annotator`` / ``pred_annotator``
(a Label Studio ``completed_by`` id, a doccano ``user``). Out: the two `SpanArray` sides, over the
documents both annotators annotated (the others left out of both, counted in the notes), or
``None`` where no annotator is picked and the files are read as usual.

One export given twice (or alone with no predictions in it) that holds several annotators is
refused unless both are picked: read as usual it would score its first annotator against itself.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import options
from ..errors import InputError, OptionError
from ..io import formats
from ..io.tools.doccano import read_doccano_users
from ..io.tools.labelstudio import read_labelstudio_annotators
from ..model.spans import SpanArray
from ..plan import Reading

__all__ = ["ANNOTATED", "annotator_sides", "check_annotators"]

#: The formats whose exports tell annotators apart.
ANNOTATED = ("labelstudio", "doccano")
LEFT_OUT = "documents left out (one of the two annotators did not annotate them)"


def check_annotators(kind: str, reading: Reading) -> None:
    """Refuse ``gold_annotator`` and ``pred_annotator`` for input other than `ANNOTATED` exports."""
    for name in ("gold_annotator", "pred_annotator"):
        if getattr(reading, name) is not None and kind not in ANNOTATED:
            detail = f"applies to Label Studio and doccano exports, but the input reads as {kind}"
            raise OptionError(options.flag(name), detail)


def _annotators(
    path: str, kind: str, units: str | None
) -> tuple[dict[str, SpanArray], dict[str, list[bool]]]:
    if kind == "labelstudio":
        return read_labelstudio_annotators(path, units)
    return read_doccano_users(path, units)


def _pick(path: str, found: dict[str, SpanArray], who: str, option: str) -> SpanArray:
    if who not in found:
        known = ", ".join(found) or "none (no annotator is named in it)"
        raise InputError(
            path, None, f"has no annotator {who!r}: its annotators are {known}", option=options.flag(option)
        )
    return found[who]


def annotator_sides(
    files: tuple[str, str | None], kind: str, units: str | None, reading: Reading
) -> tuple[SpanArray, SpanArray] | None:
    """The gold and predicted sides of the annotators picked (see the module); ``None``: read as usual.

    Raises:
        InputError: an annotator not in the export; one export of several annotators scored against
            itself without picking them.
        OptionError: one annotator picked where both must be.
    """
    gold, pred = files
    if kind not in ANNOTATED:
        return None
    picked = (reading.gold_annotator, reading.pred_annotator)
    one_file = pred is None or pred == gold
    if picked == (None, None):
        if pred == gold:
            found, _ = _annotators(gold, kind, units)
            if len(found) > 1:
                detail = (
                    f"given as gold and predictions holds {len(found)} annotators ({', '.join(found)}): "
                    "read as usual it would score one against itself; pick two with "
                    f"{options.flag('gold_annotator')} and {options.flag('pred_annotator')} "
                    "(or compare them all with nerve agree)"
                )
                raise InputError(gold, None, detail, option=options.flag("gold_annotator"))
        return None
    if one_file and None in picked:
        missing = "pred_annotator" if picked[1] is None else "gold_annotator"
        raise OptionError(options.flag(missing), "one export holds both sides: pick the other annotator too")
    g, g_here = _side(gold, kind, units, picked[0], "gold_annotator", False)
    p, p_here = _side(str(pred or gold), kind, units, picked[1], "pred_annotator", True)
    if g.n_docs != p.n_docs:
        detail = f"has {p.n_docs} tasks, but {gold} has {g.n_docs}: give exports of the same tasks"
        raise InputError(str(pred), None, detail)
    both = [a and b for a, b in zip(g_here, p_here, strict=True)]
    return _kept(g, both), _kept(p, both)


def _side(
    path: str, kind: str, units: str | None, who: str | None, option: str, pred: bool
) -> tuple[SpanArray, list[bool]]:
    """The spans of annotator ``who`` and the documents they annotated; else the side read as usual."""
    if who is not None:
        found, present = _annotators(path, kind, units)
        return _pick(path, found, str(who), option), present[str(who)]
    read = formats.format_named(kind).read
    assert read is not None
    annotated, predicted = read(path, units, None)
    side = predicted if pred and predicted is not None else annotated
    return side, [True] * side.n_docs


def _kept(side: SpanArray, both: list[bool]) -> SpanArray:
    """``side`` without the documents not in ``both`` (kept as empty documents), their number noted."""
    keep = np.asarray(both, dtype=np.bool_)
    left = int((~keep).sum())
    out = side.select(keep[side.doc]) if len(side) else side
    return replace(out, notes={**side.notes, LEFT_OUT: left}) if left else out
