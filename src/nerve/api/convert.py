"""`convert`: any input nerve reads into CoNLL, BIO files, JSONL, brat or spaCy JSONL, losses counted.

In: a path (`nerve.api.convert_input` reads it: CoNLL tags in any scheme with their repairs counted,
a BIO directory, or any span format; `nerve.api.convert_hf` a Hugging Face dataset's tags and
tokens), the target format and its options. Out: the files written,
and a `ConvertReport`: documents, entities read and written, repairs by kind, and what the target
could not hold, by reason. Nothing is dropped or changed without a count, and each entity dropped
or changed is counted once, under one reason (`nerve.api.convert_fates`):

- tag targets (``conll``, ``bio``) hold flat, contiguous entities on tokens: nested or overlapping
  entities are refused (`OptionError` naming ``flatten``) unless ``flatten`` names a policy of
  `nerve.model.nesting`, which keeps some and counts the rest; a discontinuous entity is written as
  its extent; a text is cut into tokens, entities widened to token edges (`convert_input`); IO tags
  merge touching entities of one type.
- ``jsonl`` and ``spacy-jsonl`` hold nesting but one piece per entity: a discontinuous entity is
  written as its extent. JSONL documents of tokens hold no sentence breaks.
- ``brat`` holds nesting and pieces: lossless, but for types with white space (written with ``_``);
  brat attributes and normalisations (`SpanArray.attributes`) are written back; every other
  target counts the entities that carry some.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field, replace
from typing import Any

from .. import options
from .._frozen import frozen
from ..errors import InputError, OptionError
from ..io import formats
from ..io.progress import ProgressFn, file_bytes, reporting
from ..io.sources import not_found
from ..io.spans import sniff_format
from ..io.tags.hf import is_dataset
from ..model import nesting
from ..plan import Converting, Feedback, Plan, Reading
from .convert_hf import read_dataset
from .convert_input import TAG_FORMATS, Corpus, read_corpus
from .convert_write import write_corpus

__all__ = ["INPUT_FORMATS", "SIDES", "TARGETS", "ConvertReport", "convert"]

#: The formats `convert` writes: a CoNLL file, a directory of BIO files, nerve's JSONL, a brat
#: directory, spaCy/Prodigy JSONL (those whose record has a writer, `nerve.io.formats.targets`).
TARGETS = formats.targets()
#: The formats `convert` reads: tags, spans, a dataset.
INPUT_FORMATS = formats.names("tags", "spans", "dataset")
DEFAULT_SCHEME = "IOB2"  # the scheme written to tag targets when none is given
SIDES = ("gold", "pred")


@frozen
class ConvertReport:
    """What a conversion read, wrote and could not carry over.

    Attributes:
        source: the input path; ``target``: the output path.
        input_format: the format read; ``output_format``: the format written.
        documents: the number of documents.
        entities_read: the entities of the side read; ``entities_written``: those written.
        input_scheme: the scheme the tags were read in (tag inputs), else ``None``.
        scheme: the scheme written (tag targets), else ``None``.
        repairs: invalid transitions of the input tags, by kind (``"O -> I"``); each began an entity.
        lost: what the target could not hold, or the reading did not carry over, by reason.
        notes: what the reader noted besides the entities (brat relations...), by kind.
    """

    source: str
    target: str
    input_format: str
    output_format: str
    documents: int
    entities_read: int
    entities_written: int
    input_scheme: str | None = None
    scheme: str | None = None
    repairs: Mapping[str, int] = field(default_factory=dict)
    lost: Mapping[str, int] = field(default_factory=dict)
    notes: Mapping[str, int] = field(default_factory=dict)

    @property
    def lossless(self) -> bool:
        """Whether nothing was lost."""
        return not self.lost

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready values."""
        return {
            "source": self.source,
            "target": self.target,
            "input_format": self.input_format,
            "output_format": self.output_format,
            "documents": self.documents,
            "entities_read": self.entities_read,
            "entities_written": self.entities_written,
            "input_scheme": self.input_scheme,
            "scheme": self.scheme,
            "repairs": dict(self.repairs),
            "lost": dict(self.lost),
            "notes": dict(self.notes),
        }


def _input_format(path: str, fmt: str | None) -> str:
    """The format named, or sniffed: a directory of other files than brat's is a BIO directory."""
    if fmt is not None:
        return options.one_of(fmt, formats.names("tags", "spans", "dataset"), "input_format")
    found = "hf" if is_dataset(path) else sniff_format(path)
    return "bio" if found == "conll" and os.path.isdir(path) else found


def _check_target(out: str, to: str, force: bool) -> None:
    """Refuse to write over an existing OUT unless forced, or into a file for a directory target."""
    if os.path.isdir(out) and to not in ("bio", "brat"):
        raise InputError(out, None, f"is a directory; --to {to} writes one file")
    if os.path.isfile(out) and to in ("bio", "brat"):
        raise InputError(out, None, f"is a file; --to {to} writes a directory")
    if os.path.exists(out) and not force:
        raise OptionError(options.flag("force"), f"{out} exists; pass it to write over it")


def _read(src: str, fmt: str, plan: Plan) -> Corpus:
    """The side of ``src`` that ``plan`` converts, read as its `Converting` group and offsets say."""
    c, offsets, progress = plan.converting, plan.reading.offsets, plan.output.progress
    assert c is not None
    if fmt in formats.names("tags") and offsets is not None:
        raise OptionError(
            options.flag("offsets"), f"applies to span input, but the input reads as {fmt} tags"
        )
    unset = Converting(c.to)  # each option's default
    for name in ("from_scheme", "tag_format", "outside"):
        kinds = formats.taking(name)  # tag formats; from_scheme: a dataset too, which names its tags
        if getattr(c, name) != getattr(unset, name) and fmt not in kinds:
            detail = f"applies to tagged input ({', '.join(kinds)}), but the input reads as {fmt} spans"
            if fmt == "hf":
                detail = "applies to CoNLL and BIO input, not to a dataset"
            raise OptionError(options.flag(name), detail)
    if fmt != "hf":  # a file or a directory: its bytes read, for ``progress``
        with reporting(progress, file_bytes([src]) if progress else 0):
            return read_corpus(src, fmt, c, offsets)
    formats.check_offsets(offsets, "hf")
    return read_dataset(src, c.side, options.scheme(c.from_scheme, "from_scheme"))


def _written_scheme(to: str, scheme: str | None) -> str | None:
    """The name of the scheme a tag target is written in; ``None`` for a span target."""
    written = options.scheme(scheme or DEFAULT_SCHEME) if to in TAG_FORMATS else None
    return written.name if written is not None else None


def _check_options(c: Converting) -> None:
    """Refuse unknown values, ``auto`` as the scheme to write, and tag options for a span target.

    A span target holds no tags (``scheme``) and keeps nesting as it is (``flatten``).
    """
    to, side, flatten, scheme = c.to, c.side, c.flatten, c.scheme
    options.one_of(to, formats.targets(), "to")
    options.one_of(side, SIDES, "side")
    if flatten is not None:
        options.one_of(flatten, nesting.POLICIES, "flatten")
    for name, value in (("scheme", scheme), ("flatten", flatten)):
        if to not in TAG_FORMATS and value is not None:
            detail = f"applies to tag output (conll, bio), but --to {to} writes spans, nested as they are"
            raise OptionError(options.flag(name), detail)
    if to in TAG_FORMATS and options.scheme(scheme or DEFAULT_SCHEME) is None:
        raise OptionError(options.flag("scheme"), "expected a scheme to write, not auto")


def convert(
    source: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    to: str,
    scheme: str | None = None,
    input_format: str | None = None,
    from_scheme: str = "auto",
    side: str = "gold",
    flatten: str | None = None,
    force: bool = False,
    tag_format: str | None = None,
    outside: str = "O",
    offsets: str | None = None,
    progress: ProgressFn | None = None,
) -> ConvertReport:
    """Convert one side of ``source`` into ``out`` in format ``to`` (`TARGETS`); see the module.

    ``source`` is a CoNLL file, a BIO directory or a span input (``input_format``, else sniffed;
    ``offsets`` their units); ``side`` is ``gold``, or ``pred`` for its predictions; ``from_scheme``,
    ``tag_format`` and ``outside`` say how its tags are read. ``out`` is a file (``conll``, ``jsonl``,
    ``spacy-jsonl``) or directory (``bio``, ``brat``), written over only with ``force``; ``scheme``
    (default IOB2) and ``flatten`` (`nerve.model.nesting`) apply to tag targets. Options that do
    not apply are refused. ``progress`` is called ``(bytes read, total)`` as ``source`` is read.

    Raises:
        OptionError: an unknown or inapplicable option, an existing ``out`` without ``force``,
            nested entities for a tag target without ``flatten``.
        InputError: unreadable input, or input without text for a target that needs it.
    """
    src, dst = os.fspath(source), os.fspath(out)
    c = Converting(to, scheme, side, flatten, force, from_scheme, tag_format, outside)
    plan = Plan(Reading(input_format, offsets), output=Feedback(progress), converting=c)
    _check_options(c)
    if not os.path.exists(src):
        raise not_found(src, "no such file or directory")
    _check_target(dst, to, force)
    fmt = _input_format(src, input_format)
    corpus = _read(src, fmt, plan)
    read = len(corpus.spans)
    corpus, written, lost = write_corpus(corpus, (src, dst), replace(c, scheme=scheme or DEFAULT_SCHEME))
    return ConvertReport(
        source=src,
        target=dst,
        input_format=fmt,
        output_format=to,
        documents=corpus.spans.n_docs,
        entities_read=read,
        entities_written=written,
        input_scheme=corpus.scheme,
        scheme=_written_scheme(to, scheme),
        repairs=corpus.repairs,
        lost=dict(sorted(lost.items())),
        notes=corpus.notes,
    )
