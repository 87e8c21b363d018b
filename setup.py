"""Builds nerve's optional C extension, `nerve._speedups`; everything else is in pyproject.toml.

The extension is compiled against the stable ABI (3.10), so one wheel serves every Python nerve names.
Without a compiler the build warns and the install goes on with the numpy engine, unless
``NERVE_REQUIRE_SPEEDUPS=1`` (or cibuildwheel's ``CIBUILDWHEEL=1``) asks for it: then a failed build
is an error.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
REQUIRED = os.environ.get("NERVE_REQUIRE_SPEEDUPS") == "1" or os.environ.get("CIBUILDWHEEL") == "1"
SOURCES = sorted(p.relative_to(HERE).as_posix() for p in (HERE / "csrc").glob("*.c"))

setup(
    ext_modules=[
        Extension(
            "nerve._speedups",
            sources=SOURCES,
            depends=sorted(p.relative_to(HERE).as_posix() for p in (HERE / "csrc").glob("*.h")),
            define_macros=[("Py_LIMITED_API", "0x030A0000")],
            py_limited_api=True,
            optional=not REQUIRED,
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
