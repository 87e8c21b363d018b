"""Old module paths, kept for one release.

``import nerve.scoring`` (and every other path in `MOVED`) warns with a `DeprecationWarning` and
hands out the module that replaced it, the same object, so that attributes set on one are seen
through the other. The names an old module had that its replacement lacks (`MOVED_NAMES`) are
found on the module handed out, each with its own `DeprecationWarning`.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (``import nerve`` runs this)
if TYPE_CHECKING:
    from typing import Any

MOVED = {
    "nerve.chunk_evaluator": "nerve.compat.paddlenlp",
    "nerve.conlleval": "nerve.compat.conlleval",
    "nerve.io.conll": "nerve.io.tags.conll",
    "nerve.io.hf": "nerve.io.tags.hf",
    "nerve.muc": "nerve.metrics.muc",
    "nerve.readers": "nerve.io.tags.conll",
    "nerve.renderers": "nerve.report.renderers",
    "nerve.repair": "nerve.tagging.decode",
    "nerve.schemes": "nerve.model.schemes",
    "nerve.scoring": "nerve.api",
    "nerve.span_readers": "nerve.io.spans",
    "nerve.spans": "nerve.model.spans",
    "nerve.tensors": "nerve.streaming.tensors",
    "nerve.text_metrics": "nerve.metrics.text",
    "nerve.text_readers": "nerve.tagging.texts",
    "nerve.vocab": "nerve.model.vocab",
}


#: Names an old module path had (in its ``__all__``) that the module it now hands out lacks: they
#: moved on, or were replaced. ``old path: {name: (where it is, "module:name", what to use)}``.
#: Got through the old path, each warns with a `DeprecationWarning` naming what to use.
MOVED_NAMES: dict[str, dict[str, tuple[str, str]]] = {
    "nerve.renderers": {
        "TEXT_COMMANDS": ("nerve.report.text:TEXT_COMMANDS", "nerve.report.text.TEXT_COMMANDS"),
        "render_text": ("nerve.report.text:render_text", "nerve.report.text.render_text"),
    },
    "nerve.repair": {
        "pair_keys": ("nerve._deprecated:pair_keys", "nerve.model.pairs.pair_codes"),
    },
    "nerve.span_readers": {
        "SpanColumns": ("nerve.model.spans:SpanArray", "nerve.model.spans.SpanArray"),
    },
    "nerve.tensors": {
        "flush_tensors": ("nerve._deprecated:flush_tensors", "StreamingMetric.compute, which flushes"),
        "update_from_tensors": ("nerve._deprecated:update_from_tensors", "StreamingMetric.update"),
    },
}


def pair_keys(prev: Any, ids: Any, size: int) -> Any:
    """``prev * size + ids``: a flat index into a (size, size) table, in 32 bits when it fits."""
    import numpy as np

    if size * size < 2**31:
        return prev.astype(np.int32, copy=False) * np.int32(size) + ids.astype(np.int32, copy=False)
    return prev.astype(np.int64) * size + ids


def update_from_tensors(metric: Any, gold: Any, pred: Any, lengths: Any, batch: int) -> None:
    """Buffer one batch of tensors (from ``prepare_batch``) on its device, as `StreamingMetric.update`."""
    metric._update_tensors(gold, pred, lengths, batch)


def flush_tensors(metric: Any, pending: list[tuple[Any, Any, Any, int]]) -> None:
    """Decode buffered tensor batches ``(gold, pred, lengths, batch)`` and add their counts to ``metric``."""
    metric._tensor_pending.extend(pending)
    metric._flush()


def _names_of(module: ModuleType) -> None:
    """Give ``module`` the names its old paths had (`MOVED_NAMES`), found through `__getattr__` (PEP 562)."""
    moved = {
        name: (old, *where)
        for old, names in MOVED_NAMES.items()
        if MOVED[old] == module.__name__
        for name, where in names.items()
    }
    if not moved or "__getattr__" in vars(module):
        return

    def __getattr__(name: str) -> Any:
        if name not in moved:
            raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")
        old, target, use = moved[name]
        warnings.warn(
            f"{old}.{name} is deprecated and will be removed in the next release; use {use}",
            DeprecationWarning,
            stacklevel=2,
        )
        path, attribute = target.split(":")
        return getattr(importlib.import_module(path), attribute)

    module.__getattr__ = __getattr__  # type: ignore[method-assign]


class _Moved:
    """Finds the old paths and loads them as the new modules.

    A meta path finder and loader by protocol: subclassing `importlib.abc`'s classes would import
    `importlib.resources` and more at every ``import nerve``.
    """

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)  # type: ignore[arg-type]  # a Loader by its methods

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} is deprecated and will be removed in the next release; use {new}",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        self._specs[module.__name__] = module.__spec__
        _names_of(module)
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system set the alias's spec on the real module: give it its own back.
        module.__spec__ = self._specs.pop(module.__name__)


def install() -> None:
    """Put the finder of old paths on `sys.meta_path`, once."""
    if not any(isinstance(f, _Moved) for f in sys.meta_path):
        sys.meta_path.append(_Moved())
