"""Tagging schemes: how tags are spelled, which transitions each scheme allows, and encoding.

A tag is split by a `TagFormat` into a *letter* (``B``, ``I``, ...) and an entity *type*. Letters
map onto five kinds (outside, begin, inside, end, single), so BILOU and BMES are dialects of IOBES.

Decoding is the same for every scheme (`CONTINUES`): a token continues the open entity when the
previous token is a begin/inside of the same type and it is an inside/end. What differs between
schemes is which transitions are *valid*; `Scheme.transition_tables` turns that into boolean
tables indexed by (previous tag id, current tag id). Decoding uses them at the size of pair codes
(`nerve.model.pairs`), so whole corpora are checked with array lookups in tables of 50 entries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .._frozen import frozen
from ..errors import SchemeError
from .quoting import quote
from .scheme_names import ALIASES, SUPPORTED_SCHEMES

__all__ = [
    "SCHEMES",
    "SUPPORTED_SCHEMES",
    "Scheme",
    "TagFormat",
    "check_letters",
    "continuation_table",
    "encode_sequence",
    "get_scheme",
    "infer_scheme",
    "infer_tag_format",
    "no_letter",
]


# Kinds of tags. Every letter of every scheme maps onto one of these.
OUT, BEGIN, INSIDE, END, SINGLE = 0, 1, 2, 3, 4
KIND_NAMES = ("O", "B", "I", "E", "S")
LETTER_KIND = {"B": BEGIN, "I": INSIDE, "M": INSIDE, "E": END, "L": END, "S": SINGLE, "U": SINGLE}
ALL_LETTERS = frozenset(LETTER_KIND)

# The shared decoding rule: after a begin or inside, an inside or end of the same type continues.
OPENS = frozenset({BEGIN, INSIDE})
CONTINUES = frozenset({INSIDE, END})


TYPE_CHECKING = False  # typing's, unimported: the parsers (nerve --help) load no typing
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

    import numpy as np
    import numpy.typing as npt

    from .arrays import Bool as BoolTable


@frozen
class Scheme:
    """A tagging scheme: its letters and the transitions it allows.

    Attributes:
        name: the canonical name, e.g. ``"IOB2"``.
        letters: the letters the scheme uses, each mapped to its kind.
        begins: kinds that may start an entity anywhere.
        begins_after_same: kinds that may start an entity only right after one of the same type
            (IOB1's ``B``).
        ends: kinds that may end an entity anywhere.
        ends_before_same: kinds that may end an entity only right before one of the same type
            (IOE1's ``E``).
        description: one line on what a well-formed entity looks like, for messages.
    """

    name: str
    letters: dict[str, int]
    begins: frozenset[int]
    begins_after_same: frozenset[int]
    ends: frozenset[int]
    ends_before_same: frozenset[int]
    description: str

    def transition_tables(
        self, kinds: npt.NDArray[np.int8], types: npt.NDArray[np.int64]
    ) -> tuple[BoolTable, BoolTable, BoolTable]:
        """Tables over (previous tag id, current tag id) for a tag vocabulary.

        Args:
            kinds: the kind of each tag id (id 0 is the outside tag, also used at boundaries).
            types: the type id of each tag id (-1 for the outside tag).

        Returns:
            ``(continues, bad_start, bad_end)``: whether the current tag continues the previous
            tag's entity; whether it starts an entity the scheme does not allow to start there;
            whether the previous tag ends an entity the scheme does not allow to end there.
        """
        import numpy as np  # here: the schemes' names and letters import no numpy

        kp = kinds[:, None]
        kc = kinds[None, :]
        same = (types[:, None] == types[None, :]) & (kp != OUT) & (kc != OUT)
        cont = continuation_table(kinds, types)
        starts = (kc != OUT) & ~cont
        ends = (kp != OUT) & ~cont
        ok_start = np.isin(kc, list(self.begins)) | (np.isin(kc, list(self.begins_after_same)) & same)
        ok_end = np.isin(kp, list(self.ends)) | (np.isin(kp, list(self.ends_before_same)) & same)
        return cont, starts & ~ok_start, ends & ~ok_end


def continuation_table(kinds: npt.NDArray[np.int8], types: npt.NDArray[np.int64]) -> BoolTable:
    """Table over (previous tag id, current tag id): does the current tag continue the entity?

    The same for every scheme: a begin or inside followed by an inside or end of the same type.
    """
    import numpy as np

    same = types[:, None] == types[None, :]
    return np.isin(kinds[:, None], list(OPENS)) & np.isin(kinds[None, :], list(CONTINUES)) & same


def _scheme(
    name: str,
    letters: str,
    begins: Iterable[int],
    ends: Iterable[int],
    description: str,
    begins_after_same: Iterable[int] = (),
    ends_before_same: Iterable[int] = (),
) -> Scheme:
    return Scheme(
        name=name,
        letters={c: LETTER_KIND[c] for c in letters},
        begins=frozenset(begins),
        begins_after_same=frozenset(begins_after_same),
        ends=frozenset(ends),
        ends_before_same=frozenset(ends_before_same),
        description=description,
    )


SCHEMES: dict[str, Scheme] = {
    s.name: s
    for s in (
        _scheme("IO", "I", [INSIDE], [INSIDE], "every entity token is I-X"),
        _scheme(
            "IOB1",
            "BI",
            [INSIDE],
            [BEGIN, INSIDE],
            "entities are I-X runs; B-X only starts an entity right after one of type X",
            begins_after_same=[BEGIN],
        ),
        _scheme("IOB2", "BI", [BEGIN], [BEGIN, INSIDE], "entities start with B-X, continue with I-X"),
        _scheme(
            "IOE1",
            "IE",
            [INSIDE, END],
            [INSIDE],
            "entities are I-X runs; E-X only ends an entity right before one of type X",
            ends_before_same=[END],
        ),
        _scheme("IOE2", "IE", [INSIDE, END], [END], "entities are I-X runs ending with E-X"),
        _scheme("IOBES", "BIES", [BEGIN, SINGLE], [END, SINGLE], "B-X I-X* E-X, or S-X alone"),
        _scheme("BILOU", "BILU", [BEGIN, SINGLE], [END, SINGLE], "B-X I-X* L-X, or U-X alone"),
        _scheme("BMES", "BMES", [BEGIN, SINGLE], [END, SINGLE], "B-X M-X* E-X, or S-X alone"),
    )
}


def get_scheme(name: str) -> Scheme:
    """Return the scheme called ``name`` (case-insensitive; ``BIO`` and ``BIOES`` are aliases)."""
    key = name.upper()
    key = ALIASES.get(key, key)
    if key not in SCHEMES:
        msg = f"Expected a scheme among {', '.join(SUPPORTED_SCHEMES)}, but got {name!r}"
        raise SchemeError(msg)
    return SCHEMES[key]


Position: TypeAlias = 'Literal["prefix", "suffix", "bare"]'


@frozen
class TagFormat:
    """How letters and types are spelled in tags.

    Attributes:
        position: ``"prefix"`` (``B-PER``), ``"suffix"`` (``PER-B``) or ``"bare"`` (``PER``: no
            letter at all, only for the IO scheme).
        delimiter: what separates letter and type. Types may contain it: with a prefix the tag is
            split at its first delimiter, with a suffix at its last.
        outside: the tag of tokens outside every entity.
    """

    position: Position = "prefix"
    delimiter: str = "-"
    outside: str = "O"

    def __post_init__(self) -> None:
        if self.position not in ("prefix", "suffix", "bare"):
            msg = f"Expected tag position 'prefix', 'suffix' or 'bare', but got {self.position!r}"
            raise SchemeError(msg)
        if self.position != "bare" and len(self.delimiter) != 1:
            msg = f"Expected a one-character tag delimiter, but got {self.delimiter!r}"
            raise SchemeError(msg)

    def split(self, tag: str) -> tuple[str, str] | None:
        """Split ``tag`` into ``(letter, type)``; ``("O", "")`` for the outside tag.

        Returns ``None`` when the tag does not have this format. An untyped tag (``B``) has the
        empty type.
        """
        if tag == self.outside:
            return "O", ""
        if self.position == "bare":
            return ("I", tag) if tag else None
        d = self.delimiter
        if self.position == "prefix":
            letter, typ = tag[:1], tag[2:]
            if letter in ALL_LETTERS and (len(tag) == 1 or tag[1] == d):
                return letter, typ
            return None
        letter, typ = tag[-1:], tag[:-2]
        if letter in ALL_LETTERS and (len(tag) == 1 or tag[-2] == d):
            return letter, typ
        return None

    def join(self, letter: str, typ: str) -> str:
        """Spell a tag from its letter and type (the inverse of `split`)."""
        if letter == "O":
            return self.outside
        if self.position == "bare":
            return typ
        if not typ:
            return letter
        if self.position == "prefix":
            return f"{letter}{self.delimiter}{typ}"
        return f"{typ}{self.delimiter}{letter}"

    def describe(self) -> str:
        """A short rendering for the signature, e.g. ``B-X`` or ``X_B``."""
        if self.position == "bare":
            return "X"
        return f"B{self.delimiter}X" if self.position == "prefix" else f"X{self.delimiter}B"


_CANDIDATE_FORMATS = [
    ("prefix", "-"),
    ("suffix", "-"),
    ("prefix", "_"),
    ("suffix", "_"),
    ("prefix", "."),
    ("prefix", ":"),
]


def infer_tag_format(tags: Iterable[str], outside: str = "O") -> TagFormat | None:
    """Guess how ``tags`` spell letters and types, or ``None`` if they are all outside tags.

    Tries ``B-X``, ``X-B``, ``B_X``, ``X_B``, ``B.X`` and ``B:X`` in that order. Tags without any
    letter (label ids ``0 1 2``, lower-case ``b-per``, bare types ``PER``) are never guessed to be
    bare types: only ``tag_format="X"`` reads them so.

    Raises:
        SchemeError: when the tags fit none of these formats consistently, or have no letter.
    """
    inner = sorted({t for t in tags if t != outside})
    if not inner:
        return None
    for position, delimiter in _CANDIDATE_FORMATS:
        fmt = TagFormat(position, delimiter, outside)  # type: ignore[arg-type]
        if all(fmt.split(t) is not None for t in inner):
            return fmt
    prefixed = TagFormat("prefix", "-", outside)
    if not any(prefixed.split(t) is not None for t in inner):
        raise SchemeError(f"cannot infer the tag format: {no_letter(inner[0], outside)}")
    odd = next(t for t in inner if prefixed.split(t) is None)
    msg = (
        f"cannot infer the tag format: {quote(odd)} has no scheme letter (like B-) while other tags do; "
        "pass --tag-format, or --outside if it is the outside tag"
    )
    raise SchemeError(msg)


def no_letter(tag: str, outside: str = "O") -> str:
    """Why a tag without a scheme letter, among tags without one, is not read, and what to do."""
    if tag.upper() == outside.upper() or TagFormat("prefix", "-", outside).split(tag[:1].upper() + tag[1:]):
        why = "scheme letters and the outside tag are upper case (B-X, I-X, O)"
    elif tag.isdigit():
        why = "map label ids to tags (B-X, I-X, O) first"
    else:
        why = "no tag read has one"
    return f"tag {quote(tag)} has no scheme letter (like B-X): {why}; for bare types pass --tag-format X"


def infer_scheme(letters: Iterable[str], b_after_other: bool, e_before_other: bool) -> Scheme:
    """Infer the scheme from the letters used and two facts about transitions.

    Args:
        letters: every letter found in the tags.
        b_after_other: some ``B`` starts an entity not right after one of its type (rules out IOB1).
        e_before_other: some ``E`` ends an entity not right before one of its type (rules out IOE1).

    Raises:
        SchemeError: when the letters mix incompatible schemes (``S`` with ``U``, ``M`` with
            ``I``...).
    """
    used = set(letters) - {"O"}
    if not used:
        return SCHEMES["IOB2"]
    for name in ("IOB2", "IOB1", "IOE2", "IOE1", "IOBES", "BILOU", "BMES"):
        scheme = SCHEMES[name]
        if not used <= set(scheme.letters):
            continue
        if name == "IOB2" and not b_after_other:
            continue  # no B starts an entity after O or another type: IOB1 fits better
        if name == "IOE2" and not e_before_other:
            continue
        return scheme
    msg = (
        f"cannot infer the scheme: the tags use the letters {', '.join(sorted(used))}, "
        "which no single scheme has; pass --scheme"
    )
    raise SchemeError(msg)


def encode_sequence(
    spans: Sequence[tuple[int, int, str]], length: int, scheme: Scheme
) -> list[tuple[str, str]]:
    """Tag ``length`` tokens with ``spans`` (sorted, non-overlapping, half-open) as ``(letter, type)``.

    Raises:
        ValueError: when spans overlap, fall outside the sequence, or (for IO) when two entities of
            one type touch, which IO cannot express.
    """
    out: list[tuple[str, str]] = [("O", "")] * length
    letter_of = {kind: letter for letter, kind in reversed(scheme.letters.items())}
    name = scheme.name
    previous_end, previous_type = -1, None
    ordered = sorted(spans)
    for i, (start, end, typ) in enumerate(ordered):
        if not 0 <= start < end <= length:
            msg = f"Expected 0 <= start < end <= {length}, but got span ({start}, {end}, {typ!r})"
            raise ValueError(msg)
        if start < previous_end:
            msg = f"Expected non-overlapping spans, but ({start}, {end}, {typ!r}) overlaps the previous one"
            raise ValueError(msg)
        touches_before = start == previous_end and typ == previous_type
        following = ordered[i + 1] if i + 1 < len(ordered) else None
        touches_after = following is not None and following[0] == end and following[2] == typ
        if name == "IO" and touches_before:
            msg = f"IO cannot separate touching entities of one type, at ({start}, {end}, {typ!r})"
            raise ValueError(msg)
        n = end - start
        if name in ("IO", "IOB1", "IOE1", "IOE2"):
            kinds = [INSIDE] * n
            if name == "IOB1" and touches_before:
                kinds[0] = BEGIN
            if (name == "IOE1" and touches_after) or name == "IOE2":
                kinds[-1] = END
        elif name == "IOB2":
            kinds = [BEGIN] + [INSIDE] * (n - 1)
        else:  # IOBES and its dialects
            kinds = [SINGLE] if n == 1 else [BEGIN] + [INSIDE] * (n - 2) + [END]
        for offset, kind in enumerate(kinds):
            out[start + offset] = (letter_of[kind], typ)
        previous_end, previous_type = end, typ
    return out


def check_letters(scheme: Scheme, letters: Iterable[str], side: str) -> None:
    """Refuse ``side``'s tag letters (``O`` aside) that ``scheme`` does not have."""
    unknown = sorted(set(letters) - set(scheme.letters) - {"O"})
    if unknown:
        raise SchemeError(
            f"the {side} tags use {', '.join(unknown)}, which scheme {scheme.name} does not have"
        )
