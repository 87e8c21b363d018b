"""Where a spaCy DocBin or a Hugging Face dataset keeps its entities: `ReaderOptions`.

In: what the caller says (``--spans-key``, ``--tag-column``, ``--label-names``, ``--subwords``).
Out: one frozen value that `nerve.score` hands to `nerve.io.tools.spacy` and `nerve.io.tags.hf`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from .._frozen import frozen

__all__ = ["ReaderOptions"]


@frozen
class ReaderOptions:
    """Which part of a spaCy DocBin or a Hugging Face dataset holds the entities.

    Attributes:
        spans_key: spacy: the span group read instead of ``doc.ents``.
        tag_column: hf: the column of tags (``None``: ``ner_tags``).
        label_names: hf: the tag of each ClassLabel id, in id order (a list, or comma-separated),
            where the features name none.
        subwords: hf: predictions with a ``word_ids`` column take a word's ``first`` (``None``),
            ``last`` or ``majority`` sub-token label, or (``all``) score every labelled sub-token.
    """

    spans_key: str | None = None
    tag_column: str | None = None
    label_names: str | Sequence[str] | None = None
    subwords: str | None = None

    def given(self, *names: str) -> str | None:
        """The first of ``names`` (all fields when none) that was given, else ``None``."""
        for f in names or tuple(f.name for f in fields(self)):
            if getattr(self, f) is not None:
                return f
        return None

    def names(self) -> list[str] | None:
        """``label_names`` as a list."""
        if isinstance(self.label_names, str):
            return [n.strip() for n in self.label_names.split(",")]
        return None if self.label_names is None else list(self.label_names)
