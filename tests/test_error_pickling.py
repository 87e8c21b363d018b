"""nerve's errors cross processes (Dask workers, multiprocessing) as themselves: type, fields and line."""

from __future__ import annotations

import pickle
import re

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


@pytest.mark.parametrize(
    "error",
    [
        InputError("<gold>", None, "expected a list of tag lists"),
        OptionError("--dask", "expected local:N"),
        SchemeOptionError("--scheme", "unknown scheme 'X'"),
        InvalidSequenceError([PROBLEM], "IOB2"),
        SchemeError("the muc metrics need entity spans"),
    ],
    ids=repr,
)
def test_errors_a_user_causes_are_value_errors_before_and_after_pickling(error: NerveError) -> None:
    # Issue 25: seqeval and the other tools nerve stands in for raise ValueError, and code written
    # for them catches it; nerve's input errors must be caught by the same `except ValueError:`.
    for candidate in (error, pickle.loads(pickle.dumps(error))):
        with pytest.raises(ValueError, match=re.escape(str(error))):
            raise candidate
        assert isinstance(candidate, NerveError)
