"""Naive references of the text metrics: the textbook Levenshtein table, brute force over every
assignment, and dictionaries of scores compared to nine places."""

from __future__ import annotations

from itertools import permutations

Doc = list[tuple[str, str]]


def levenshtein(a: list[str] | str, b: list[str] | str) -> int:
    """Levenshtein distance over characters or words, the textbook table."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def brute_errors(gold: Doc, pred: Doc, words: bool) -> float:
    """The least cost over every assignment of the square padded matrix."""
    n = max(len(gold), len(pred))
    if n == 0:
        return 0.0

    def cost(i: int, j: int) -> float:
        if i >= len(gold) or j >= len(pred) or gold[i][0] != pred[j][0]:
            return 1.0
        g, p = gold[i][1], pred[j][1]
        if words:
            return min(levenshtein(g.split(), p.split()) / len(g.split()), 1.0)
        return min(levenshtein(g, p) / len(g), 1.0)

    return min(sum(cost(i, j) for i, j in enumerate(perm)) for perm in permutations(range(n)))


def approx_dict(d: object) -> object:
    if isinstance(d, dict):
        return {k: approx_dict(v) for k, v in d.items()}
    if isinstance(d, float):
        return round(d, 9)
    return d


GOLD: list[Doc] = [[("PER", "John Smith"), ("LOC", "York")]]
PRED: list[Doc] = [[("PER", "John Smyth"), ("LOC", "New York")]]
