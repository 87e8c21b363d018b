"""What nerve knows of one input format: the `Format` record, and the look at a file that sniffs it.

In: nothing; each format's module (`nerve.io.formats`) builds one `Format`. Out: the record type,
`Probe` (a path, whether it is a directory or a file, and its first bytes, read once and only when
a rule asks), `Rule` (one step of the sniffing chain), `json_keys` (the test of a JSON file by the
keys it opens with), `TEXT_OFFSETS` (the units of offsets into text), `looks_like_columns`, the
test of token and tag columns that sniffing and the brat reader share, and `Lazy`, a reader or
writer named by its module and imported when first called: a record costs no import of its
reader, so the command that reads one format loads that format's reader alone.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property

__all__ = [
    "HEAD",
    "TEXT_OFFSETS",
    "ColumnPairReader",
    "ColumnReader",
    "DocumentText",
    "Format",
    "Lazy",
    "PairReader",
    "Probe",
    "Reader",
    "Rule",
    "Texts",
    "json_keys",
    "looks_like_columns",
    "texts_by_path",
    "without_units",
]

HEAD = 1 << 16  # the bytes read to sniff a file
_TAG = re.compile(rb"O|[BIESLUM][-_]\S+|\S+[-_][BIESLUM]")
#: The offset units of the formats whose offsets count the text's characters (not tokens).
TEXT_OFFSETS = ("char", "utf16", "byte")

TYPE_CHECKING = False  # typing's, unimported: the parsers (nerve --help) load no typing
if TYPE_CHECKING:
    from typing import Any, Literal, TypeAlias

    from ..model.spans import SpanArray
    from .json.jsonl import Problems

# The readers' types are named as strings, so that this module imports no reader's types (numpy's).
Sides: TypeAlias = "tuple[SpanArray, SpanArray | None]"
#: A span format's reader: path, offset units and where to collect problems (``None`` to raise the
#: first) in; the gold side (and the predictions, where the file holds both) out.
Reader: TypeAlias = "Callable[[str, str | None, Problems], Sides]"
#: Gold and prediction files read together: gold path, prediction path (or ``None``), units, problems.
PairReader: TypeAlias = "Callable[[str, str | None, str | None, Problems], Sides]"
#: A reader of tags in a column: `Reader`'s arguments and the column (``None``: the default one).
ColumnReader: TypeAlias = "Callable[[str, str | None, Problems, str | None], tuple[SpanArray, None]]"
ColumnPairReader: TypeAlias = "Callable[[str, str | None, str | None, Problems, str | None], Sides]"
DocumentText = str | tuple[str, ...] | None
#: Each document's text (character offsets) or tokens (token offsets): path and offset units in.
Texts = Callable[[str, str | None], Sequence[DocumentText]]


class Lazy:
    """A function named ``"module:name"`` (the module under `nerve.io`), imported on its first call.

    A `Format` record names its readers and writer this way, so that building the records (and
    listing the formats, sniffing, ``--help``) imports none of them: ``nerve score file.conll``
    loads the CoNLL reader alone. ``target`` resolves it (`Lazy("tags.conll:ConllReader").target`
    is ``ConllReader``); calling it calls the target.
    """

    __slots__ = ("_target", "name")

    def __init__(self, name: str) -> None:
        if name.count(":") != 1:
            raise ValueError(f"expected 'module:name', got {name!r}")
        self.name = name
        self._target: Callable[..., Any] | None = None

    @property
    def target(self) -> Callable[..., Any]:
        """The function named, imported the first time it is asked for."""
        if self._target is None:
            module, attribute = self.name.split(":")
            found = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
            self._target = found
            return found
        return self._target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the target (imported on the first call)."""
        return self.target(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Lazy({self.name!r})"


def texts_by_path(name: str) -> Texts:
    """The `Texts` of a function of the path alone (``"module:name"``, as `Lazy`), imported when called."""
    function = Lazy(name)
    return lambda path, _units: function(path)


def without_units(name: str) -> Reader:
    """The `Reader` of a function of the path and the problems (a format of one offset unit)."""
    function = Lazy(name)
    return lambda path, _units, problems: function(path, problems)


def looks_like_columns(head: bytes) -> bool:
    """Whether a file's first bytes are lines of token and tag columns (most ending in a tag)."""
    lines = head.splitlines()[:200]
    if len(head) == HEAD:
        lines = lines[:-1]  # cut short
    rows = [line.split() for line in lines if line.strip() and not line.startswith(b"-DOCSTART-")]
    if not rows or any(len(row) < 2 for row in rows):
        return False
    return 2 * sum(1 for row in rows if _TAG.fullmatch(row[-1])) >= len(rows)


class Probe:
    """A path as the sniffing rules see it: its name, its kind, and its first bytes.

    ``head`` is read when a rule first asks for it (only of a file), without a byte order mark and
    leading white space; ``raw`` is the same bytes as read.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.is_dir = os.path.isdir(path)
        self.is_file = not self.is_dir and os.path.isfile(path)

    @cached_property
    def raw(self) -> bytes:
        """The file's first `HEAD` bytes (empty for anything but a file)."""
        from .sources import read_head  # only when a rule looks at the bytes

        return read_head(self.path, HEAD) if self.is_file else b""

    @cached_property
    def head(self) -> bytes:
        """`raw` without a byte order mark and leading white space."""
        return self.raw.lstrip(b"\xef\xbb\xbf \t\r\n")


class Rule:
    """One step of the sniffing chain.

    The rules of every format run by ``order``, and the first whose ``test`` holds names its format
    (`nerve.io.formats.sniff`).
    """

    __slots__ = ("order", "test")

    def __init__(self, order: int, test: Callable[[Probe], bool]) -> None:
        self.order, self.test = order, test

    def __repr__(self) -> str:
        return f"Rule({self.order!r}, {self.test!r})"


def json_keys(keys: bytes, opens: bytes | tuple[bytes, ...] = b"{") -> Callable[[Probe], bool]:
    """A sniffing test: the file's head opens with ``opens`` and holds a match of the regex ``keys``.

    ``re`` compiles (and caches) ``keys`` the first time a head opens so: sniffing a CoNLL file
    compiles none of the JSON formats' patterns.
    """

    def test(probe: Probe) -> bool:
        return probe.head.startswith(opens) and re.search(keys, probe.head) is not None

    return test


#: The fields of a `Format` record, in the order of its constructor's arguments.
_FIELDS: tuple[str, ...] = ("name", "kind", "summary", "aliases", "sniff", "read", "read_pair")
_FIELDS += ("read_column", "read_column_pair", "texts", "read_tags", "accelerated", "write")
_FIELDS += ("offsets", "options", "scored")


class Format:
    """One input format: its name, how it is sniffed, its readers, its writer and its options.

    Attributes:
        name: the name ``--format`` takes; ``aliases``: other names it takes.
        kind: ``"tags"`` (tag columns, decoded), ``"spans"`` (entities with offsets) or
            ``"dataset"`` (a Hugging Face dataset of tags).
        summary: one line on what the format is.
        sniff: its steps of the sniffing chain (`Rule`).
        read: a span format's reader of one file (`Reader`), usually `Lazy`; ``read_pair``: of a gold and a
            prediction file together, where their documents are paired (`PairReader`);
            ``read_column``/``read_column_pair``: the same, for the formats whose tags sit in a
            column that ``column`` names.
        texts: each document's text or tokens (`Texts`), where the format carries them.
        read_tags: a tag format's or a dataset's reader (`nerve.io.tags.conll.ConllReader`,
            `nerve.io.tags.bio_dirs.load_files`, `nerve.io.tags.hf.read_hf`).
        accelerated: a faster reader of the same input, asked before ``read_tags`` when it is set:
            called ``(gold, pred, plan)`` where `nerve.compiled.route` says, it returns
            ``(totals, vocab, notes)``, or ``None`` to hand the run to ``read_tags``. The
            ``conll`` format's is the C counter (`nerve.io.tags.conll_counted.read_counted`);
            ``None`` for every other format.
        write: the writer ``nerve convert --to NAME`` ends in, where the format is a target.
        offsets: the offset units ``offsets`` may name (converted to characters on read).
        options: the options the format takes beyond the common ones, each with its help text.
        scored: whether ``nerve score`` and ``validate`` read it (``bio``: only ``convert`` does).

    A record is read-only; `replace` makes a changed copy. It is a plain class, not a dataclass:
    every command line builds the records (``--help`` lists them), and `dataclasses` (with
    `inspect`) would add about 10 ms to the start-up of each.
    """

    __slots__ = _FIELDS
    name: str
    kind: Literal["tags", "spans", "dataset"]
    summary: str
    aliases: tuple[str, ...]
    sniff: tuple[Rule, ...]
    read: Reader | None
    read_pair: PairReader | None
    read_column: ColumnReader | None
    read_column_pair: ColumnPairReader | None
    texts: Texts | None
    read_tags: Callable[..., Any] | None
    accelerated: Callable[..., Any] | None
    write: Callable[..., Any] | None
    offsets: tuple[str, ...]
    options: Mapping[str, str]
    scored: bool

    def __init__(
        self,
        name: str,
        kind: Literal["tags", "spans", "dataset"],
        summary: str,
        *,
        aliases: tuple[str, ...] = (),
        sniff: tuple[Rule, ...] = (),
        read: Reader | None = None,
        read_pair: PairReader | None = None,
        read_column: ColumnReader | None = None,
        read_column_pair: ColumnPairReader | None = None,
        texts: Texts | None = None,
        read_tags: Callable[..., Any] | None = None,
        accelerated: Callable[..., Any] | None = None,
        write: Callable[..., Any] | None = None,
        offsets: tuple[str, ...] = (),
        options: Mapping[str, str] | None = None,
        scored: bool = True,
    ) -> None:
        values: list[object] = [name, kind, summary, aliases, sniff, read, read_pair, read_column]
        values += [read_column_pair, texts, read_tags, accelerated, write, offsets]
        values += [{} if options is None else options, scored]
        for slot, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, slot, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"the {self.name!r} format record is read-only (Format.replace makes a copy)")

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    def __repr__(self) -> str:
        return f"Format({self.name!r}, {self.kind!r}, {self.summary!r})"

    def replace(self, **changes: Any) -> Format:
        """A copy of the record with ``changes`` (names of fields, and values), as `dataclasses.replace`."""
        values = {slot: getattr(self, slot) for slot in self.__slots__}
        return Format(**{**values, **changes})

    def takes(self, option: str) -> bool:
        """Whether the format takes ``option`` (``offsets`` when it has offset units to name)."""
        return option in self.options or (option == "offsets" and bool(self.offsets))
