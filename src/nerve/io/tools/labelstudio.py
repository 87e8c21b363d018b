"""Label Studio JSON exports: tasks with their text, annotations and predictions.

In: a JSON export, a list of tasks ``{"data": {"text": ...}, "annotations": [{"result": [...]}],
"predictions": [{"result": [...]}]}`` (or one task, as Label Studio keeps one per file in cloud
storage; ``"completions"`` in versions before 1.0). A result item ``{"type": "labels", "value":
{"start", "end", "labels": [...], "text"}}`` is a span (one per label); results of other types
(choices, relations, text areas...) are counted in the notes, not scored. The document text is
``data.text``, or the task's only string field (``<Text value="$ner">``). Out: one `SpanArray`
per side, tasks in file order.

Which annotation is gold: a task's first annotation marked ``ground_truth``, else its first one
that was not cancelled; the others are counted in the notes. The predictions of one file alone
are its prediction side (each task's first prediction). With a prediction file, the gold file's
predictions are counted, not read, and the prediction file gives its predictions, or its
annotations when it has no prediction; its tasks must have the gold tasks' texts, in order.

Offsets: Label Studio's editor counted UTF-16 code units (JavaScript string offsets) before it
stored code points (label-studio#1559, label-studio-frontend#308), so an emoji before a span
shifts it by one in older exports. By default each side of a file is read in the units its span
texts (``value.text``) agree with where a text has characters outside the BMP; ``units`` (``char``
or ``utf16``) fixes them. Every span's text is checked against the task's text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ...errors import InputError
from ...model.quoting import quote
from ...model.spans import SpanArray
from ..json.jsonl import Checker, Problems, collect, is_offset, parse_json, read_span_file
from ..offsets import UTF16_MISFIT, has_astral, utf16_span, utf16_to_chars
from ..pairing import DocKeys, check_pairs, doc_keys

__all__ = [
    "TaskChecker",
    "annotator_of",
    "labelstudio_texts",
    "read_labelstudio",
    "read_labelstudio_annotators",
    "read_labelstudio_pair",
    "tasks",
]

Raw = tuple[int, Any, Any, str, Any]  # result index, start, end, label, text: as written
Chooser = Callable[["TaskChecker", dict[str, Any], str, Counter[str]], "dict[str, Any] | None"]


class TaskChecker(Checker):
    """A `Checker` whose messages name the task (index and id) and the annotation or prediction."""

    def __init__(self, path: str, doc: int, task: Any, problems: Problems) -> None:
        super().__init__(path, None, doc, {}, "char", problems)
        ident = task.get("id") if isinstance(task, dict) else None
        self.where = f"task {doc}" + (f" (id {quote(ident)})" if ident is not None else "")
        self.side = ""

    def fail(self, detail: str) -> InputError:
        """The error of ``detail`` in this task (a span is named by its result's index)."""
        if detail.startswith("span "):
            detail = "result " + detail[5:]
        side = f", {self.side}" if self.side else ""
        return InputError(self.path, None, f"{self.where}{side}: {detail}")


def tasks(path: str) -> list[Any]:
    """The tasks of a Label Studio export: its list, or the one task of a file."""
    parsed = parse_json(path, read_span_file(path), "the file")
    if isinstance(parsed, dict):
        return [parsed]
    if not isinstance(parsed, list):
        raise InputError(
            path, None, f"expected a JSON list of Label Studio tasks, got {type(parsed).__name__}"
        )
    return parsed


def _text(check: TaskChecker, task: Any) -> str:
    data = task.get("data") if isinstance(task, dict) else None
    if not isinstance(data, dict):
        raise check.fail(f'expected a task object with "data", got {quote(task)}')
    if isinstance(data.get("text"), str):
        return str(data["text"])
    strings = [v for v in data.values() if isinstance(v, str)]
    if len(strings) != 1:
        raise check.fail(f"expected the text under data.text, got data keys {quote(sorted(data))}")
    return strings[0]


def _chosen(
    check: TaskChecker, task: dict[str, Any], side: str, notes: Counter[str]
) -> dict[str, Any] | None:
    """The annotation (``side``, ``"annotations"``) or prediction read of a task; the rest counted."""
    items = task.get(side, task.get("completions", [])) if side == "annotations" else task.get(side, [])
    if items is None:
        items = []
    if not isinstance(items, list) or not all(isinstance(a, dict) for a in items):
        raise check.fail(f"expected a list of objects under {side}, got {quote(items)}")
    live = [a for a in items if not a.get("was_cancelled")]
    if len(live) < len(items):
        notes[f"ignored cancelled {side}"] += len(items) - len(live)
    if len(live) > 1:
        notes[f"ignored {side} (one read per task)"] += len(live) - 1
    return next((a for a in live if a.get("ground_truth")), live[0] if live else None)


def _raw(check: TaskChecker, chosen: dict[str, Any] | None, notes: Counter[str]) -> list[Raw]:
    """The spans of an annotation's results as written, one per label; other results counted."""
    if chosen is None:
        return []
    results = chosen.get("result", [])
    if not isinstance(results, list):
        raise check.fail(f"expected a list under result, got {quote(results)}")
    out: list[Raw] = []
    for j, r in enumerate(results):
        kind = r.get("type") if isinstance(r, dict) else None
        if not isinstance(kind, str):
            raise check.fail(f"result {j}: expected an object with a type, got {quote(r)}")
        if kind.lower() != "labels":
            notes[f"ignored results of type {kind}"] += 1
            continue
        value = r.get("value")
        if not isinstance(value, dict) or not _names(value.get("labels")):
            raise check.fail(
                f'result {j}: expected value {{"start", "end", "labels": [...]}}, got {quote(value)}'
            )
        get = value.get
        out.extend((j, get("start"), get("end"), label, get("text")) for label in value["labels"])
    return out


def _names(labels: Any) -> bool:
    """Whether ``labels`` is a list of one or more strings."""
    return isinstance(labels, list) and bool(labels) and all(isinstance(x, str) for x in labels)


def _decide(path: str, side: str, texts: list[str], raws: list[list[Raw]]) -> str:
    """``utf16`` if the span texts of documents beyond the BMP agree only in UTF-16 units, else ``char``.

    Raises:
        InputError: some spans agreeing only one way and some only the other, or spans in such
            documents with no text to tell by.
    """
    votes: dict[str, tuple[int, int]] = {}
    undecided = None
    for doc, (text, raw) in enumerate(zip(texts, raws, strict=True)):
        if not raw or not has_astral(text):
            continue
        spans = [(j, s, e, t) for j, s, e, _, t in raw if _offsets(s, e) and isinstance(t, str)]
        if not spans:
            undecided = undecided if undecided is not None else doc
            continue
        starts = np.asarray([s for _, s, _, _ in spans], dtype=np.int64)
        ends = np.asarray([e for _, _, e, _ in spans], dtype=np.int64)
        cs, ce = utf16_to_chars(text, starts).tolist(), utf16_to_chars(text, ends).tolist()
        for (j, s, e, t), a, b in zip(spans, cs, ce, strict=True):
            as_char, as_utf16 = text[s:e] == t, a >= 0 and b >= 0 and text[a:b] == t
            if as_char != as_utf16:
                votes.setdefault("char" if as_char else "utf16", (doc, j))
    if len(votes) == 2:
        (d1, j1), (d2, j2) = votes["char"], votes["utf16"]
        detail = (
            f"{side}: the span texts agree with code point offsets (task {d1}, result {j1}) and with "
            f"UTF-16 offsets (task {d2}, result {j2}): use --offsets char or --offsets utf16"
        )
        raise InputError(path, None, detail)
    if not votes and undecided is not None:
        detail = (
            f"{side}: task {undecided} has characters beyond the BMP (emoji) and no span text to tell "
            "code points from UTF-16 units: use --offsets char or --offsets utf16"
        )
        raise InputError(path, None, detail)
    return "utf16" if "utf16" in votes else "char"


def _offsets(start: Any, end: Any) -> bool:
    """Whether ``start`` and ``end`` are integer offsets with ``0 <= start < end``."""
    return is_offset(start) and is_offset(end) and 0 <= start < end


def _spans(check: TaskChecker, text: str, raw: list[Raw], units: str) -> list[tuple[int, int, str]]:
    """Spans in characters, checked against the text; a problem raised, or collected and left out."""

    def one(_: int, item: Raw) -> tuple[int, int, str]:
        j, start, end, label, given = item
        if units == "utf16" and _offsets(start, end):
            chars = utf16_span(text, start, end)
            if chars is None:
                raise check.fail(f"result {j}: UTF-16 offsets {start}, {end} {UTF16_MISFIT}")
            start, end = chars
        if given is not None and not isinstance(given, str):
            raise check.fail(f"result {j}: expected value.text to be a string, got {quote(given)}")
        return check.span(j, start, end, label, given)

    return check.spans(raw, one)


def _side(
    path: str,
    found: list[Any],
    side: str,
    units: str | None,
    problems: Problems,
    choose: Chooser | None = None,
) -> SpanArray:
    """One side (``annotations`` or ``predictions``) of parsed tasks as a `SpanArray`.

    ``choose`` picks the annotation read of each task (default: `_chosen`, the gold one).
    """
    choose = choose or _chosen
    notes: Counter[str] = Counter()
    texts, raws, checks = [], [], []
    for doc, task in enumerate(found):
        check = TaskChecker(path, doc, task, problems)
        check.side = side
        try:
            text = _text(check, task)
            raw = _raw(check, choose(check, task, side, notes), notes)
        except InputError as err:
            collect(problems, err)
            text, raw = "", []
        texts.append(text)
        raws.append(raw)
        checks.append(check)
    try:
        chosen = units or _decide(path, side, texts, raws)
    except InputError as err:
        collect(problems, err)
        chosen = "char"
    docs = []
    for check, text, raw in zip(checks, texts, raws, strict=True):
        check.text = text
        docs.append(_spans(check, text, raw, chosen))
        if chosen == "utf16" and raw and has_astral(text):
            notes[f"{side}: documents with UTF-16 offsets converted"] += 1
    return replace(SpanArray.from_documents(docs), source=path, notes=dict(sorted(notes.items())))


def _has(found: list[Any], side: str) -> bool:
    return any(isinstance(t, dict) and t.get(side) for t in found)


def _count(found: list[Any], side: str) -> int:
    """How many annotations (or predictions) the tasks have."""
    return sum(len(t[side]) for t in found if isinstance(t, dict) and isinstance(t.get(side), list))


def read_labelstudio(
    path: str, units: str | None = None, problems: Problems = None
) -> tuple[SpanArray, SpanArray | None]:
    """The annotated spans of an export, and its predictions if a task has one."""
    found = tasks(path)
    gold = _side(path, found, "annotations", units, problems)
    return gold, _side(path, found, "predictions", units, problems) if _has(found, "predictions") else None


def read_labelstudio_pair(
    gold: str, pred: str | None, units: str | None = None, problems: Problems = None
) -> tuple[SpanArray, SpanArray | None]:
    """The gold file's annotations, and the prediction file's predictions (or annotations).

    Raises:
        InputError: besides `read_labelstudio`'s, a predicted task whose text is not the gold's.
    """
    if pred is None:
        return read_labelstudio(gold, units, problems)
    g_found, p_found = tasks(gold), tasks(pred)
    g = _side(gold, g_found, "annotations", units, problems)
    ignored = _count(g_found, "predictions")
    if ignored:
        g = replace(g, notes={**g.notes, "ignored predictions (a prediction file was given)": ignored})
    side = "predictions" if _has(p_found, "predictions") else "annotations"
    p = _side(pred, p_found, side, units, problems)
    unread = _count(p_found, "annotations") if side == "predictions" else 0
    if unread:
        p = replace(p, notes={**p.notes, "ignored annotations (the predictions were read)": unread})
    check_pairs(_keys(gold, g_found), _keys(pred, p_found), problems)
    return g, p


def _keys(path: str, found: list[Any]) -> DocKeys:
    """The `DocKeys` of tasks: their texts; their ids (Label Studio's own) name them in messages only."""
    ids = [t.get("id") if isinstance(t, dict) else None for t in found]
    return doc_keys(path, labelstudio_texts(path, found), ids, noun="task", by_id=False)


def labelstudio_texts(path: str, found: list[Any] | None = None) -> list[str]:
    """The text of each task of an export, in order ("" where a task has none)."""
    out = []
    for doc, task in enumerate(tasks(path) if found is None else found):
        try:
            out.append(_text(TaskChecker(path, doc, task, None), task))
        except InputError:
            out.append("")
    return out


def annotator_of(annotation: Any) -> str | None:
    """Who made an annotation: its ``completed_by`` (a user id, or an object with one), as a string."""
    who = annotation.get("completed_by") if isinstance(annotation, dict) else None
    if isinstance(who, dict):
        who = who.get("id", who.get("email"))
    return None if who is None or isinstance(who, (bool, list, dict)) else str(who)


def _live(task: Any) -> list[dict[str, Any]]:
    items = task.get("annotations", task.get("completions")) if isinstance(task, dict) else None
    return [a for a in items or [] if isinstance(a, dict) and not a.get("was_cancelled")]


def _by(who: str, _: TaskChecker, task: dict[str, Any], side: str, notes: Counter[str]) -> Any:
    """The annotation of ``who`` in ``task`` (a `Chooser`), ``None`` if they made none."""
    return next((a for a in _live(task) if (annotator_of(a) or "?") == who), None)


def read_labelstudio_annotators(
    path: str, units: str | None = None, problems: Problems = None
) -> tuple[dict[str, SpanArray], dict[str, list[bool]]]:
    """Each annotator's spans (told apart by ``completed_by``), and which tasks each annotated.

    An annotation without ``completed_by`` is named ``"?"``; cancelled annotations are left out
    (counted). A task an annotator did not annotate reads as empty for them, and is marked so.
    Annotators are named in the order they first appear.

    Raises:
        InputError: an annotator who annotated one task twice.
    """
    found = tasks(path)
    names: dict[str, None] = {}
    for doc, task in enumerate(found):
        seen: set[str] = set()
        for annotation in _live(task):
            name = annotator_of(annotation) or "?"
            if name in seen:
                where = TaskChecker(path, doc, task, None).where
                detail = f"{where}: annotator {name} has two annotations; keep one per annotator and task"
                raise InputError(path, None, detail)
            seen.add(name)
            names.setdefault(name)
    sides, present = {}, {}
    for name in names:

        def mine(
            check: TaskChecker, task: dict[str, Any], side: str, notes: Counter[str], who: str = name
        ) -> Any:
            return next((a for a in _live(task) if (annotator_of(a) or "?") == who), None)

        sides[name] = _side(path, found, "annotations", units, problems, mine)
        present[name] = [any((annotator_of(a) or "?") == name for a in _live(t)) for t in found]
    return sides, present
