"""bench_stream.py --device cuda: without a CUDA device it says so and exits with status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_cuda_mode_without_a_device_exits_2_with_a_reason() -> None:
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, str(ROOT / "bench" / "bench_stream.py"), "--device", "cuda", "--tokens", "1000"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    assert "--device cuda" in done.stderr
    assert "no CUDA device" in done.stderr or "torch is not installed" in done.stderr
    assert done.stdout == ""
