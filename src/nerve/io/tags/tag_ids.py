"""The fields of a CoNLL block as ids: tags of a vocabulary, and tokens.

In: the classified lines of a block (`io.tags.conll_lines.Lines`), the fields to read and a `TagVocab`.
Out: the vocabulary id of each tag (`tag_ids`), an `InputError` at the first line whose tag does
not fit (with the fix: the prediction file, for a merged file that has one tag column); and the
tokens of the token lines, interned (`token_words`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...errors import InputError
from ...model.blocks import Words
from ...model.quoting import quote
from ..bytes import intern
from .conll_lines import ONE_FILE, Lines, one_tag_column

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Int
    from ...model.vocab import TagVocab

__all__ = ["tag_ids", "token_words"]


def token_words(g: Lines, tokens: Int) -> Words:
    """The first field of the rows ``tokens``, interned."""
    first = g.fields.first[tokens]
    ids, values = intern(g.buf, g.fields.start[first], g.fields.end[first])
    return Words(ids, values)


def tag_ids(
    vocab: TagVocab, lines: Lines, fields: Int, rows: Int, name: str, merged: bool = False
) -> npt.NDArray[np.int32]:
    """The ids in ``vocab`` of the tags in ``fields`` (of lines ``rows`` of the file ``name``).

    With ``merged``, the first half of ``fields`` is the gold and the second the predicted
    tag column: when only the gold one has tags that do not fit, the file has one tag column.
    """
    ids, values = intern(lines.buf, lines.fields.start[fields], lines.fields.end[fields])
    tags = [v.decode("utf-8") or vocab.outside for v in values]  # empty with a delimiter
    mapped = vocab.add(tags)
    if (mapped < 0).any():  # report the first line with a tag that does not fit
        bad = np.flatnonzero(mapped[ids] < 0)
        where = int(bad[np.argmin(rows[bad])])
        row, tag = int(rows[where]), tags[ids[where]]
        line = lines.first_line + row
        if merged and one_tag_column(ids, mapped):
            raise InputError(name, line, f"{quote(tag)} is not a tag; {ONE_FILE}", option="PRED_FILE")
        raise InputError(name, line, vocab.explain(tag), option=lines.option_for(row))
    return mapped[ids]
