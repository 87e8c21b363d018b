"""`Problem`: one invalid transition of a tag sequence, as validation reports it.

Apart from `nerve.errors` (which hands it out as `nerve.errors.Problem`, on first use) because it is
a dataclass: the errors are imported by every command line, ``--help`` included, and
`dataclasses` is not.
"""

from __future__ import annotations

from ._frozen import frozen

__all__ = ["Problem"]


@frozen
class Problem:
    """One invalid transition, found while validating a tag sequence.

    Attributes:
        source: the file (or input) the tag came from.
        line: the 1-based line of the tag that makes the transition invalid.
        side: ``"gold"`` or ``"pred"``.
        previous: the tag before, or ``None`` at the start of a sentence.
        tag: the tag itself, or ``None`` at the end of a sentence.
        message: what the scheme expected.
    """

    source: str
    line: int
    side: str
    previous: str | None
    tag: str | None
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.side}: {self.message}"
