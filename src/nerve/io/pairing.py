"""Whether a prediction file's documents are the gold file's documents, in the gold file's order.

Span files pair their documents by position. A prediction file with the same number of documents
in another order, or with other texts, would be scored against the wrong gold documents, silently.

In: for each file, what says which document each of its documents is (`DocKeys`, made by
`doc_keys`): its text or tokens, as a fingerprint (the length and a hash, each made in C: no Python
loop per token), and its id. Readers that know them build one; the readers of one side per file
(``json``, ``jsonl``, ``nested``) hand it over with `record` while `recording` (`nerve.io.spans`
reads a gold and a prediction file inside it), and those that read both files together (doccano,
Label Studio, spaCy) compare at once with `check_pairs`. Out: `first_mismatch`, the `InputError`
of the first predicted document whose text or id is not its gold document's, naming the
prediction file, the document (index, id, line), what differs (the first differing character or
token, with an excerpt of each side), the gold document that has it when there is one (the
documents are in another order), and the fix. Where a side carries neither texts nor ids
(nervaluate's offset lists), nothing is compared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._frozen import frozen
from ..errors import InputError
from ..model.quoting import quote

if TYPE_CHECKING:
    from ..model.arrays import Int

__all__ = [
    "OTHER",
    "REORDER",
    "DocKeys",
    "check_pairs",
    "doc_keys",
    "doc_text",
    "first_mismatch",
    "record",
    "recording",
    "recording_now",
]

Text = str | Sequence[str] | None
#: What fixes a prediction file whose documents (``{noun}``) are the gold file's in another order.
REORDER = "{noun}s are paired in order: write the prediction {noun}s in the gold file's order"
#: What fixes a prediction file whose documents are not the gold file's.
OTHER = "{noun}s are paired in order: give predictions for the gold file's {noun}s, in its order"
_NONE, _CHARS, _TOKENS = 0, 1, 2
_EXCERPT = 20  # characters (or a quarter as many tokens) shown on each side of a difference


@frozen
class DocKeys:
    """Which document each document of a file is.

    Attributes:
        path: the file.
        kind: per document, 1 where it has a text, 2 where it has tokens, 0 where neither.
        size: the text's characters or the number of tokens.
        whole: a hash of every document's text or tokens, in order (Python's, of this process):
            with ``kind`` and ``size``, what is compared first; each document's own hash is made
            only when they differ, to say where.
        ids: each document's id as a string (``None`` where it has none); ``None`` when none has one.
        read: each document's text (or tokens) and line (``None`` where the file has no lines), read
            anew (or kept): only to say where two documents differ.
        noun: what a document is called in messages (``"task"`` for Label Studio).
        by_id: whether ids name documents, and are compared; the ids a tool's database gives
            (doccano, Label Studio) only name them in messages, as a copy of a project renumbers them.
    """

    path: str
    kind: Int
    size: Int
    whole: int
    ids: tuple[str | None, ...] | None
    read: Callable[[], tuple[Sequence[Text], Sequence[int | None] | None]]
    noun: str = "document"
    by_id: bool = True

    def where(self, doc: int) -> str:
        """``document 3 (id 'b')``: the document, by index and id."""
        ident = self.ids[doc] if self.ids is not None and doc < len(self.ids) else None
        return f"{self.noun} {doc}" + (f" (id {quote(ident)})" if ident is not None else "")


def _fingerprint(text: Text) -> tuple[int, int, int]:
    """Kind, size and hash of one document's text or tokens."""
    if type(text) is str:
        return _CHARS, len(text), hash(text)
    if type(text) in (list, tuple):
        try:
            return _TOKENS, len(text), hash(tuple(text))  # type: ignore[arg-type]
        except TypeError:  # tokens that are not strings: the reader says so
            return _NONE, 0, 0
    return _NONE, 0, 0


def _ident(value: Any) -> str | None:
    """An id as a string: a JSON string or integer (not a boolean), else ``None``."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def doc_keys(
    path: str,
    texts: Sequence[Text],
    ids: list[Any] | None = None,
    lines: Sequence[int | None] | None = None,
    again: Callable[[], tuple[Sequence[Text], Sequence[int | None] | None]] | None = None,
    noun: str = "document",
    by_id: bool = True,
) -> DocKeys:
    """The `DocKeys` of a file's documents: their ``texts`` (or tokens) and ``ids``, one a document.

    ``again`` reads the texts anew for a message (by default ``texts`` are kept); ``noun`` and
    ``by_id`` are as in `DocKeys`.
    """
    kind, size, whole = _fingerprints(texts)
    named = None
    if ids is not None and ids.count(None) != len(ids):
        named = tuple(ids) if set(map(type, ids)) <= {str, type(None)} else tuple(map(_ident, ids))
    read = again if again is not None else lambda: (texts, lines)
    return DocKeys(path, kind, size, whole, named, read, noun, by_id)


def _fingerprints(texts: Sequence[Text]) -> tuple[Int, Int, int]:
    """Kind and size of each document, and a hash of them all.

    Mapped in C where every text is a string, or every one a list of strings (joined, then hashed
    once); else one document at a time.
    """
    n = len(texts)
    kinds = set(map(type, texts))
    sized = cast("Sequence[Sequence[str]]", texts)
    try:
        if kinds <= {str}:
            whole = hash(tuple(texts))
            return np.full(n, _CHARS, np.int64), np.fromiter(map(len, sized), np.int64, n), whole
        if kinds <= {list}:
            whole = hash("\x1e".join(map("\x1f".join, sized)))
            return np.full(n, _TOKENS, np.int64), np.fromiter(map(len, sized), np.int64, n), whole
    except TypeError:  # tokens that are not strings: the reader says so
        pass
    kind, size, digest = _each(texts)
    return kind, size, hash(digest.tobytes())


def _each(texts: Sequence[Text]) -> tuple[Int, Int, Int]:
    """Kind, size and hash of each document, one at a time."""
    prints = np.asarray([_fingerprint(t) for t in texts], dtype=np.int64).reshape(-1, 3)
    return prints[:, 0], prints[:, 1], prints[:, 2]


def doc_text(obj: Any) -> Text:
    """A JSON document's ``"text"``, else its ``"tokens"``, else ``None``."""
    if type(obj) is not dict:
        return None
    text = obj.get("text")
    if type(text) is str:
        return text
    tokens = obj.get("tokens")
    return tokens if type(tokens) is list else None


_RECORDED: ContextVar[dict[str, DocKeys] | None] = ContextVar("nerve_doc_keys", default=None)


@contextmanager
def recording(active: bool = True) -> Iterator[dict[str, DocKeys]]:
    """Within this context (when ``active``), readers `record` the `DocKeys` of each file they read."""
    found: dict[str, DocKeys] = {}
    token = _RECORDED.set(found if active else None)
    try:
        yield found
    finally:
        _RECORDED.reset(token)


def recording_now() -> bool:
    """Whether readers are `recording` now (so a reader makes `DocKeys` only then)."""
    return _RECORDED.get() is not None


def record(path: str, make: Callable[[], DocKeys]) -> None:
    """Keep ``make()`` for ``path`` when `recording` (and make nothing otherwise)."""
    found = _RECORDED.get()
    if found is not None:
        found[path] = make()


def check_pairs(gold: DocKeys, pred: DocKeys, problems: list[InputError] | None) -> None:
    """Raise `first_mismatch` of the two files, if there is one (or add it to ``problems``, a list)."""
    err = first_mismatch(gold, pred)
    if err is not None and problems is None:
        raise err
    if err is not None and problems is not None:
        problems.append(err)


def first_mismatch(gold: DocKeys, pred: DocKeys) -> InputError | None:
    """The error of the first predicted document whose text or id is not its gold document's.

    Documents beyond the shorter file are not compared (the reader refuses the other count).
    """
    compare_ids = gold.by_id and pred.by_id and gold.ids is not None and pred.ids is not None
    same = (
        np.array_equal(gold.kind, pred.kind)
        and np.array_equal(gold.size, pred.size)
        and gold.whole == pred.whole
        and (not compare_ids or gold.ids == pred.ids)
    )
    if same:
        return None
    (g_texts, _), (p_texts, lines) = gold.read(), pred.read()
    g_kind, g_size, g_digest = _each(g_texts)
    p_kind, p_size, p_digest = _each(p_texts)
    n = min(len(g_kind), len(p_kind))
    both = (g_kind[:n] == p_kind[:n]) & (g_kind[:n] != _NONE)
    differ = both & ((g_size[:n] != p_size[:n]) | (g_digest[:n] != p_digest[:n]))
    at_text = int(np.argmax(differ)) if differ.any() else n
    if compare_ids and gold.ids is not None and pred.ids is not None:
        pairs = zip(gold.ids[:at_text], pred.ids[:at_text], strict=False)
        at_id = next((i for i, (a, b) in enumerate(pairs) if a is not None and b is not None and a != b), n)
        if at_id < at_text:
            return _id_error(gold, pred, gold.ids, pred.ids[at_id], at_id, _line(lines, at_id))
    if at_text < n:
        same_text = (
            (g_kind == p_kind[at_text]) & (g_size == p_size[at_text]) & (g_digest == p_digest[at_text])
        )
        elsewhere = int(np.argmax(same_text)) if same_text.any() else None
        texts = (g_texts[at_text], p_texts[at_text])
        return _text_error(gold, pred, (at_text, _line(lines, at_text)), texts, elsewhere)
    return None


def _line(lines: Sequence[int | None] | None, doc: int) -> int | None:
    """The line of document ``doc``, if known."""
    return lines[doc] if lines is not None and doc < len(lines) else None


def _id_error(
    gold: DocKeys, pred: DocKeys, ids: tuple[str | None, ...], ident: str | None, doc: int, line: int | None
) -> InputError:
    """The error of predicted document ``doc`` (on ``line``), whose id ``ident`` is not ``ids[doc]``."""
    detail = f"{pred.where(doc)}: its id is not the gold {gold.noun} {doc}'s ({quote(ids[doc])})"
    elsewhere = ids.index(ident) if ident in ids else None
    return InputError(pred.path, line, detail + _tail(gold.noun, elsewhere))


def _text_error(
    gold: DocKeys,
    pred: DocKeys,
    place: tuple[int, int | None],
    texts: tuple[Text, Text],
    elsewhere: int | None,
) -> InputError:
    """The error of predicted document ``doc`` (on ``line``: ``place``), whose text is not the gold's."""
    (doc, line), (a, b) = place, texts
    unit = "character" if isinstance(a, str) else "token"
    at = _first_difference(a, b)
    sizes = f"{len(b or ())} vs {len(a or ())} {unit}s"
    detail = (
        f"{pred.where(doc)}: its {'text is' if unit == 'character' else 'tokens are'} not the gold's: "
        f"they differ at {unit} {at} "
        f"(prediction vs gold: {sizes}, {excerpt(b, at)} vs {excerpt(a, at)})"
    )
    return InputError(pred.path, line, detail + _tail(gold.noun, elsewhere))


def _tail(noun: str, elsewhere: int | None) -> str:
    """The end of a message: the gold document that matches, if one does, and the fix."""
    if elsewhere is None:
        return f" ({OTHER.format(noun=noun)})"
    return f"; it is the gold's {noun} {elsewhere} ({REORDER.format(noun=noun)})"


def _first_difference(a: Text, b: Text) -> int:
    """The first position where ``a`` and ``b`` differ (the shorter one's length if one starts the other)."""
    x, y = a or (), b or ()
    lo, hi = 0, min(len(x), len(y))  # x[:lo] == y[:lo]; halving: a few slices compared in C
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[:mid] == y[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def excerpt(text: Text, at: int) -> str:
    """A few characters (or tokens) of ``text`` around ``at``, quoted."""
    if isinstance(text, str):
        start = max(0, at - _EXCERPT)
        end = at + _EXCERPT
        return quote(("…" if start else "") + text[start:end] + ("…" if end < len(text) else ""))
    tokens = list(text or ())
    k = _EXCERPT // 4
    start = max(0, at - k)
    return quote(" ".join(["…"] * (start > 0) + tokens[start : at + k] + ["…"] * (at + k < len(tokens))))
