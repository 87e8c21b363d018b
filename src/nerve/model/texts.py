"""Entities by their text: what the text metrics of noisy transcriptions compare.

An entity's text is its words joined by single spaces; documents keep their index so that
entities are only ever compared within one document.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .._frozen import frozen
from .quoting import quote

if TYPE_CHECKING:
    from .arrays import Int

__all__ = ["EntityTexts"]


@frozen
class EntityTexts:
    """One side's entities by text: the document, category and text of each, in parallel lists.

    The text of an entity is its words joined by single spaces.
    """

    doc: Int
    category: list[str]
    text: list[str]
    n_docs: int

    @classmethod
    def from_documents(cls, docs: Sequence[Iterable[tuple[str, str]]]) -> EntityTexts:
        """From one list of ``(category, text)`` per document."""
        lists = [list(d) for d in docs]
        for i, d in enumerate(lists):
            for j, (category, text) in enumerate(d):
                if not isinstance(category, str) or not isinstance(text, str) or not text.split():
                    raise ValueError(
                        f"document {i}, entity {j}: expected (category, text) strings with a word, "
                        f"but got {quote((category, text))}"
                    )
        doc = np.repeat(np.arange(len(lists), dtype=np.int64), [len(d) for d in lists])
        return cls(
            doc,
            [c for d in lists for c, _ in d],
            [" ".join(t.split()) for d in lists for _, t in d],
            len(lists),
        )

    def __len__(self) -> int:
        return len(self.text)
