"""Old module paths, kept for one release.

``import nerve.scoring`` (and every other path in `MOVED`) warns with a `DeprecationWarning` and
hands out the module that replaced it, the same object, so that attributes set on one are seen
through the other.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

MOVED = {
    "nerve.chunk_evaluator": "nerve.compat.paddlenlp",
    "nerve.conlleval": "nerve.compat.conlleval",
    "nerve.muc": "nerve.metrics.muc",
    "nerve.readers": "nerve.io.conll",
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
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", self))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} is deprecated and will be removed in the next release; use {new}",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(new)
        self._specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system set the alias's spec on the real module: give it its own back.
        module.__spec__ = self._specs.pop(module.__name__)


def install() -> None:
    """Put the finder of old paths on `sys.meta_path`, once."""
    if not any(isinstance(f, _Moved) for f in sys.meta_path):
        sys.meta_path.append(_Moved())
