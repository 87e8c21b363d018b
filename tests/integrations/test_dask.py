"""Scoring on Dask: two worker processes on loopback give what one process gives, signature included.

The single-process references are `nerve.score` of a gold and a prediction directory (the files read
one after another, each a document) and `nerve.score_text` of two directories of BIO files, on the
real corpora of ../shared/data. Dask and distributed skip locally when missing and fail under CI=true.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import nerve
from conftest import peer, shared_data_dir
from nerve.cli import main
from nerve.errors import InputError, InvalidSequenceError, NerveError, OptionError

distributed = peer("distributed")
dask_bag = peer("dask.bag")

# Under mutation testing (mutmut sets MUTANT_UNDER_TEST) these tests start clusters whose worker
# processes outlive a mutant's timeout; the mutated code is reached by the other tests.
pytestmark = pytest.mark.skipif(
    bool(os.environ.get("MUTANT_UNDER_TEST")), reason="Dask clusters are left out of mutation runs"
)

from nerve.integrations import dask as nd  # noqa: E402 (after the skip)

ROOT = Path(__file__).resolve().parents[2]
Doc = tuple[list[list[str]], list[list[str]]]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    kw: dict[str, Any] = {"threads_per_worker": 1, "host": "127.0.0.1", "dashboard_address": None}
    with (
        distributed.LocalCluster(n_workers=2, processes=True, **kw) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


def sentences(path: Path) -> list[list[list[str]]]:
    """A merged file's sentences as rows of columns."""
    out: list[list[list[str]]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out[-1].append(line.split())
        elif out[-1]:
            out.append([])
    return [s for s in out if s]


def write_sides(rows: list[list[list[str]]], gold: Path, pred: Path) -> None:
    """Split merged sentences into a gold (token, tag) and a prediction (token, tag) file."""
    for path, column in ((gold, -2), (pred, -1)):
        text = "\n\n".join("\n".join(f"{r[0]} {r[column]}" for r in s) for s in rows)
        path.write_text(text + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], Path, Path]:
    """Real merged files (GermEval 2014 systems, CoNLL-2000 chunks), and split into two directories."""
    data = shared_data_dir()
    merged = sorted((data / "germeval2014" / "merged").glob("*.gold-pred.txt"))[:3]
    merged.append(data / "conll2000-chunking" / "output.txt")
    base = tmp_path_factory.mktemp("corpus")
    (base / "gold").mkdir()
    (base / "pred").mkdir()
    for i, path in enumerate(merged):
        name = f"{i:02d}.conll"
        write_sides(sentences(path), base / "gold" / name, base / "pred" / name)
    return merged, base / "gold", base / "pred"


SETTINGS: list[dict[str, Any]] = [
    {},
    {"metrics": "exact,muc", "document_average": True},
    {"repair": "discard"},
    {"scheme": "IOB1", "beta": 0.5},
    {"label_map": {"OTH": "MISC"}, "ignore_types": "NP"},
    {"metrics": "exact,muc", "matching": "greedy", "min_iou": 0.5},
]


@pytest.mark.parametrize("settings", SETTINGS, ids=repr)
def test_files_on_two_workers_score_as_one_process(
    client: Any, corpus: tuple[list[Path], Path, Path], settings: dict[str, Any]
) -> None:
    merged, gold, pred = corpus
    reference = nerve.score(gold, pred, **settings)
    assert reference.documents == len(merged)
    for got in (
        nd.score_files([str(p) for p in merged], client=client, **settings),
        nd.score_files(str(gold), str(pred), client=client, **settings),
    ):
        assert got == reference
        assert got.to_dict() == reference.to_dict()
        assert got.signature == reference.signature


def test_the_error_policy_raises_the_same_problems(
    client: Any, corpus: tuple[list[Path], Path, Path]
) -> None:
    _, gold, pred = corpus
    with pytest.raises(InvalidSequenceError) as one:
        nerve.score(gold, pred, repair="error")
    with pytest.raises(InvalidSequenceError) as dask:
        nd.score_files(gold, pred, client=client, repair="error")
    assert dask.value.problems == one.value.problems
    assert str(dask.value) == str(one.value)


def test_one_scheme_is_inferred_from_every_shard(client: Any, tmp_path: Path) -> None:
    """One shard alone reads as IOB2, the other as IOB1: together they read as one corpus does."""
    (tmp_path / "g").mkdir()
    (tmp_path / "p").mkdir()
    shards = {"a": ["B-PER I-PER O B-LOC", "B-PER O O O"], "b": ["I-PER I-PER B-PER O", "I-LOC O I-PER O"]}
    for name, (g, p) in shards.items():
        for side, tags in (("g", g), ("p", p)):
            lines = [f"w{i} {t}" for i, t in enumerate(tags.split())]
            (tmp_path / side / f"{name}.conll").write_text("\n".join(lines) + "\n", encoding="utf-8")
    apart = [nerve.score(tmp_path / "g" / f"{n}.conll", tmp_path / "p" / f"{n}.conll") for n in "ab"]
    assert [r.settings.scheme for r in apart] == ["IOB2", "IOB1"]
    with pytest.raises(NerveError, match="different settings"):
        apart[0].merge(apart[1])  # results scored apart do not add up
    reference = nerve.score(tmp_path / "g", tmp_path / "p")
    got = nd.score_files(tmp_path / "g", tmp_path / "p", client=client)
    assert got == reference
    assert got.signature == reference.signature
    assert got.repairs.total == 3  # the I- after O of the second shard, repaired under IOB2


def documents(corpus: tuple[list[Path], Path, Path], tmp_path: Path, n: int) -> tuple[list[Doc], Path, Path]:
    """Documents of 40 sentences of a real file, and the same as one file each in two directories."""
    rows = sentences(corpus[0][0])[: 40 * n]
    docs: list[Doc] = []
    for d in range(n):
        part = rows[40 * d : 40 * (d + 1)]
        docs.append(([[r[-2] for r in s] for s in part], [[r[-1] for r in s] for s in part]))
        for side in ("g", "p"):
            (tmp_path / side).mkdir(exist_ok=True)
        write_sides(part, tmp_path / "g" / f"{d:03d}.conll", tmp_path / "p" / f"{d:03d}.conll")
    return docs, tmp_path / "g", tmp_path / "p"


def test_a_bag_and_a_dataframe_of_documents(
    client: Any, corpus: tuple[list[Path], Path, Path], tmp_path: Path
) -> None:
    import pandas as pd

    dask = peer("dask")
    dd = peer("dask.dataframe")
    docs, gold, pred = documents(corpus, tmp_path, 30)
    settings = {"metrics": "exact,muc", "document_average": True}
    reference = nerve.score(gold, pred, **settings)
    assert reference.documents == 30
    got = nd.score_bag(dask_bag.from_sequence(docs, npartitions=4), client=client, **settings)
    assert got == reference
    assert got.signature == reference.signature
    frame = pd.DataFrame({"g": [d[0] for d in docs], "p": [d[1] for d in docs]})
    with dask.config.set({"dataframe.convert-string": False}):  # else Dask makes the lists strings
        lists = dd.from_pandas(frame, npartitions=3)
    got = nd.score_dataframe(lists, "g", "p", client=client, **settings)
    assert got == reference
    with pytest.raises(InputError, match="got a string"):
        nd.score_dataframe(dd.from_pandas(frame, npartitions=3), "g", "p", client=client)
    with pytest.raises(OptionError, match=r"^gold: is not a column"):
        nd.score_dataframe(dd.from_pandas(frame, npartitions=3), client=client)


def kill_once(marker: str) -> Callable[[Doc], Doc]:
    """A map that kills its worker process the first time it runs anywhere (nested: pickled by value)."""

    def step(doc: Doc) -> Doc:
        if not os.path.exists(marker):
            Path(marker).touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return doc

    return step


def test_a_worker_killed_mid_run_is_survived(
    client: Any, corpus: tuple[list[Path], Path, Path], tmp_path: Path
) -> None:
    docs, gold, pred = documents(corpus, tmp_path, 12)
    reference = nerve.score(gold, pred)
    marker = tmp_path / "killed"
    bag = dask_bag.from_sequence(docs, npartitions=4).map(kill_once(str(marker)))
    got = nd.score_bag(bag, client=client)
    assert marker.exists()  # a worker did die
    assert got == reference
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it for the next tests


def bad_shards(corpus: tuple[list[Path], Path, Path], tmp_path: Path, bad: tuple[int, ...]) -> list[Path]:
    """Copies of the merged files, those in ``bad`` with a one-column line at line 101."""
    out = []
    for i, path in enumerate(corpus[0][:3]):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        if i in bad:
            lines.insert(100, "oops\n")
        (tmp_path / f"{i}.conll").write_text("".join(lines), encoding="utf-8")
        out.append(tmp_path / f"{i}.conll")
    return out


def test_a_bad_shard_fails_the_run_with_its_file_and_line(
    client: Any, corpus: tuple[list[Path], Path, Path], tmp_path: Path
) -> None:
    shards = bad_shards(corpus, tmp_path, (1, 2))
    with pytest.raises(InputError) as one:
        nerve.score(shards[1])
    with pytest.raises(InputError) as dask:
        nd.score_files(str(tmp_path / "*.conll"), client=client)
    assert (dask.value.source, dask.value.line) == (str(shards[1]), 101)  # the first bad one in file order
    assert str(dask.value) == str(one.value)
    assert dask.value.__cause__ is None


def test_the_cli_prints_the_workers_error_as_one_line(
    client: Any, corpus: tuple[list[Path], Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    address = client.scheduler.address
    shards = bad_shards(corpus, tmp_path, ())
    assert main(["score", str(tmp_path / "*.conll"), "--dask", address, "--output", "json"]) == 0
    whole = capsys.readouterr().out
    assert main(["score", str(tmp_path / "*.conll"), "--dask", "local:1", "--output", "json"]) == 0
    assert capsys.readouterr().out == whole  # a cluster of its own, started and stopped
    assert main(["score", str(shards[0]), "--output", "json"]) == 0
    assert capsys.readouterr().out != whole  # the glob read every shard, not the first
    shards = bad_shards(corpus, tmp_path, (2,))
    assert main(["score", str(tmp_path / "*.conll"), "--dask", address]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no partial score
    assert err == f"nerve: error: {shards[2]}:101: expected 3 columns as on line 1, found 1: 'oops'\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dask", "local:zero"], "--dask: expected local:N"),
        (["--dask", "127.0.0.1:8786"], "--dask: expected tcp://HOST:PORT or local:N"),
        (["--dask", "local:2", "--errors"], "--errors: --dask counts exact and muc"),
        (["--dask", "local:2", "--seed", "3"], "--seed: --dask counts exact and muc"),
        (["--dask", "local:2", "--flatten", "first"], "--flatten: --dask counts exact and muc"),
        (["--dask", "local:2", "--lenient"], "--lenient: --dask counts exact and muc"),
        (["--dask", "local:2", "--repair", "conlleval"], "--repair: conlleval's rules carry state"),
    ],
)
def test_cli_mistakes_are_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(ROOT / "examples" / "news.conll"), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nerve: error: {message}")
    assert err.count("\n") == 1


def test_text_metrics_merge_as_one_process(client: Any, tmp_path: Path) -> None:
    rows = sentences(
        shared_data_dir()
        / "germeval2014"
        / "merged"
        / "germaner_trained_with_germeval_tested_on_germeval.gold-pred.txt"
    )
    pairs = []
    for side in ("labels", "predictions"):
        (tmp_path / side).mkdir()
    for d in range(20):
        part = rows[30 * d : 30 * (d + 1)]
        for side, column in (("labels", -2), ("predictions", -1)):
            text = "".join(f"{r[0]} {r[column]}\n" for s in part for r in s)
            (tmp_path / side / f"{d:03d}.bio").write_text(text, encoding="utf-8")
        pairs.append(
            (str(tmp_path / "labels" / f"{d:03d}.bio"), str(tmp_path / "predictions" / f"{d:03d}.bio"))
        )
    reference = nerve.score_text(tmp_path / "labels", tmp_path / "predictions")
    got = nd.score_text_files(pairs, client=client)
    assert got.to_dict() == reference.to_dict()
    assert got.signature == reference.signature
    got = nd.score_text_files(tmp_path / "labels", tmp_path / "predictions", pattern="*.bio", client=client)
    assert got.to_dict() == reference.to_dict()


def test_a_bag_refuses_discard_without_a_scheme(client: Any) -> None:
    with pytest.raises(OptionError, match=r"^scheme: the discard policy"):
        nd.score_bag(dask_bag.from_sequence([]), client=client, repair="discard")


def test_plain_score_does_not_import_dask() -> None:
    code = (
        "import sys, io, contextlib, nerve.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert nerve.cli.main(['score', 'examples/news.conll']) == 0\n"
        "heavy = ('dask', 'distributed', 'nerve.integrations')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_expand_names_what_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "b.conll").write_text("w O O\n", encoding="utf-8")
    (tmp_path / "a.conll").write_text("w O O\n", encoding="utf-8")
    (tmp_path / "sub.conll").mkdir()
    files = [str(tmp_path / "a.conll"), str(tmp_path / "b.conll")]
    assert nd.expand(str(tmp_path / "*.conll")) == [(f, None) for f in files]  # sorted, no directory
    assert nd.expand([files[1], (files[0], files[1])]) == [(files[1], None), (files[0], files[1])]
    with pytest.raises(InputError, match=r"\*\.txt: matches no file"):
        nd.expand(str(tmp_path / "*.txt"))
    with pytest.raises(InputError, match="is a directory"):
        nd.expand([str(tmp_path)])
    with pytest.raises(OptionError, match="applies to two directories"):
        nd.expand(str(tmp_path / "*.conll"), pattern="*.txt")


def test_progress_counts_every_task(
    client: Any, corpus: tuple[list[Path], Path, Path], tmp_path: Path
) -> None:
    merged = [str(p) for p in corpus[0]]
    for settings, tasks in (
        ({}, len(merged)),
        ({"repair": "discard"}, 2 * len(merged)),
    ):  # discard: two passes
        calls: list[tuple[int, int]] = []
        got = nd.score_files(
            merged, client=client, progress=lambda d, t, c=calls: c.append((d, t)), **settings
        )
        assert got == nd.score_files(merged, client=client, **settings)
        assert calls == [(done, tasks) for done in range(tasks + 1)]
    docs, _, _ = documents(corpus, tmp_path, 8)
    calls = []
    nd.score_bag(
        dask_bag.from_sequence(docs, npartitions=3), client=client, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(done, 3) for done in range(4)]


def test_the_cli_draws_a_bar_of_tasks_on_a_terminal(
    client: Any, corpus: tuple[list[Path], Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    pytest.importorskip("tqdm")
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    gold, pred = corpus[1], corpus[2]
    for stream in (Terminal(), io.StringIO()):
        monkeypatch.setattr(sys, "stderr", stream)
        assert main(["score", str(gold), str(pred), "--dask", client.scheduler.address, "-o", "json"]) == 0
        # tqdm redraws at most every 0.1 s, so a fast run may never show 100 %: check its unit and a %
        assert ("tasks/s" in stream.getvalue() and "%" in stream.getvalue()) is stream.isatty()
    capsys.readouterr()


@pytest.mark.slow
def test_local_workers_start_without_distributeds_malloc_trim() -> None:
    """distributed sets MALLOC_TRIM_THRESHOLD_=65536 for workers, which made counting 2.4 times slower."""
    dask_config = peer("dask.config")
    assert "MALLOC_TRIM_THRESHOLD_" in dask_config.get("distributed.nanny.pre-spawn-environ")
    assert "MALLOC_TRIM_THRESHOLD_" not in nd.worker_environ()
    assert nd.worker_environ()["OMP_NUM_THREADS"] == 1  # the rest is kept
    with nd.connect("local:1") as client:
        (found,) = client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_")).values()
        assert found == os.environ.get("MALLOC_TRIM_THRESHOLD_")  # only what this process had, if any
        (omp,) = client.run(lambda: os.environ.get("OMP_NUM_THREADS")).values()
        assert omp == "1"
    assert "MALLOC_TRIM_THRESHOLD_" in dask_config.get("distributed.nanny.pre-spawn-environ")  # restored


def test_workers_count_on_the_c_engine(client: Any) -> None:
    """Each worker counts its files in C (`nerve.api.compiled.compiled_counts`), as plain scoring does."""
    from nerve._engine import engine

    expected = engine()  # "C" where it is built (CI builds it), "none" under NERVE_NO_SPEEDUPS=1
    assert set(client.run(engine).values()) == {expected}
