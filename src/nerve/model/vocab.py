"""The tag vocabulary: tag strings to small integer ids, with each tag's letter, kind and type.

Readers turn every tag of a corpus into an id of one growing `TagVocab`, so that decoding and
matching work on integer arrays. Id 0 is always the outside tag; it also stands for the implicit
outside token at sentence boundaries.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import SchemeError
from .quoting import quote
from .schemes import LETTER_KIND, OUT, Scheme, TagFormat, infer_tag_format, no_letter

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


__all__ = ["TagVocab"]


class TagVocab:
    """Tag strings and their parts, indexed by id; grows as readers meet new tags.

    Args:
        tag_format: how tags are spelled, or ``None`` to infer it from the first tags read.
        scheme: the scheme whose letters are allowed, or ``None`` (``auto``) to allow every letter.
        outside: the outside tag, used when ``tag_format`` is inferred.
    """

    def __init__(self, tag_format: TagFormat | None = None, scheme: Scheme | None = None, outside: str = "O"):
        if scheme is not None and not _fits(tag_format, scheme):
            raise SchemeError(f"bare tags (no letter) can only be read with the IO scheme, not {scheme.name}")
        self.format = tag_format
        self.scheme = scheme
        self.outside = tag_format.outside if tag_format else outside
        self.tags: list[str] = [self.outside]
        self.index: dict[str, int] = {self.outside: 0}
        self.letters: list[str] = ["O"]
        self.type_names: list[str] = []
        self._type_index: dict[str, int] = {}
        self._kinds: list[int] = [OUT]
        self._types: list[int] = [-1]
        self._arrays: tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]] | None = None
        self._letterless = False  # the format was inferred from tags none of which has a letter

    def __len__(self) -> int:
        return len(self.tags)

    def add(self, tags: Sequence[str]) -> npt.NDArray[np.int32]:
        """Return the ids of ``tags``, adding new ones.

        A tag that does not fit the tag format or the scheme gets id -1; the caller reports it
        with its line (`explain` says why).
        """
        import numpy as np  # here: a vocabulary of tags read by the compiled engine needs no arrays

        return np.asarray(self.add_list(tags), dtype=np.int32)

    def add_list(self, tags: Sequence[str]) -> list[int]:
        """`add`, without numpy: the ids as a list (the format inferred as `add` infers it)."""
        if self.format is None:
            new = [t for t in tags if t not in self.index]
            try:
                self.format = infer_tag_format(new, self.outside)
            except SchemeError:
                self.format = TagFormat("prefix", "-", self.outside)
                self._letterless = not any(self.format.split(t) for t in new)
        out = []
        for tag in tags:
            known = self.index.get(tag)
            out.append(known if known is not None else self._insert(tag))
        return out

    def parts(self) -> tuple[list[int], list[int]]:
        """Each tag's kind and type id (-1: none), by id, as lists."""
        return list(self._kinds), list(self._types)

    def _insert(self, tag: str) -> int:
        fmt = self.format
        parts = fmt.split(tag) if fmt is not None else None
        if parts is None or not _fits(fmt, self.scheme):
            return -1
        letter, typ = parts
        if letter != "O" and self.scheme is not None and letter not in self.scheme.letters:
            return -1
        new_id = len(self.tags)
        self.tags.append(tag)
        self.index[tag] = new_id
        self.letters.append(letter)
        self._kinds.append(LETTER_KIND.get(letter, OUT))
        if letter == "O":
            self._types.append(-1)
        else:
            if typ not in self._type_index:
                self._type_index[typ] = len(self.type_names)
                self.type_names.append(typ)
            self._types.append(self._type_index[typ])
        self._arrays = None
        return new_id

    def explain(self, tag: str) -> str:
        """Say why ``tag`` was rejected, for an error message."""
        fmt = self.format
        if fmt is not None and not _fits(fmt, self.scheme):
            return f"tag {quote(tag)}: bare tags (no letter) can only be read with the IO scheme"
        if fmt is not None and self._letterless and fmt.split(tag) is None:
            return no_letter(tag, self.outside)
        if fmt is None or fmt.split(tag) is None:
            spelled = fmt.describe() if fmt else "B-X"
            return (
                f"tag {quote(tag)} does not have the form {spelled} of the other tags "
                f"(or the outside tag {quote(self.outside)})"
            )
        scheme = self.scheme
        assert scheme is not None
        allowed = ", ".join([self.outside, *(fmt.join(c, "X") for c in scheme.letters)])
        return f"tag {quote(tag)} is not part of scheme {scheme.name} (expected {allowed})"

    @property
    def kinds(self) -> npt.NDArray[np.int8]:
        """The kind (outside, begin, inside, end, single) of each tag id."""
        return self._numpy()[0]

    @property
    def types(self) -> npt.NDArray[np.int64]:
        """The type id of each tag id (-1 for the outside tag)."""
        return self._numpy()[1]

    def _numpy(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        if self._arrays is None:
            import numpy as np

            self._arrays = (np.asarray(self._kinds, dtype=np.int8), np.asarray(self._types, dtype=np.int64))
        return self._arrays


def _fits(fmt: TagFormat | None, scheme: Scheme | None) -> bool:
    """Bare tags (types without a letter) exist only in the IO scheme."""
    return fmt is None or fmt.position != "bare" or scheme is None or scheme.name == "IO"
