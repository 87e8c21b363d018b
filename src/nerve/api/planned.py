"""`nerve.score`'s signature as the one list of its options: what `Plan.of` takes, and the defaults.

`planned` turns a function whose signature is a verb's public one into that verb: a call binds its
arguments to that signature (a ``TypeError`` as Python's for a wrong one) and hands ``gold``,
``pred`` and the `Plan` of the other keywords to the function that runs it. `plan_of` is `Plan.of`
with `nerve.score`'s defaults for the keywords not given, read from its signature.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from ..plan import Plan
from .sources import Source

__all__ = ["keyword_defaults", "keywords", "plan_of", "planned"]

P = ParamSpec("P")
R = TypeVar("R")


def keyword_defaults(function: Callable[..., Any]) -> dict[str, Any]:
    """``function``'s keyword-only arguments and their defaults, read from its signature."""
    found = inspect.signature(function).parameters.values()
    return {p.name: p.default for p in found if p.kind is inspect.Parameter.KEYWORD_ONLY}


@functools.cache
def keywords() -> dict[str, Any]:
    """`nerve.score`'s keyword arguments and their defaults, read from its signature."""
    from . import score  # the package, loaded before any of its modules runs

    return keyword_defaults(score)


def plan_of(**given: Any) -> Plan:
    """`Plan.of` the keywords ``given``, `nerve.score`'s default for each other one.

    Raises:
        TypeError: a keyword `nerve.score` does not take, as Python words it.
        OptionError: an option value nerve cannot use, or an option that does not apply.
    """
    known = keywords()
    for name in given:
        if name not in known:
            raise TypeError(f"score() got an unexpected keyword argument {name!r}")
    return Plan.of(known, **given)


def planned(
    run: Callable[[Source, Source | None, Plan], R], of: Callable[..., Plan] = plan_of
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """The verb whose signature is the decorated one's, run by ``run`` with the `Plan` of its keywords.

    ``of`` makes the plan of the keywords given (`plan_of`: `nerve.score`'s); the first two
    parameters, the gold and the predictions, go to ``run`` apart.
    """

    def decorate(public: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(public)
        gold_name, pred_name = list(signature.parameters)[:2]

        @functools.wraps(public)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError:
                public(*args, **kwargs)  # Python's own TypeError, raised before the body runs
                raise
            given = dict(bound.arguments)
            gold, pred = given.pop(gold_name), given.pop(pred_name, None)
            return run(gold, pred, of(**given))

        return call

    return decorate
