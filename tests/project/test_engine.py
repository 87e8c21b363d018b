"""The engine switch: the compiled engine where it is built, the numpy one where it is not or where
``NERVE_NO_SPEEDUPS=1`` asks for it, and ``nerve --version`` naming the one in use as its last word."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import nerve
from nerve import _engine


def _version(**env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "NERVE_NO_SPEEDUPS"} | env
    proc = subprocess.run(
        [sys.executable, "-m", "nerve", "--version"], capture_output=True, text=True, check=True, env=environ
    )
    return proc.stdout.strip()


def _built() -> bool:
    try:
        import nerve._speedups  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "nerve._speedups is not built; CI builds it (NERVE_REQUIRE_SPEEDUPS=1 pip install -e .)"
            )
        return False
    return True


def test_version_names_the_compiled_engine_where_it_is_built() -> None:
    word = "C" if _built() else "none"
    assert _version() == f"nerve {nerve.__version__} (speedups: {word})"


@pytest.mark.parametrize("value", ["1", "yes"])
def test_no_speedups_turns_the_compiled_engine_off(value: str) -> None:
    assert _version(NERVE_NO_SPEEDUPS=value) == f"nerve {nerve.__version__} (speedups: none)"


def test_no_speedups_zero_or_empty_keeps_it_on() -> None:
    word = "C" if _built() else "none"
    assert (
        _version(NERVE_NO_SPEEDUPS="0")
        == _version(NERVE_NO_SPEEDUPS="")
        == f"nerve {nerve.__version__} (speedups: {word})"
    )


def test_the_extension_is_built_against_the_stable_abi() -> None:
    if not _built():
        pytest.skip("nerve._speedups is not built here")
    module = _engine.speedups()
    assert module is not None
    assert module.abi() == 0x030A0000
    assert module.__file__ is not None
    assert module.__file__.endswith(".abi3.so")
