"""`nerve.problem.Problem`, found as `nerve.errors.Problem` and `nerve.Problem`, and the error it makes."""

from __future__ import annotations

import pickle

import pytest

import nerve
from nerve import errors, problem


def test_problem_is_found_through_errors_and_nerve() -> None:
    from nerve.errors import Problem

    assert Problem is errors.Problem is problem.Problem is nerve.Problem
    with pytest.raises(AttributeError, match=r"^module 'nerve.errors' has no attribute 'Problems'$"):
        errors.Problems  # noqa: B018
    with pytest.raises(ImportError):
        from nerve.errors import problem as _  # noqa: F401  (a module of nerve, not a name of errors)


def test_an_invalid_sequence_names_its_first_problem_and_how_many() -> None:
    first = problem.Problem("f.conll", 3, "gold", "O", "I-LOC", "I-LOC cannot follow O")
    second = problem.Problem("f.conll", 9, "pred", None, "E-PER", "E-PER cannot start a sentence")
    assert str(first) == "f.conll:3: gold: I-LOC cannot follow O"
    err = errors.InvalidSequenceError([first, second], "IOB2")
    assert str(err) == "2 invalid transitions for scheme IOB2; first: f.conll:3: gold: I-LOC cannot follow O"
    assert str(errors.InvalidSequenceError([second], "IOBES")).startswith(
        "1 invalid transition for scheme IOBES;"
    )
    assert str(errors.InvalidSequenceError([], "IOB1")) == "0 invalid transitions for scheme IOB1"
    again = pickle.loads(pickle.dumps(err))
    assert (again.problems, again.scheme, str(again)) == ([first, second], "IOB2", str(err))
    assert first == problem.Problem(**vars(first))
    assert hash(first) == hash(problem.Problem(**vars(first)))


@pytest.mark.parametrize(
    ("n", "noun", "nouns", "said"),
    [
        (1, "document", None, "1 document"),
        (0, "document", None, "0 documents"),
        (2, "id or length", "ids or lengths", "2 ids or lengths"),
        (1, "id or length", "ids or lengths", "1 id or length"),
    ],
)
def test_plural(n: int, noun: str, nouns: str | None, said: str) -> None:
    assert errors.plural(n, noun, nouns) == said
