"""The release artifacts: the sdist and the wheel build, pass twine check, hold what nerve needs, and
the wheel installs into a fresh virtual environment where ``nerve score examples/news.conll`` prints
what the checkout prints.

Everything runs offline: the backend is built without isolation (setuptools from the test extra), and
the fresh environment gets nerve from the wheel alone (``--no-deps --no-index``) and its run-time
dependencies, read from the wheel's own metadata with theirs, linked from this environment; other
packages of this environment stay out of its sight.
"""

from __future__ import annotations

import email.parser
import importlib.metadata
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import nerve
from conftest import peer

ROOT = Path(__file__).resolve().parents[2]
# The extras that `all` leaves out: for developers, or itself.
RUNTIME_ONLY_NOT = {"all", "test", "test-torch", "bench", "docs"}


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    assert proc.returncode == 0, f"{args}: {proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Build the sdist, then the wheel from the sdist (build's default), as a release would."""
    for tool in ("build", "setuptools", "twine"):
        peer(tool)
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)])
    (sdist,) = out.glob("nerve-*.tar.gz")
    (wheel,) = out.glob("nerve-*.whl")
    return {"sdist": sdist, "wheel": wheel}


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))


def test_twine_check_passes(dist: dict[str, Path]) -> None:
    proc = _run([sys.executable, "-m", "twine", "check", "--strict", str(dist["sdist"]), str(dist["wheel"])])
    assert proc.stdout.count("PASSED") == 2, proc.stdout


def test_wheel_holds_the_package_and_its_data_and_nothing_else(dist: dict[str, Path]) -> None:
    package = ROOT / "src"
    want = {
        p.relative_to(package).as_posix()
        for p in (package / "nerve").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert {"nerve/py.typed", "nerve/report/templates/report.html.j2"} <= want
    with zipfile.ZipFile(dist["wheel"]) as archive:
        names = archive.namelist()
    got = {n for n in names if ".dist-info/" not in n}
    assert got == want
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    with zipfile.ZipFile(dist["wheel"]) as archive:
        (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        assert "nerve = nerve.cli:main" in archive.read(entry_points).decode()


def test_sdist_holds_every_tracked_file(dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as archive:
        top = f"nerve-{nerve.__version__}/"
        names = {m.name.removeprefix(top) for m in archive.getmembers() if m.isfile()}
    for needed in ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "examples/news.conll"):
        assert needed in names, needed
    assert "tests/project/test_release.py" in names
    proc = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if proc.returncode != 0:  # an unpacked sdist, or no git: the archive itself was checked above
        return
    tracked = {line for line in proc.stdout.splitlines() if (ROOT / line).is_file()}
    assert tracked - names == set()


def test_the_version_is_written_in_one_place(dist: dict[str, Path]) -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = pyproject.split("[project]", 1)[1].split("\n[", 1)[0]
    assert 'dynamic = ["version"]' in project
    assert not re.search(r"^version\s*=", project, flags=re.M)
    dynamic = r'^\[tool\.setuptools\.dynamic\]\nversion = \{ attr = "nerve\._version\.__version__" \}'
    assert re.search(dynamic, pyproject, flags=re.M)
    assigned = [
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "src").rglob("*.py")
        if re.search(r"^__version__\s*=", p.read_text(encoding="utf-8"), flags=re.M)
    ]
    assert assigned == ["src/nerve/_version.py"]
    assert _metadata(dist["wheel"])["Version"] == nerve.__version__
    assert dist["wheel"].name.startswith(f"nerve-{nerve.__version__}-")


def _extras(wheel: Path) -> dict[str, set[str]]:
    """Each extra of the wheel's metadata with its requirements, less the ``extra == ...`` marker.

    An extra that names nerve's own (``nerve[torch,dask]``, as ``all`` does) is expanded into theirs.
    """
    out: dict[str, set[str]] = {name: set() for name in _metadata(wheel).get_all("Provides-Extra") or []}
    for line in _metadata(wheel).get_all("Requires-Dist") or []:
        match = re.search(r"""(;\s*| and )extra == ['"]([^'"]+)['"]$""", line)
        if match is not None:
            out[match.group(2)].add(line[: match.start()])
    for reqs in out.values():
        for own in [r for r in reqs if r.startswith("nerve[")]:
            reqs.discard(own)
            for name in own.removeprefix("nerve[").removesuffix("]").split(","):
                reqs.update(out[name.strip()])
    return out


def test_the_all_extra_is_every_run_time_extra(dist: dict[str, Path]) -> None:
    extras = _extras(dist["wheel"])
    assert {"torch", "dask", "report", "spacy", "hf", "all", "test", "test-torch"} <= set(extras)
    runtime = set().union(*(reqs for name, reqs in extras.items() if name not in RUNTIME_ONLY_NOT))
    assert extras["all"] == runtime
    assert {"torch>=2.1", "dask>=2024.1", "distributed>=2024.1", "jinja2>=3.1"} <= extras["all"]


def _closure(requirements: list[str]) -> list[importlib.metadata.Distribution]:
    """The installed distributions that satisfy `requirements` (no extras), with theirs."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [(Requirement(r), "") for r in requirements]
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        key = canonicalize_name(req.name)
        if key in found:
            continue
        dist = importlib.metadata.distribution(req.name)
        assert req.specifier.contains(dist.version, prereleases=True), (str(req), dist.version)
        found[key] = dist
        for extra_name in ["", *req.extras]:
            todo.extend((Requirement(r), extra_name) for r in dist.requires or [])
    return list(found.values())


def _link_dependencies(wheel: Path, into: Path) -> None:
    """Link the top-level files of the wheel's run-time dependencies into `into`."""
    into.mkdir()
    runtime = [r for r in _metadata(wheel).get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert runtime, "the wheel declares no run-time dependencies"
    for dist in _closure(runtime):
        assert dist.files is not None, f"{dist.metadata['Name']} has no RECORD"
        tops = {f.parts[0] for f in dist.files if f.parts[0] not in ("..", "__pycache__")}
        for top in tops:
            target = Path(str(dist.locate_file(top)))
            if target.exists() and not (into / top).exists():
                (into / top).symlink_to(target)


def test_the_wheel_installs_into_a_fresh_venv_and_scores(dist: dict[str, Path], tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = str(bindir / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PYTHONNOUSERSITE"] = "1"
    # This environment's pip installs into the fresh one (pip >= 22.3), which saves running ensurepip.
    pip = [sys.executable, "-m", "pip", "--python", python, "--disable-pip-version-check", "--no-cache-dir"]
    _run([*pip, "install", "--no-deps", "--no-index", str(dist["wheel"])], env=env)
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], env=env)
    deps = tmp_path / "deps"
    _link_dependencies(dist["wheel"], deps)
    (Path(purelib.stdout.strip()) / "nerve_test_deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    _run([*pip, "check"], env=env)

    work = tmp_path / "work"
    (work / "examples").mkdir(parents=True)
    (work / "examples" / "news.conll").write_bytes((ROOT / "examples" / "news.conll").read_bytes())
    where = _run([python, "-c", "import nerve; print(nerve.__file__)"], cwd=work, env=env)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout
    installed = _run([str(bindir / "nerve"), "score", "examples/news.conll"], cwd=work, env=env)
    in_tree = _run([sys.executable, "-m", "nerve", "score", "examples/news.conll"], cwd=ROOT)
    assert installed.stdout == in_tree.stdout
    assert installed.stdout.startswith(f"nerve {nerve.__version__} | ")
