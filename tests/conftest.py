"""Shared fixtures: where the real corpora of ../shared/data are."""

from __future__ import annotations

import os
from pathlib import Path

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
