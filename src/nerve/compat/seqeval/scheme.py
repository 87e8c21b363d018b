"""seqeval's scheme classes and its ``auto_detect``, as names for nerve's schemes.

In: a scheme as seqeval code passes it (a class of this module or of ``seqeval.scheme``, or a
name such as ``"IOB2"``), or tag sequences for `auto_detect`. Out: the name of nerve's scheme of
that name. The classes only name a scheme: nerve's decoder does the work, so seqeval's
``Token``/``Tokens``/``Entities`` machinery is not offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from ... import options
from ...errors import OptionError, SchemeError

__all__ = ["BILOU", "IOB1", "IOB2", "IOBES", "IOE1", "IOE2", "Token", "auto_detect", "scheme_name"]


class Token:
    """Base of the scheme classes: pass a subclass as ``scheme=``, as with seqeval."""


class IOB1(Token):
    """I-X inside, B-X only to begin an entity right after one of the same type."""


class IOE1(Token):
    """I-X inside, E-X only to end an entity right before one of the same type."""


class IOB2(Token):
    """B-X begins every entity, I-X continues it (BIO)."""


class IOE2(Token):
    """E-X ends every entity, I-X comes before it."""


class IOBES(Token):
    """B-X begins, I-X continues, E-X ends an entity; S-X is a one-token entity."""


class BILOU(Token):
    """IOBES spelt B, I, L (last), U (unit)."""


# seqeval 1.2.2's auto_detect: which sets of gold prefix letters select which scheme.
_DETECTED: tuple[tuple[type[Token], frozenset[frozenset[str]]], ...] = (
    (IOB2, frozenset(map(frozenset, ["IOB", "IB", "BO", "B"]))),
    (IOE2, frozenset(map(frozenset, ["IOE", "IE", "EO", "E"]))),
    (IOBES, frozenset(map(frozenset, ["IOBES", "IBES", "IOBE", "OBES", "IBE", "BES", "OBE", "BE", "S"]))),
    (BILOU, frozenset(map(frozenset, ["IOBLU", "IBLU", "IOBL", "OBLU", "IBL", "BLU", "OBL", "BL", "U"]))),
)
_PREFIXES = frozenset("IOBESUL")


def auto_detect(
    sequences: Sequence[Sequence[str]], suffix: bool = False, delimiter: str = "-"
) -> type[Token]:
    """The scheme seqeval 1.2.2 detects from the prefix letters of ``sequences`` (gold tags).

    ``delimiter`` is accepted as seqeval's is; the letter is the first character of a tag (the
    last with ``suffix``). Only IOB2, IOE2, IOBES and BILOU are detected.

    >>> auto_detect([["B-PER", "I-PER", "O"]]).__name__
    'IOB2'

    Raises:
        SchemeError: a letter that is no prefix, or a set of letters no scheme has (only ``O``,
            or IOB1's ``I`` and ``O``), where seqeval raises ``ValueError``.
    """
    del delimiter  # the letter is one character at either end, as in seqeval
    tags = set(chain.from_iterable(sequences))
    letters = {(t[-1] if suffix else t[0]) if isinstance(t, str) and t else "" for t in tags}
    unknown = sorted(letters - _PREFIXES)
    if unknown:
        raise SchemeError(f"This scheme is not supported: the tags use the prefix {unknown[0]!r}")
    for scheme, allowed in _DETECTED:
        if letters in allowed:
            return scheme
    raise SchemeError(
        f"This scheme is not supported: {{{', '.join(sorted(letters))}}} (seqeval detects IOB2, IOE2, "
        "IOBES and BILOU from the prefix letters of the gold tags); pass scheme=, for instance IOB1"
    )


def scheme_name(scheme: object) -> str | None:
    """The nerve name of ``scheme`` (a scheme class, seqeval's or this module's, or a name).

    ``None`` (and ``"auto"``) give ``None``.

    Raises:
        OptionError: anything else.
    """
    if scheme is None:
        return None
    name = scheme.__name__ if isinstance(scheme, type) else scheme
    if not isinstance(name, str):
        raise OptionError("scheme", f"expected a scheme class such as IOB2, or its name, but got {scheme!r}")
    found = options.scheme(name)
    return None if found is None else found.name
