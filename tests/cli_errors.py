"""The one line of a user error: ``nerve ARGS`` run in-process, and a file that cannot be opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from nerve.cli import main


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``nerve ARGS``, which must fail with status 2 and one line on stderr; return that line."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def refuse_to_open(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """Make ``open(path)`` raise PermissionError, as for a file without read permission (the
    tests may run as root, who can read anything)."""
    import builtins

    real_open = builtins.open

    def fake_open(file: object, *args: object, **kwargs: object) -> object:
        if isinstance(file, (str, Path)) and str(file) == path:
            raise PermissionError(13, "Permission denied", path)
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", fake_open)
