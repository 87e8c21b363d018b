"""Every MUC row adds up in every renderer: act = cor + inc + par + spu + cross, pos = cor + inc + par + mis.

A per-type row counts COR/INC/PAR on the gold side and ACT on the predicted side, so a pair that
joins two types is in one type's INC and the other's ACT; the ``cross`` column shows the
difference, so each printed row adds up as in nervaluate while the counts stay nerve's.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from conftest import shared_data_dir
from nerve.api.pipeline import score_spans
from nerve.cli import main
from nerve.metrics.muc import MucOptions

COLUMNS = ("cor", "inc", "par", "mis", "spu", "cross", "pos", "act")
Row = dict[str, int]


def _aligned_rows(text: str, split: str) -> list[Row]:
    """The counts table's rows of a text, Markdown or LaTeX rendering (cells split by ``split``)."""
    rows: list[Row] = []
    head: list[str] | None = None
    for line in text.splitlines():
        if line.startswith(("\\hline", "|:---")):
            continue
        parts = line.strip("|").split(split) if split else line.split()
        cells = [c.strip().removesuffix("\\\\").strip() for c in parts]
        if head is None:
            head = cells if cells[:3] == ["mode", "type", "cor"] else None
        elif len(cells) == len(head):
            rows.append({k: int(v) for k, v in zip(head[2:], cells[2:], strict=True)})
        else:
            break
    return rows


def rendered_rows(result: nerve.Result) -> dict[str, list[Row]]:
    """The MUC count rows of each renderer, as numbers."""
    data = json.loads(nerve.render(result, "json"))["muc"]
    as_json = [
        {k: row[k] for k in COLUMNS}
        for mode in data.values()
        for row in [mode["overall"], *mode["per_type"].values()]
    ]
    muc_part = nerve.render(result, "csv").split("\n\n# muc\n")[1].split("\n\n")[0]
    as_csv = [{k: int(r[k]) for k in COLUMNS} for r in csv.DictReader(io.StringIO(muc_part))]
    return {
        "json": as_json,
        "csv": as_csv,
        "table": _aligned_rows(nerve.render(result, "table"), ""),
        "markdown": _aligned_rows(nerve.render(result, "markdown"), "|"),
        "latex": _aligned_rows(nerve.render(result, "latex"), "&"),
    }


def assert_rows_add_up(result: nerve.Result) -> int:
    """Check every rendered row; return how many rows have a nonzero ``cross``."""
    assert result.muc is not None
    n_rows = 4 * (1 + len(result.muc.modes["strict"].per_type))
    crossed = 0
    for form, rows in rendered_rows(result).items():
        assert len(rows) == n_rows, form
        for r in rows:
            assert r["cor"] + r["inc"] + r["par"] + r["spu"] + r["cross"] == r["act"], (form, r)
            assert r["cor"] + r["inc"] + r["par"] + r["mis"] == r["pos"], (form, r)
            crossed += r["cross"] != 0
    return crossed


span = st.tuples(st.integers(0, 12), st.integers(1, 4), st.sampled_from(["PER", "LOC", "ORG"])).map(
    lambda t: (t[0], t[0] + t[1], t[2])
)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.lists(span, max_size=5), st.lists(span, max_size=5)), min_size=1, max_size=3))
def test_every_rendered_row_adds_up(
    docs: list[tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]],
) -> None:
    gold = [g for g, _ in docs]
    pred = [p for _, p in docs]
    result = score_spans(gold, pred, overlap=MucOptions())
    assert result.muc is not None
    for scores in result.muc.modes.values():
        for c in [scores.overall, *scores.per_type.values()]:
            assert c.cor + c.inc + c.par + c.spu + c.cross == c.act
        assert scores.overall.cross == 0
    assert_rows_add_up(result)


def test_a_pair_across_types_shows_in_cross() -> None:
    # ORG predicted as PER: the gold ORG is in ORG's INC, the prediction in PER's ACT
    result = score_spans(
        [[(0, 2, "ORG"), (3, 4, "PER")]], [[(0, 2, "PER"), (3, 4, "PER")]], overlap=MucOptions()
    )
    assert result.muc is not None
    strict = result.muc.modes["strict"]
    assert (strict.per_type["ORG"].inc, strict.per_type["ORG"].act, strict.per_type["ORG"].cross) == (
        1,
        0,
        -1,
    )
    assert (strict.per_type["PER"].cor, strict.per_type["PER"].act, strict.per_type["PER"].cross) == (1, 2, 1)
    assert "cross: the type's predictions paired with another type's gold" in nerve.render(result, "table")
    assert assert_rows_add_up(result) == 2 * 4 * 5  # ORG and PER, in 4 modes, in 5 renderers


def test_rows_add_up_on_real_data(capsys: pytest.CaptureFixture[str]) -> None:
    corpus = (
        shared_data_dir()
        / "wikigold"
        / "predictions"
        / "spacy-en_core_web_sm-3.6.0.conll-labels.gold-pred.txt"
    )
    result = nerve.score(corpus, metrics="exact,muc")
    assert assert_rows_add_up(result) > 0  # types are confused: the column is needed
    for path in (
        corpus,
        shared_data_dir() / "wnut16" / "predictions" / "wnut16_CflairWglove_lstmCrf_27707443_4596.txt",
    ):
        assert assert_rows_add_up(nerve.score(Path(path), metrics="muc")) > 0
    assert main(["score", str(corpus), "--metrics", "muc", "--output", "json"]) == 0
    strict = json.loads(capsys.readouterr().out)["muc"]["strict"]
    assert {t: r["cross"] for t, r in strict["per_type"].items()} == {
        "LOC": -64,
        "MISC": -169,
        "ORG": 148,
        "PER": 85,
    }
