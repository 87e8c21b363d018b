"""A drop-in for ``eval4ner.muc`` (eval4ner 0.1.0), scored with nerve's optimal matching.

Replace ``import eval4ner.muc as muc`` with ``import nerve.compat.eval4ner as muc``: `evaluate_one`
and `evaluate_all` take the same arguments and return the same dictionaries (the key ``spurius``
keeps eval4ner's spelling). What differs is that the answers are right:

- **Entities are located at their own occurrence.** eval4ner compares only the first occurrence
  of each surface string and matches substrings inside words. Here each entity gets a
  character span by the rule of `locate` (the k-th entity with a repeated surface takes the
  k-th occurrence, left to right, whole words first), and the spans are scored by
  `nerve.metrics.muc.muc_score`: one optimal one-to-one matching per sentence, so POS is the number of
  gold entities, ACT the number of predictions, and the result does not depend on the order of
  the lists (except the order among entities with the same surface, which says which occurrence
  each one is). A surface alone cannot say which occurrence is meant: one predicted "York" in
  "York is not New York" is the first York. Where that matters, score character spans with
  `nerve.metrics.muc.muc_score` (or ``nerve score --metrics muc``) instead.
- **Nothing is printed and nothing is mutated.** eval4ner's `evaluate_all` always prints;
  here ``verbose=True`` adds each sentence's scores to the result instead (``"per_sentence"``).
- **A sentence with no gold and no predicted entity** has all counts 0 (eval4ner sets them to
  1, with no ``possible``/``actual`` keys), and precision, recall and F1 1.0, as in eval4ner:
  there was nothing to find and nothing was wrong.
- **Averaging.** `evaluate_all` averages precision, recall and F1 over sentences, as eval4ner
  does (F1 is the mean of the sentence F1s, and empty sentences count 1.0), so its numbers can be
  compared with published eval4ner numbers. ``average="micro"`` is the better choice: precision,
  recall and F1 of the counts summed over all sentences, the same numbers as
  ``nerve score --metrics muc`` on the same spans.

The precision of every mode is (COR + ½·PAR) / ACT and the recall (COR + ½·PAR) / POS, with PAR
counted in the partial mode only, and 0 when ACT (POS) is 0, as in eval4ner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from ..errors import InputError, OptionError
from ..io.json.eval4ner import Entity, locate, locate_spans
from ..io.json.eval4ner import locate_many as locate_many
from ..metrics.muc import MODES, MucResult, muc_score

__all__ = ["evaluate_all", "evaluate_one", "locate"]

_COUNT_KEYS = ("correct", "incorrect", "partial", "missed", "spurius")
_FIELDS = ("cor", "inc", "par", "mis", "spu")


def _mode_dict(cor: int, inc: int, par: int, mis: int, spu: int) -> dict[str, Any]:
    """eval4ner's dictionary of one mode, from the counts (PAR is 0 outside the partial mode)."""
    out: dict[str, Any] = dict(zip(_COUNT_KEYS, (cor, inc, par, mis, spu), strict=True))
    pos = cor + inc + par + mis
    act = cor + inc + par + spu
    if pos == 0 and act == 0:
        p = r = f = 1.0
    else:
        p = (cor + 0.5 * par) / act if act > 0 else 0
        r = (cor + 0.5 * par) / pos if pos > 0 else 0
        f = 2 * p * r / (p + r) if p + r > 0 else 0
    out.update(precision=p, recall=r, f1_score=f, possible=pos, actual=act)
    return out


def evaluate_one(
    prediction: Sequence[Entity], ground_truth: Sequence[Entity], text: str
) -> dict[str, dict[str, Any]]:
    """Score one sentence's predicted entities against its gold entities, in the four modes.

    Args:
        prediction: the predicted entities, ``[(tag, surface), ...]``.
        ground_truth: the gold entities, ``[(tag, surface), ...]``; each surface must occur in
            ``text``.
        text: the sentence the entities are located in (see `locate`).

    Returns:
        ``{mode: {"correct", "incorrect", "partial", "missed", "spurius", "precision",
        "recall", "f1_score", "possible", "actual"}}`` for the modes strict, exact, partial and
        type, as eval4ner returns it.

    Raises:
        ValueError: a gold surface does not occur in the text.
    """
    gold, pred = locate_spans(ground_truth, prediction, text)
    modes = muc_score([gold], [pred]).modes
    out = {}
    for mode in MODES:
        c = modes[mode].overall
        out[mode] = _mode_dict(*(getattr(c, f) for f in _FIELDS))
    return out


def evaluate_all(
    predictions: Sequence[Sequence[Entity]],
    golden_labels: Sequence[Sequence[Entity]],
    texts: Sequence[str],
    verbose: bool = False,
    *,
    average: Literal["sentence", "micro"] = "sentence",
) -> dict[str, dict[str, Any]]:
    """Score many sentences in the four modes.

    Args:
        predictions: per sentence, the predicted entities ``[(tag, surface), ...]``.
        golden_labels: per sentence, the gold entities.
        texts: the sentences.
        verbose: also return each sentence's `evaluate_one` scores, under ``"per_sentence"``
            in each mode (a list, one dictionary per sentence). Nothing is printed.
        average: ``"sentence"`` (eval4ner's, the default): the mean of the sentences'
            precision, recall and F1, counting a sentence without entities as 1.0.
            ``"micro"`` (recommended): precision, recall and F1 of the counts summed over all
            sentences, which are returned too (``"correct"`` ... ``"actual"``).

    Returns:
        ``{mode: {"precision", "recall", "f1_score", "count"}}``, ``count`` being the number
        of sentences (0, with scores 0, for no sentences, where eval4ner divides by zero).

    Raises:
        ValueError: the three lists differ in length (eval4ner: AssertionError), or a gold
            surface does not occur in its sentence.
        OptionError: ``average`` is unknown (a `ValueError` too).
    """
    if not len(predictions) == len(golden_labels) == len(texts):
        raise InputError(
            "texts",
            None,
            "the counts of predictions/golden_labels/texts are not equal: "
            f"{len(predictions)}, {len(golden_labels)} and {len(texts)}",
        )
    if average not in ("sentence", "micro"):
        raise OptionError("average", f"Expected average 'sentence' or 'micro', but got {average!r}")
    gold_docs, pred_docs = [], []
    for i, (pred, gold, text) in enumerate(zip(predictions, golden_labels, texts, strict=True)):
        g, p = locate_spans(gold, pred, text, f"sentence {i}: ")
        gold_docs.append(g)
        pred_docs.append(p)
    result = muc_score(gold_docs, pred_docs, document_average=average == "sentence" or verbose)
    return {mode: _mode_entry(result, mode, average, len(texts), verbose) for mode in MODES}


def _mode_entry(result: MucResult, mode: str, average: str, n: int, verbose: bool) -> dict[str, Any]:
    """`evaluate_all`'s dictionary of one mode, over ``n`` sentences."""
    per_sentence: list[dict[str, Any]] = []
    if result.per_document is not None:
        columns = [result.per_document[mode][f].tolist() for f in _FIELDS]
        per_sentence = [_mode_dict(*(int(col[d]) for col in columns)) for d in range(n)]
    if average == "micro":
        c = result.modes[mode].overall
        totals = [getattr(c, f) for f in _FIELDS]
        if sum(totals):
            scores = _mode_dict(*totals)
        else:  # no entity anywhere: nerve's convention, 0 for 0/0
            scores = dict(_mode_dict(*totals), precision=0.0, recall=0.0, f1_score=0.0)
        entry = {k: scores[k] for k in ("precision", "recall", "f1_score")}
        entry.update({k: scores[k] for k in (*_COUNT_KEYS, "possible", "actual")})
    else:
        # eval4ner's order of operations: sum over sentences in order, then divide.
        sums = {"precision": 0.0, "recall": 0.0, "f1_score": 0.0}
        for s in per_sentence:
            for k in sums:
                sums[k] += s[k]
        entry = {k: v / n if n else 0.0 for k, v in sums.items()}
    entry["count"] = n
    if verbose:
        entry["per_sentence"] = per_sentence
    return entry
