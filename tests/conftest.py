"""Shared fixtures: where the real corpora of ../shared/data are."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


def shared_data_dir() -> Path:
    """The shared corpora; a missing directory fails under CI=true and skips elsewhere."""
    if not SHARED_DATA.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SHARED_DATA} is missing; CI must provide ../shared/data")
        pytest.skip("../shared/data is not available here")
    return SHARED_DATA


@pytest.fixture
def shared_data() -> Path:
    return shared_data_dir()


# Peers whose pinned release (see pyproject's test extra) installs only on newer Pythons.
PEER_PYTHON = {"nervaluate": (3, 11), "ie_eval": (3, 11)}


def peer(name: str) -> ModuleType:
    """Import a peer tool the tests compare with.

    Skipped where the pinned release cannot be installed on this Python; a missing peer otherwise
    fails under CI=true and skips elsewhere.
    """
    need = PEER_PYTHON.get(name)
    if need is not None and sys.version_info < need:
        pytest.skip(f"{name} (as pinned) needs Python {need[0]}.{need[1]}", allow_module_level=True)
    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is missing; the test extras install it")
        pytest.skip(f"{name} is not installed: pip install -e '.[test]'", allow_module_level=True)
