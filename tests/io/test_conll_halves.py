"""A merged CoNLL file counted in two threads (``workers``: `conll_c._cut`, `conll_c._count_halves`).

The C engine cuts a file before a ``-DOCSTART-`` line past its middle and counts the halves with two
counters; the numpy engine cuts at a blank line. Both give what one pass gives: random corpora of
`test_conll_engines`, fixed cases, the totals themselves, and errors raised in either thread.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from test_conll_engines import POLICIES, SETTINGS, corpora, merged, mutated, options

import nerve
import nerve.io.tags.conll_c as conll_c
import nerve.io.tags.conll_cuts as conll_cuts
from engines import CORE, both, conll_engine, outcome


@SETTINGS
@given(data=st.data())
def test_merged_files_in_two_halves(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    corpus = data.draw(corpora())
    corpus["docstart"] = data.draw(st.integers(0, 4)) > 0  # mostly: a cut needs a -DOCSTART- line
    corpus["docs"] += data.draw(st.lists(st.sampled_from(corpus["docs"]), max_size=2))
    raw = merged(corpus)
    clean = data.draw(st.booleans())  # else malformed lines and options that may not fit the tags
    text = raw if clean else data.draw(mutated(raw))
    kw = {"repair": data.draw(st.sampled_from(["begin", "discard"]))} if clean else options(data.draw, corpus)
    path = tmp_path_factory.mktemp("halves") / "m.txt"
    path.write_bytes(text)
    fast, slow, spy = both(lambda: nerve.score(path, workers=2, **kw))
    assert fast == slow
    with conll_engine(True):
        one = outcome(lambda: nerve.score(path, **kw))
    assert one[0] == fast[0]
    if fast[0] == "result":  # of several errors, numpy's ranges may report another than one pass
        assert one == fast  # one thread or two, the same
    cut = conll_c._cut(CORE, [(str(path), None)], kw.get("delimiter"), 2)
    if cut is not None and kw["repair"] != "conlleval" and spy.handed == 0 and fast[0] == "result":
        event("counted in two halves")
        assert spy.counted in (2, 4)  # both halves counted in C (discard: again, once the scheme is known)
        first, second = text[: cut[0]], text[cut[0] :]
        assert first.endswith(b"\n")
        assert second.startswith(b"-DOCSTART-") or first.endswith((b"\n\n", b"\n\r\n"))


def halves_file(tmp_path: Path, first: list[str], second: list[str]) -> Path:
    """A merged file of two documents, big enough that the cut falls before the second's -DOCSTART-."""
    head = ["-DOCSTART- O O", "", *first, ""]
    body = "\n".join(head) + "\n" + "\n".join(["w O O", ""] * 40)
    text = body + "\n-DOCSTART- O O\n\n" + "\n".join(second) + "\n"
    path = tmp_path / "halves.txt"
    path.write_text(text)
    cut = conll_c._cut(CORE, [(str(path), None)], None, 2)
    assert cut is not None
    assert text.encode()[cut[0] :].startswith(b"-DOCSTART-")
    return path


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (["a B-PER I-PER", "b O B-LOC"], ["c B-LOC B-LOC", "d I-LOC O"]),  # types met in each half
        (["a O O"], ["c PER-B PER-B", "d PER-I O"]),  # the first entity tag (the tag format) in the second
        (["a B-PER B-PER"], ["c B-PER B-PER POS"]),  # another column count: numpy's error
        (["a B-PER B-PER"], ["c B-PER I-XX\r", "d O O"]),  # a lone CR in the second half: numpy's error
        (["a B-PER B-PER"], []),  # an empty second document
    ],
)
def test_two_halves_give_what_one_pass_gives(tmp_path: Path, first: list[str], second: list[str]) -> None:
    path = halves_file(tmp_path, first, second)
    for policy in POLICIES:
        fast, slow, spy = both(lambda policy=policy: nerve.score(path, repair=policy, workers=2))  # type: ignore[misc]
        assert fast == slow
        one = both(lambda policy=policy: nerve.score(path, repair=policy, workers=1))  # type: ignore[misc]
        assert one[0] == fast
        if fast[0] == "result" and policy in ("begin", "discard"):
            assert spy.counted >= 2  # discard may count again, once the scheme is inferred


def test_the_halves_add_up_as_one_counter() -> None:
    a = (1, 2, 3, 4, 0, [1, 0], [0, 2], [5], [1, 1], [0], [], [], [], [3, 1], [2], 3)
    b = (10, 20, 30, 40, 0, [0, 1], [1, 0], [1, 2], [1], [2, 3], [], [], [], [1], [1, 1, 4], -1)
    assert conll_c._summed(a, b) == (
        11, 22, 33, 44, 0, [1, 1], [1, 2], [6, 2], [2, 1], [2, 3], [], [], [], [4, 1], [3, 1, 4],
    )  # fmt: skip


def test_where_a_file_is_cut(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("w B-PER B-PER\n\n" * 100)
    cut = conll_c._cut(CORE, [(str(plain), None)], None, 2)
    assert cut is not None
    assert cut[2] == 1  # after a blank line: the second counter's first document is one too many
    commented = tmp_path / "commented.txt"
    commented.write_text("# c\nw O O\n\n" * 100)  # every blank line is next to a possible comment
    assert conll_c._cut(CORE, [(str(commented), None)], None, 2) is None
    path = halves_file(tmp_path, ["a B-PER B-PER"], ["b O O"])
    assert conll_c._cut(CORE, [(str(path), None)], ",", 2) is None
    assert conll_c._cut(CORE, [(str(path), None)], None, 1) is None
    assert conll_c._cut(CORE, [(str(path), str(path))], None, 2) is None  # a gold and a prediction file
    size = path.stat().st_size
    assert conll_c._cut(CORE, [(str(path), None)], None, None) is None  # small: one thread
    before = conll_cuts.SPLIT_BYTES
    conll_cuts.SPLIT_BYTES = size
    try:
        two = (os.cpu_count() or 1) >= 2
        assert (conll_c._cut(CORE, [(str(path), None)], None, None) is not None) == two
    finally:
        conll_cuts.SPLIT_BYTES = before


@pytest.mark.parametrize(
    ("window", "cut"),
    [
        (b"x O\n-DOCSTART- O O\n", (4, 0)),
        (b"x O\n-DOCSTART-\tO\n", (4, 0)),
        (b"x O\n-DOCSTART-\r\n", (4, 0)),
        (b"x O\n-DOCSTART-x O\n\ny O\n", None),  # a token, and the line after the blank is cut short
        (b"O\nx O\n\ny O\nz", (7, 1)),
        (b"O\r\nx O\r\n\r\ny O\r\nz", (10, 1)),
        (b"x O\n\ny O\n", None),  # the line before the blank may be cut short by the window
        (b"O\nx O\n\n# y\nz O\n\nw O\nv", (16, 1)),  # not next to a comment
        (b"O\nx O\n \ny O\n", None),  # a line of blanks is no empty line here
        (b"O\n-DOCSTART- O\n\ny O\n", (2, 0)),
    ],
)
def test_cuts_in_a_window(window: bytes, cut: tuple[int, int] | None) -> None:
    assert conll_cuts.cut_in(window) == cut


def test_the_split_threshold_is_the_numpy_engines() -> None:
    from nerve.api.shards import SHARD_BYTES

    assert SHARD_BYTES is conll_cuts.SPLIT_BYTES  # one rule for both engines (`conll_cuts.threads`)


@pytest.mark.parametrize(
    "text",
    [
        "a O B_PER\n\na O B_G-M\n\na O B_PER\n\na O B_G-M",  # each range alone infers another tag format
        "# a comment\na NN O O\n\n",  # the fix of the first line's count: --comments
        "--DOCSTART-\nDOCSTART- -X- O O\n\na O O\n\na O O\n",  # one column: too few, on line 1
    ],
)
def test_numpy_ranges_give_what_one_pass_gives(tmp_path: Path, text: str) -> None:
    """The numpy engine's ranges (``workers=2``) on files whose ranges disagree with one pass.

    They crashed (``KeyError``) on the first, dropped the hint on the second and named line 2, not
    line 1, on the third.
    """
    path = tmp_path / "ranges.txt"
    path.write_text(text)
    with conll_engine(False):
        assert outcome(lambda: nerve.score(path, workers=2)) == outcome(lambda: nerve.score(path, workers=1))


def by_type(totals: conll_c.ColumnTotals) -> dict[str, tuple[int, int, int]]:
    """Per-type counts by name: two counters number the types in the order they meet them."""
    return {n: (totals.gold[i], totals.pred[i], totals.matched[i]) for i, n in enumerate(totals.type_names)}


def count(path: Path, workers: int) -> conll_c.ColumnTotals | None:
    return conll_c.count_columns(
        [(str(path), None)],
        comments=False,
        check_tokens=True,
        delimiter=None,
        tag_format=None,
        scheme=None,
        outside="O",
        policy="begin",
        workers=workers,
    )


@pytest.mark.parametrize("empty_first", [False, True])
def test_both_halves_are_counted_in_c(tmp_path: Path, empty_first: bool) -> None:
    """The halves' totals are the one pass's, also when the first half has no token line."""
    first = [] if empty_first else ["a B-PER B-PER", "b I-PER O"]
    path = halves_file(tmp_path, first, ["c B-LOC B-LOC", "d I-LOC B-ORG"])
    if empty_first:
        path.write_text("-DOCSTART- O O\n\n" * 60 + "-DOCSTART- O O\n\nc B-LOC B-LOC\nd I-LOC B-ORG\n")
        assert conll_c._cut(CORE, [(str(path), None)], None, 2) is not None
    with conll_engine(True) as spy:
        one, two = count(path, 1), count(path, 2)
    assert one is not None
    assert two is not None  # counted in C, not handed over
    assert spy.counted == 3
    keys = ("tokens", "correct", "sentences", "documents", "codes", "letters", "format")
    assert [getattr(two, k) for k in keys] == [getattr(one, k) for k in keys]
    assert by_type(two) == by_type(one)


class Failing:
    """The compiled module, whose ``conll_count_file`` raises on its ``failing``-th call."""

    def __init__(self, failing: int) -> None:
        self.failing, self.calls = failing, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(CORE, name)

    def conll_count_file(self, *args: Any) -> str | None:
        self.calls += 1
        if self.calls == self.failing:
            raise OSError("gone")
        return CORE.conll_count_file(*args)  # type: ignore[no-any-return]


@pytest.mark.parametrize("failing", [1, 2])
def test_an_error_in_either_thread_is_raised_in_the_caller(tmp_path: Path, failing: int) -> None:
    """An `OSError` while a half is read reaches the caller (`count_columns` hands the file over)."""
    path = halves_file(tmp_path, ["a B-PER B-PER"], ["c B-LOC B-LOC"])
    cut = conll_c._cut(CORE, [(str(path), None)], None, 2)
    assert cut is not None
    core = Failing(failing)
    table = conll_c.TagTable(None, None, "O")

    def counter() -> object:
        return CORE.conll_counter(False, True, 0, bytes(50), bytes(50), table)

    with pytest.raises(OSError, match="gone"):
        conll_c._count_halves(core, counter, str(path), cut)  # type: ignore[arg-type]
    assert core.calls == 2  # the other half ran to its end
    before = conll_c.speedups
    conll_c.speedups = lambda: Failing(failing)  # type: ignore[assignment]
    try:
        assert count(path, 2) is None
    finally:
        conll_c.speedups = before  # type: ignore[assignment]


def test_progress_counts_both_halves(tmp_path: Path) -> None:
    """The second thread reports its bytes too (it runs in a copy of the caller's context)."""
    path = halves_file(tmp_path, ["a B-PER B-PER"], ["c B-LOC B-LOC"])
    seen: list[tuple[int, int]] = []
    with conll_engine(True) as spy:
        nerve.score(path, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert spy.counted == 2
    size = path.stat().st_size
    assert seen[-1] == (size, size)  # the end of the run says so in any case
    assert max(done for done, _ in seen[:-1]) == size  # and the reads counted every byte before it
