"""The evaluate metric: seqeval's numbers and keys on real corpora, and evaluate.load offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

import nerve
from conftest import peer
from nerve.errors import InputError, OptionError
from nerve.integrations.hf_evaluate import compute, metric_path

seqeval_metrics = peer("seqeval.metrics")
peer("evaluate")

# Real gold/prediction pairs (token gold pred), with the scheme the gold tags use.
CORPORA = [
    ("wikigold/predictions/spacy-en_core_web_sm-3.6.0.conll-labels.gold-pred.txt", "IOB1"),
    ("germeval2014/merged/spacy_trained_with_germeval_tested_on_germeval.gold-pred.txt", "IOB2"),
    ("conll2000-chunking/explainaboard/test-conll00.gold-pred.txt", "IOB2"),
]


def sentences(path: Path) -> tuple[list[list[str]], list[list[str]]]:
    """The gold and predicted tags of a merged file, one list per sentence (``-DOCSTART-`` left out)."""
    gold: list[list[str]] = [[]]
    pred: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split(" ")
        if not line.strip() or fields[0] == "-DOCSTART-":
            if gold[-1]:
                gold.append([])
                pred.append([])
            continue
        gold[-1].append(fields[-2])
        pred[-1].append(fields[-1])
    if not gold[-1]:
        gold.pop()
        pred.pop()
    return gold, pred


def seqeval_keys(references: Any, predictions: Any, **kwargs: Any) -> dict[str, Any]:
    """What evaluate's seqeval metric computes (its ``_compute``), with the seqeval package."""
    if kwargs.get("scheme") is not None:
        kwargs["scheme"] = getattr(__import__("seqeval.scheme", fromlist=["x"]), kwargs["scheme"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = seqeval_metrics.classification_report(
            y_true=references, y_pred=predictions, output_dict=True, **kwargs
        )
    report.pop("macro avg")
    report.pop("weighted avg")
    overall = report.pop("micro avg")
    out: dict[str, Any] = {
        name: {
            "precision": s["precision"],
            "recall": s["recall"],
            "f1": s["f1-score"],
            "number": s["support"],
        }
        for name, s in report.items()
    }
    out["overall_precision"] = overall["precision"]
    out["overall_recall"] = overall["recall"]
    out["overall_f1"] = overall["f1-score"]
    out["overall_accuracy"] = seqeval_metrics.accuracy_score(y_true=references, y_pred=predictions)
    return out


def ours(references: Any, predictions: Any, **kwargs: Any) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compute(predictions, references, **kwargs)


def assert_seqeval_keys_equal(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert set(got) == {*want, "counts", "signature", "repairs"}
    for key, value in want.items():
        if isinstance(value, dict):
            assert got[key]["number"] == value["number"], key
            for k in ("precision", "recall", "f1"):
                assert got[key][k] == pytest.approx(value[k], abs=1e-12), (key, k)
        else:
            assert got[key] == pytest.approx(value, abs=1e-12), key


@pytest.mark.parametrize(("relative", "scheme"), CORPORA)
@pytest.mark.parametrize(
    "options",
    [{}, {"mode": "strict"}, {"zero_division": 1}, {"mode": "strict", "zero_division": 0, "scheme": "IOB2"}],
)
def test_real_corpora_give_seqevals_numbers(
    shared_data: Path, relative: str, scheme: str, options: dict[str, Any]
) -> None:
    gold, pred = sentences(shared_data / relative)
    assert len(gold) > 100
    if options.get("mode") == "strict":  # without a scheme, strict mode is the gold tags' scheme
        options = {"scheme": scheme, **options}
        if options["scheme"] == "IOB1":
            # seqeval 1.2.2's strict IOB1 drops valid entities (nerve.compat.seqeval's docstring):
            # here the scheme decides, as nerve.score's discarding decoder does.
            got = ours(gold, pred, **options)
            result = nerve.score(gold, pred, scheme="IOB1", repair="discard")
            assert got["counts"]["tp"] == result.micro.tp
            assert got["counts"]["predicted"] == result.micro.predicted
            assert got["overall_f1"] == pytest.approx(result.micro.f1, abs=1e-12)
            return
    got = ours(gold, pred, **options)
    assert_seqeval_keys_equal(got, seqeval_keys(gold, pred, **options))
    counts = got["counts"]
    assert counts["gold"] == sum(v["number"] for k, v in got.items() if isinstance(v, dict) and "number" in v)
    assert counts["tp"] + counts["fn"] == counts["gold"]
    assert counts["tp"] + counts["fp"] == counts["predicted"]
    assert got["overall_precision"] == pytest.approx(counts["tp"] / counts["predicted"])
    assert got["signature"].startswith("nerve ")
    assert got["repairs"]["policy"] == ("discard" if options.get("mode") == "strict" else "begin")


def test_suffix_tags_score_as_their_prefix_spelling(shared_data: Path) -> None:
    gold, pred = sentences(shared_data / CORPORA[0][0])

    def flip(tags: list[list[str]]) -> list[list[str]]:
        return [[t if t == "O" else "-".join(reversed(t.split("-", 1))) for t in s] for s in tags]

    got = ours(flip(gold), flip(pred), suffix=True)
    want = seqeval_keys(flip(gold), flip(pred), suffix=True)
    assert_seqeval_keys_equal(got, want)
    prefix = ours(gold, pred)
    assert got["overall_f1"] == prefix["overall_f1"]
    assert got["counts"] == prefix["counts"]


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"sample_weight": [1.0, 2.0]}, "sample_weight"),
        ({"mode": "lenient"}, "mode"),
        ({"zero_division": 2}, "zero_division"),
    ],
)
def test_options_seqeval_would_take_and_ignore_are_refused(options: dict[str, Any], option: str) -> None:
    with pytest.raises(OptionError) as info:
        compute([["B-PER", "O"], ["O"]], [["B-PER", "O"], ["O"]], **options)
    assert info.value.option == option


def test_mistakes_are_errors() -> None:
    with pytest.raises(InputError, match="sentence 0 has 1 tag"):
        compute([["B-PER"]], [["B-PER", "O"]])
    with pytest.raises(InputError, match="'counts'"):
        compute([["B-counts"]], [["B-counts"]])


OFFLINE_SCRIPT = """
import json, sys
import evaluate
from nerve.integrations.hf_evaluate import metric_path
gold, pred = json.load(open(sys.argv[1]))
by_dir = evaluate.load(metric_path())
for g, p in zip(gold, pred):
    by_dir.add(references=g, predictions=p)
out = {"dir": by_dir.compute(zero_division=0)}
by_file = evaluate.load(metric_path() + "/nerve.py")
out["file"] = by_file.compute(references=gold, predictions=pred, mode="strict", scheme="IOB2")
out["name"] = by_dir.name
try:
    evaluate.load(metric_path()).compute(references=gold, predictions=pred, sample_weight=[1.0] * len(gold))
except Exception as e:
    out["refused"] = type(e).__name__
json.dump(out, sys.stdout)
"""


@pytest.mark.slow
def test_evaluate_load_works_offline(shared_data: Path, tmp_path: Path) -> None:
    gold, pred = sentences(shared_data / CORPORA[0][0])
    data = tmp_path / "tags.json"
    data.write_text(json.dumps([gold, pred]), encoding="utf-8")
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_EVALUATE_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf"),  # an empty cache: nothing downloaded before can be used
        "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]),
        "PYTHONWARNINGS": "ignore",
    }
    proc = subprocess.run(
        [sys.executable, "-c", OFFLINE_SCRIPT, str(data)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["name"] == "nerve"
    assert out["refused"] == "OptionError"
    assert out["dir"] == json.loads(json.dumps(ours(gold, pred, zero_division=0)))
    assert_seqeval_keys_equal(out["dir"], seqeval_keys(gold, pred, zero_division=0))
    assert_seqeval_keys_equal(out["file"], seqeval_keys(gold, pred, mode="strict", scheme="IOB2"))


def test_metric_script_ships_inside_the_package() -> None:
    script = Path(metric_path()) / "nerve.py"
    assert script.is_file()
    assert Path(metric_path()).is_relative_to(Path(__import__("nerve").__file__).parent)


def test_import_nerve_imports_neither_evaluate_nor_spacy() -> None:
    code = (
        "import sys, nerve; print(sorted(m for m in ('evaluate', 'spacy', 'datasets') if m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


WNUT_SCRIPT = """
import json, sys
import evaluate
from nerve.integrations.hf_evaluate import metric_path
gold, pred = json.load(open(sys.argv[1]))
json.dump(evaluate.load(metric_path()).compute(references=gold, predictions=pred), sys.stdout)
"""


def read_tsv_tags(path: Path) -> list[list[str]]:
    """The tags of a ``token<TAB>tag`` file, one list per sentence."""
    out: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out[-1].append(line.split("\t")[-1])
        elif out[-1]:
            out.append([])
    return [s for s in out if s]


def ill_formed(sentences: list[list[str]]) -> int:
    """IOB2's ill-formed entities: an ``I-X`` after ``O``, after the start or after another type."""
    count = 0
    for tags in sentences:
        for before, tag in zip(["O", *tags], tags, strict=False):
            count += tag.startswith("I-") and before[2:] != tag[2:]
    return count


def test_evaluate_signature_on_valid_iob2_says_iob2_and_the_real_repairs(
    shared_data: Path, tmp_path: Path
) -> None:
    # Issue 25: evaluate's default mode signed WNUT-17 (valid IOB2) "scheme IOBES | repair begin
    # (2,211 repairs)", counting every entity no E or S closes. The signature must say what was done.
    gold = read_tsv_tags(shared_data / "wnut17" / "emerging.test.annotated")
    pred = [list(s) for s in gold]
    begins = [(i, j) for i, s in enumerate(pred) for j, t in enumerate(s) if t.startswith("B-")]
    for i, j in begins[::90]:  # every 90th entity loses its B: a real ill-formed entity each
        pred[i][j] = "I-" + pred[i][j][2:]
    assert ill_formed(gold) == 0
    real = ill_formed(pred)
    assert 10 <= real <= 20
    data = tmp_path / "tags.json"
    data.write_text(json.dumps([gold, pred]), encoding="utf-8")
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_EVALUATE_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf"),
        "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).resolve().parents[2] / "src"), os.environ.get("PYTHONPATH", "")]
        ),
        "PYTHONWARNINGS": "ignore",
    }
    proc = subprocess.run(
        [sys.executable, "-c", WNUT_SCRIPT, str(data)], capture_output=True, text=True, env=env, check=False
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert "| scheme IOB2 " in out["signature"], out["signature"]
    assert f"repair begin ({real} repairs)" in out["signature"], out["signature"]
    assert out["repairs"]["gold"] == 0
    assert out["repairs"]["pred"] == real
    assert_seqeval_keys_equal(out, seqeval_keys(gold, pred))
