"""Scoring in parts on the C engine (`nerve.api.compiled.compiled_counts`): the numpy engine's counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines import both
from nerve.api import partial

CORPUS = """\
-DOCSTART- -X- O O

EU NNP B-ORG B-ORG
rejects VBZ O O
German JJ B-MISC I-MISC
call NN O O

Peter NNP B-PER B-PER
Blackburn NNP I-PER B-PER

-DOCSTART- -X- O O

BRUSSELS NNP B-LOC B-LOC
"""


@pytest.mark.parametrize("policy", ["begin", "discard", "error"])
def test_parts_count_the_same_on_both_engines(tmp_path: Path, policy: str) -> None:
    files = []
    for i in range(2):
        path = tmp_path / f"part{i}.txt"
        path.write_text(CORPUS)
        files.append((str(path), None))

    def run() -> object:
        p = partial.plan(repair=policy, scheme="IOB2" if policy != "begin" else "auto")
        return partial.finish(p, [partial.count_files(p, [f]) for f in files])

    fast, slow, spy = both(run)  # type: ignore[arg-type]
    assert fast == slow
    assert spy.counted == 2  # on the C engine, each part


def test_the_error_policy_hands_invalid_transitions_over(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("a O I-PER\n")
    p = partial.plan(repair="error", scheme="IOB2")
    fast, slow, _ = both(lambda: partial.finish(p, [partial.count_files(p, [(str(path), None)])]))  # type: ignore[arg-type,return-value]
    assert fast == slow
    assert fast[0] == "error"
