"""Entity texts that differ from what their offsets cover: an error, or counted with ``lenient``.

In: while a span file is read inside `lenient_texts`, each entity whose given text is not
``text[start:end]`` (`nerve.io.json.jsonl.Checker`, `nerve.io.tools.brat`). Out: without ``lenient``, the
reader raises an `InputError` ending in `mismatch_fix`; with it, the entity is scored as its
offsets say and counted, by file and side, then in the side's `SpanArray.notes` (`noted`) under
`TEXT_MISMATCH`, which `nerve.score` reports in ``result.notes`` and the signature marks
(``spans jsonl lenient``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace

from .. import options
from ..model.spans import SpanArray

__all__ = ["PRED_KEYS", "TEXT_MISMATCH", "counted", "is_lenient", "lenient_texts", "mismatch_fix", "noted"]

#: The note counting entities whose text is not what their offsets cover, read with ``lenient``.
TEXT_MISMATCH = "entity texts that differ from the text at their offsets (lenient)"
#: The keys under which a file of both sides keeps its predictions.
PRED_KEYS = ("pred", "predictions")
Found = Counter[tuple[str, str]]
_FOUND: ContextVar[Found | None] = ContextVar("nerve_lenient_texts", default=None)


@contextmanager
def lenient_texts(lenient: bool) -> Iterator[Found]:
    """Within this context (when ``lenient``), readers count entity text mismatches, not raise them.

    They count them in the counter yielded, by file and by the key of the spans (``""``,
    ``"gold"``, ``"pred"``, ``"annotations"``...).
    """
    found: Found = Counter()
    token = _FOUND.set(found if lenient else None)
    try:
        yield found
    finally:
        _FOUND.reset(token)


def is_lenient() -> bool:
    """Whether reading is lenient (inside `lenient_texts`): a mismatch is counted, not raised."""
    return _FOUND.get() is not None


def counted(path: str, side: str) -> bool:
    """Count one mismatch of ``path``'s ``side`` when reading leniently; whether it was counted."""
    found = _FOUND.get()
    if found is not None:
        found[path, side] += 1
    return found is not None


def mismatch_fix() -> str:
    """What fixes an entity text that differs from its offsets' text, for the end of a message."""
    return f" (fix the offsets or the entity's text, or count such entities with {options.flag('lenient')})"


def noted(spans: SpanArray, found: Found, side: Callable[[str, str], bool]) -> SpanArray:
    """``spans`` with the mismatches ``found`` in a (file, key) of its ``side`` added to its notes."""
    n = sum(count for (path, key), count in found.items() if side(path, key))
    if not n:
        return spans
    return replace(spans, notes={**spans.notes, TEXT_MISMATCH: spans.notes.get(TEXT_MISMATCH, 0) + n})
