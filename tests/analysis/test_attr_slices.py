"""The ``attr:NAME`` slice of brat attributes and normalisations, against a naive count."""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from nerve.cli import main

TEXT = "Ann met Bob and Cy in Dover on Monday."
WORDS = [(0, 3), (4, 7), (8, 11), (12, 15), (16, 18), (22, 27), (31, 37)]
Entity = tuple[int, int, str, str | None]  # start, end, type, value of Negated (None: absent)


@st.composite
def side(draw: Any) -> list[Entity]:
    chosen = draw(st.lists(st.sampled_from(WORDS), max_size=6, unique=True))
    return [
        (s, e, draw(st.sampled_from(["PER", "LOC"])), draw(st.sampled_from([None, "true", "High", "Low"])))
        for s, e in chosen
    ]


def write(directory: Path, entities: list[Entity]) -> None:
    directory.mkdir()
    (directory / "d.txt").write_text(TEXT, encoding="utf-8")
    lines = [f"T{i}\t{t} {s} {e}\t{TEXT[s:e]}" for i, (s, e, t, _) in enumerate(entities, start=1)]
    for i, (_, _, _, v) in enumerate(entities, start=1):
        if v is not None:
            lines.append(f"A{i}\tNegated T{i}" + ("" if v == "true" else f" {v}"))
    (directory / "d.ann").write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def naive(gold: list[Entity], pred: list[Entity]) -> dict[str, dict[str, int]]:
    """Per band: gold, predicted, matched gold (by gold value), matched predictions (by pred value)."""
    band = {None: "(none)"}
    rows: dict[str, Counter[str]] = {}
    g_keys = {(s, e, t): v for s, e, t, v in gold}
    p_keys = {(s, e, t): v for s, e, t, v in pred}
    for key, v in g_keys.items():
        row = rows.setdefault(band.get(v, v or ""), Counter())
        row["gold"] += 1
        row["tp"] += key in p_keys
    for key, v in p_keys.items():
        row = rows.setdefault(band.get(v, v or ""), Counter())
        row["pred"] += 1
        row["pred_tp"] += key in g_keys
    return {b: {k: r[k] for k in ("gold", "pred", "tp", "pred_tp")} for b, r in rows.items()}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(side(), side())
def test_attribute_slice_equals_a_naive_count(gold: list[Entity], pred: list[Entity]) -> None:
    if not any(v for *_, v in gold + pred):
        gold = [(0, 3, "PER", "true"), *(g for g in gold if g[:2] != (0, 3))]
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp) / "g", gold)
        write(Path(tmp) / "p", pred)
        result = nerve.score(str(Path(tmp) / "g"), str(Path(tmp) / "p"), slices="attr:Negated")
    assert result.analysis is not None
    assert result.analysis.slices is not None
    rows = result.analysis.slices.rows["attr:Negated"]
    expected = naive(gold, pred)
    got = {b: {"gold": r.gold, "pred": r.pred, "tp": r.tp, "pred_tp": r.pred_tp} for b, r in rows.items()}
    assert {b: r for b, r in got.items() if any(r.values())} == expected
    assert list(rows)[-1] == "(none)"
    assert sum(r.tp for r in rows.values()) == sum(r.pred_tp or 0 for r in rows.values()) == result.micro.tp


def test_unknown_attribute_is_an_option_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "g", [(0, 3, "PER", "true")])
    assert main(["score", str(tmp_path / "g"), str(tmp_path / "g"), "--slices", "attr:Colour"]) == 2
    err = capsys.readouterr().err
    assert "--slices: no entity has the attribute 'Colour'; they have Negated" in err


def test_attribute_slice_gets_no_bootstrap_intervals(tmp_path: Path) -> None:
    """A matched pair can straddle two bands, as in ``nesting``: the resampled counts cannot say."""
    write(tmp_path / "g", [(0, 3, "PER", "true"), (8, 11, "PER", None), (22, 27, "LOC", "High")])
    write(tmp_path / "p", [(0, 3, "PER", None), (8, 11, "PER", None), (22, 27, "LOC", "High")])
    result = nerve.score(str(tmp_path / "g"), str(tmp_path / "p"), slices="attr:Negated,type", bootstrap=50)
    d = result.to_dict()["slices"]
    assert "ci" not in d["attr:Negated"]["true"]
    assert "ci" in d["type"]["PER"]
    assert (d["attr:Negated"]["true"]["tp"], d["attr:Negated"]["true"]["pred_tp"]) == (1, 0)
    assert (d["attr:Negated"]["(none)"]["tp"], d["attr:Negated"]["(none)"]["pred_tp"]) == (1, 2)
