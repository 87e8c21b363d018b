"""One name, one thing: no two modules of nerve define the same public name for different things (issue 26).

``LabelMap``, ``Lines``, ``infer_scheme``, ``slice_table``, ``classify``, ``render``, ``bootstrap``
and ``reading`` each named two unrelated things in two modules, so a reader who met one in an
import could not tell which it was. The exceptions are protocols, where the sameness is the point:
every subcommand module of `nerve.cli` has its ``add_parser`` and ``run``, a command its ``main``,
and the drop-ins of `nerve.compat` spell the functions of the tools they replace.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "nerve"
PROTOCOLS = {"add_parser", "run", "main"}


def definitions() -> dict[str, list[str]]:
    """Each public name defined at the top of a module (function, class), and the modules defining it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                found[node.name].append(module)
    return found


def test_no_public_name_is_defined_twice() -> None:
    twice = {
        name: modules
        for name, modules in definitions().items()
        if len(modules) > 1
        and name not in PROTOCOLS
        and not all(m.startswith("nerve.compat.") for m in modules)  # the peers' own names
    }
    assert twice == {}
