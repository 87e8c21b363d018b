"""Hugging Face dataset files read as pyarrow tables, checked, with their features.

In: a dataset saved with ``Dataset.save_to_disk`` (a directory), a Parquet file or an Arrow file.
Out: its pyarrow table and its features as JSON (`nerve.io.tags.hf` makes tags of them). ``datasets``
and ``pyarrow`` are imported only when a dataset is read. A file that is missing, cannot be read,
or is damaged (names or strings that are not UTF-8, lists that point past their values) is an
`InputError` naming it.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ...errors import InputError
from ..sources import not_found

__all__ = ["dataset_table", "is_dataset"]


def is_dataset(path: str) -> bool:
    """Whether ``path`` is a Parquet or Arrow file, or a directory ``save_to_disk`` wrote."""
    if path.endswith((".parquet", ".arrow")):
        return True
    return os.path.isfile(os.path.join(path, "state.json")) or os.path.isfile(
        os.path.join(path, "dataset_dict.json")
    )


def dataset_table(path: str) -> tuple[Any, dict[str, Any]]:
    """The pyarrow table of a saved dataset, Parquet or Arrow file, and its features as JSON."""
    import importlib.util

    needed = ("datasets", "pyarrow") if os.path.isdir(path) else ("pyarrow",)
    missing = [m for m in needed if importlib.util.find_spec(m) is None]
    if missing:
        raise InputError(
            path, None, f"reading it needs {' and '.join(missing)}: pip install {' '.join(missing)}"
        )
    if os.path.isdir(path):
        return _saved(path)
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not os.path.isfile(path):
        raise not_found(path, "no such file or dataset directory")
    try:
        if path.endswith(".parquet"):
            table = pq.read_table(path)
        else:
            with pa.memory_map(path) as source:
                try:
                    table = pa.ipc.open_stream(source).read_all()
                except pa.ArrowInvalid:
                    table = pa.ipc.open_file(source).read_all()
    except (pa.ArrowException, OSError) as err:
        kind = "a Parquet" if path.endswith(".parquet") else "an Arrow"
        raise InputError(path, None, f"cannot be read as {kind} file ({err})".splitlines()[0]) from None
    return _checked(table, path)


def _checked(table: Any, path: str) -> tuple[Any, dict[str, Any]]:
    """``table``, checked, and its features as JSON (from its ``huggingface`` metadata, else none).

    A damaged file's names or strings are not valid UTF-8, or its lists point past their values.
    """
    import pyarrow as pa

    damaged = "is damaged: {}; write it again (Dataset.to_parquet or save_to_disk)"
    try:
        table.validate(full=True)  # a string that is not UTF-8 fails here
        table.column_names  # noqa: B018  (a column name that is not UTF-8 fails here)
        meta = (table.schema.metadata or {}).get(b"huggingface")
        info = json.loads(meta) if meta else {}
    except UnicodeDecodeError:
        raise InputError(path, None, damaged.format("a column name is not valid UTF-8")) from None
    except pa.ArrowInvalid as err:
        raise InputError(path, None, damaged.format(str(err).splitlines()[0])) from None
    except ValueError:
        raise InputError(path, None, damaged.format("its Hugging Face metadata is not JSON")) from None
    info = info.get("info") if isinstance(info, dict) else None
    features = info.get("features") if isinstance(info, dict) else None
    return table, features if isinstance(features, dict) else {}


def _saved(path: str) -> tuple[Any, dict[str, Any]]:
    """A ``save_to_disk`` directory, through ``datasets`` itself."""
    import datasets

    shown = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # the library never prints
    try:
        ds = datasets.load_from_disk(path)
    except (FileNotFoundError, ValueError, OSError) as err:
        detail = f"cannot be read as a saved dataset ({err})".splitlines()[0]
        raise InputError(path, None, detail) from None
    finally:
        if shown:
            datasets.enable_progress_bars()
    if isinstance(ds, datasets.DatasetDict):
        splits = ", ".join(ds)
        raise InputError(path, None, f"holds the splits {splits}: give one split's directory")
    table, _ = _checked(ds.data.table, path)
    return table, ds.features.to_dict()
