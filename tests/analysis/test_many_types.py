"""Many entity types: the confusion matrices stay sparse, and what renders them stays readable.

A dense (types + 1)² matrix of 20,000 types is 3.2 GB a view; the analysis must cost memory in
proportion to the entities, not to the square of the types.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import nerve
from nerve.analysis.confusion import MISSED
from nerve.report import charts
from nerve.report.analysis import SQUARE_UP_TO, analysis_tables

ROOT = Path(__file__).resolve().parents[2]


def many_types(path: Path, n_types: int, tokens: int) -> Path:
    """A merged CoNLL file: one-token entities, gold type ``i % n``, predicted ``7 i % n``."""
    rows = [
        f"w{i} B-T{i % n_types} B-T{i * 7 % n_types}\n" + ("\n" if i % 20 == 19 else "")
        for i in range(tokens)
    ]
    path.write_text("".join(rows), encoding="utf-8")
    return path


LIMITED = """
import resource, sys
import nerve
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
r = nerve.score(sys.argv[1], errors=True, confusion=True)
c = r.analysis.confusion["exact"]
print(len(c.types), sum(n for _, _, n in c.cells()), len(nerve.render(r, "csv")))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux's")
def test_20000_types_fit_in_a_gigabyte(tmp_path: Path) -> None:
    path = many_types(tmp_path / "t.conll", 20_000, 20_000)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # one dense view alone would be 3.2 GB: under a 1 GiB address-space limit it cannot be made
    run = subprocess.run(
        [sys.executable, "-c", LIMITED, str(path), str(2**30)], capture_output=True, text=True, env=env
    )
    assert run.returncode == 0, run.stderr[-2000:]
    types, entities, _ = map(int, run.stdout.split())
    # every gold entity is in one cell, and every unpaired prediction in the SPURIOUS row
    assert (types, entities) == (20_000, 20_000)


def test_merging_adds_cells_over_the_union_of_the_types() -> None:
    a = nerve.score([["B-ZED", "O", "B-LOC"]], [["B-LOC", "O", "B-LOC"]], errors=True, confusion=True)
    b = nerve.score([["B-ALPHA", "B-LOC"]], [["B-ALPHA", "O"]], errors=True, confusion=True)
    merged = a.merge(b)
    views = [r.analysis.confusion for r in (a, b, merged) if r.analysis is not None]
    assert all(v is not None for v in views)
    assert len(views) == 3
    for view in ("exact", "overlap"):
        ca, cb, cm = (v[view] for v in views if v is not None)
        assert cm.types == ("ALPHA", "LOC", "ZED")
        assert cm.sparse.shape == (4, 4)
        want: dict[tuple[str, str], int] = {}
        for c in (ca, cb):
            for g, row in c.to_dict().items():
                for p, k in row.items():
                    want[g, p] = want.get((g, p), 0) + k
        assert {(g, p): k for g, row in cm.to_dict().items() for p, k in row.items()} == want
        assert [cm.row(i).tolist() for i in range(4)] == cm.matrix.tolist()
        assert cm.cell("ZED", "LOC") == 1
        assert cm.cell("LOC", "LOC") == 1
        assert cm.cell("LOC", MISSED) == 1


def test_many_types_render_as_a_list_of_cells(tmp_path: Path) -> None:
    n = SQUARE_UP_TO + 1
    result = nerve.score(many_types(tmp_path / "t.conll", n, 2 * n), errors=True, confusion=True)
    tables = {t.title: t for t in analysis_tables(result)}
    exact = tables["confusion (exact)"]
    assert exact.head == ["gold", "predicted", "count"]
    assert f"{n:,} types: the nonzero cells, one a row" in exact.note
    assert result.analysis is not None
    assert result.analysis.confusion is not None
    cells = result.analysis.confusion["exact"].to_dict()
    assert {(g, p): k for g, p, k in exact.rows} == {
        (g, p): k for g, row in cells.items() for p, k in row.items()
    }
    small = nerve.score(many_types(tmp_path / "s.conll", SQUARE_UP_TO, 80), confusion=True)
    square = {t.title: t for t in analysis_tables(small)}["confusion (exact)"]
    assert len(square.head) == SQUARE_UP_TO + 2  # gold \ predicted, the types, MISSED


def test_charts_draw_the_types_with_the_most_entities(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    n = charts.HEATMAP_TYPES + 5
    result = nerve.score(many_types(tmp_path / "t.conll", n, 3 * n), errors=True, confusion=True)
    assert result.analysis is not None
    assert result.analysis.confusion is not None
    svg = charts.heatmap(result.analysis.confusion["exact"], "sys")
    assert f"{charts.HEATMAP_TYPES} of {n} types: those with the most entities" in svg
    assert result.analysis.errors is not None
    bars = charts.error_bars(result.analysis.errors.by_type, "sys")
    assert f"{charts.HEATMAP_TYPES} of {n} types: those with the most errors" in bars
