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
import shutil
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
# The compiled engine's file, whatever a build in place left in src/ (checked apart, in the wheel).
COMPILED = {".so", ".pyd"}


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
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in COMPILED
    }
    assert {"nerve/py.typed", "nerve/report/templates/report.html.j2"} <= want
    with zipfile.ZipFile(dist["wheel"]) as archive:
        names = archive.namelist()
    got = {n for n in names if ".dist-info/" not in n and Path(n).suffix not in COMPILED}
    assert got == want
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    with zipfile.ZipFile(dist["wheel"]) as archive:
        (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        assert "nerve = nerve.cli:console" in archive.read(entry_points).decode()


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


def _fresh_venv(python: str, wheel: Path, where: Path) -> tuple[Path, dict[str, str]]:
    """A fresh virtual environment of `python` with the wheel alone installed: its bin folder and env."""
    venv = where / "venv"
    _run([python, "-m", "venv", "--without-pip", str(venv)])
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.pop("NERVE_NO_SPEEDUPS", None)
    env["PYTHONNOUSERSITE"] = "1"
    _run([*_pip(bindir), "install", "--no-deps", "--no-index", str(wheel)], env=env)
    where_ = _run([str(bindir / "python"), "-c", "import nerve; print(nerve.__file__)"], cwd=where, env=env)
    assert Path(where_.stdout.strip()).is_relative_to(venv), where_.stdout
    return bindir, env


def _pip(bindir: Path) -> list[str]:
    """This environment's pip, installing into the one of `bindir` (pip >= 22.3): no ensurepip there."""
    python = str(bindir / "python")
    return [sys.executable, "-m", "pip", "--python", python, "--disable-pip-version-check", "--no-cache-dir"]


def _site_packages(bindir: Path, env: dict[str, str]) -> Path:
    code = "import sysconfig; print(sysconfig.get_path('purelib'))"
    return Path(_run([str(bindir / "python"), "-c", code], env=env).stdout.strip())


def _with_examples(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / "examples").mkdir(parents=True)
    (work / "examples" / "news.conll").write_bytes((ROOT / "examples" / "news.conll").read_bytes())
    return work


def test_the_wheel_installs_into_a_fresh_venv_and_scores(dist: dict[str, Path], tmp_path: Path) -> None:
    bindir, env = _fresh_venv(sys.executable, dist["wheel"], tmp_path)
    deps = tmp_path / "deps"
    _link_dependencies(dist["wheel"], deps)
    (_site_packages(bindir, env) / "nerve_test_deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    _run([*_pip(bindir), "check"], env=env)

    work = _with_examples(tmp_path)
    installed = _run([str(bindir / "nerve"), "score", "examples/news.conll"], cwd=work, env=env)
    in_tree = _run([sys.executable, "-m", "nerve", "score", "examples/news.conll"], cwd=ROOT)
    assert installed.stdout == in_tree.stdout
    assert installed.stdout.startswith(f"nerve {nerve.__version__} | ")


def test_the_wheel_is_one_cp310_abi3_wheel_with_the_compiled_engine(dist: dict[str, Path]) -> None:
    """One wheel serves every Python from 3.10 on: tagged cp310-abi3, with the stable-ABI extension."""
    tag = re.fullmatch(rf"nerve-{re.escape(nerve.__version__)}-(cp310-abi3-\w+)\.whl", dist["wheel"].name)
    assert tag is not None, dist["wheel"].name
    with zipfile.ZipFile(dist["wheel"]) as archive:
        names = archive.namelist()
        (wheel_file,) = [n for n in names if n.endswith(".dist-info/WHEEL")]
        wheel_meta = email.parser.Parser().parsestr(archive.read(wheel_file).decode("utf-8"))
    assert [n for n in names if Path(n).suffix in COMPILED] == [
        "nerve/_speedups.pyd" if os.name == "nt" else "nerve/_speedups.abi3.so"
    ]
    assert wheel_meta.get_all("Tag") == [tag.group(1)]
    assert wheel_meta["Root-Is-Purelib"] == "false"


# The Pythons nerve names (requires-python >= 3.10), each looked for on this machine.
MINORS = (10, 11, 12, 13, 14)


def _interpreters(minor: int) -> list[str]:
    """The interpreters of Python 3.`minor` here: in each folder of PATH and pyenv's, one per real executable.

    A pyenv shim of a version that is not selected fails to run, and a free-threaded build is not
    for abi3 wheels: both are left out.
    """
    name = f"python3.{minor}"
    candidates = [sys.executable, *(shutil.which(name, path=folder) for folder in os.get_exec_path())]
    pyenv = shutil.which("pyenv")
    if pyenv is not None:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True, check=False).stdout.strip()
        if root:
            candidates += sorted(str(p) for p in Path(root).glob(f"versions/3.{minor}.*/bin/{name}"))
    probe = (
        "import os, sys, sysconfig; "
        f"ok = sys.version_info[:2] == (3, {minor}) and not sysconfig.get_config_var('Py_GIL_DISABLED'); "
        "print(ok, os.path.realpath(sys._base_executable))"
    )
    found: dict[str, str] = {}
    for candidate in filter(None, candidates):
        proc = subprocess.run([candidate, "-c", probe], capture_output=True, text=True, check=False)
        ok, _, real = proc.stdout.strip().partition(" ")
        if proc.returncode == 0 and ok == "True":
            found.setdefault(real, candidate)
    return sorted(found.values())


def _dependencies_for(python: str, wheel: Path, bindir: Path, env: dict[str, str], tmp_path: Path) -> None:
    """The wheel's run-time dependencies in its fresh environment.

    This environment's are linked in where `python` is of the same version; else pip installs their
    binary wheels from the configured index (where it cannot, the test skips, and fails under CI=true).
    """
    same = _run([python, "-c", f"import sys; print(sys.version_info[:2] == {sys.version_info[:2]!r})"])
    if same.stdout.strip() == "True":
        deps = tmp_path / "deps"
        _link_dependencies(wheel, deps)
        (_site_packages(bindir, env) / "nerve_test_deps.pth").write_text(f"{deps}\n", encoding="utf-8")
        return
    runtime = [r for r in _metadata(wheel).get_all("Requires-Dist") or [] if "extra ==" not in r]
    proc = subprocess.run(
        [*_pip(bindir), "install", "--only-binary", ":all:", *runtime],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        reason = f"{python}: pip cannot install nerve's dependencies: {proc.stderr.strip()[-300:]}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.mark.slow
@pytest.mark.parametrize("minor", MINORS, ids=[f"3.{m}" for m in MINORS])
def test_the_wheel_loads_and_scores_on_every_python_installed(
    dist: dict[str, Path], tmp_path: Path, minor: int
) -> None:
    """The abi3 wheel, built on this Python, loads its compiled engine on each other one and scores alike."""
    pythons = _interpreters(minor)
    if not pythons:
        pytest.skip(f"no Python 3.{minor} on this machine (looked on PATH and in pyenv's versions)")
    work = _with_examples(tmp_path)
    in_tree = _run([sys.executable, "-m", "nerve", "score", "examples/news.conll"], cwd=ROOT).stdout
    for i, python in enumerate(pythons):
        where = tmp_path / str(i)
        where.mkdir()
        bindir, env = _fresh_venv(python, dist["wheel"], where)
        _dependencies_for(python, dist["wheel"], bindir, env, where)
        smoke = [str(bindir / "python"), str(ROOT / "tests/project/wheel_smoke.py"), "examples/news.conll"]
        version, _, scored = _run(smoke, cwd=work, env=env).stdout.partition("\n")
        assert version == f"nerve {nerve.__version__} (speedups: C)", python
        assert scored == in_tree, python
        engine = "import nerve._speedups as s; print(s.__file__, hex(s.abi()))"
        loaded = _run([str(bindir / "python"), "-c", engine], cwd=work, env=env).stdout.split()
        assert Path(loaded[0]).is_relative_to(bindir.parent), (python, loaded)
        assert loaded[1] == "0x30a0000", (python, loaded)
        print(f"Python 3.{minor}: {python} loads the wheel's compiled engine and scores alike")
