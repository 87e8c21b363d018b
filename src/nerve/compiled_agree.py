"""`nerve.agree` of a CoNLL file of several tag columns on the compiled engine, without numpy.

In: the sources and options `nerve.agree` was given. Out: the `Agreement` the numpy engine gives
for them (`nerve.api.agree_measure` and the rest), number for number and row for row; or ``None``
where this path does not apply, and the numpy engine reads the input (it also gives the errors):
the compiled engine is not built, the sources are not one CoNLL file, a consensus is asked for,
or the C core hands the file over (`csrc/agree.c`: a byte order mark, a carriage return, no final
newline, bytes that are not UTF-8, a column count that changes, a tag the tag format refuses).

Steps, each the numpy engine's twin: the lines and each column's distinct tags (`agree_scan`);
each column's tags read by its own `TagVocab`, sorted, and decoded with the shared rule, the scheme
inferred and the repairs counted from the transitions (`agree_decode`, `nerve.api.convert_input
.decoded`); the pairs scored by the span matcher the numpy engine uses where compiled
(`nerve.compiled_spans.columns_result`); token labels, label pairs, alpha's parts and each pair's
exact matches by document (`agree_tokens`); the votes and the bootstrap by the numpy engine's own functions
(`nerve.analysis.agree_draws`); the rows built only when read (`LazyRows`, `nerve.compiled_agree_flat`).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from . import options
from ._engine import speedups
from .analysis.agree_query import check_agree_query
from .analysis.agree_result import RULES, Agreement
from .compiled_agree_read import HandOver, read_agree_columns
from .errors import OptionError
from .plan import InstanceQuery, Statistics, statistics_of

__all__ = ["agree", "compiled_agreement"]

PathLike = str | os.PathLike[str]


def compiled_agreement(
    paths: Sequence[str],
    wanted: Sequence[str] | None,
    reading: tuple[str | None, str | None, tuple[str, str | None, str]],
    stats: Statistics | None,
    query: InstanceQuery,
) -> Agreement | None:
    """The agreement of one CoNLL file of several tag columns (see the module), or ``None``."""
    input_format, offsets, how = reading
    if speedups() is None or len(paths) != 1 or offsets is not None or not os.path.isfile(paths[0]):
        return None
    from .io.sniff import sniff_format

    path = paths[0]
    if (input_format or sniff_format(path)) != "conll":
        return None
    found = read_agree_columns(path, wanted, how)
    if found is None:
        return None
    from .compiled_agree_flat import measured_flat

    try:
        return measured_flat(found[0], found[1], stats, query)
    except HandOver:
        return None


def _consensus_rule(consensus: str | None, out: PathLike | None, to: str | None, force: bool) -> str | None:
    """The consensus rule asked for, checked with where it is written (``out`` over a file with ``force``)."""
    rule = options.one_of(consensus, RULES, "consensus") if consensus is not None else None
    if rule is None and (out is not None or to is not None):
        written = f"{options.flag('out')} and {options.flag('to')} write the consensus"
        detail = f"{written}: name its rule, majority or unanimous"
        raise OptionError(options.flag("consensus"), detail)
    if out is not None and os.path.exists(out) and not force:
        raise OptionError(options.flag("force"), f"{os.fspath(out)} exists; pass it to write over it")
    return rule


def agree(
    *sources: PathLike | Sequence[PathLike],
    annotators: str | Sequence[str] | None = None,
    input_format: str | None = None,
    offsets: str | None = None,
    scheme: str = "auto",
    tag_format: str | None = None,
    outside: str = "O",
    bootstrap: int | None = 1000,
    seed: int | None = None,
    confidence: float | None = None,
    unit: str | None = None,
    instances: InstanceQuery | None = None,
    consensus: str | None = None,
    out: PathLike | None = None,
    to: str | None = None,
    force: bool = False,
) -> Agreement:
    """Agreement between the annotators of ``sources`` (see the module).

    ``sources``: one file or directory per annotator (``annotators`` names them), or one Label
    Studio, doccano or CoNLL file of several (``annotators`` picks them by id, user or column
    number). ``bootstrap`` resamples of documents (``None`` or 0: no intervals; ``unit`` can only
    be ``document``) drawn with ``seed`` give intervals at ``confidence``. ``instances`` filters
    the disagreements listed (categories ``missed``, ``type``, ``boundary``, ``boundary_type``).
    ``consensus`` (``majority`` or ``unanimous``) computes the consensus, written to ``out`` in
    format ``to`` (default: from ``out``'s extension, else ``jsonl``), over an existing ``out`` only
    with ``force``.

    Raises:
        InputError: unreadable or unpairable input (see `nerve.api.agree_input`).
        OptionError: an option nerve cannot use.
    """
    paths = [p for s in sources for p in ([s] if isinstance(s, (str, os.PathLike)) else s)]
    wanted = annotators.split(",") if isinstance(annotators, str) else annotators
    query = check_agree_query(instances)
    rule = _consensus_rule(consensus, out, to, force)
    if unit not in (None, "auto", "document"):
        detail = f"agreement resamples documents (the statistics pair annotators within them), got {unit!r}"
        raise OptionError(options.flag("unit"), detail)
    stats = statistics_of(None if bootstrap in (None, 0, "0") else bootstrap, seed, confidence, None)
    how = (scheme, tag_format, outside)
    # read as convert reads: its from_scheme is agree's scheme
    with _collector_paused(), options.renamed(from_scheme="scheme"):
        if rule is None:
            names = [os.fspath(p) for p in paths]
            found = compiled_agreement(names, wanted, (input_format, offsets, how), stats, query)
            if found is not None:
                return found
        from .api.agree_numpy import numpy_agreement  # only here: the numpy engine

        return numpy_agreement(paths, wanted, (input_format, offsets, how), stats, (query, rule, out, to))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused, and resumed as it was.

    Agreement makes many small objects that hold no cycles (a row, its marks, each pair's matches:
    hundreds of thousands at 1M tokens), and the collector's passes over them took a third of
    building the rows. Cycles made meanwhile are collected once it resumes.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
