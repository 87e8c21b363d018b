"""Every example in a docstring runs, and shows what it prints."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def modules_with_examples() -> list[str]:
    names = []
    for path in sorted((SRC / "nerve").rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = list(path.relative_to(SRC).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def test_there_are_examples() -> None:
    assert "nerve" in modules_with_examples()


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0, f"{name} has '>>>' but no example doctest can find"
    assert failed == 0, f"{failed} of {attempted} examples in {name} failed (run: python -m doctest -v)"
