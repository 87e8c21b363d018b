"""The package's layout: layers, import rules, sizes, and old module paths kept for one release."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from nerve._deprecated import MOVED


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_old_path_warns_and_is_the_new_module(old: str, new: str) -> None:
    code = (
        "import importlib, warnings\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        f"    old = importlib.import_module({old!r})\n"
        f"new = importlib.import_module({new!r})\n"
        "assert old is new, (old, new)\n"
        f"assert new.__spec__.name == {new!r}, new.__spec__\n"
        "msgs = [str(x.message) for x in w if issubclass(x.category, DeprecationWarning)]\n"
        "want = ' is deprecated and will be removed in the next release; use '\n"
        f"assert msgs == [{old!r} + want + {new!r}], msgs\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


# --- the import rules and size limits of the layout ------------------------------------------

SRC = Path(__file__).resolve().parents[2] / "src"

# Lowest first: a module imports only from its own layer or lower ones.
LAYERS: list[tuple[str, ...]] = [
    (
        "nerve.errors",
        "nerve.problem",
        "nerve._version",
        "nerve._deprecated",
        "nerve._engine",
        "nerve._frozen",
        "nerve._speedups",
    ),
    ("nerve.model",),
    ("nerve.options",),
    ("nerve.io",),
    ("nerve.plan",),
    ("nerve.tagging",),
    ("nerve.matching",),
    ("nerve.metrics",),
    ("nerve.analysis",),
    ("nerve.results",),
    ("nerve.report",),
    (
        "nerve.api",
        "nerve.streaming",
        "nerve.compiled",
        "nerve.compiled_spans",
        "nerve.compiled_agree",
        "nerve.compiled_agree_flat",
        "nerve.compiled_agree_draws",
        "nerve.compiled_agree_read",
        "nerve.compiled_agree_tasks",
    ),
    ("nerve.cli", "nerve.compat", "nerve.integrations"),
    ("nerve", "nerve.__main__"),
]
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def module_files() -> dict[str, Path]:
    out = {}
    for path in sorted((SRC / "nerve").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = module_files()


def layer_of(module: str) -> int:
    best = (-1, -1)
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                best = max(best, (len(prefix), rank))
    assert best[1] >= 0, f"{module} is in no layer: add it to LAYERS"
    return best[1]


def imports_of(module: str) -> list[tuple[str, list[str], int]]:
    """Every nerve module ``module`` imports (anywhere in it), with the names and the line."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, [], node.lineno) for a in node.names if a.name.split(".")[0] == "nerve"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "nerve":
                continue
            names = [a.name for a in node.names]
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
            found += [(s, [], node.lineno) for s in subs]
            if len(subs) < len(names):
                found.append((target, [n for n in names if f"{target}.{n}" not in MODULES], node.lineno))
    return found


def test_every_import_goes_down_the_layers() -> None:
    wrong = [
        f"{m}:{line} imports {target} (layer {layer_of(target)} above {layer_of(m)})"
        for m in MODULES
        for target, _, line in imports_of(m)
        if layer_of(target) > layer_of(m)
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_circles() -> None:
    graph = {m: {t for t, _, _ in imports_of(m) if t in MODULES and t != m} for m in MODULES}
    # A package imports its own submodules to re-export them; that is not a circle through it.
    for m, targets in graph.items():
        graph[m] = {t for t in targets if not (MODULES[m].name == "__init__.py" and t.startswith(m + "."))}
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                circles.append([*stack[stack.index(t) :], t])
            elif t not in state:
                visit(t, [*stack, t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not circles, "\n".join(" -> ".join(c) for c in circles)


def test_no_private_name_is_imported_from_another_module() -> None:
    wrong = [
        f"{m}:{line} imports {name} from {target}"
        for m in MODULES
        for target, names, line in imports_of(m)
        for name in names
        if name.startswith("_") and not name.startswith("__") and target != m
    ]
    assert not wrong, "\n".join(wrong)


def test_modules_and_functions_stay_small() -> None:
    big = []
    for m, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            big.append(f"{m}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    big.append(f"{m}:{node.lineno} {node.name}: {length} lines")
    assert not big, "\n".join(big)


def test_every_package_says_what_flows_in_and_out() -> None:
    for m, path in MODULES.items():
        if path.name == "__init__.py":
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            assert doc, f"{m} has no docstring"
            assert len(doc.splitlines()) >= 2, f"{m}'s docstring is one line: say what flows in and out"


def test_one_signature_builder() -> None:
    """Every metric family's signature line comes from `nerve.model.signature`."""
    import nerve
    from nerve.metrics.text import score_texts
    from nerve.model.signature import signature

    exact = nerve.score([["B-PER", "O"]], [["B-PER", "O"]])
    text = score_texts([[("PER", "Ada")]], [[("PER", "Ada")]])
    for line in (exact.signature, text.signature):
        assert line.startswith(signature())
    assert text.signature == signature("text", "nerval threshold 0.3", "1 document")
    builders = [m for m, path in MODULES.items() if "signature(" in path.read_text(encoding="utf-8")]
    assert set(builders) >= {"nerve.results", "nerve.metrics.text"}, builders
