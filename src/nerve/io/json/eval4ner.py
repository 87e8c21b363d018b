"""eval4ner's entities: ``(type, surface)`` pairs located in their sentence as character spans.

A file holds one sentence per line (JSONL) or a JSON list of them:
``{"id"?, "text", "gold": [[TYPE, SURFACE], ...], "pred": [...]}``. Each surface is located by
`locate` (the k-th entity with a repeated surface takes its k-th occurrence). A gold surface that
is not in the text is an error; a predicted one is put just past the end of the text, where it
matches nothing and counts as spurious. `nerve.compat.eval4ner` scores with the same rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from .jsonl import Checker, Problems, json_objects, read_span_file, span_array
from .sides import both_sides

__all__ = ["Entity", "locate", "locate_many", "locate_spans", "read_eval4ner"]

#: An entity as eval4ner takes it: ``(tag, surface string)``.
Entity = tuple[str, str]


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _occurrences(surface: str, text: str) -> list[int]:
    """Start offsets of ``surface`` in ``text``: whole-word occurrences first, each group in order.

    An occurrence is whole-word when it does not cut a word at either end: the characters on
    both sides of each boundary are not both letters, digits or ``_``.
    """
    i = text.find(surface)
    if i == -1 or text.find(surface, i + 1) == -1:
        return [] if i == -1 else [i]  # the common case: no order to choose
    starts = []
    while i != -1:
        starts.append(i)
        i = text.find(surface, i + 1)
    n = len(surface)

    def whole(i: int) -> bool:
        j = i + n
        left = i == 0 or not (_word_char(text[i - 1]) and _word_char(text[i]))
        right = j == len(text) or not (_word_char(text[j - 1]) and _word_char(text[j]))
        return left and right

    return [i for i in starts if whole(i)] + [i for i in starts if not whole(i)]


def locate(entities: Sequence[Entity], text: str) -> list[tuple[int, int] | None]:
    """The character span ``(start, end)``, half-open, of each ``(tag, surface)`` in ``text``.

    The rule: entities with the same surface string take that string's occurrences in list
    order, the first entity the first occurrence, the second the next, and so on, left to right.
    Occurrences that do not cut a word (no letter, digit or ``_`` on both sides of either end)
    come before those inside a word, so ``"York"`` is the word York before the York in
    "Yorkshire"; inside-word occurrences are used when there are no more whole-word ones (as in
    Chinese text, where every character is a letter). An occurrence that overlaps one already
    taken by the same surface is used only when no other is free. When the list has more
    entities with a surface than the text has occurrences, the extra ones take the occurrences
    again from the first (a repeated prediction is then spurious).

    The tag plays no part: gold and predicted lists are located separately, each by this rule.

    Returns:
        One span per entity, or ``None`` for an empty surface or one that does not occur.
    """
    found: dict[str, list[int]] = {}
    taken: dict[str, list[int]] = {}
    spans: list[tuple[int, int] | None] = []
    for _, surface in entities:
        if not surface:
            spans.append(None)
            continue
        if surface not in found:
            found[surface] = _occurrences(surface, text)
        occurrences = found[surface]
        if not occurrences:
            spans.append(None)
            continue
        used = taken.setdefault(surface, [])
        n = len(surface)
        if not used:
            used.append(occurrences[0])
            spans.append((occurrences[0], occurrences[0] + n))
            continue
        start = next((s for s in occurrences if all(abs(s - u) >= n for u in used)), None)
        if start is None:
            start = next((s for s in occurrences if s not in used), None)
        if start is None:
            start = occurrences[len(used) % len(occurrences)]
        used.append(start)
        spans.append((start, start + n))
    return spans


def locate_many(
    entity_lists: Sequence[Sequence[Entity]], texts: Sequence[str]
) -> tuple[list[int], list[int], list[int], list[str]]:
    """`locate` for many sentences at once, as flat lists: sentence, start, end, tag.

    A surface that does not occur has start and end -1. Surfaces that occur once and are
    listed once in their sentence (nearly all) are found with one pass of ``str.find`` over all
    of them; only sentences with the rest go through `locate`.
    """
    counts = list(map(len, entity_lists))
    sentence = [i for i, c in enumerate(counts) for _ in range(c)]
    flat = [e for entities in entity_lists for e in entities]
    tags = [e[0] for e in flat]
    surfaces = [e[1] for e in flat]
    text_of = [texts[i] for i in sentence]
    first = list(map(str.find, text_of, surfaces))
    again = list(map(str.find, text_of, surfaces, [f + 1 for f in first]))
    starts = first
    ends = [f + len(w) if f >= 0 else -1 for f, w in zip(first, surfaces, strict=True)]
    listed = Counter(zip(sentence, surfaces, strict=True))
    hard = {
        i for i, w, a in zip(sentence, surfaces, again, strict=True) if a != -1 or not w or listed[i, w] > 1
    }
    if hard:
        offset = [0]
        for c in counts:
            offset.append(offset[-1] + c)
        for i in hard:
            for k, span in enumerate(locate(entity_lists[i], texts[i]), start=offset[i]):
                starts[k], ends[k] = span if span is not None else (-1, -1)
    return sentence, starts, ends, tags


def locate_spans(
    gold: Sequence[Entity], pred: Sequence[Entity], text: str, where: str = ""
) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """Gold and predicted spans ``(start, end, tag)`` of one sentence.

    A predicted surface that is not in the text cannot match anything: it is put just past the
    end of the text, where no gold span is, and so counts as spurious.

    Raises:
        ValueError: a gold surface does not occur in the text (the message starts with ``where``).
    """
    gold_spans = []
    for i, (span, (tag, surface)) in enumerate(zip(locate(gold, text), gold, strict=True)):
        if span is None:
            entity = f"({quote(tag)}, {quote(surface)})"
            raise ValueError(f"{where}gold entity {i} {entity} does not occur in the text")
        gold_spans.append((span[0], span[1], tag))
    beyond = (len(text), len(text) + 1)
    pred_spans = [(*(span or beyond), tag) for span, (tag, _) in zip(locate(pred, text), pred, strict=True)]
    return gold_spans, pred_spans


def _shapes_ok(docs: list[Any]) -> bool:
    """Whether every document is ``{"id"?, "text": str, "gold": [[str, str]...], "pred": ...}``."""
    if not set(map(type, docs)) <= {dict}:
        return False
    if any(d.keys() - {"id", "text", "gold", "pred"} for d in docs):
        return False
    try:
        texts = [d["text"] for d in docs]
        sides = [d["gold"] for d in docs] + [d["pred"] for d in docs]
    except KeyError:
        return False
    if not set(map(type, texts)) <= {str} or not set(map(type, sides)) <= {list}:
        return False
    flat = list(chain.from_iterable(sides))
    return (
        set(map(type, flat)) <= {list}
        and set(map(len, flat)) <= {2}
        and set(map(type, chain.from_iterable(flat))) <= {str}
    )


def _located(path: str, objects: list[tuple[int | None, Any]]) -> tuple[SpanArray, SpanArray]:
    """Both sides of well-shaped sentences, located all at once (`locate_many`)."""
    docs = [o for _, o in objects]
    texts = [o["text"] for o in docs]
    g_doc, g_start, g_end, g_tag = locate_many([o["gold"] for o in docs], texts)
    missing = next((d for d, s in zip(g_doc, g_start, strict=True) if s < 0), None)
    if missing is not None:  # let the one-sentence locator say which entity
        try:
            locate_spans(docs[missing]["gold"], [], texts[missing])
        except ValueError as err:
            raise Checker(path, objects[missing][0], missing, {}, "char").fail(str(err)) from None
    p_doc, p_start, p_end, p_tag = locate_many([o["pred"] for o in docs], texts)
    # A predicted surface that is not in the text goes just past its end: it matches nothing.
    lengths = [len(texts[d]) for d in p_doc]
    p_start = [s if s >= 0 else n for s, n in zip(p_start, lengths, strict=True)]
    p_end = [e if e >= 0 else n + 1 for e, n in zip(p_end, lengths, strict=True)]

    def columns(doc: list[int], start: list[int], end: list[int], tag: list[str]) -> SpanArray:
        d, s, e = (np.asarray(a, dtype=np.int64) for a in (doc, start, end))
        return span_array(d, s, e, tag, len(docs))

    return columns(g_doc, g_start, g_end, g_tag), columns(p_doc, p_start, p_end, p_tag)


def _sentence(check: Checker, obj: Any) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """Both sides of one sentence, checked; `InputError` at its first problem."""
    if not isinstance(obj, dict) or set(obj) - {"id", "text", "gold", "pred"}:
        raise check.fail('expected an object with "text", "gold" and "pred" (and an optional "id")')
    text = obj.get("text")
    if not isinstance(text, str):
        raise check.fail('expected a string under "text"')
    sides = []
    for key in ("gold", "pred"):
        items = obj.get(key)
        if not isinstance(items, list):
            raise check.fail(f'expected a list of [type, surface] under "{key}"')
        for i, e in enumerate(items):
            if not isinstance(e, list) or len(e) != 2 or not all(isinstance(x, str) for x in e):
                raise check.fail(f"{key} entity {i}: expected [type, surface], got {quote(e)}")
        sides.append([(t, surface) for t, surface in items])
    try:
        return locate_spans(sides[0], sides[1], text)
    except ValueError as err:
        raise check.fail(str(err)) from None


def _checked(
    path: str, objects: list[tuple[int | None, Any]], problems: Problems
) -> tuple[SpanArray, SpanArray]:
    """Both sides, sentence by sentence, to say what is wrong (a sentence with a problem is empty)."""
    return both_sides(objects, lambda doc, o: _sentence(Checker(path, o[0], doc, {}, "char"), o[1]), problems)


def read_eval4ner(path: str, problems: Problems = None) -> tuple[SpanArray, SpanArray]:
    """The gold and predicted spans of an eval4ner file, located in each sentence's text.

    ``problems``: see `nerve.io.json.jsonl.Checker`.
    """
    data = read_span_file(path)
    jsonl = path.endswith(".jsonl") or data.lstrip().startswith(b"{")
    objects = json_objects(path, data, "jsonl" if jsonl else "json")
    if _shapes_ok([o for _, o in objects]):
        try:
            return _located(path, objects)
        except InputError:
            if problems is None:
                raise
    return _checked(path, objects, problems)
