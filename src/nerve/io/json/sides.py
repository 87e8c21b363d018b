"""Files whose every document holds both sides, gold and predicted (nereval, eval4ner), read whole.

In: the documents of a file and the function that checks one and gives its two sides. Out: the
gold and the predicted `SpanArray`. A document with a problem is raised, or collected (validation)
and read as empty on both sides, so that the documents stay paired.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from ...errors import InputError
from ...model.spans import SpanArray
from .jsonl import Documents, Problems, collect

__all__ = ["both_sides"]

Item = TypeVar("Item")
Entities = list[tuple[int, int, str]]


def both_sides(
    items: Iterable[Item], sides: Callable[[int, Item], tuple[Entities, Entities]], problems: Problems
) -> tuple[SpanArray, SpanArray]:
    """``sides(doc, item)`` of each item, as the gold and the predicted spans of its document."""
    gold: Documents = []
    pred: Documents = []
    for doc, item in enumerate(items):
        try:
            g, p = sides(doc, item)
        except InputError as err:
            collect(problems, err)
            g, p = [], []
        gold.append(g)
        pred.append(p)
    return SpanArray.from_documents(gold), SpanArray.from_documents(pred)
