"""`frozen`: nerve's frozen dataclasses, made without generating code for each class.

``@dataclass(frozen=True)`` writes the source of six methods for every class and compiles each
with ``exec``: about 0.8 ms a class, and a plain ``nerve score`` defines 27 of them before it reads
a line (issue 27's start-up target). `frozen` makes a real dataclass (`dataclasses.fields`,
`~dataclasses.replace`, `~dataclasses.asdict` and ``__match_args__`` work as before) whose
``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and frozen ``__setattr__`` are shared
functions reading the class's fields, so a class costs what its body costs.

What each method does is what ``@dataclass(frozen=True)`` generates: defaults, ``default_factory``,
``field(init=False)``, ``__post_init__``, ``repr=False`` and ``compare=False`` fields, equality
only between instances of the same class, a hash of the compared fields (none with
``eq=False``), ``order=True``, and `dataclasses.FrozenInstanceError` on assignment. A method the
class body defines itself is kept. Type checkers see a frozen dataclass (``dataclass_transform``).
"""

from __future__ import annotations

import reprlib
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> object:
        return lambda f: f


__all__ = ["frozen"]


class _Factory:
    """A field's ``default_factory``, told apart from a default that happens to be callable."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    names, defaults, later, post = cls.__frozen_init__
    given = len(args)
    if given > len(names):
        raise _call_error(cls, args, kwargs)
    values = self.__dict__
    values.update(zip(names, args, strict=False))  # the first `given` names
    used = 0
    for name in names[given:]:
        if name in kwargs:
            values[name] = kwargs[name]
            used += 1
        elif name in defaults:
            default = defaults[name]
            values[name] = default.make() if type(default) is _Factory else default
        else:
            raise _call_error(cls, args, kwargs)
    if used < len(kwargs):
        raise _call_error(cls, args, kwargs)
    for name, factory in later:
        values[name] = factory.make()
    if post:
        self.__post_init__()


def _call_error(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError:
    """The `TypeError` that ``@dataclass``'s ``__init__`` raises for this call, word for word.

    Only a bad call gets here, so making a function of the same signature to raise it costs nothing
    the rest of the time.
    """
    names, defaults, _, _ = cls.__frozen_init__
    space: dict[str, Any] = {}
    exec(f"def __init__(self, {', '.join(n + '=0' if n in defaults else n for n in names)}): pass", space)
    function = space["__init__"]
    function.__qualname__ = f"{cls.__qualname__}.__init__"
    try:
        function(None, *args, **kwargs)
    except TypeError as e:
        return e
    return TypeError(f"{cls.__qualname__}.__init__() got {args!r} and {kwargs!r}")  # pragma: no cover


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__frozen_shown__)
    return f"{type(self).__qualname__}({shown})"


def _key(self: Any) -> tuple[Any, ...]:
    return type(self).__frozen_key__(self)


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _key(self) == _key(other)


def _hash(self: Any) -> int:
    return hash(_key(self))


def _compare(op: str) -> Callable[[Any, object], bool]:
    def compare(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return getattr(_key(self), op)(_key(other))

    compare.__name__ = op
    return compare


def _setattr(self: Any, name: str, value: Any) -> None:
    cls = type(self)
    if "__frozen_init__" in cls.__dict__ or name in cls.__dataclass_fields__:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _delattr(self: Any, name: str) -> None:
    cls = type(self)
    if "__frozen_init__" in cls.__dict__ or name in cls.__dataclass_fields__:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _describe(cls: Any) -> None:
    """Keep on the class what the shared methods read of its fields."""
    names: list[str] = []
    defaults: dict[str, Any] = {}
    later: list[tuple[str, Any]] = []
    for f in fields(cls):
        default = _Factory(f.default_factory) if f.default_factory is not MISSING else f.default
        if f.init:
            if default is MISSING and defaults:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            names.append(f.name)
            if default is not MISSING:
                defaults[f.name] = default
        elif type(default) is _Factory:  # a plain default stays the class's, as with @dataclass
            later.append((f.name, default))
    cls.__frozen_init__ = (tuple(names), defaults, tuple(later), hasattr(cls, "__post_init__"))
    cls.__frozen_shown__ = tuple(f.name for f in fields(cls) if f.repr)
    compared = [f.name for f in fields(cls) if f.compare]
    key = (
        attrgetter(*compared) if len(compared) > 1 else lambda item: tuple(getattr(item, n) for n in compared)
    )
    cls.__frozen_key__ = staticmethod(key)


def _or(value: Any, missing: Any) -> Any:
    return missing if value is MISSING else value


class _Signature:
    """A record's ``__signature__`` (what `inspect.signature` and ``help`` show), made when asked for.

    The shared ``__init__`` takes ``*args, **kwargs``; this is the signature ``@dataclass`` would
    have written: the fields ``__init__`` takes, with their annotations and defaults.
    """

    def __get__(self, instance: object, owner: Any) -> Any:
        import inspect

        factory = type("_HAS_DEFAULT_FACTORY_CLASS", (), {"__repr__": lambda _: "<factory>"})()
        kind, empty = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.empty
        parameters = []
        for f in fields(owner):
            default = _or(factory if f.default_factory is not MISSING else f.default, empty)
            if f.init:
                parameters.append(inspect.Parameter(f.name, kind, default=default, annotation=f.type))
        return inspect.Signature(parameters, return_annotation=None)


def _install(cls: Any, name: str, method: object) -> None:
    if name not in cls.__dict__:
        setattr(cls, name, method)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: Any = None, /, *, eq: bool = True, order: bool = False) -> Any:
    """Make `cls` a frozen dataclass, as ``@dataclass(frozen=True, eq=eq, order=order)`` does."""

    def make(cls: Any) -> Any:
        explicit_hash = "__hash__" in cls.__dict__ and not (
            cls.__dict__["__hash__"] is None and "__eq__" in cls.__dict__
        )
        _install(cls, "__init__", _init)
        cls = dataclass(init=False, repr=False, eq=False)(cls)
        _describe(cls)
        _install(cls, "__repr__", _repr)
        _install(cls, "__signature__", _Signature())
        cls.__setattr__ = _setattr
        cls.__delattr__ = _delattr
        if eq:
            _install(cls, "__eq__", _eq)
            if not explicit_hash:
                cls.__hash__ = _hash
        if order:
            for name in ("__lt__", "__le__", "__gt__", "__ge__"):
                _install(cls, name, _compare(name))
        return cls

    return make if cls is None else make(cls)
