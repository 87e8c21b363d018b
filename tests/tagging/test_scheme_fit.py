"""A scheme that does not fit the tags (issue 25): many repairs, and nerve infers another scheme.

``--scheme IOBES`` on IOB2 tags scored with thousands of "repairs" and exit 0, and only the
signature said so. Now, past `MISFIT_SHARE` of the entities, the result carries a warning naming
the scheme nerve infers: every rendering shows it, and the CLI also writes it on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerve
from nerve.cli import main
from nerve.results import MISFIT_SHARE
from nerve.streaming import StreamingMetric

OUTPUTS = ("table", "json", "markdown", "csv", "latex")


def merged_wnut17(shared_data: Path, tmp_path: Path) -> Path:
    """WNUT-17's test set (valid IOB2) as ``token gold pred`` with the gold tags on both sides."""
    rows = []
    for line in (shared_data / "wnut17" / "emerging.test.annotated").read_text(encoding="utf-8").splitlines():
        token, _, tag = line.rpartition("\t")
        rows.append(f"{token.replace(' ', '_')} {tag} {tag}" if line.strip() else "")
    path = tmp_path / "wnut17.conll"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("output", OUTPUTS)
def test_iobes_on_wnut17_warns_on_stderr_and_in_every_rendering(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    path = merged_wnut17(shared_data, tmp_path)
    assert main(["score", str(path), "--scheme", "IOBES", "--output", output]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("nerve: warning: --scheme IOBES does not fit these tags: 2,158 repairs")
    assert "nerve infers IOB2 from them (use --scheme IOB2, or leave the scheme out)" in lines[0]
    warning = lines[0].removeprefix("nerve: warning: ")
    if output == "json":
        assert json.loads(out)["warnings"] == [warning]
    else:
        assert warning in out
    # Left to infer the scheme (or given the one it infers), nothing to warn about.
    for args in ([], ["--scheme", "IOB2"]):
        assert main(["score", str(path), *args, "--output", output]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        assert "warning" not in out


def test_iob2_on_iob1_wikigold_names_iob1(shared_data: Path, tmp_path: Path) -> None:
    rows = []
    for line in (shared_data / "wikigold" / "wikigold.conll.txt").read_text(encoding="utf-8").splitlines():
        rows.append(f"{line} {line.rpartition(' ')[2]}" if line.strip() else "")
    path = tmp_path / "wikigold.conll"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = nerve.score(str(path), scheme="IOB2")
    assert result.repairs.fits == "IOB1"
    (warning,) = result.warnings
    assert warning.startswith("scheme='IOB2' does not fit these tags: ")  # Python spells it as Python
    assert "nerve infers IOB1 from them (use scheme='IOB1', or leave the scheme out)" in warning
    assert nerve.score(str(path)).warnings == ()
    assert nerve.score(str(path), scheme="IOB1").warnings == ()


def corpus(valid: int, misfit: int) -> list[list[str]]:
    """``valid`` sentences valid in IOB1 (``I-X O``), ``misfit`` that IOB1 repairs (``B-X O``: IOB2)."""
    return [["I-X", "O"]] * valid + [["B-X", "O"]] * misfit


@pytest.mark.parametrize(("valid", "misfit", "warns"), [(19, 1, False), (18, 1, True), (0, 0, False)])
def test_the_threshold_at_both_its_sides(valid: int, misfit: int, warns: bool) -> None:
    tags = corpus(valid, misfit)
    result = nerve.score(tags, tags, scheme="IOB1")
    entities = 2 * (valid + misfit)
    assert result.repairs.total == 2 * misfit
    assert (result.repairs.total > MISFIT_SHARE * entities) is warns
    assert bool(result.warnings) is warns
    assert ("warnings" in result.to_dict()) is warns


def test_streaming_and_merged_results_carry_the_warning() -> None:
    tags = corpus(0, 3)
    result = nerve.score(tags, tags, scheme="IOB1")
    (warning,) = result.warnings
    assert "6 repairs for 6 entities (100%, over 5%)" in warning
    assert (result + result).warnings == (warning.replace("6 repairs for 6", "12 repairs for 12"),)
    metric = StreamingMetric(labels=["O", "B-X", "I-X"], scheme="IOB1")
    metric.update([[1, 0]], [[1, 0]])
    assert metric.compute().warnings == (warning.replace("6 repairs for 6", "2 repairs for 2"),)
