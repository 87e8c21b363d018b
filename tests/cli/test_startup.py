"""What the ``nerve`` command imports to start: no numpy for ``--version``, ``score --help`` and a run
the compiled engine counts, and no nerve module a plain ``nerve score FILE`` does not need.

Each test runs the command in a fresh interpreter (`imported`), which then lists the nerve modules
loaded and whether numpy is one. The lists below pin them: a new eager import fails here, and a
module that no longer loads is taken off the list.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import nerve
from conftest import need
from nerve import results

SRC = str(Path(nerve.__file__).resolve().parents[1])
ROOT = Path(SRC).parent
NEWS = str(ROOT / "examples" / "news.conll")

# Run the command, then print (as the last line of stderr) the nerve modules and numpy's presence.
# ``FAKE``, when set, names a pickle of what the compiled reader returns: the run takes the compiled
# engine's road (`nerve.compiled`) with a reader that returns those totals, built or not.
SCRIPT = """
import atexit, os, sys

def _report():
    names = sorted(m for m in sys.modules if m.split(".")[0] == "nerve")
    found = {"nerve": names, "numpy": "numpy" in sys.modules, "typing": "typing" in sys.modules}
    heavy = ("csv", "dataclasses", "inspect", "json", "shutil", "threading", "typing")
    found["stdlib"] = sorted(m for m in heavy if m in sys.modules)
    import json  # only now: the command's own imports are listed without it

    sys.stderr.write("\\n" + json.dumps(found) + "\\n")

atexit.register(_report)
if os.environ.get("FAKE"):
    import pickle

    from nerve import compiled
    from nerve.io import formats
    from nerve.model.vocab import TagVocab

    totals, fmt, outside, notes = pickle.loads(open(os.environ["FAKE"], "rb").read())

    def reader(gold, pred, plan):
        return totals, TagVocab(fmt, outside=outside), notes

    object.__setattr__(formats.format_named("conll"), "accelerated", reader)
    compiled.speedups = lambda: compiled  # as if nerve._speedups were built
from nerve.cli import main
sys.exit(main())
"""

# What each command loads (besides nerve._speedups, where it is built). ``--version``: no command.
VERSION = {"nerve", "nerve._deprecated", "nerve._engine", "nerve._version", "nerve.cli", "nerve.cli.output"}
VERSION |= {"nerve.cli.parser"}
# ``score --help``: its parser, the option names and the format records (none of their readers).
RECORDS = (
    "bio brat conll conllu doccano entity_list eval4ner hf hf_pipeline hipe jsonl labelstudio lenient nereval"
)
RECORDS += " nervaluate nested"
RECORDS += " spacy spacy_jsonl"
HELP = VERSION | {"nerve.cli.options", "nerve.cli.progress", "nerve.cli.score", "nerve.errors", "nerve.io"}
HELP |= {"nerve.io.format", "nerve.io.formats", "nerve.model", "nerve.model.scheme_names"}
HELP |= {"nerve.options", *(f"nerve.io.formats.{name}" for name in RECORDS.split())}
# The compiled engine's road from the command line to the totals, and from them to the rendering.
COMPILED = HELP | {
    "nerve._frozen",
    "nerve.model.quoting",
    "nerve.model.schemes",
    "nerve.compiled",
    "nerve.io.label_maps",
    "nerve.io.progress",
    "nerve.io.reader_options",
}
COMPILED |= {"nerve.io.outputs", "nerve.io.sources", "nerve.model.counts"}
COMPILED |= {"nerve.model.labels", "nerve.model.signature", "nerve.model.vocab", "nerve.plan", "nerve.report"}
COMPILED |= {"nerve.report.renderers", "nerve.report.tables", "nerve.results"}
# The numpy engine: the API, the CoNLL reader, decoding and exact matching. No reader of another
# format: the format records name theirs (`nerve.io.format.Lazy`).
NUMPY = COMPILED | {"nerve.api", "nerve.api.compare", "nerve.api.dirs", "nerve.api.pipeline"}
NUMPY |= {"nerve.api.planned", "nerve.api.shards", "nerve.api.sources", "nerve.api.span_chunks"}
NUMPY |= {"nerve.api.span_scores", "nerve.api.text", "nerve.analysis", "nerve.analysis.aligned"}
NUMPY |= {"nerve.analysis.query", "nerve.io.bytes", "nerve.io.sources", "nerve.io.sniff", "nerve.io.offsets"}
NUMPY |= {
    "nerve.io.json",
    "nerve.io.json.columns",
    "nerve.io.json.compiled",
    "nerve.io.json.jsonl",
    "nerve.io.json.jsonl_chunks",
}
NUMPY |= {"nerve.io.json.span_lists", "nerve.io.lenient", "nerve.io.pairing", "nerve.io.spans"}
NUMPY |= {"nerve.io.unit_offsets", "nerve.io.tools", "nerve.io.tools.spacy", "nerve.io.tags"}
NUMPY |= {f"nerve.io.tags.{name}" for name in ("conll", "conll_align", "conll_lines", "delimiters", "lists")}
NUMPY |= {f"nerve.io.tags.{name}" for name in ("hf", "hf_files", "hf_rows", "ranges", "tag_ids")}
NUMPY |= {"nerve.matching", "nerve.matching.assignment", "nerve.matching.exact", "nerve.matching.greedy"}
NUMPY |= {"nerve.matching.overlap", "nerve.metrics", "nerve.metrics.discontinuous", "nerve.metrics.exact"}
NUMPY |= {"nerve.metrics.muc"}
NUMPY |= {"nerve.metrics.muc_counts", "nerve.metrics.transitions", "nerve.model.blocks", "nerve.model.chunks"}
NUMPY |= {"nerve.model.nesting", "nerve.model.pairs", "nerve.model.spans", "nerve.tagging"}
NUMPY |= {"nerve.tagging.conlleval_rules", "nerve.tagging.decode", "nerve.problem"}
# The C counter of CoNLL files (csrc/conll.c), asked first on both roads (it hands over when not built).
C_READER = {"nerve.io.tags", "nerve.io.tags.conll_c", "nerve.io.tags.conll_counted"}
C_READER |= {"nerve.io.tags.conll_cuts"}
NUMPY |= C_READER | {"nerve.api.compiled"}


# The heavier standard modules (of those a command might not need) each command line loaded.
STDLIB: dict[tuple[str, ...], list[str]] = {}


def imported(*args: str, **env: str) -> tuple[str, set[str], bool]:
    """Run ``nerve ARGS`` in a fresh interpreter: its stdout, the nerve modules loaded, numpy's presence."""
    environ = {**os.environ, "PYTHONPATH": SRC, "NERVE_NO_SPEEDUPS": "", "FAKE": "", **env}
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args], env=environ, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stderr.strip().splitlines()[-1])
    if args in (("--version",), ("score", "--help")):
        assert not found["typing"], args
    STDLIB[args] = found["stdlib"]
    return proc.stdout, set(found["nerve"]) - {"nerve._speedups"}, found["numpy"]


def test_version_and_score_help_import_no_numpy_and_no_command_they_do_not_run() -> None:
    """And no typing: the parsers cost about the interpreter's start-up (bench/bench_startup.py)."""
    out, modules, numpy = imported("--version")
    assert out.startswith(f"nerve {nerve.__version__} (speedups: ")
    assert not numpy
    assert modules == VERSION
    out, modules, numpy = imported("score", "--help")
    assert "--format" in out
    assert not numpy
    assert modules == HELP
    # No dataclasses (with inspect: 10 ms), and not argparse's shutil (`nerve.cli.parser`).
    assert STDLIB[("--version",)] == STDLIB[("score", "--help")] == []


def test_plain_score_on_the_numpy_engine_imports_only_the_conll_reader() -> None:
    out, modules, numpy = imported("score", NEWS, NERVE_NO_SPEEDUPS="1")
    assert out.startswith("nerve ")
    assert numpy
    assert sorted(modules - NUMPY) == [], "imported by plain score, and not listed in NUMPY"
    assert sorted(NUMPY - modules) == [], "listed in NUMPY, but no longer imported by plain score"


def _numpy_totals(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Score news.conll on the numpy engine here, and pickle what it hands to `Result.of`."""
    seen: list[Any] = []
    of = results.Result.of.__func__  # type: ignore[attr-defined]

    def spy(cls: type[results.Result], plan: Any, totals: Any, vocab: Any = None, **kw: Any) -> Any:
        seen.append((totals, vocab.format, vocab.outside, kw.get("notes") or {}))
        return of(cls, plan, totals, vocab, **kw)

    monkeypatch.setattr(results.Result, "of", classmethod(spy))
    monkeypatch.setenv("NERVE_NO_SPEEDUPS", "1")
    nerve.score(NEWS)
    assert len(seen) == 1
    path.write_bytes(pickle.dumps(seen[0]))


@pytest.mark.parametrize("output", ["table", "json"])
def test_a_run_the_compiled_engine_counts_imports_no_numpy_and_renders_as_numpy_does(
    output: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled reader's totals reach the table and the JSON (signature included) without numpy."""
    fake = tmp_path / "totals.pickle"
    _numpy_totals(fake, monkeypatch)
    monkeypatch.undo()
    expected, _, _ = imported("score", NEWS, "-o", output, NERVE_NO_SPEEDUPS="1")
    out, modules, numpy = imported("score", NEWS, "-o", output, FAKE=str(fake))
    assert not numpy
    assert modules == COMPILED
    assert out == expected
    if output == "json":
        assert json.loads(out)["exact"]["micro"]["tp"] > 0


@pytest.mark.parametrize("output", ["table", "json"])
def test_plain_score_on_the_c_engine_imports_no_numpy_and_prints_what_numpy_prints(output: str) -> None:
    """The real C counter (csrc/conll.c), not a stand-in: only its reader joins the compiled road."""
    need("nerve._speedups")
    expected, _, _ = imported("score", NEWS, "-o", output, NERVE_NO_SPEEDUPS="1")
    out, modules, numpy = imported("score", NEWS, "-o", output)
    assert not numpy
    assert modules == COMPILED | C_READER
    assert out == expected
    # No typing, no shutil (argparse's: `nerve.cli.parser`), CSV or JSON only to write them.
    assert STDLIB[("score", NEWS, "-o", output)] == [
        "dataclasses",
        "inspect",
        *(["json"] if output == "json" else []),
    ]


def test_the_error_names_import_on_first_use_as_before() -> None:
    code = (
        "import sys, nerve; assert 'nerve.errors' not in sys.modules; "
        "from nerve import NerveError, OptionError; from nerve.errors import InputError; "
        "assert issubclass(OptionError, NerveError) and nerve.errors.InputError is InputError; print('ok')"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": SRC}, capture_output=True
    )
    assert proc.stdout == b"ok\n", proc.stderr


@pytest.mark.parametrize("output", ["table", "json"])
def test_muc_of_a_nervaluate_file_on_the_compiled_engine_imports_no_numpy(
    output: str, tmp_path: Path
) -> None:
    """Issue 27: nervaluate's JSON is read, matched and rendered (MUC's table included) without numpy."""
    import importlib.util

    if importlib.util.find_spec("nerve._speedups") is None:
        pytest.skip("the compiled engine is not built here")
    gold = [[{"label": "PER", "start": 0, "end": 2}], [{"label": "LOC", "start": 3, "end": 4}]]
    pred = [[{"label": "PER", "start": 0, "end": 2}], [{"label": "ORG", "start": 3, "end": 5}]]
    path = tmp_path / "spans.json"
    path.write_text(json.dumps({"true": gold, "pred": pred}), encoding="utf-8")
    args = ("score", str(path), "--format", "nervaluate", "--metrics", "muc", "--output", output)
    out, modules, numpy = imported(*args)
    assert not numpy
    assert "nerve.compiled_spans" in modules
    on_numpy, _, used = imported(*args, NERVE_NO_SPEEDUPS="1")
    assert used
    assert out == on_numpy
