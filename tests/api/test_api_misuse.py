"""Misuse of the Python API is nerve's own error with a useful message (issue 25).

Wrong types and values given to the public API (``nerve.__all__``, the drop-ins of
`nerve.compat`, the integrations, `StreamingMetric`, `score_spans`, `encode`/`decode`,
`muc_score`, `TextScores`) raised a bare ``TypeError``, ``ValueError``, ``AttributeError`` or
``IndexError`` from deep inside, where the command line gives one located line. Each case here
must raise a `NerveError` subclass whose message says what was expected. `InputError` and
`OptionError` are ``ValueError``s too, so code that caught the drop-ins' ``ValueError`` still does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import nerve
from nerve.api import score_spans
from nerve.compat import eval4ner, nereval
from nerve.compat.nervaluate import Evaluator
from nerve.compat.paddlenlp import ChunkEvaluator
from nerve.compat.seqeval.metrics import accuracy_score, classification_report, f1_score
from nerve.compat.seqeval.metrics.sequence_labeling import get_entities
from nerve.errors import InputError, NerveError, OptionError
from nerve.integrations.hf_evaluate import compute
from nerve.metrics.muc import muc_score
from nerve.metrics.text import TextScores
from nerve.streaming import StreamingMetric

G = [["B-PER", "I-PER", "O"]]
LABELS = ["O", "B-X", "I-X"]


def _result() -> nerve.Result:
    return nerve.score(G, G)


CASES: list[tuple[str, Callable[[], Any], type[NerveError], str]] = [
    # muc_score
    (
        "muc string offsets",
        lambda: muc_score([[("0", "2", "PER")]], [[]]),
        InputError,
        "gold: document 0, span 0: expected (start, end, label) with integer offsets",
    ),
    (
        "muc a number",
        lambda: muc_score(5, 5),
        InputError,
        "gold: expected one list of spans per document, got 5",
    ),
    (
        "muc a short span",
        lambda: muc_score([[(0,)]], [[]]),
        InputError,
        "expected a Span or (start, end, label), got (0,)",
    ),
    (
        "muc a document not a list",
        lambda: muc_score([5], [[]]),
        InputError,
        "gold: document 0: expected a list of spans, got 5",
    ),
    (
        "muc document counts",
        lambda: muc_score([[], []], [[]]),
        InputError,
        "pred: has 1 document, but the gold has 2",
    ),
    # StreamingMetric
    (
        "stream merge a number",
        lambda: StreamingMetric(labels=LABELS).merge(5),
        InputError,
        "expected a StreamingMetric to merge, got int",
    ),
    (
        "stream labels a number",
        lambda: StreamingMetric(labels=5),
        OptionError,
        "labels: expected a list of tags",
    ),
    (
        "stream labels mapping keys",
        lambda: StreamingMetric(labels={"a": "B-X"}),
        OptionError,
        "labels: a mapping's keys must be label ids",
    ),
    # encode / decode
    (
        "encode a span past the length",
        lambda: nerve.encode([(0, 5, "PER")], 3),
        InputError,
        "<spans>: Expected 0 <= start < end <= 3, but got span (0, 5, 'PER')",
    ),
    (
        "encode overlapping spans",
        lambda: nerve.encode([(0, 2, "A"), (1, 3, "B")], 3),
        InputError,
        "non-overlapping spans",
    ),
    (
        "encode touching spans in IO",
        lambda: nerve.encode([(0, 1, "X"), (1, 2, "X")], 2, scheme="IO"),
        InputError,
        "IO cannot separate touching entities",
    ),
    (
        "encode a length as text",
        lambda: nerve.encode([], "3"),
        OptionError,
        "length: expected a whole number >= 0",
    ),
    (
        "encode a negative length",
        lambda: nerve.encode([], -1),
        OptionError,
        "length: expected a whole number >= 0",
    ),
    (
        "encode a short span",
        lambda: nerve.encode([(0,)], 3),
        InputError,
        "<spans>: span 0: expected a Span or (start, end, label)",
    ),
    (
        "encode offsets as text",
        lambda: nerve.encode([("0", 2, "PER")], 3),
        InputError,
        "span 0: expected integer offsets and a string label",
    ),
    (
        "encode a sequence index too high",
        lambda: nerve.encode([nerve.Span(3, 0, 1, "X")], [2]),
        InputError,
        "sequence index 3 is not below 1",
    ),
    ("encode spans a number", lambda: nerve.encode(5, 3), InputError, "<spans>: expected Span objects"),
    ("decode a number", lambda: nerve.decode(5), InputError, "<tags>: expected a list of tags"),
    ("decode None", lambda: nerve.decode(None), InputError, "<tags>: expected a list of tags"),
    # score, validate, score_spans, render, Result
    ("score None", lambda: nerve.score(None, None), InputError, "<gold>: expected a list of tag lists"),
    (
        "score a sentence that is a number",
        lambda: nerve.score([5], [5]),
        InputError,
        "<gold>: sentence 0: expected a list of tags, got 5",
    ),
    ("validate a number", lambda: nerve.validate(5), InputError, "expected a list of tag lists"),
    (
        "score_spans numbers",
        lambda: score_spans(5, 5),
        InputError,
        "gold: expected one list of (start, end, label) per document",
    ),
    (
        "validate_spans a number",
        lambda: nerve.validate_spans(5),
        InputError,
        "gold: expected a file name, got int 5",
    ),
    (
        "read_conll a number",
        lambda: nerve.read_conll(5),
        InputError,
        "expected a file name, a path or a binary file object",
    ),
    (
        "render an unknown output",
        lambda: nerve.render(_result(), "xml"),
        OptionError,
        "output: expected an output format among table, json",
    ),
    ("render a number", lambda: nerve.render(5), InputError, "result: expected a nerve Result, got int"),
    (
        "Result.merge a number",
        lambda: _result().merge(5),
        InputError,
        "other: expected a Result to merge, got int",
    ),
    (
        "Span with start after end",
        lambda: nerve.Span(0, 5, 2, "X"),
        InputError,
        "expected 0 <= start < end for a span, but got start=5, end=2",
    ),
    # TextScores
    (
        "TextScores.merge of other settings",
        lambda: TextScores(1, 0.3).merge(TextScores(1, 0.5)),
        NerveError,
        "cannot merge scores of different settings",
    ),
    (
        "TextScores.merge a number",
        lambda: TextScores(1).merge(5),
        InputError,
        "other: expected TextScores to merge, got int",
    ),
    # compat: nereval, eval4ner, seqeval, nervaluate, paddlenlp; integrations: evaluate
    (
        "nereval on numbers",
        lambda: nereval.evaluate(5, 5),
        InputError,
        "y_true: expected one list of entities per text, got 5",
    ),
    (
        "nereval on lists of numbers",
        lambda: nereval.evaluate([[1]], [[1]]),
        InputError,
        "y_true: text 0, entity 0: expected an entity with a string text and type",
    ),
    ("nereval lengths", lambda: nereval.evaluate([[]], []), InputError, "Bad input shape"),
    (
        "eval4ner lengths",
        lambda: eval4ner.evaluate_all([[]], [], ["a"]),
        InputError,
        "counts of predictions/golden_labels/texts are not equal",
    ),
    ("seqeval f1 on numbers", lambda: f1_score(5, 5), InputError, "<gold>: expected a list of tag lists"),
    (
        "seqeval accuracy on None",
        lambda: accuracy_score(None, None),
        InputError,
        "<gold>: expected a list of tag lists",
    ),
    (
        "seqeval digits as text",
        lambda: classification_report(G, G, digits="x"),
        OptionError,
        "digits: expected a whole number >= 0",
    ),
    ("seqeval get_entities of a number", lambda: get_entities(5), InputError, "expected a list of tag lists"),
    (
        "nervaluate on numbers",
        lambda: Evaluator(5, 5, tags=["PER"]).evaluate(),
        InputError,
        "Could not infer loader from input type",
    ),
    (
        "nervaluate an unknown loader",
        lambda: Evaluator(G, G, tags=["PER"], loader="xml"),
        OptionError,
        "loader: Unknown loader: xml",
    ),
    (
        "nervaluate an unknown mode",
        lambda: Evaluator(G, G, tags=["PER"], loader="list").summary_report(mode="x"),
        OptionError,
        "mode: Invalid mode",
    ),
    (
        "paddlenlp label list a number",
        lambda: ChunkEvaluator(label_list=5),
        OptionError,
        "label_list: expected a list of tags, got int",
    ),
    ("evaluate's compute on numbers", lambda: compute(5, 5), InputError, "expected a list of tag lists"),
]


def test_the_table_is_big_enough() -> None:
    assert len(CASES) >= 31
    assert len({name for name, *_ in CASES}) == len(CASES)


@pytest.mark.parametrize(("name", "call", "kind", "message"), CASES, ids=[c[0] for c in CASES])
def test_misuse_raises_nerves_own_error(
    name: str, call: Callable[[], Any], kind: type[NerveError], message: str
) -> None:
    with pytest.raises(NerveError) as info:
        call()
    assert type(info.value) is kind or isinstance(info.value, kind), (name, type(info.value))
    assert message in str(info.value), str(info.value)
    assert "\n" not in str(info.value)  # one line, as the command line prints it
    if isinstance(info.value, InputError | OptionError):
        assert isinstance(info.value, ValueError)
