"""`nerve._frozen.frozen` against ``@dataclass(frozen=True)``: the same class, the same behaviour.

Each shape below is defined twice, once with each decorator, and every test makes both and asks
the same of them: construction (positional, keyword, defaults, factories, ``init=False`` fields,
``__post_init__``, and the same `TypeError` for bad calls), ``repr``, equality, hashing, ordering,
assignment, `dataclasses.replace`, `~dataclasses.asdict`, `~dataclasses.fields`, ``__match_args__``,
pickling and copying.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nerve._frozen import frozen


def shapes(decorate: Any, decorate_noeq: Any, decorate_order: Any) -> dict[str, type]:
    """The same classes, made by one decorator (the three spellings of one decorator)."""

    @decorate
    class Plain:
        """Two required fields and two defaults."""

        a: int
        b: Any
        c: str = "x"
        d: tuple[int, ...] = ()

    @decorate
    class Factory:
        """A factory default, a field left out of repr and comparison, and a computed field."""

        a: int
        items: list[int] = field(default_factory=list)
        note: str | None = field(default=None, compare=False, repr=False)
        double: int = field(init=False)
        counted: int = field(init=False, default=7)
        seen: list[int] = field(init=False, default_factory=list)

        def __post_init__(self) -> None:
            object.__setattr__(self, "double", 2 * self.a)

    @decorate_noeq
    class Identity:
        """Compared by identity."""

        a: int
        b: int = 0

    @decorate_order
    class Ordered:
        """Ordered as a tuple of its fields."""

        a: int
        b: str = ""

    @decorate
    class Own:
        """Its own repr and equality are kept."""

        a: int

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, type(self))

    @decorate
    class Child(Plain):
        """Fields added to an inherited record's."""

        e: int = 5

    return {c.__name__: c for c in (Plain, Factory, Identity, Ordered, Own, Child)}


def frozen_shapes() -> dict[str, type]:
    """The shapes made by `frozen`, made anew by each test (so that each test runs the decorator)."""
    return shapes(frozen, frozen(eq=False), frozen(order=True))


def dataclass_shapes() -> dict[str, type]:
    return shapes(
        dataclass(frozen=True), dataclass(frozen=True, eq=False), dataclass(frozen=True, order=True)
    )


def both(name: str, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
    """An instance of each, or the `TypeError` each raises (asserted to be the same)."""
    made = []
    for classes in (frozen_shapes(), dataclass_shapes()):
        try:
            made.append(classes[name](*args, **kwargs))
        except TypeError as e:
            made.append(("TypeError", str(e)))
    if isinstance(made[1], tuple):
        assert made[0] == made[1]
    return made[0], made[1]


values = st.one_of(st.integers(-3, 3), st.text(max_size=2), st.tuples(st.integers(0, 2)))


def same_view(ours: Any, theirs: Any) -> None:
    assert repr(ours) == repr(theirs)
    assert vars(ours) == vars(theirs)  # every field set on the instance, init=False ones included
    assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(theirs)]
    assert type(ours).__match_args__ == type(theirs).__match_args__
    assert dataclasses.is_dataclass(ours)


@given(st.lists(values, max_size=5), st.dictionaries(st.sampled_from("abcdez"), values, max_size=3))
def test_construction_and_repr_as_a_dataclass(args: list[Any], kwargs: dict[str, Any]) -> None:
    for name in ("Plain", "Child", "Ordered", "Identity"):
        ours, theirs = both(name, *args, **kwargs)
        if not isinstance(theirs, tuple):
            same_view(ours, theirs)


@given(st.integers(-5, 5), st.lists(st.integers(), max_size=2), st.text(max_size=2))
def test_factories_post_init_and_fields_left_out(a: int, items: list[int], note: str) -> None:
    ours, theirs = both("Factory", a, items=items, note=note)
    same_view(ours, theirs)
    assert (ours.double, ours.counted) == (2 * a, 7)
    assert type(ours)(a).items is not type(ours)(a).items  # a fresh list each time
    other = type(ours)(a, items=items, note=note + "!")
    assert other == ours  # the note is not compared
    both("Factory", a, double=1)  # an init=False field is no argument


@given(st.tuples(values, values), st.tuples(values, values))
def test_equality_hash_and_order_as_a_dataclass(x: tuple[Any, Any], y: tuple[Any, Any]) -> None:
    mine, peer = frozen_shapes(), dataclass_shapes()
    for name in ("Plain", "Child"):
        ours = [mine[name](*v) for v in (x, y)]
        theirs = [peer[name](*v) for v in (x, y)]
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])
        assert hash(ours[0]) == hash(theirs[0]) or not isinstance(x[1], int)
        assert (ours[0] == theirs[0]) is False  # another class
    if all(isinstance(v, int) for v in (*x, *y)):
        ours = [mine["Ordered"](v[0], str(v[1])) for v in (x, y)]
        theirs = [peer["Ordered"](v[0], str(v[1])) for v in (x, y)]
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            assert getattr(ours[0], op)(ours[1]) == getattr(theirs[0], op)(theirs[1])
        assert sorted(ours) == sorted(ours, key=lambda o: (o.a, o.b))


def test_equality_by_identity_with_eq_false() -> None:
    mine, peer = frozen_shapes(), dataclass_shapes()
    a, b = mine["Identity"](1), mine["Identity"](1)
    assert a != b
    assert a == a
    assert hash(a) != hash(b)
    assert mine["Own"](1) == mine["Own"](2)
    assert repr(mine["Own"](1)) == "own"
    assert hash(mine["Own"](1)) == hash(peer["Own"](1)) == hash((1,))  # its own __eq__, a made __hash__


def test_assignment_and_deletion_raise_as_a_dataclass() -> None:
    mine, peer = frozen_shapes(), dataclass_shapes()
    for classes in (mine, peer):
        item = classes["Plain"](1, 2)
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
            item.a = 3
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'other'"):
            item.other = 3
        with pytest.raises(FrozenInstanceError, match="cannot delete field 'b'"):
            del item.b
        with pytest.raises(FrozenInstanceError, match="cannot delete field 'other'"):
            del item.other
        assert (item.a, item.b) == (1, 2)

    for classes in (mine, peer):

        class Free(classes["Plain"]):  # type: ignore[misc,name-defined,valid-type]
            """A plain subclass may add attributes, not change fields."""

        free = Free(1, 2)
        free.extra = 1
        assert free.extra == 1
        del free.extra
        assert not hasattr(free, "extra")
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
            free.a = 2
        with pytest.raises(FrozenInstanceError, match="cannot delete field 'a'"):
            del free.a


def test_bad_calls_raise_the_same_type_error() -> None:
    cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((), {}),
        ((1,), {}),
        ((1, 2, "c", (), 9), {}),
        ((1, 2), {"a": 1}),
        ((1, 2), {"z": 1}),
        ((), {"b": 1}),
    ]
    for args, kwargs in cases:
        ours, _theirs = both("Plain", *args, **kwargs)
        assert isinstance(ours, tuple), (args, kwargs)
        assert ours[0] == "TypeError"


@frozen
class Pickled:
    """A record at a module's top level, as pickle needs."""

    a: int
    items: list[int] = field(default_factory=list)
    note: str | None = field(default=None, compare=False)


def test_replace_pickle_and_copy_keep_the_value() -> None:
    mine = frozen_shapes()
    item = mine["Factory"](3, items=[1], note="n")
    changed = dataclasses.replace(item, a=4)
    assert (changed.a, changed.double, changed.items, changed.note) == (4, 8, [1], "n")
    with pytest.raises(ValueError, match="init=False"):
        dataclasses.replace(item, double=1)
    item = Pickled(3, [1], "n")
    for again in (pickle.loads(pickle.dumps(item)), copy.copy(item), copy.deepcopy(item)):
        assert again == item
        assert repr(again) == repr(item)
        assert again.note == "n"
    assert mine["Child"](1, 2, e=3).e == 3
    assert mine["Child"].__mro__[1] is mine["Plain"]


def test_a_required_field_after_a_default_is_refused_as_by_dataclass() -> None:
    for decorate in (frozen, dataclass(frozen=True)):
        with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

            @decorate
            class Bad:
                a: int = 0
                b: int


def test_signatures_are_the_dataclass_ones() -> None:
    mine, peer = frozen_shapes(), dataclass_shapes()
    import inspect

    for name in ("Plain", "Factory", "Ordered", "Child", "Identity"):
        assert str(inspect.signature(mine[name])) == str(inspect.signature(peer[name]))
    assert "a: 'int'" in str(inspect.signature(mine["Plain"]))


def test_nerve_results_are_dataclasses() -> None:
    from nerve.plan import Plan
    from nerve.results import Result, Score

    for cls in (Result, Score, Plan):
        assert dataclasses.is_dataclass(cls)
        assert "__frozen_init__" in cls.__dict__
