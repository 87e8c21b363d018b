"""`LazyRows`: disagreement rows built when read, and otherwise the tuple of its rows.

Each row is built once, when first read (by index, negative index, slice or iteration); the
sequence equals, hashes, prints and pickles as the tuple of its rows, inside `Disagreements` too.
"""

from __future__ import annotations

import pickle

import pytest

from nerve.analysis.agree_result import Disagreement, Disagreements, LazyRows


def _row(i: int) -> Disagreement:
    return Disagreement(
        "doc0001", i, i + 1, "missed", f"w{i}", f"[[w{i}]]", {"a": ((f"w{i}", "PER"),), "b": ()}
    )


def test_rows_are_built_once_when_read() -> None:
    built: list[int] = []

    def build(i: int) -> Disagreement:
        built.append(i)
        return _row(i)

    rows = LazyRows(5, build)
    assert len(rows) == 5
    assert built == []
    assert rows[-1] == _row(4)
    assert rows[1:3] == (_row(1), _row(2))
    assert rows[4] is rows[-1]
    assert built == [4, 1, 2]
    with pytest.raises(IndexError):
        rows[5]
    with pytest.raises(IndexError):
        rows[-6]


def test_rows_are_the_tuple_of_their_rows() -> None:
    rows = LazyRows(3, _row)
    plain = tuple(_row(i) for i in range(3))
    assert rows == plain
    assert plain == rows
    assert rows != plain[:2]
    assert rows != "abc"
    with pytest.raises(TypeError):  # a row's marks are a dict: unhashable, as in the tuple
        hash(rows)
    assert repr(rows) == repr(plain)
    assert list(rows) == list(plain)
    assert pickle.loads(pickle.dumps(rows)) == plain
    assert type(pickle.loads(pickle.dumps(rows))) is tuple
    lazy, eager = Disagreements(3, {"missed": 3}, rows), Disagreements(3, {"missed": 3}, plain)
    assert lazy == eager
    assert lazy.to_dict() == eager.to_dict()
