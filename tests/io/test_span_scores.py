"""A JSON span's ``"score"`` becomes the `SpanArray.score` column, on the fast path and the slow one."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from nerve.errors import InputError
from nerve.io.json import jsonl
from nerve.io.spans import read_span_columns
from nerve.model.labels import LabelMap

DOCS = [
    {"text": "Ann met Bob", "spans": [{"start": 0, "end": 3, "label": "PER", "score": 0.25}]},
    {
        "text": "in Paris",
        "spans": [{"start": 3, "end": 8, "label": "LOC", "score": 1}, {"start": 0, "end": 2, "label": "X"}],
    },
]


def write(path: Path, docs: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("fast", [True, False])
def test_scores_are_read_in_span_order_nan_where_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fast: bool
) -> None:
    if not fast:
        monkeypatch.setattr(jsonl, "_documents_fast", lambda *args, **kwargs: None)
    spans, _ = jsonl.read_documents(write(tmp_path / "p.jsonl", DOCS), "jsonl", None)
    assert spans.score is not None
    assert spans.score[:2].tolist() == [0.25, 1.0]
    assert math.isnan(spans.score[2])


def test_gold_and_pred_sides_keep_their_own_scores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = {
        "text": "Ann met Bob",
        "gold": [{"start": 0, "end": 3, "label": "PER"}],
        "pred": [
            {"start": 0, "end": 3, "label": "PER", "score": 0.5},
            {"start": 8, "end": 11, "label": "PER", "score": 0.75},
        ],
    }
    path = write(tmp_path / "both.jsonl", [doc])
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(jsonl, "_documents_fast", lambda *args, **kwargs: None)
        gold, pred = jsonl.read_documents(path, "jsonl", None)
        assert gold.score is None
        assert pred is not None
        assert pred.score is not None
        assert pred.score.tolist() == [0.5, 0.75]


def test_no_score_no_column(tmp_path: Path) -> None:
    docs = [{"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}]
    spans, _ = jsonl.read_documents(write(tmp_path / "g.jsonl", docs), "jsonl", None)
    assert spans.score is None


@pytest.mark.parametrize("bad", ["0.5", True, None, [0.5]])
def test_a_score_that_is_not_a_number_is_refused(tmp_path: Path, bad: object) -> None:
    docs = [{"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER", "score": bad}]}]
    with pytest.raises(InputError, match='span 0: expected a number under "score"'):
        jsonl.read_documents(write(tmp_path / "p.jsonl", docs), "jsonl", None)


def test_selecting_relabelling_and_label_maps_carry_the_scores(tmp_path: Path) -> None:
    gold, pred = read_span_columns(write(tmp_path / "g.jsonl", DOCS), write(tmp_path / "p.jsonl", DOCS))
    assert pred.score is not None
    kept = pred.select(np.asarray([False, True, True]))
    assert kept.score is not None
    assert kept.score[0] == 1.0
    mapped = LabelMap(rename=(("X", "LOC"),)).spans(pred).relabel(["LOC"])
    assert mapped.score is not None
    assert mapped.score[:2].tolist() == [0.25, 1.0]
    assert gold.score is not None  # the same file read as gold keeps its scores too (unused there)
