"""``--format hf-pipeline`` against the output of a real ``transformers`` ``pipeline("ner")``.

A tiny random BERT token classifier (two layers, hidden size 32, labels B-PER I-PER B-LOC I-LOC O)
and a WordPiece tokenizer read from a vocabulary written here are built offline, with torch
seeded; nothing is downloaded (no hub name is given anywhere). The texts split words into
sub-tokens (``john ##s ##on``), meet unknown words (``[UNK]``) and accents that the uncased
tokenizer strips. The pipeline's outputs are written the way a user writes them (a JSONL line
``{"text", "entities"}`` per text, numpy floats made ``float``), and nerve reads them back:
grouped outputs as they are, per-sub-token outputs merged into what the pipeline's own
``"simple"`` aggregation gives.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import need
from nerve.cli import main
from nerve.io.json.hf_pipeline import read_pipeline_documents

torch = need("torch")
transformers = need("transformers")

pytestmark = pytest.mark.slow  # importing transformers and running the model: seconds

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
VOCAB = "[PAD] [UNK] [CLS] [SEP] [MASK] john smith mary anne lives in new york paris berlin zurich and went"
VOCAB += " to the of city met at ##s ##on ##is ##ch ##er . ,"
TEXTS = [
    "John Smith lives in New York.",
    "Mary-Anne went to Paris and Berlin, Johnson met Marys.",
    "Zürich is the city of Parisis xyz and Johnsoner.",
    "Anne met John at the Zurich city of New Berlin, in New York and Paris.",
    "xyz qq",
]
AGGREGATED = ("simple", "first", "max", "average")


@pytest.fixture(scope="module")
def pipe_parts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    """The tokenizer (from a vocabulary file, as from_pretrained reads it) and the random model."""
    folder = tmp_path_factory.mktemp("tiny-bert")
    (folder / "vocab.txt").write_text("\n".join(VOCAB.split()) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizerFast.from_pretrained(str(folder), do_lower_case=True)
    assert tokenizer.is_fast  # offsets come from a fast tokenizer only
    config = transformers.BertConfig(
        vocab_size=len(VOCAB.split()),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        id2label=dict(enumerate(LABELS)),
        label2id={label: i for i, label in enumerate(LABELS)},
    )
    torch.manual_seed(0)
    model = transformers.BertForTokenClassification(config).eval()
    with torch.no_grad():  # a wide classifier over nearly token-wise states: labels vary token by token
        model.classifier.weight.normal_(0.0, 1.0)
    return tokenizer, model


def run_pipeline(
    parts: tuple[Any, Any], strategy: str, **options: Any
) -> tuple[Any, list[list[dict[str, Any]]]]:
    tokenizer, model = parts
    pipe = transformers.pipeline(
        "ner", model=model, tokenizer=tokenizer, aggregation_strategy=strategy, device=-1, **options
    )
    return pipe, [list(out) for out in pipe(TEXTS)]


def plain(entity: dict[str, Any]) -> dict[str, Any]:
    """An entity as JSON holds it: the numpy scores (float32) and indexes made Python numbers."""
    return {
        k: float(v) if k == "score" else int(v) if k in ("index", "start", "end") else v
        for k, v in entity.items()
    }


def write_output(path: Path, outputs: list[list[dict[str, Any]]]) -> str:
    lines = (
        json.dumps({"text": t, "entities": [plain(e) for e in out]})
        for t, out in zip(TEXTS, outputs, strict=True)
    )
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def spans(outputs: list[list[dict[str, Any]]]) -> list[list[tuple[int, int, str]]]:
    return [[(int(e["start"]), int(e["end"]), e["entity_group"]) for e in out] for out in outputs]


def read(path: str) -> tuple[list[list[tuple[int, int, str]]], list[list[float | None]]]:
    docs = read_pipeline_documents(path)
    return [[(e.start, e.end, e.label) for e in doc] for doc in docs], [
        [e.score for e in doc] for doc in docs
    ]


def scores(outputs: list[list[dict[str, Any]]]) -> list[list[Any]]:
    return [[pytest.approx(float(e["score"]), rel=1e-6) for e in out] for out in outputs]


def test_the_model_gives_outputs_worth_reading(pipe_parts: tuple[Any, Any]) -> None:
    """Not a vacuous check: entities of both types, sub-tokens, entities of several tokens, [UNK]."""
    _, tokens = run_pipeline(pipe_parts, "none")
    _, every = run_pipeline(pipe_parts, "none", ignore_labels=[])
    _, grouped = run_pipeline(pipe_parts, "simple")
    words = {(e["word"], TEXTS[i][e["start"] : e["end"]]) for i, out in enumerate(every) for e in out}
    assert {("##s", "s"), ("xyz", "xyz"), ("zurich", "Zürich")} <= words  # [UNK]: the text it covers
    assert any(e["word"].startswith("##") for out in tokens for e in out)
    assert {e["entity_group"] for out in grouped for e in out} == {"PER", "LOC"}
    assert sum(map(len, tokens)) > sum(map(len, grouped)) > 5  # some entities span several tokens
    indexes = [[e["index"] for e in out] for out in tokens]
    assert any(b - a > 1 for out in indexes for a, b in itertools.pairwise(out))  # O tokens left out


@pytest.mark.parametrize("strategy", AGGREGATED)
def test_grouped_outputs_read_as_the_pipeline_gives_them(
    pipe_parts: tuple[Any, Any], tmp_path: Path, strategy: str
) -> None:
    _, outputs = run_pipeline(pipe_parts, strategy)
    got, got_scores = read(write_output(tmp_path / f"{strategy}.jsonl", outputs))
    assert got == spans(outputs)
    assert got_scores == scores(outputs)


@pytest.mark.parametrize("ignore_labels", [None, []], ids=["O-left-out", "O-kept"])
def test_sub_token_outputs_merge_into_the_pipelines_simple_aggregation(
    pipe_parts: tuple[Any, Any], tmp_path: Path, ignore_labels: list[str] | None
) -> None:
    options = {} if ignore_labels is None else {"ignore_labels": ignore_labels}
    _, tokens = run_pipeline(pipe_parts, "none", **options)
    _, simple = run_pipeline(pipe_parts, "simple")
    got, got_scores = read(write_output(tmp_path / "tokens.jsonl", tokens))
    assert got == spans(simple)
    assert got_scores == scores(simple)


def test_sub_token_outputs_merge_as_the_pipelines_group_entities(
    pipe_parts: tuple[Any, Any], tmp_path: Path
) -> None:
    """The pipeline's own grouping, called on the same per-sub-token output (its O tokens kept)."""
    pipe, tokens = run_pipeline(pipe_parts, "none", ignore_labels=[])
    grouped = [[g for g in pipe.group_entities(out) if g["entity_group"] != "O"] for out in tokens]
    got, got_scores = read(write_output(tmp_path / "tokens.jsonl", tokens))
    assert got == spans(grouped)
    assert got_scores == scores(grouped)


@pytest.mark.parametrize("strategy", ["simple", "none"])
def test_scoring_against_the_simple_aggregation_as_gold(
    pipe_parts: tuple[Any, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], strategy: str
) -> None:
    _, simple = run_pipeline(pipe_parts, "simple")
    gold = tmp_path / "gold.jsonl"
    lines = (
        {"text": t, "spans": [{"start": s, "end": e, "label": label} for s, e, label in doc]}
        for t, doc in zip(TEXTS, spans(simple), strict=True)
    )
    gold.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    _, outputs = run_pipeline(pipe_parts, strategy)
    pred = write_output(tmp_path / "pred.jsonl", outputs)
    assert main(["score", str(gold), pred, "--pred-format", "hf-pipeline", "-o", "json"]) == 0
    micro = json.loads(capsys.readouterr().out)["exact"]["micro"]
    assert micro["f1"] == 1.0
    assert micro["tp"] == sum(map(len, simple))
