"""Reading a file in several threads gives the same result, and the same errors, as reading it once."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import nerve
from nerve.io.tags.ranges import split_files

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"]


def corpus(
    tmp_path: Path, sentences: int = 300, seed: int = 0, tags: list[str] = TAGS
) -> tuple[Path, Path, Path]:
    """A merged file and the equivalent gold and prediction files, with documents."""
    rng = random.Random(seed)
    merged, gold, pred = [], [], []
    for s in range(sentences):
        if s % 40 == 0:
            merged += ["-DOCSTART- O O", ""]
            gold += ["-DOCSTART- O", ""]
            pred += ["-DOCSTART- O", ""]
        for i in range(rng.randint(1, 12)):
            g, p = rng.choice(tags), rng.choice(tags)
            merged.append(f"w{i} {g} {p}")
            gold.append(f"w{i} {g}")
            pred.append(f"w{i} {p}")
        merged.append("")
        gold.append("")
        pred.append("")
    paths = tmp_path / "merged.txt", tmp_path / "gold.txt", tmp_path / "pred.txt"
    for path, lines in zip(paths, (merged, gold, pred), strict=True):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


@pytest.mark.parametrize("workers", [2, 3, 5])
@pytest.mark.parametrize("repair", ["begin", "discard", "error"])
def test_threads_count_the_same(tmp_path: Path, workers: int, repair: str) -> None:
    valid = ["O", "I-PER", "I-LOC"]  # IOB1 admits every sequence of these tags
    merged, gold, pred = corpus(tmp_path, tags=valid if repair == "error" else TAGS)
    scheme = "IOB1" if repair == "error" else "auto"
    one = nerve.score(merged, repair=repair, scheme=scheme, workers=1)
    assert one.documents == 8
    assert nerve.score(merged, repair=repair, scheme=scheme, workers=workers) == one
    pair = nerve.score(gold, pred, repair=repair, scheme=scheme, workers=workers)
    assert pair == nerve.score(gold, pred, repair=repair, scheme=scheme, workers=1)
    assert pair == one


def test_ranges_cover_the_file_and_follow_blank_lines(tmp_path: Path) -> None:
    _merged, gold, pred = corpus(tmp_path)
    parts = split_files(str(gold), str(pred), 4)
    assert parts is not None
    data = gold.read_bytes()
    assert next(g.start for g, _ in parts) == 0
    assert parts[-1][0].stop == len(data)
    for (g, p), (g2, p2) in itertools.pairwise(parts):
        assert g.stop == g2.start
        assert p is not None
        assert p2 is not None
        assert p.stop == p2.start
        assert data[g2.start - 2 : g2.start] == b"\n\n"
        assert g2.line == data[: g2.start].count(b"\n") == p2.line


def test_no_blank_line_means_one_range(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text("a B-X B-X\n" * 10, encoding="utf-8")
    assert split_files(str(path), None, 2) is None
    assert nerve.score(path, workers=2).micro.tp == 10


def test_errors_name_the_same_line(tmp_path: Path) -> None:
    merged, _gold, _pred = corpus(tmp_path)
    lines = merged.read_text(encoding="utf-8").split("\n")
    late = len(lines) - 5
    while not lines[late]:
        late -= 1
    lines[late] = lines[late] + " extra"
    merged.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(nerve.InputError) as one:
        nerve.score(merged, workers=1)
    with pytest.raises(nerve.InputError) as two:
        nerve.score(merged, workers=2)
    assert (
        (two.value.line, two.value.detail)
        == (one.value.line, one.value.detail)
        == (late + 1, one.value.detail)
    )


def test_invalid_transitions_are_listed_in_line_order(tmp_path: Path) -> None:
    merged, _, _ = corpus(tmp_path)
    with pytest.raises(nerve.InvalidSequenceError) as one:
        nerve.score(merged, scheme="IOB2", repair="error", workers=1)
    with pytest.raises(nerve.InvalidSequenceError) as two:
        nerve.score(merged, scheme="IOB2", repair="error", workers=3)
    assert one.value.problems == two.value.problems
    assert len(one.value.problems) > 10
