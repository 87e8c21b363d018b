"""A drop-in for nereval 0.2.5, with a one-to-one matching.

Replace ``import nereval`` with ``from nerve.compat import nereval``: `Entity`, `evaluate`,
`evaluate_json`, `count_correct` and the helpers keep nereval's names, arguments and results.

nereval scores two slots per entity: TEXT (the same text at the same start) and TYPE (the same
type, and the texts overlap). COR is the number of slots filled, ACT twice the number of
predictions, POS twice the number of gold entities; precision = COR/ACT, recall = COR/POS and
the result is their F1, micro-averaged over all texts.

What differs is the pairing. nereval lets each gold entity take the *first* prediction in list
order that fills one of its slots, and a prediction can serve any number of gold entities: one
prediction over three gold entities fills three TYPE slots for an ACT of 2 (precision 1.5), and
listing a worse prediction first loses the TEXT slot of a better one. Here every prediction
serves at most one gold entity and every gold entity at most one prediction, and the pairs are
those that fill the most slots in total (nerve's one optimal assignment,
`nerve.matching.assignment`, group by group of overlapping entities), so precision and recall never
exceed 1 and the order of the lists does not matter. Among pairings that fill as many slots,
the one with the most TEXT slots is taken, so `count_correct`'s split is unique too.

Where each gold entity has at most one candidate, nereval's result is unchanged; its README
examples come out the same (F1 0.33). In the README's "Note on Symmetry", Example 2 counts
Correct Type 3 in nereval but 2 here: nereval fills two TYPE slots with the one prediction
"CILINDRISCHE PLUG".
"""

from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import NamedTuple, Protocol

import numpy as np

from ..errors import InputError
from ..io.json.jsonl import is_offset
from ..io.spans import read_span_columns
from ..matching.assignment import best_edges
from ..model.quoting import is_list, quote

__all__ = [
    "Entity",
    "EntityLike",
    "correct_text",
    "correct_type",
    "count_correct",
    "evaluate",
    "evaluate_json",
    "f1",
    "has_overlap",
    "main",
    "precision",
    "precision_recall_f1",
    "recall",
    "sign_test",
]


class Entity(NamedTuple):
    """An entity: its ``text``, its ``type`` and the character offset of its ``start``.

    The end is ``start + len(text)``. The fields are those of ``nereval.Entity``, and an
    entity equals a ``nereval.Entity`` with the same values.
    """

    text: str
    type: str
    start: int


class EntityLike(Protocol):
    """Anything with ``text``, ``type`` and ``start``, such as ``nereval.Entity`` itself."""

    @property
    def text(self) -> str: ...  # noqa: D102

    @property
    def type(self) -> str: ...  # noqa: D102

    @property
    def start(self) -> int: ...  # noqa: D102


# An entity for the matcher: (start, end, type, text); text None when only offsets are known.
_Item = tuple[int, int, str, str | None]


def has_overlap(x: EntityLike, y: EntityLike) -> bool:
    """Whether the texts of two entities share a character (symmetric)."""
    return x.start < y.start + len(y.text) and y.start < x.start + len(x.text)


def correct_text(x: EntityLike, y: EntityLike) -> bool:
    """The TEXT slot: the same text at the same start, whatever the types."""
    return x.text == y.text and x.start == y.start


def correct_type(x: EntityLike, y: EntityLike) -> bool:
    """The TYPE slot: the same type, and the texts overlap."""
    return x.type == y.type and has_overlap(x, y)


def _items(entities: Sequence[EntityLike], where: str = "entities") -> list[_Item]:
    """``(start, end, type, text)`` of each entity; an `InputError` for anything but entities."""
    if not is_list(entities):
        raise InputError(
            where, None, f"expected a list of entities (text, type, start), got {quote(entities)}"
        )
    for i, e in enumerate(entities):
        text, typ, start = (getattr(e, k, None) for k in ("text", "type", "start"))
        if not (isinstance(text, str) and isinstance(typ, str) and is_offset(start)):
            detail = f"expected an entity with a string text and type and an integer start, got {quote(e)}"
            raise InputError(f"{where}, entity {i}", None, detail)
    return [(e.start, e.start + len(e.text), e.type, e.text) for e in entities]


def _sides(y_true: object, y_pred: object) -> None:
    """Both sides must be lists (one list of entities per text), as long as each other."""
    for name, side in (("y_true", y_true), ("y_pred", y_pred)):
        if not is_list(side):
            raise InputError(name, None, f"expected one list of entities per text, got {quote(side)}")


def _edges(true: list[_Item], pred: list[_Item]) -> list[tuple[int, int, int, int]]:
    """Every (gold, pred, text slot, type slot) pair that fills at least one slot."""
    order = sorted(range(len(pred)), key=lambda j: pred[j][0])
    starts = [pred[j][0] for j in order]
    reach = []  # running maximum of the ends, in order of start
    top: int | None = None
    for j in order:
        top = pred[j][1] if top is None else max(top, pred[j][1])
        reach.append(top)
    empty: dict[tuple[int, str | None], list[int]] = {}
    for j, (s, e, _, t) in enumerate(pred):
        if s == e:
            empty.setdefault((s, t), []).append(j)
    edges: list[tuple[int, int, int, int]] = []
    for i, (s, e, typ, text) in enumerate(true):
        if s == e:  # the same empty text at the same start: not an overlap, but the same text
            edges.extend((i, j, 1, 0) for j in empty.get((s, text), []))
        for k in range(bisect_right(reach, s), bisect_left(starts, e)):
            ps, pe, ptyp, ptext = pred[order[k]]
            if pe > s:
                text_slot = int(ps == s and pe == e and ptext == text)
                type_slot = int(ptyp == typ)
                if text_slot or type_slot:
                    edges.append((i, order[k], text_slot, type_slot))
    return edges


def _counts(y_true: Sequence[list[_Item]], y_pred: Sequence[list[_Item]]) -> list[tuple[int, int]]:
    """(TEXT slots, TYPE slots) filled by the best one-to-one pairing of each text.

    The pairs of all texts go to one assignment (`nerve.matching.assignment`), entities numbered
    across texts, so that groups of overlapping entities are solved together in numpy.
    """
    rows: list[tuple[int, int, int, int, int]] = []
    n_true = n_pred = 0
    for k, (true, pred) in enumerate(zip(y_true, y_pred, strict=True)):
        rows.extend((k, n_true + i, n_pred + j, t, ty) for i, j, t, ty in _edges(true, pred))
        n_true, n_pred = n_true + len(true), n_pred + len(pred)
    text_of, i, j, text, typ = np.asarray(rows, dtype=np.int64).reshape(-1, 5).T
    big = text_of.shape[0] + 1  # one more filled slot outweighs any number of TEXT-slot preferences
    chosen = best_edges(i, j, ((text + typ) * big + text).astype(np.float64))
    n = len(y_true)
    count_text = np.bincount(text_of[chosen], weights=text[chosen], minlength=n).astype(np.int64)
    count_type = np.bincount(text_of[chosen], weights=typ[chosen], minlength=n).astype(np.int64)
    return list(zip(count_text.tolist(), count_type.tolist(), strict=True))


def count_correct(true: Sequence[EntityLike], pred: Sequence[EntityLike]) -> tuple[int, int]:
    """Count the TEXT and TYPE slots filled in one text, pairing entities one to one.

    Args:
        true: the gold entities of the text.
        pred: the predicted entities of the text.

    Returns:
        ``(count_text, count_type)``: the pairs with the same text at the same start, and the
        pairs with the same type and overlapping texts, under the pairing that fills the most
        slots (and, among those, the most TEXT slots).
    """
    return _counts([_items(true)], [_items(pred)])[0]


def precision(correct: int, actual: int) -> float:
    """COR / ACT, 0 when ACT is 0."""
    if actual == 0:
        return 0
    return correct / actual


def recall(correct: int, possible: int) -> float:
    """COR / POS, 0 when POS is 0."""
    if possible == 0:
        return 0
    return correct / possible


def f1(p: float, r: float) -> float:
    """The harmonic mean of ``p`` and ``r``, 0 when both are 0."""
    if p + r == 0:
        return 0
    return 2 * (p * r) / (p + r)


def _totals(y_true: Sequence[list[_Item]], y_pred: Sequence[list[_Item]]) -> tuple[float, float, float]:
    if len(y_true) != len(y_pred):
        raise InputError("y_pred", None, "Bad input shape: y_true and y_pred should have the same length.")
    correct = sum(t + ty for t, ty in _counts(y_true, y_pred))
    possible = sum(len(x) for x in y_true) * 2
    actual = sum(len(y) for y in y_pred) * 2
    p, r = precision(correct, actual), recall(correct, possible)
    return p, r, f1(p, r)


def precision_recall_f1(
    y_true: Sequence[Sequence[EntityLike]], y_pred: Sequence[Sequence[EntityLike]]
) -> tuple[float, float, float]:
    """Micro precision, recall and F1 over all texts (`evaluate` returns only the F1)."""
    _sides(y_true, y_pred)
    true = [_items(x, f"y_true: text {i}") for i, x in enumerate(y_true)]
    return _totals(true, [_items(y, f"y_pred: text {i}") for i, y in enumerate(y_pred)])


def evaluate(y_true: Sequence[Sequence[EntityLike]], y_pred: Sequence[Sequence[EntityLike]]) -> float:
    """Micro F1 over a dataset, one list of entities per text on each side.

    >>> from nerve.compat.nereval import Entity, evaluate
    >>> evaluate([[Entity("a", "b", 0), Entity("b", "b", 2)]], [[Entity("b", "b", 2)]])
    0.6666666666666666

    Raises:
        InputError: ``y_true`` and ``y_pred`` differ in length, or are not lists of entities
            (a ``ValueError``, as nereval's).
    """
    return precision_recall_f1(y_true, y_pred)[2]


def _text_f1(true: list[list[_Item]], pred: list[list[_Item]]) -> list[float]:
    """The F1 of each text alone, as `evaluate` gives it for that one text."""
    out = []
    for x, y, (t, ty) in zip(true, pred, _counts(true, pred), strict=True):
        p, r = precision(t + ty, len(y) * 2), recall(t + ty, len(x) * 2)
        out.append(f1(p, r))
    return out


def sign_test(
    truth: Sequence[Sequence[EntityLike]],
    model_a: Sequence[Sequence[EntityLike]],
    model_b: Sequence[Sequence[EntityLike]],
) -> tuple[int, int]:
    """Compare two models text by text, as nereval does.

    Returns:
        ``(better, worse)``: the number of texts where ``model_b`` scores a higher F1 than
        ``model_a``, and the number where it scores lower.
    """
    texts = list(zip(truth, model_a, model_b, strict=False))
    true = [_items(t) for t, _, _ in texts]
    scores_a = _text_f1(true, [_items(a) for _, a, _ in texts])
    scores_b = _text_f1(true, [_items(b) for _, _, b in texts])
    better = worse = 0
    for score_a, score_b in zip(scores_a, scores_b, strict=True):
        if score_a - score_b > 0:
            worse += 1
        elif score_a - score_b < 0:
            better += 1
    return better, worse


def evaluate_json(file_name: str) -> float:
    """Micro F1 of nereval's JSON file: ``[{"text", "true": [...], "predicted": [...]}]``.

    Entities are ``{"text", "type", "start"}``. The file is read by nerve's ``nereval`` reader,
    which checks each entity against the text (`nerve.InputError` names the text and entity).
    """
    gold, pred = read_span_columns(file_name, fmt="nereval")
    return _totals(
        [[(s, e, t, None) for s, e, t in doc] for doc in gold.documents()],
        [[(s, e, t, None) for s, e, t in doc] for doc in pred.documents()],
    )[2]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m nerve.compat.nereval input.json``: print ``F1-score: 0.67`` as nereval does."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0].startswith("-"):
        sys.stderr.write("usage: python -m nerve.compat.nereval FILE.json\n")
        return 2
    try:
        score = evaluate_json(args[0])
    except InputError as err:
        sys.stderr.write(f"{err}\n")
        return 2
    sys.stdout.write(f"F1-score: {score:.2f}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
