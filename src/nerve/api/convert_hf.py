"""What `nerve.api.convert` reads from a Hugging Face dataset: its tags decoded, with its words.

In: a dataset `nerve.io.tags.hf.read_hf` reads (a ``save_to_disk`` directory, a Parquet or an Arrow
file) with a ``tokens`` column and tags in ``ner_tags`` (ClassLabel ids or strings). Out: a
`Corpus` of one document whose sentences are the dataset's rows (as a CoNLL file without
``-DOCSTART-`` lines is read), its entities decoded from the tags as nerve decodes any tags
(every invalid transition begins an entity and is counted by kind), offsets in tokens.

A dataset holds one side here: ``--side pred`` is refused (score a prediction column with
``nerve score --pred-column``).
"""

from __future__ import annotations

import numpy as np

from .. import options
from ..errors import InputError, plural
from ..io.tags.hf import read_hf, read_tokens
from ..model.schemes import Scheme
from .convert_input import Corpus, decoded, default_names

__all__ = ["read_dataset"]


def read_dataset(path: str, side: str, fixed: Scheme | None) -> Corpus:
    """The gold entities and words of the dataset ``path``, tags read in ``fixed`` (``None``: inferred).

    Raises:
        InputError: ``side`` ``pred``, a dataset without a ``tokens`` column, or one `read_hf` refuses.
    """
    if side != "gold":
        raise InputError(
            path, None, "a dataset's tags are read as the gold side", option=options.flag("side")
        )
    corpus = read_hf(path)
    (block,) = corpus.blocks
    words, lengths = read_tokens(path)
    if len(words) != len(block):
        counts = f"{plural(len(words), 'token')} but {plural(len(block), 'tag')}"
        raise InputError(path, None, f"has {counts} (expected one tag a token)")
    n_docs = 1 if len(block) else 0
    token_doc = np.zeros(len(block), dtype=np.int64)
    lost: dict[str, int] = {}
    empty = int((lengths == 0).sum())
    if empty:
        lost["rows without tokens (no sentence to write)"] = empty
    return decoded(
        (block.gold, block.sentence_start, token_doc, n_docs),
        corpus.vocab,
        words,
        fixed,
        (default_names(n_docs), "hf", lost),
    )
