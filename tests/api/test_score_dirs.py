"""``nerve score GOLD_DIR PRED_DIR``: CoNLL files paired by relative name, read as one corpus in which
each file starts a document; the counts equal those of the files joined with ``-DOCSTART-`` lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.cli import main

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-MISC"]
sentence = st.lists(st.tuples(st.sampled_from(TAGS), st.sampled_from(TAGS)), min_size=1, max_size=6)
corpus = st.lists(st.lists(sentence, min_size=1, max_size=3), min_size=1, max_size=4)  # files of sentences


def _text(sentences: list[list[tuple[str, str]]], side: int) -> str:
    return "\n".join("".join(f"w{i} {pair[side]}\n" for i, pair in enumerate(s)) for s in sentences)


def _write(root: Path, files: list[list[list[tuple[str, str]]]]) -> tuple[Path, Path]:
    gold, pred = root / "gold", root / "pred"
    for i, sentences in enumerate(files):
        for d, side in ((gold, 0), (pred, 1)):
            path = d / f"part{i % 2}" / f"f{i:02d}.conll"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_text(sentences, side), encoding="utf-8")
    return gold, pred


def _counts(r: nerve.Result) -> dict[str, tuple[int, int, int]]:
    return {k: (c.tp, c.fp, c.fn) for k, c in r.exact.counts.items()}


@settings(max_examples=30, deadline=None)
@given(corpus, st.sampled_from(["begin", "discard"]))
def test_directories_score_as_the_joined_files(files: list[list[list[tuple[str, str]]]], repair: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        gold, pred = _write(root, files)
        pairs = sorted(gold.rglob("*.conll"))  # the order the directory is read in: by relative name
        joined = [root / "gold.conll", root / "pred.conll"]
        for out, d in zip(joined, (gold, pred), strict=True):
            parts = [(d / p.relative_to(gold)).read_text(encoding="utf-8") for p in pairs]
            out.write_text("".join(f"-DOCSTART- O\n\n{t}\n" for t in parts), encoding="utf-8")
        by_dir = nerve.score(gold, pred, repair=repair, metrics="exact,muc" if repair == "begin" else "exact")
        by_file = nerve.score(*joined, repair=repair, metrics="exact,muc" if repair == "begin" else "exact")
        assert _counts(by_dir) == _counts(by_file)
        assert by_dir.signature == by_file.signature
        assert (by_dir.documents, by_dir.sentences, by_dir.tokens) == (
            len(files),
            by_file.sentences,
            by_file.tokens,
        )
        assert by_dir.muc == by_file.muc


def test_analysis_and_maps_see_every_file(tmp_path: Path) -> None:
    files = [[[("B-PER", "B-PER")]], [[("B-OTH", "B-MISC")], [("B-LOC", "O")]]]
    gold, pred = _write(tmp_path, files)
    r = nerve.score(gold, pred, label_map="OTH=MISC", errors=True)
    assert _counts(r) == {"PER": (1, 0, 0), "MISC": (1, 0, 0), "LOC": (0, 0, 1)}
    assert r.analysis is not None
    assert r.analysis.errors is not None


def _fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    return err


def test_unpaired_and_unmatched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _write(tmp_path, [[[("B-PER", "B-PER")]]])
    lone = pred / "extra.conll"
    lone.write_text("w O\n", encoding="utf-8")
    assert f"{lone}: has no counterpart extra.conll under {gold}" in _fails(capsys, str(gold), str(pred))
    lone.unlink()
    (gold / "part0" / "g.conll").write_text("w O\n", encoding="utf-8")
    assert "g.conll: has no counterpart" in _fails(capsys, str(gold), str(pred))
    assert "--pattern: no file under" in _fails(capsys, str(gold), str(pred), "--pattern", "*.iob")
    assert "--pattern: applies to directories" in _fails(
        capsys, str(gold / "part0" / "f00.conll"), str(pred / "part0" / "f00.conll"), "--pattern", "*.conll"
    )
    assert "is a directory" in _fails(capsys, str(gold))


def test_pattern_picks_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = tmp_path / "g", tmp_path / "p"
    for d, tag in ((gold, "B-PER"), (pred, "B-PER")):
        d.mkdir()
        (d / "a.iob").write_text(f"w {tag}\n", encoding="utf-8")
        (d / "notes.md").write_text("not CoNLL\n", encoding="utf-8")
    assert main(["score", str(gold), str(pred), "--pattern", "*.iob", "--output", "json"]) == 0
    assert '"tp": 1' in capsys.readouterr().out
