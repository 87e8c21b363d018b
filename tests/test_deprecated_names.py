"""Every public name of every old module path still imports, with a `DeprecationWarning` (issue 25).

``nerve.renderers`` handed out `nerve.report.renderers`, which no longer had ``render_text`` (it
moved on to `nerve.report.text`): ``from nerve.renderers import render_text`` failed, though the
deprecation policy promises one release. `OLD_NAMES` is the ``__all__`` each old module had in
the commit before the move (`MOVED_AT`, or for the paths of io/ grouped by kind, `LATER`, the
commit before theirs); `test_old_names_are_those_of_the_git_history` checks the
table against the history where the repository is a git checkout.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nerve._deprecated import MOVED, MOVED_NAMES

ROOT = Path(__file__).resolve().parents[1]
MOVED_AT = "2928d944610f1a568d7f83e2131a7bbae820203d"  # "Layout by data flow": the paths of MOVED moved here,
LATER = ("nerve.io.conll", "nerve.io.hf")  # but these: io/ by kind (issue 26), found by git log

OLD_NAMES: dict[str, tuple[str, ...]] = {
    "nerve.chunk_evaluator": ("ChunkEvaluator",),
    "nerve.conlleval": ("ConllevalOptions", "PerlChunker", "PerlCounts", "perl_letter", "run"),
    "nerve.io.conll": (
        "BLOCK_BYTES",
        "ConllReader",
        "DOCSTART",
        "FieldTable",
        "FileRange",
        "Readable",
        "TagBlock",
        "TaggedCorpus",
        "first_token_columns",
        "intern",
        "iter_conll",
        "iter_lists",
        "read_conll",
        "split_fields",
        "split_files",
    ),
    "nerve.io.hf": (
        "SUBWORD_POLICIES",
        "WORD_POLICIES",
        "is_dataset",
        "read_hf",
        "read_tokens",
        "words_from_subwords",
    ),
    "nerve.muc": (
        "FIELDS",
        "MODES",
        "ModeScores",
        "MucCounts",
        "MucOptions",
        "MucResult",
        "match_document",
        "muc_columns",
        "muc_score",
    ),
    "nerve.readers": (
        "BLOCK_BYTES",
        "FieldTable",
        "TagBlock",
        "TaggedCorpus",
        "iter_conll",
        "iter_lists",
        "read_conll",
        "split_fields",
    ),
    "nerve.renderers": ("RENDERERS", "TEXT_COMMANDS", "render", "render_text"),
    "nerve.repair": (
        "Chunks",
        "REPAIR_POLICIES",
        "chunk_validity",
        "decode_ids",
        "get_policy",
        "invalid_positions",
        "neighbours",
        "pair_keys",
        "transition_counts",
    ),
    "nerve.schemes": (
        "SCHEMES",
        "SUPPORTED_SCHEMES",
        "Scheme",
        "TagFormat",
        "continuation_table",
        "encode_sequence",
        "get_scheme",
        "infer_scheme",
        "infer_tag_format",
    ),
    "nerve.scoring": ("decode", "encode", "score", "score_spans", "validate"),
    "nerve.span_readers": (
        "Documents",
        "SPAN_FORMATS",
        "SpanColumns",
        "read_span_columns",
        "read_spans",
        "sniff_format",
    ),
    "nerve.spans": ("Span", "SpanArray"),
    "nerve.tensors": (
        "DeviceTables",
        "batch_counts",
        "flush_tensors",
        "has_bad_input",
        "import_torch",
        "prepare_batch",
        "split_counts",
        "tables_for",
        "update_from_tensors",
    ),
    "nerve.text_metrics": (
        "BagRow",
        "EntityTexts",
        "ErrorRow",
        "NervalRow",
        "TextScores",
        "TextTable",
        "score_texts",
    ),
    "nerve.text_readers": ("TextCorpus", "read_bio_dirs", "read_text_files"),
    "nerve.vocab": ("TagVocab",),
}

# In a fresh interpreter: import the old path, then each name with an import statement; report
# the warnings of each step and whether each name is the object at its new place.
PROBE = """
import importlib, json, sys, warnings
from nerve._deprecated import MOVED, MOVED_NAMES
old, names = sys.argv[1], json.loads(sys.argv[2])
out = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    importlib.import_module(old)
out["module"] = [str(w.message) for w in caught if w.category is DeprecationWarning]
for name in names:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scope = {}
        exec(f"from {old} import {name} as got", scope)
    target = MOVED_NAMES.get(old, {}).get(name, (MOVED[old] + ":" + name,))[0]
    path, attribute = target.split(":")
    same = scope["got"] is getattr(importlib.import_module(path), attribute)
    messages = [str(w.message) for w in caught if w.category is DeprecationWarning]
    out[name] = {"same": same, "warnings": messages, "file": [w.filename for w in caught]}
json.dump(out, sys.stdout)
"""


def test_the_table_covers_every_moved_path() -> None:
    assert set(OLD_NAMES) == set(MOVED)
    for old, names in MOVED_NAMES.items():
        assert set(names) <= set(OLD_NAMES[old]), old


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_every_old_name_imports_with_a_deprecation_warning(old: str) -> None:
    names = OLD_NAMES[old]
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, old, json.dumps(names)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["module"] == [f"{old} is deprecated and will be removed in the next release; use {MOVED[old]}"]
    for name in names:
        got = out[name]
        assert got["same"], (old, name)
        moved_on = MOVED_NAMES.get(old, {}).get(name)
        if moved_on is None:  # the replacement module has it: the module's warning said where
            assert got["warnings"] == [], (old, name)
        else:  # a name the replacement lacks warns on its own, naming what to use
            assert got["warnings"] == [
                f"{old}.{name} is deprecated and will be removed in the next release; use {moved_on[1]}"
            ]
            assert got["file"] == ["<string>"]  # the warning points at the import statement


def test_old_names_are_those_of_the_git_history() -> None:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the table cannot be checked against the history")
    parent = subprocess.run(
        [git, "rev-parse", "--verify", "--quiet", f"{MOVED_AT}^"], cwd=ROOT, capture_output=True, text=True
    )
    if parent.returncode != 0:
        pytest.skip("a shallow clone: the commit of the move is not here")
    for old in MOVED:
        path = f"src/{old.replace('.', '/')}.py"
        moved = subprocess.run(
            [git, "log", "--diff-filter=D", "--format=%H", "-n1", "--", path],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        assert moved == MOVED_AT or (old in LATER and moved), old
        source = subprocess.run(
            [git, "show", f"{moved}^:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        (names,) = (
            ast.literal_eval(node.value)
            for node in ast.parse(source).body
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets)
        )
        assert tuple(sorted(names)) == OLD_NAMES[old], old


def test_update_and_flush_from_tensors_still_count() -> None:
    torch = pytest.importorskip("torch")
    import warnings

    from nerve.streaming import StreamingMetric
    from nerve.streaming.tensors import prepare_batch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from nerve.repair import pair_keys  # type: ignore[attr-defined]
        from nerve.tensors import flush_tensors, update_from_tensors  # type: ignore[attr-defined]

    labels = ["O", "B-X", "I-X"]
    gold = torch.tensor([[1, 2, 0, 1]])
    pred = torch.tensor([[1, 2, 0, 0]])
    metric = StreamingMetric(labels=labels)
    update_from_tensors(metric, *prepare_batch(gold, pred, None, 0), 0)
    flush_tensors(metric, [(*prepare_batch(gold, pred, None, 1), 1)])
    want = StreamingMetric(labels=labels)
    want.update(gold.numpy(), pred.numpy())
    want.update(gold.numpy(), pred.numpy())
    assert metric.compute().exact.counts == want.compute().exact.counts
    import numpy as np

    assert pair_keys(np.array([1, 2]), np.array([0, 1]), 3).tolist() == [3, 7]
