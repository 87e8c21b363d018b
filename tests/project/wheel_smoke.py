"""The check that every built wheel passes (cibuildwheel's test-command; and tests/project/test_release.py).

Run with the Python that has the wheel installed: ``python smoke.py FILE``. It asks ``nerve
--version`` for the engine, which must be the compiled one (``(speedups: C)``), and scores FILE
with each engine (the numpy one through ``NERVE_NO_SPEEDUPS=1``): both must print the same.
It uses the standard library only, so that it runs on any platform a wheel is built for.
"""

from __future__ import annotations

import os
import subprocess
import sys


def nerve(*args: str, numpy_engine: bool = False) -> str:
    env = dict(os.environ)
    env.pop("NERVE_NO_SPEEDUPS", None)
    if numpy_engine:
        env["NERVE_NO_SPEEDUPS"] = "1"
    proc = subprocess.run(
        [sys.executable, "-m", "nerve", *args], capture_output=True, text=True, env=env, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"nerve {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def main(path: str) -> None:
    version = nerve("--version").strip()
    if not version.endswith("(speedups: C)"):
        raise SystemExit(f"the wheel's nerve does not use its compiled engine: {version!r}")
    compiled, numpy = nerve("score", path), nerve("score", path, numpy_engine=True)
    if compiled != numpy:
        raise SystemExit(f"the engines disagree on {path}:\n--- C\n{compiled}--- numpy\n{numpy}")
    print(version)
    print(compiled, end="")


if __name__ == "__main__":
    main(sys.argv[1])
