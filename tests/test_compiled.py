"""The one choice of engine (`nerve.compiled.route`), and the compiled engine's road to a `Result`."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

import nerve
from nerve import compiled
from nerve.io import formats
from nerve.model.counts import Counts, ExactTotals, RepairStats, TokenStats
from nerve.model.schemes import SCHEMES, TagFormat
from nerve.model.vocab import TagVocab
from nerve.plan import DEFAULTS, Plan
from nerve.report.renderers import render

ROOT = Path(__file__).resolve().parents[1]
NEWS = str(ROOT / "examples" / "news.conll")
SPANS = str(ROOT / "docs" / "examples" / "spans.jsonl")


def plan(**given: Any) -> Plan:
    return Plan.of(DEFAULTS, **given)


def plug(monkeypatch: pytest.MonkeyPatch, read: Any) -> None:
    """``read`` as the ``conll`` record's compiled reader, and the engine as if built."""
    at = [f.name for f in formats.FORMATS].index("conll")
    records = list(formats.FORMATS)
    records[at] = records[at].replace(accelerated=read)
    monkeypatch.setattr(formats, "FORMATS", records)
    monkeypatch.setattr(compiled, "speedups", lambda: compiled)


@pytest.fixture
def reader(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any, Plan]]:
    """A compiled reader on the ``conll`` record, as if ``nerve._speedups`` were built: its calls."""
    calls: list[tuple[Any, Any, Plan]] = []

    def read(gold: Any, pred: Any, plan: Plan) -> compiled.Counted:
        calls.append((gold, pred, plan))
        totals = ExactTotals(
            {"PER": Counts(3, 1, 2)}, TokenStats(10, 8), RepairStats("begin"), SCHEMES["IOB2"], 2, 1
        )
        return totals, TagVocab(TagFormat("prefix", "-", "O")), {}

    plug(monkeypatch, read)
    return calls


def test_plain_runs_of_conll_files_and_streams_go_to_the_compiled_reader(
    reader: list[tuple[Any, Any, Plan]],
) -> None:
    for gold, pred, given in [
        (NEWS, None, {}),
        (NEWS, NEWS, {"input_format": "conll"}),
        (io.BytesIO(b"a B-X B-X\n"), None, {}),
        (Path(NEWS), None, {"repair": "conlleval", "delimiter": "space", "comments": True}),
        (NEWS, None, {"types": "PER", "scheme": "IOBES", "encoding": "latin-1", "beta": 2.0}),
    ]:
        assert compiled.route(gold, pred, plan(**given)) is not None, given
    result = compiled.count(NEWS, None, plan(beta=2.0))
    assert result is not None
    assert len(reader) == 1
    assert result.micro.tp == 3
    assert result.micro.precision == 0.75
    assert result.micro.recall == 0.6
    assert result.settings.scheme == "IOB2"
    assert result.settings.beta == 2.0
    head = f"nerve {nerve.__version__} | scheme IOB2 (auto) | tags B-X O | repair begin (0 repairs) |"
    assert render(result, "table").startswith(head)


def test_every_other_run_is_numpys(reader: list[tuple[Any, Any, Plan]], tmp_path: Path) -> None:
    numpys = [
        (NEWS, None, {"metrics": "exact,muc"}),
        (NEWS, None, {"errors": True}),
        (NEWS, None, {"slices": "length"}),
        (NEWS, None, {"bootstrap": 10}),
        (NEWS, None, {"sweep": True}),
        (NEWS, None, {"input_format": "jsonl"}),
        (SPANS, None, {}),  # sniffed as span file
        (NEWS, SPANS, {}),
        (str(tmp_path), None, {}),  # a directory: numpy's reader pairs its files
        (str(tmp_path / "missing.conll"), None, {}),  # numpy's reader names the error
        ([["B-X"]], [["B-X"]], {}),  # tag lists
        (NEWS, None, {"offsets": "char"}),
    ]
    for gold, pred, given in numpys:
        assert compiled.route(gold, pred, plan(**given)) is None, given
    assert compiled.count(NEWS, None, plan(errors=True)) is None
    assert reader == []


def test_without_a_compiled_reader_or_engine_numpy_counts(
    reader: list[tuple[Any, Any, Plan]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiled, "speedups", lambda: None)  # not built, or NERVE_NO_SPEEDUPS=1
    assert compiled.route(NEWS, None, plan()) is None
    monkeypatch.undo()
    plug(monkeypatch, None)  # a record without a compiled reader
    assert compiled.route(NEWS, None, plan()) is None


def test_a_reader_that_hands_over_leaves_the_run_to_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    plug(monkeypatch, lambda gold, pred, plan: None)
    assert compiled.count(NEWS, None, plan()) is None
    result = nerve.score(NEWS)  # the API takes the same road, and numpy counts it
    assert result.micro.tp == 9
