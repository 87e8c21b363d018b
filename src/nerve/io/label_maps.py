"""The label map and type filter options, read: ``--map``, ``--types`` and ``--ignore-types``.

In: the values a caller gave (a ``FROM=TO,...`` string, a file of ``FROM=TO`` lines or a JSON
object, a mapping; type names comma-separated or as a sequence). Out: a `nerve.model.labels.LabelMap`,
or ``None`` when none is given; an `OptionError` naming the flag (worded by `nerve.options.flag`), or
an `InputError` with the line of a map file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence

from ..errors import InputError, OptionError
from ..model.labels import LabelMap
from ..options import flag

__all__ = ["label_map"]

Names = str | Sequence[str] | None


def label_map(
    rename: str | os.PathLike[str] | Mapping[str, str] | None, types: Names, ignore: Names
) -> LabelMap | None:
    """The renames and the types kept (``types``) or dropped (``ignore``); not both filters."""
    if isinstance(rename, os.PathLike):
        rename = os.fspath(rename)
    if types is not None and ignore is not None:
        raise OptionError(
            flag("types"), f"give the types to keep or the ones to ignore ({flag('ignore_types')}), not both"
        )
    pairs = _renames(rename) if isinstance(rename, str) else list((rename or {}).items())
    for a, b in pairs:
        if not isinstance(a, str) or not isinstance(b, str) or not a.strip() or not b.strip():
            raise OptionError(flag("label_map"), f"expected FROM=TO with two type names, but got {a}={b}")
    keep = None if types is None else _types(types, "types")
    renames = tuple((a.strip(), b.strip()) for a, b in pairs)
    labels = LabelMap(renames, keep, _types(ignore, "ignore_types") if ignore is not None else ())
    return labels if labels else None


def _renames(value: str) -> list[tuple[str, str]]:
    """``FROM=TO`` pairs of a comma-separated string, or of a file: ``FROM=TO`` lines or a JSON object."""
    if "=" in value or not os.path.isfile(value):
        items: list[tuple[int | None, str]] = [(None, v) for v in value.split(",") if v.strip()]
        if not items:
            raise OptionError(
                flag("label_map"), f"expected FROM=TO pairs (or a file of them), but got {value!r}"
            )
    else:
        with open(value, encoding="utf-8") as f:
            text = f.read()
        if text.lstrip().startswith("{"):
            return _json_map(value, text)
        lines = enumerate(text.splitlines(), 1)
        items = [(n, ln) for n, ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    for line, item in items:
        if item.count("=") != 1:
            if line is not None:
                raise InputError(
                    value, line, f"expected a FROM=TO line, but got {item.strip()!r}", option="--map"
                )
            raise OptionError(
                flag("label_map"), f"expected FROM=TO pairs (or a file of them), but got {item.strip()!r}"
            )
    return [(a, b) for a, b in (v.split("=") for _, v in items)]


def _json_map(path: str, text: str) -> list[tuple[str, str]]:
    """The pairs of a JSON object of type names."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(
            path, err.lineno, f"expected a JSON object of type names: {err.msg}", option="--map"
        ) from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise InputError(
            path, None, 'expected a JSON object of type names, such as {"OTH": "MISC"}', option="--map"
        )
    return list(data.items())


def _types(value: str | Sequence[str], option: str) -> tuple[str, ...]:
    """Type names of a comma-separated string or a sequence, none of them empty."""
    names = [str(v).strip() for v in (value.split(",") if isinstance(value, str) else value)]
    if not names or any(not n for n in names):
        raise OptionError(flag(option), f"expected type names, comma-separated, but got {value!r}")
    return tuple(dict.fromkeys(names))
