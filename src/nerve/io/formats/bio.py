"""The ``bio`` format: a directory of ``*.bio`` files, ``token TAG`` lines (`nerve.io.tags.bio_dirs`).

In: nothing. Out: `FORMAT`, its record. ``nerve convert`` reads and writes it (a directory of
CoNLL files it is given reads as one); ``nerve text`` reads BIO directories by their own options.
"""

from __future__ import annotations

from ..format import Format, Lazy
from .conll import TAG_OPTIONS

__all__ = ["FORMAT"]

FORMAT = Format(
    "bio",
    "tags",
    "a directory of *.bio files of token and tag columns, one a document",
    read_tags=Lazy("tags.bio_dirs:load_files"),
    write=Lazy("write.tags:write_bio_dir"),
    options={name: TAG_OPTIONS[name] for name in ("from_scheme", "tag_format", "outside")},
    scored=False,
)
