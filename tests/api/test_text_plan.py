"""`nerve.score_text`'s options travel as one `Plan` (`nerve.api.text.text_plan`), as `nerve.score`'s do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import nerve
from cli_errors import cli_error
from nerve.api.text import scored_text, text_plan
from nerve.errors import OptionError
from nerve.metrics import text as text_metrics

MERGED = "-DOCSTART- O O\n\nParis B-LOC B-LOC\nis O O\n\nMarie B-PER B-PER\nCurie I-PER O\n"


def bio_dirs(tmp_path: Path) -> tuple[Path, Path]:
    label, pred = tmp_path / "labels", tmp_path / "predictions"
    for d, tags in ((label, ("B-PER", "I-PER")), (pred, ("B-PER", "O"))):
        d.mkdir()
        (d / "a.txt").write_text(f"Marie {tags[0]}\nCurie {tags[1]}\n", encoding="utf-8")
    return label, pred


def test_the_plan_holds_every_option() -> None:
    def progress(done: int, total: int) -> None:
        pass

    plan = text_plan(
        metrics="nerval,boe",
        threshold=0.5,
        scheme="IOBES",
        repair="discard",
        directories=True,
        pattern="*.txt",
        documents="docstart",
        progress=progress,
    )
    assert plan.texts is not None
    assert (plan.texts.metrics, plan.texts.threshold) == (("nerval", "boe"), 0.5)
    assert (plan.texts.scheme, plan.texts.repair, plan.texts.directories) == ("IOBES", "discard", True)
    assert set(plan.texts.given) == {
        "metrics",
        "threshold",
        "scheme",
        "repair",
        "directories",
        "pattern",
        "progress",
    }
    assert (plan.reading.pattern, plan.output.progress) == ("*.txt", progress)
    default = text_plan()
    assert default.texts is not None
    assert (default.texts.metrics, default.texts.given, default.reading.pattern) == (
        ("ecer-ewer", "nerval", "bow", "botw", "boe"),
        (),
        "*.bio",
    )


def test_the_options_reach_the_metrics_through_the_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    label, pred = bio_dirs(tmp_path)
    seen: list[dict[str, Any]] = []
    real = text_metrics.score_texts

    def spy(gold: Any, predicted: Any, **kw: Any) -> Any:
        seen.append(kw)
        return real(gold, predicted, **kw)

    monkeypatch.setattr(text_metrics, "score_texts", spy)
    calls: list[int] = []
    kw: dict[str, Any] = dict(
        metrics=["nerval"], threshold=0.25, pattern="*.txt", progress=lambda d, t: calls.append(d)
    )
    got = nerve.score_text(label, pred, **kw)
    assert seen[-1] == {"metrics": ("nerval",), "threshold": 0.25, "progress": kw["progress"]}
    assert calls  # progress was called
    assert scored_text(label, pred, text_plan(**kw)) == got
    assert got.to_dict()["threshold"] == 0.25


def test_an_option_the_input_does_not_use_is_refused(tmp_path: Path) -> None:
    merged = tmp_path / "m.conll"
    merged.write_text(MERGED, encoding="utf-8")
    with pytest.raises(
        OptionError, match=rf"^pattern: applies to directories of BIO files, but {merged} is a file$"
    ):
        nerve.score_text(merged, pattern="*.txt")
    with pytest.raises(
        OptionError, match=r"^threshold: applies to the nerval metric, but the metrics are boe, bow"
    ):
        nerve.score_text(merged, metrics=["boe", "bow"], threshold=0.5)
    assert nerve.score_text(merged, metrics=["boe"], threshold=0.3).documents == 1  # the default: not given
    with pytest.raises(TypeError, match=r"score_text\(\) got an unexpected keyword argument 'min_score'"):
        nerve.score_text(merged, min_score=0.5)  # type: ignore[call-arg]


def test_the_cli_refuses_a_pattern_for_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    merged = tmp_path / "m.conll"
    merged.write_text(MERGED, encoding="utf-8")
    line = cli_error(capsys, "boe", str(merged), "--pattern", "*.txt")
    assert line == f"nerve: error: --pattern: applies to directories of BIO files, but {merged} is a file"
