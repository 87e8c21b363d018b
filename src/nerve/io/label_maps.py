"""The label map and type filter options, read: ``--map``, ``--types`` and ``--ignore-types``.

In: the values a caller gave (a ``FROM=TO,...`` string, a file of ``FROM=TO`` lines or a JSON
object, a mapping; type names comma-separated or as a sequence). Out: a `nerve.model.labels.LabelMap`,
or ``None`` when none is given; an `OptionError` naming the flag (worded by `nerve.options.flag`), or
an `InputError` with the line of a map file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from ..errors import InputError, OptionError
from ..model.labels import LabelMap
from ..options import flag

__all__ = ["label_map"]

Names = str | Sequence[str] | None
Item = tuple[int | None, str, str]  # (line of a map file or None, FROM, TO)


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
    items: list[Item] = (
        _renames(rename) if isinstance(rename, str) else [(None, a, b) for a, b in (rename or {}).items()]
    )
    for _, a, b in items:
        if not isinstance(a, str) or not isinstance(b, str) or not a.strip() or not b.strip():
            raise OptionError(flag("label_map"), f"expected FROM=TO with two type names, but got {a}={b}")
    keep = None if types is None else _types(types, "types")
    renames = _once(items, rename if isinstance(rename, str) else None)
    labels = LabelMap(renames, keep, _types(ignore, "ignore_types") if ignore is not None else ())
    return labels if labels else None


def _once(items: list[Item], source: str | None) -> tuple[tuple[str, str], ...]:
    """The renames, each type renamed once: a type given two targets is refused, naming both.

    The same ``FROM=TO`` given twice is one rename. ``source`` is the map file, if the pairs are
    a file's lines (then the error names the file and both lines).
    """
    seen: dict[str, Item] = {}
    for line, a, b in items:
        a, b = a.strip(), b.strip()
        if a not in seen:
            seen[a] = (line, a, b)
            continue
        first, _, to = seen[a]
        if to == b:
            continue
        detail = f"type {a} is renamed twice, {a}={to} and {a}={b}; give each type one FROM=TO"
        if source is not None and line is not None:
            detail = f"type {a} is renamed twice, {a}={to} on line {first} and {a}={b} on line {line}"
            raise InputError(source, line, f"{detail}; keep one of the two lines", option="--map")
        if source is not None and os.path.isfile(source):
            raise InputError(source, None, detail, option="--map")
        raise OptionError(flag("label_map"), detail)
    return tuple((a, b) for _, a, b in seen.values())


def _renames(value: str) -> list[Item]:
    """``FROM=TO`` pairs of a comma-separated string, or of a file: ``FROM=TO`` lines or a JSON object."""
    if "=" not in value and not os.path.isfile(value):
        raise OptionError(flag("label_map"), _no_file(value))
    if "=" in value:
        items: list[tuple[int | None, str]] = [(None, v) for v in value.split(",") if v.strip()]
    else:
        try:
            with open(value, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as err:
            detail = getattr(err, "strerror", None) or str(err)
            raise InputError(value, None, f"cannot read the map file: {detail}", option="--map") from None
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
    return [(n, a, b) for n, (a, b) in ((n, v.split("=")) for n, v in items)]


def _no_file(value: str) -> str:
    """Why ``value``, with no ``=``, is no map: the file it names does not exist (or is no file)."""
    if os.path.isdir(value):
        return (
            f"{value!r} is a directory; expected a map file (FROM=TO lines or a JSON object) or FROM=TO pairs"
        )
    return f"the map file {value!r} does not exist (or give FROM=TO pairs, comma-separated)"


def _json_map(path: str, text: str) -> list[Item]:
    """The pairs of a JSON object of type names (a key given twice is kept twice, to be refused)."""
    import json  # here, not above: a run without ``--map FILE.json`` reads no JSON

    try:
        data = json.loads(text, object_pairs_hook=list)
    except json.JSONDecodeError as err:
        raise InputError(
            path, err.lineno, f"expected a JSON object of type names: {err.msg}", option="--map"
        ) from None
    if not isinstance(data, list) or not all(isinstance(v, str) for _, v in data):
        raise InputError(
            path, None, 'expected a JSON object of type names, such as {"OTH": "MISC"}', option="--map"
        )
    return [(None, k, v) for k, v in data]


def _types(value: str | Sequence[str], option: str) -> tuple[str, ...]:
    """Type names of a comma-separated string or a sequence, none of them empty."""
    names = [str(v).strip() for v in (value.split(",") if isinstance(value, str) else value)]
    if not names or any(not n for n in names):
        raise OptionError(flag(option), f"expected type names, comma-separated, but got {value!r}")
    return tuple(dict.fromkeys(names))
