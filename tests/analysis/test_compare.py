"""Paired comparison (`nerve.compare`, ``nerve compare``): the tests against loops and neleval, the CLI.

The vectorised paired bootstrap and randomisation are replayed one resample (trial) at a time
with the same draws and `nerve.Counts` for F1; the randomisation p-value is checked against
neleval's ``significance`` on two real systems' outputs.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

import nerve
from conftest import shared_data_dir
from nerve.analysis.aligned import Aligned, Tokens
from nerve.analysis.bootstrap import bootstrap_intervals, unit_counts
from nerve.analysis.compare import holm, paired
from nerve.api import score_aligned
from nerve.api.compare import _check_units
from nerve.cli import main
from nerve.errors import InputError, OptionError
from nerve.model.spans import SpanArray
from nerve.results import Counts
from stats_corpora import neleval_module, neleval_per_doc

GERMEVAL = "germeval2014"
SYSTEMS = (
    "germaner_trained_with_germeval_tested_on_germeval",
    "lstm_trained_with_germeval_tested_on_germeval-evaluatoready",
    "spacy_trained_with_germeval_tested_on_germeval",
    "stanford_trained_with_germeval_tested_on_germeval",
)
ELMO = "wnut16_CelmoWglove_lstmCrf_29275447_4533.txt"
FLAIR = "wnut16_CflairWglove_lstmCrf_27707443_4596.txt"


def germeval() -> tuple[Path, list[Path]]:
    """GermEval 2014's gold file and four real systems' outputs (merged files, their last column)."""
    root = shared_data_dir() / GERMEVAL
    return root / "NER-de-test-conll-formated.txt", [root / "merged" / f"{s}.gold-pred.txt" for s in SYSTEMS]


def _f1(c: list[int]) -> float:
    return Counts(*c).score().f1


def naive_paired(matrices: list[list[list[int]]], n: int, seed: int, confidence: float) -> list[dict]:
    """Each system against the first, one resample and one trial at a time, in Python."""
    rng = np.random.default_rng(seed)
    units = len(matrices[0])
    resampled = []
    for _ in range(n):
        drawn = rng.integers(0, units, size=units, dtype=np.int64).tolist()
        resampled.append([_f1([sum(m[u][k] for u in drawn) for k in range(3)]) for m in matrices])
    trials = []
    for _ in range(n):
        swap = rng.integers(0, 2, size=units, dtype=np.int64).tolist()
        row = []
        for m in matrices[1:]:
            system = [sum((matrices[0] if s else m)[u][k] for u, s in enumerate(swap)) for k in range(3)]
            base = [sum((m if s else matrices[0])[u][k] for u, s in enumerate(swap)) for k in range(3)]
            row.append(_f1(system) - _f1(base))
        trials.append(row)
    observed = [_f1([sum(row[k] for row in m) for k in range(3)]) for m in matrices]
    out = []
    for i in range(1, len(matrices)):
        delta = observed[i] - observed[0]
        deltas = [r[i] - r[0] for r in resampled]
        low, high = np.quantile(deltas, [(1 - confidence) / 2, (1 + confidence) / 2]).tolist()
        out.append(
            {
                "delta_f1": delta,
                "ci": [low, high],
                "p_bootstrap": (1 + sum(abs(d - delta) >= abs(delta) for d in deltas)) / (n + 1),
                "p_randomization": (1 + sum(abs(t[i - 1]) >= abs(delta) for t in trials)) / (n + 1),
                "resampled": [r[i] for r in resampled],
            }
        )
    return out


def naive_holm(p: list[float]) -> list[float]:
    """Holm's adjusted p-values, as in the textbooks: sort, multiply, enforce monotonicity."""
    m = len(p)
    ranked = sorted(enumerate(p), key=lambda x: x[1])
    adjusted = [0.0] * m
    best = 0.0
    for k, (i, value) in enumerate(ranked, start=1):
        best = max(best, min(1.0, (m - k + 1) * value))
        adjusted[i] = best
    return adjusted


# --------------------------------------------------------------------------- against loops


def test_paired_tests_equal_loops_over_resamples_and_trials() -> None:
    gold, systems = germeval()
    n, seed, level = 43, 2012, 0.9
    matrices = [unit_counts(score_aligned(gold, s)[1], "sentence").micro() for s in systems]
    comparisons, resampled, randomized = paired(matrices, [s.name for s in systems], n, seed, level)
    want = naive_paired([m.tolist() for m in matrices], n, seed, level)
    p_ar = []
    for i, (got, loop) in enumerate(zip(comparisons, want, strict=True)):
        assert got.delta_f1 == loop["delta_f1"]
        assert list(got.ci) == loop["ci"]
        assert got.p_bootstrap == loop["p_bootstrap"]
        assert got.p_randomization == loop["p_randomization"]
        assert resampled[:, i + 1].tolist() == loop["resampled"]
        p_ar.append(got.p_randomization)
    assert [c.p_holm for c in comparisons] == naive_holm(p_ar)
    assert randomized.shape == (n, len(systems) - 1)
    # The baseline's resamples are those of `nerve score --bootstrap` with the same seed.
    base = bootstrap_intervals(unit_counts(score_aligned(gold, systems[0])[1], "sentence"), n, seed, level)
    assert base.replicates is not None
    assert resampled[:, 0].tolist() == base.replicates.micro[:, 2].tolist()


def test_holm() -> None:
    assert holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([0.02]) == [0.02]
    rnd = random.Random(4)
    for _ in range(200):
        p = [rnd.choice([0.001, 0.01, 0.2, 0.5]) * rnd.random() for _ in range(rnd.randint(1, 6))]
        assert holm(p) == naive_holm(p)


def test_a_system_against_itself() -> None:
    """Nothing varies: the difference is 0 in every resample and trial, so no interval and no
    p-value can be computed (n/a, not p = 1 and [0, 0]), and flags say why."""
    gold, systems = germeval()
    result = nerve.compare(gold, [systems[0], systems[0]], bootstrap=50, unit="sentence")
    (c,) = result.comparisons
    assert (c.delta_f1, c.ci, c.p_bootstrap, c.p_randomization, c.p_holm) == (0.0, None, None, None, None)
    assert [kind for kind, _ in result.flags] == ["degenerate", "degenerate"]
    assert "every resample gives the same F1 difference, so ci and p bootstrap are n/a" in result.flags[0][1]


def test_the_api_reads_like_score() -> None:
    gold, systems = germeval()
    result = nerve.compare(gold, systems[:2], bootstrap=20, seed=3, unit="sentence", confidence=0.8)
    (c,) = result.comparisons
    a, b = (nerve.score(gold, s) for s in systems[:2])
    assert (c.baseline_f1, c.f1) == (a.micro.f1, b.micro.f1)
    assert c.delta_f1 == b.micro.f1 - a.micro.f1
    assert (c.system, c.baseline) == (str(systems[1]), str(systems[0]))
    assert (result.n, result.unit, result.seed, result.confidence, result.units) == (
        20,
        "sentence",
        3,
        0.8,
        5100,
    )
    assert result.signature == (
        a.signature.replace(" (0 repairs)", "")
        + " | bootstrap paired percentile n=20 unit=sentence seed=3 confidence=0.8"
        + " | randomization n=20 unit=sentence"
    )


# --------------------------------------------------------------------------- units


def _aligned(n_docs: int, document: list[int]) -> Aligned:
    tokens = Tokens(np.arange(len(document)), np.asarray(document), np.arange(1, len(document) + 1))
    return Aligned(SpanArray.empty(n_docs), SpanArray.empty(n_docs), tokens, ("g", "p"))


def test_systems_must_have_the_units_of_gold(tmp_path: Path) -> None:
    gold = tmp_path / "gold.txt"
    gold.write_text("-DOCSTART- O\n\nA B-PER\nb O\n\n-DOCSTART- O\n\nc B-LOC\n", encoding="utf-8")
    good = tmp_path / "a.txt"
    good.write_text(gold.read_text(encoding="utf-8"), encoding="utf-8")
    bad = tmp_path / "b.txt"
    bad.write_text("-DOCSTART- O\n\nA B-PER\nb O\n\nx O\n\nc B-LOC\n", encoding="utf-8")
    with pytest.raises(InputError, match=f"{bad}:6"):
        nerve.compare(gold, [good, bad], bootstrap=5)
    with pytest.raises(InputError) as info:
        _check_units(_aligned(3, [0, 1, 2]), _aligned(2, [0, 0, 1]), "document", "sys.txt", "gold.txt")
    assert (
        str(info.value)
        == "sys.txt: expected the 2 documents of gold.txt (as the first system has), but found 3"
    )
    with pytest.raises(InputError, match=r"sys\.txt: documents do not line up with those of gold\.txt"):
        _check_units(_aligned(2, [0, 1, 1]), _aligned(2, [0, 0, 1]), "document", "sys.txt", "gold.txt")


def test_one_document_is_flagged(tmp_path: Path) -> None:
    gold = tmp_path / "gold.txt"
    gold.write_text("A B-PER\nb O\n", encoding="utf-8")
    pred = tmp_path / "pred.txt"
    pred.write_text("A B-PER\nb B-LOC\n", encoding="utf-8")
    result = nerve.compare(gold, [gold, pred], bootstrap=10, unit="document")
    message = (
        "one document only: every resample is the corpus itself, so intervals and p-values are n/a; "
        "resample sentences (unit='sentence')"
    )
    assert result.flags == (("one_unit", message),)
    assert result.to_dict()["flags"] == [{"kind": "one_unit", "message": message}]
    (c,) = result.to_dict()["comparisons"]
    assert (c["ci"], c["p_bootstrap"], c["p_randomization"], c["p_holm"]) == (None, None, None, None)


# --------------------------------------------------------------------------- the command


def test_json_keys(capsys: pytest.CaptureFixture[str]) -> None:
    gold, systems = germeval()
    args = ["compare", str(gold), *map(str, systems[:3]), "--unit", "sentence", "--bootstrap", "30"]
    assert main([*args, "--seed", "9", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["comparisons", "n", "unit", "seed", "confidence", "signature", "flags"]
    assert (out["n"], out["unit"], out["seed"], out["confidence"], out["flags"]) == (
        30,
        "sentence",
        9,
        0.95,
        [],
    )
    assert "bootstrap paired percentile n=30 unit=sentence seed=9 confidence=0.95" in out["signature"]
    assert len(out["comparisons"]) == 2
    keys = ["system", "baseline", "delta_f1", "ci", "p_bootstrap", "p_randomization", "p_holm"]
    for c, system in zip(out["comparisons"], systems[1:3], strict=True):
        assert list(c) == keys
        assert (c["system"], c["baseline"]) == (str(system), str(systems[0]))
        assert c["ci"][0] <= c["ci"][1]
        assert 0 < c["p_randomization"] <= c["p_holm"] <= 1
    api = nerve.compare(gold, systems[:3], bootstrap=30, seed=9, unit="sentence")
    assert api.to_dict() == out


@pytest.mark.parametrize("output", ["table", "markdown", "csv", "latex"])
def test_text_outputs(output: str, capsys: pytest.CaptureFixture[str]) -> None:
    gold, systems = germeval()
    args = ["compare", str(gold), *map(str, systems[:2]), "--unit", "sentence", "--bootstrap", "30"]
    assert main([*args, "--output", output]) == 0
    out = capsys.readouterr().out
    c = nerve.compare(gold, systems[:2], bootstrap=30, unit="sentence").comparisons[0]
    assert "bootstrap paired percentile n=30 unit=sentence seed=12345 confidence=0.95" in out
    if output == "csv":
        assert f"{c.delta_f1!r},{c.ci[0]!r},{c.ci[1]!r},{c.p_bootstrap!r}" in out
    else:
        assert f"{100 * c.delta_f1:+.2f}" in out
        assert f"{c.p_randomization:.4f}" in out
        assert "p holm" in out.lower()


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["compare", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("nerve: error: ")
    return err[len("nerve: error: ") : -1]


def test_bad_options_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    gold, systems = germeval()
    g, a, b = str(gold), str(systems[0]), str(systems[1])
    assert _error(capsys, g, a) == "SYSTEM: expected at least two systems, the baseline first, but got 1"
    assert _error(capsys, g, a, b, "--bootstrap", "0") == (
        "--bootstrap: expected a whole number from 1 to 1,000,000, such as 1000, but got '0'"
    )
    assert _error(capsys, g, a, b, "--unit", "token") == (
        "--unit: expected one of auto, document, sentence, but got 'token'"
    )
    assert (
        _error(capsys, g, a, b, "--confidence", "0")
        == "--confidence: expected a fraction in (0, 1), but got '0'"
    )
    missing = str(Path(b).with_name("missing.txt"))
    assert missing in _error(capsys, g, a, missing)
    with pytest.raises(OptionError, match="systems: expected at least two systems"):
        nerve.compare(gold, [a])


# --------------------------------------------------------------------------- neleval


@pytest.fixture(scope="module")
def neleval_significance() -> object:
    return neleval_module()


@pytest.mark.slow
def test_randomization_agrees_with_neleval_significance(neleval_significance: object, tmp_path: Path) -> None:
    """neleval's approximate randomisation of the same two WNUT-16 systems gives the same p-value.

    neleval counts trials whose F1 difference is at least the observed one in its direction (one
    side); nerve counts both sides. Swapping every unit's outputs gives the mirror trial with the
    same probability, so the trials' distribution is symmetric and nerve's share is twice
    neleval's, up to noise. With R = 2000 trials each, independent, the shares q2 (nerve) and
    q1 (neleval) have binomial standard errors sqrt(q (1 - q) / R); 2 q1 - q2 has standard error
    sqrt(4 q1 (1 - q1) / R + q2 (1 - q2) / R), about 0.02 here. The tolerance is four of them.
    The F1 difference must be equal.

    neleval gets every sentence (3,850, in nerve's order, empty ones as empty documents: its own
    ``iter_pairs`` leaves those out and pairs the two systems' documents in set order), except
    that the sentences where both systems have the same counts are added up into one document:
    swapping them changes nothing, and neleval's pure-Python trials take a quarter of the time.
    """
    trials = 2000
    root = shared_data_dir() / "wnut16"
    base, system = root / "predictions" / ELMO, root / "predictions" / FLAIR
    result = nerve.compare(root / "test.txt", [base, system], bootstrap=trials, seed=5, unit="sentence")
    (ours,) = result.comparisons
    per_doc = {}
    for name, path in (("base", base), ("system", system)):
        per_doc[name] = neleval_per_doc(tmp_path, path, "sentence", name)
    rows = {k: [(d.ptp, d.fp, d.fn) for d in v[0]] for k, v in per_doc.items()}
    assert len(rows["base"]) == 3850
    same = [u for u, (a, b) in enumerate(zip(rows["base"], rows["system"], strict=True)) if a == b]
    differ = sorted(set(range(3850)) - set(same))
    assert 500 < len(differ) < 3000
    sides = {}
    for name, (units, overall) in per_doc.items():
        merged = sum((units[u] for u in same), type(overall)())
        sides[name] = ([merged, *(units[u] for u in differ)], overall)
    test = neleval_significance.Significance(  # type: ignore[attr-defined]
        [str(system), str(base)],
        str(root / "test.txt"),
        trials=trials,
        n_jobs=1,
        measures=["strong_typed_mention_match"],
    )
    random.seed(2005)
    theirs = test.significance(sides["system"], sides["base"])["fscore"]
    assert theirs["diff"] == pytest.approx(ours.delta_f1, abs=1e-12)
    q1 = (theirs["p"] * (trials + 1) - 1) / trials
    q2 = (ours.p_randomization * (trials + 1) - 1) / trials
    error = math.sqrt((4 * q1 * (1 - q1) + q2 * (1 - q2)) / trials)
    assert 0.1 < q2 < 0.6  # a p-value in the middle, where the comparison says something
    assert abs(2 * q1 - q2) <= 4 * error


def test_compare_has_the_formats_of_score() -> None:
    from nerve.report.renderers import RENDERERS
    from nerve.report.stats import COMPARE_RENDERERS

    assert list(COMPARE_RENDERERS) == list(RENDERERS)


def test_plain_score_loads_no_statistics_and_no_analysis() -> None:
    import subprocess
    import sys

    code = (
        "import sys, nerve.cli\n"
        "nerve.cli.main(['score', sys.argv[1], '--output', 'json'])\n"
        "mods = ['nerve.analysis.bootstrap', 'nerve.analysis.compare', 'nerve.report.stats',\n"
        "        'nerve.analysis.summary', 'nerve.analysis.errors', 'nerve.analysis.instances',\n"
        "        'nerve.analysis.slices', 'nerve.report.analysis', 'nerve.report.slices']\n"
        "print([m for m in mods if m in sys.modules], file=sys.stderr)\n"
    )
    news = Path(__file__).resolve().parents[2] / "examples" / "news.conll"
    proc = subprocess.run([sys.executable, "-c", code, str(news)], capture_output=True, text=True, check=True)
    assert proc.stderr.strip() == "[]"


# What `nerve score` must not import: the heavy optional packages, and nerve's modules for other
# commands and other uses (each is imported where it is used, when it is used).
NOT_FOR_SCORE = (
    "scipy",
    "rapidfuzz",
    "jinja2",
    "matplotlib",
    "torch",
    "pandas",
    "pyarrow",
    "datasets",
    "spacy",
    "sklearn",
    "multiprocessing",
    "nerve.compat",
    "nerve.integrations",
    "nerve.streaming",
    "nerve.metrics.text",
    "nerve.api.convert",
    "nerve.report.html",
    "nerve.cli.compare",
    "nerve.cli.conlleval",
    "nerve.cli.convert",
    "nerve.cli.report",
    "nerve.cli.text",
    "nerve.cli.validate",
)


@pytest.mark.parametrize("extra", [[], ["--metrics", "exact,muc"]], ids=["exact", "muc"])
def test_plain_score_imports_only_what_it_uses(extra: list[str]) -> None:
    import importlib.util
    import os
    import subprocess
    import sys

    news = Path(__file__).resolve().parents[2] / "examples" / "news.conll"
    code = (
        "import sys, io, contextlib, nerve.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert nerve.cli.main(['score', *sys.argv[2:], '--output', 'json']) == 0\n"
        "print([m for m in sys.argv[1].split(',') if m in sys.modules])\n"
        "print('numpy' in sys.modules, 'nerve.cli.score' in sys.modules)\n"
    )
    argv = [sys.executable, "-c", code, ",".join(NOT_FOR_SCORE), str(news), *extra]
    proc = subprocess.run(argv, capture_output=True, text=True, check=True)
    # the check sees modules that are loaded; numpy is, unless the compiled engine counts the run
    on = os.environ.get("NERVE_NO_SPEEDUPS", "") in ("", "0")
    compiled = on and importlib.util.find_spec("nerve._speedups") is not None and not extra
    assert proc.stdout.splitlines() == ["[]", f"{not compiled} True"]


def test_the_command_table_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    import nerve.cli

    with pytest.raises(SystemExit):
        nerve.cli.main(["no-such-command"])  # argparse lists every command it knows
    listed = capsys.readouterr().err.split("choose from ")[1]
    assert listed.rstrip().rstrip(")").replace("'", "").split(", ") == list(nerve.cli.COMMANDS)
