"""nerve's errors cross processes (Dask workers, multiprocessing) as themselves: type, fields and line."""

from __future__ import annotations

import pickle

import pytest

from nerve.errors import (
    InputError,
    InvalidSequenceError,
    NerveError,
    OptionError,
    Problem,
    SchemeError,
    SchemeOptionError,
)

PROBLEM = Problem("a.conll", 7, "pred", "O", "I-PER", "I-PER cannot follow O")


@pytest.mark.parametrize(
    "error",
    [
        InputError("shard.conll", 12, "expected 3 columns, found 1", option="--delimiter"),
        InputError("<gold>", None, "expected a list of tag lists"),
        OptionError("--dask", "expected local:N"),
        SchemeOptionError("--scheme", "unknown scheme 'X'"),
        InvalidSequenceError([PROBLEM], "IOB2"),
        SchemeError("the muc metrics need entity spans"),
        NerveError("nothing to score"),
    ],
    ids=repr,
)
def test_errors_survive_pickling(error: NerveError) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert vars(back) == vars(error)
