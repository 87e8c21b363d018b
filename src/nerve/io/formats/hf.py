"""The ``hf`` format: a Hugging Face dataset of tagged words (`nerve.io.tags.hf`).

In: nothing. Out: `FORMAT`, its record. A dataset is told by `nerve.io.tags.hf_files.is_dataset`
before any file is sniffed.
"""

from __future__ import annotations

from ..format import Format, Lazy
from .conll import TAG_OPTIONS

__all__ = ["FORMAT"]

FORMAT = Format(
    "hf",
    "dataset",
    "a Hugging Face dataset (save_to_disk, Parquet or Arrow) of tokens and tags",
    read_tags=Lazy("tags.hf:read_hf"),
    options={
        "tag_column": "the column of tags (default: ner_tags)",
        "label_names": "the tag of each ClassLabel id, comma-separated in id order "
        "(default: from the features)",
        "from_scheme": TAG_OPTIONS["from_scheme"],
    },
)
