"""Shared fixtures: where the real corpora of ../shared/data are, and the optional modules tests need."""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

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


# The extra that installs an optional module, where it is not the test extra. test-torch is kept
# apart (PyPI's torch is the CUDA build, gigabytes): its tests skip without it, and CI installs it.
EXTRA = {
    "torch": "test-torch",
    "torchmetrics": "test-torch",
    "lightning": "test-torch",
    "transformers": "test-torch",
}


def missing(what: str, install: str) -> NoReturn:
    """Skip the test (or the module) that needs ``what``; fail under CI=true, where it is installed."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing; CI installs it ({install})")
    pytest.skip(f"{what} is not installed: {install}", allow_module_level=True)


def install_command(name: str) -> str:
    return f"pip install -e '.[{EXTRA.get(name.partition('.')[0], 'test')}]'"


def typed_modules_installed() -> None:
    """mypy checks src/ against the torch and torchmetrics it imports: skip without them (CI has them)."""
    import importlib.util

    for name in ("torch", "torchmetrics"):
        if importlib.util.find_spec(name) is None:
            missing(f"{name} (mypy reads its types)", install_command(name))


def need(name: str) -> ModuleType:
    """Import an optional module a test needs: skipped without it, and a failure under CI=true."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(name, install_command(name))


def have(name: str) -> bool:
    """Whether an optional module is installed, for a test that also runs without it (not under CI=true)."""
    try:
        importlib.import_module(name)
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is missing; CI installs it ({install_command(name)})")
        return False
    return True


# A test that uses one of these fixtures is marked slow (it takes seconds or more): python -m pytest
# -m "not slow" leaves it out. Other slow tests carry @pytest.mark.slow themselves.
SLOW_FIXTURES = {
    "browser": "a page opened in Chromium",
    "client": "a two-worker Dask cluster (tests/integrations/test_dask.py)",
    "dist": "the sdist and the wheel, built (tests/project/test_release.py)",
    "site": "the documentation site, built (tests/project/test_docs_site.py)",
}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES.keys() & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


# Peers whose pinned release (see pyproject's test extra) installs only on newer Pythons.
PEER_PYTHON = {"nervaluate": (3, 11), "ie_eval": (3, 11)}


def peer(name: str) -> ModuleType:
    """Import a peer tool the tests compare with.

    Skipped where the pinned release cannot be installed on this Python; a missing peer otherwise
    fails under CI=true and skips elsewhere.
    """
    python = PEER_PYTHON.get(name)
    if python is not None and sys.version_info < python:
        pytest.skip(f"{name} (as pinned) needs Python {python[0]}.{python[1]}", allow_module_level=True)
    return need(name)


@pytest.fixture(autouse=True)
def _engine_chosen_afresh() -> Iterator[None]:
    """The engine is chosen once a process (`nerve._engine.speedups` is cached): a test that sets
    ``NERVE_NO_SPEEDUPS`` would leave its choice to every later test. Chosen afresh after each."""
    yield
    _engine_module().speedups.cache_clear()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, driven by Playwright (``executable_path`` set to it): the pages' tests."""
    executable = shutil.which("chromium")
    if executable is None:
        missing("chromium (Debian's package)", ".ci/run installs it")
    sync_api = need("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, headless=True)
        yield launched
        launched.close()


@contextmanager
def engine(on: bool) -> Iterator[None]:
    """The compiled engine on or off (``NERVE_NO_SPEEDUPS``) inside the block."""
    old = os.environ.get("NERVE_NO_SPEEDUPS")
    os.environ["NERVE_NO_SPEEDUPS"] = "0" if on else "1"
    _engine_module().speedups.cache_clear()
    try:
        yield
    finally:
        if old is None:
            del os.environ["NERVE_NO_SPEEDUPS"]
        else:
            os.environ["NERVE_NO_SPEEDUPS"] = old
        _engine_module().speedups.cache_clear()


def _engine_module() -> Any:
    """`nerve._engine`, imported when first used (conftest loads before the tests set anything)."""
    from nerve import _engine

    return _engine
