"""The ``conll`` format: token and tag columns, merged or a file a side (`nerve.io.tags.conll`).

In: nothing. Out: `FORMAT`, its record: what a file is when it is no other format, and a directory
whose ``.txt`` files (and no ``.ann``) hold token and tag columns, or that holds no ``.txt``/``.ann``
files at all. Its ``accelerated`` field is where a compiled reader of the same files plugs in.
"""

from __future__ import annotations

import os

from ...errors import InputError
from ..format import HEAD, Format, Lazy, Probe, Rule, looks_like_columns

__all__ = ["FORMAT", "TAG_OPTIONS"]

#: The options of tagged input, which span input refuses (``nerve validate``, `nerve.score`).
TAG_OPTIONS = {
    "scheme": "the tagging scheme (default: auto, inferred from the tags)",
    "repair": "what an invalid transition becomes",
    "tag_format": "how tags are spelled: B-X, X-B, B_X, X_B, ... (default: inferred)",
    "outside": "the outside tag (default: O)",
    "comments": "lines starting with # are comments",
    "delimiter": "what separates columns (default: sniffed file by file)",
    "encoding": "the files' encoding (default: utf-8)",
    "check_tokens": "require the token columns of the gold and prediction files to agree",
    "merged": "the file is merged: its last two columns are the gold and the predicted tags",
    "workers": "threads that count one big file",
    "gold_scheme": "the gold tags' scheme, where the predictions' differs",
    "pred_scheme": "the predicted tags' scheme, where the gold's differs",
    "from_scheme": "the scheme the tags are read in (nerve convert)",
}


def _columns_dir(path: str) -> bool:
    """A directory of CoNLL files: no ``.ann`` files, and ``.txt`` files of columns, or none."""
    names = sorted(os.path.join(root, n) for root, _, found in os.walk(path) for n in found)
    if not names or any(n.endswith(".ann") for n in names):
        return False
    texts = [n for n in names if n.endswith(".txt")]
    if not texts:
        return True
    from ..sources import read_head  # only for a directory of .txt files

    try:
        return all(looks_like_columns(read_head(n, HEAD)) for n in texts[:3])
    except InputError:
        return False  # brat's reader names the file


def _sniff_dir(probe: Probe) -> bool:
    return probe.is_dir and _columns_dir(probe.path)


FORMAT = Format(
    "conll",
    "tags",
    "token and tag columns: a merged file (gold and predicted tags last), or a gold and a prediction file",
    sniff=(
        Rule(10, _sniff_dir),
        Rule(51, lambda probe: not probe.is_file),  # the reader says what is wrong
        Rule(150, lambda probe: not probe.head.startswith(b"[")),
    ),
    read_tags=Lazy("tags.conll:ConllReader"),
    accelerated=Lazy("tags.conll_counted:read_counted"),
    write=Lazy("write.tags:write_conll"),
    options=TAG_OPTIONS,
)
