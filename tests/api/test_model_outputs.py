"""`nerve.score` of model outputs: each file's format, entity lists against spans, hallucinations."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.api.convert import convert
from nerve.errors import InputError, OptionError

ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = ROOT / "docs" / "examples" / "outputs"
GOLD = str(OUTPUTS / "gold.jsonl")
WORDS = ["Ann", "Bob", "Paris", "Rome", "Acme", "UN", "Oslo", "Kim", "Lee", "Nile"]
FILLER = ["the", "and", "met", "in", "of", "a", "went", "to", "saw"]
TYPES = ["PER", "LOC", "ORG"]


def write_lines(path: Path, docs: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return str(path)


def random_documents(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Documents whose entity words occur once each (unambiguous), with gold and predicted spans."""
    docs = []
    for _ in range(n):
        words = rng.sample(WORDS, rng.randint(0, 6))
        text, gold, pred = "", [], []
        for w in words:
            text += " ".join(rng.choices(FILLER, k=rng.randint(1, 3))) + " "
            span = {"start": len(text), "end": len(text) + len(w), "label": rng.choice(TYPES)}
            text += w + " "
            if rng.random() < 0.8:
                gold.append(span)
            if rng.random() < 0.8:  # a prediction, sometimes of another type
                pred.append({**span, "label": span["label"] if rng.random() < 0.7 else rng.choice(TYPES)})
        docs.append({"text": text + ".", "gold": gold, "pred": pred})
    return docs


@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
@settings(max_examples=25, deadline=None)
def test_an_entity_list_scores_as_the_spans_it_is_located_at(seed: int, lies: int) -> None:
    """Differential: unambiguous entity texts score exactly as JSONL spans at their offsets; each
    listed text that is not in the document adds one false positive of its type, named apart."""
    import tempfile

    rng = random.Random(seed)
    docs = random_documents(rng, rng.randint(1, 5))
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        gold = write_lines(d / "g.jsonl", [{"text": x["text"], "spans": x["gold"]} for x in docs])
        spans = write_lines(d / "p.jsonl", [{"text": x["text"], "spans": x["pred"]} for x in docs])
        invented = [("Atlantis", rng.choice(TYPES)) for _ in range(lies)]
        listed = [
            {
                "text": x["text"],
                "entities": [
                    {"text": x["text"][p["start"] : p["end"]], "type": p["label"]} for p in x["pred"]
                ],
            }
            for x in docs
        ]
        for name, label in invented:
            rng.choice(listed)["entities"].append({"text": name, "type": label})
        llm = write_lines(d / "e.jsonl", listed)
        by_spans = nerve.score(gold, spans)
        for rule in ("in-order", "first", "all"):
            by_list = nerve.score(
                gold, llm, locate=rule, pred_format="entity-list"
            )  # no entity: sniffs as jsonl
            extra = Counter(label for _, label in invented)
            assert by_list.hallucinated == {t: ("Atlantis",) * n for t, n in sorted(extra.items())}
            for t in set(by_spans.per_type) | set(by_list.per_type):
                a, b = by_spans.exact.counts.get(t), by_list.exact.counts.get(t)
                a_tp, a_fp, a_fn = (a.tp, a.fp, a.fn) if a else (0, 0, 0)
                assert b is not None or not extra[t]
                b_tp, b_fp, b_fn = (b.tp, b.fp, b.fn) if b else (0, 0, 0)
                assert (b_tp, b_fp, b_fn) == (a_tp, a_fp + extra[t], a_fn), (t, rule)
            if not lies:
                assert by_list.exact.to_dict() == by_spans.exact.to_dict()


def test_each_side_in_its_own_format() -> None:
    tokens = str(OUTPUTS / "pipeline-tokens.jsonl")
    sniffed = nerve.score(GOLD, tokens)
    assert "spans jsonl/hf-pipeline |" in sniffed.signature
    named = nerve.score(GOLD, tokens, gold_format="jsonl", pred_format="hf-pipeline")
    assert named.exact.to_dict() == sniffed.exact.to_dict()
    assert (named.micro.tp, named.micro.fp, named.micro.fn) == (
        3,
        2,
        1,
    )  # Monday MISC, New York for New York City
    with pytest.raises(
        InputError, match=r"looks like hf-pipeline, not jsonl.*gold_format='jsonl' pred_format='hf-pipeline'"
    ):
        nerve.score(GOLD, tokens, input_format="jsonl")  # names both sides
    with pytest.raises(OptionError, match="pred_format: expected one of conll, "):
        nerve.score(GOLD, tokens, pred_format="pipeline")


def test_min_score_is_counted_and_signed() -> None:
    result = nerve.score(GOLD, str(OUTPUTS / "pipeline-grouped.json"), min_score=0.5)
    assert "spans jsonl/hf-pipeline min-score 0.5 |" in result.signature
    assert result.notes == {"pred": {"predictions below min_score (dropped)": 1}}
    assert "MISC" not in result.per_type
    assert nerve.score(GOLD, str(OUTPUTS / "pipeline-grouped.json")).per_type["MISC"].fp == 1


def test_options_no_format_of_the_run_takes_are_refused() -> None:
    with pytest.raises(
        OptionError,
        match="min_score: applies to hf-pipeline input, but the input reads as jsonl and entity-list",
    ):
        nerve.score(GOLD, str(OUTPUTS / "llm.jsonl"), min_score=0.5)
    with pytest.raises(
        OptionError,
        match=r"locate: applies to entity-list input, but the input reads as jsonl \(a file sniffing "
        r"misread: name its format with input_format\)$",
    ):
        nerve.score(GOLD, locate="first")
    with pytest.raises(
        OptionError,
        match="normalize: applies to entity-list input, but the input reads as jsonl and hf-pipeline",
    ):
        nerve.score(GOLD, str(OUTPUTS / "pipeline-grouped.json"), normalize="case")


def test_normalisation_and_the_label_map_are_in_the_signature() -> None:
    result = nerve.score(GOLD, str(OUTPUTS / "llm.jsonl"), normalize="space,case", label_map={"LOC": "PLACE"})
    assert (
        "| spans jsonl/entity-list locate in-order normalize case,space | match exact | map LOC=PLACE |"
        in result.signature
    )
    assert result.hallucinated == {"PLACE": ("Berlin",)}
    plain = nerve.score(GOLD, str(OUTPUTS / "llm.jsonl"))
    assert "locate in-order normalize none" in plain.signature
    assert plain.hallucinated == {"LOC": ("Berlin",), "ORG": ("hugging face",)}
    assert plain.to_dict()["hallucinated"] == {
        "LOC": {"count": 1, "texts": ["Berlin"]},
        "ORG": {"count": 1, "texts": ["hugging face"]},
    }
    merged = plain.merge(plain)
    assert merged.hallucinated == {"LOC": ("Berlin", "Berlin"), "ORG": ("hugging face", "hugging face")}


def test_tags_against_spans_are_refused_with_the_fix(tmp_path: Path) -> None:
    conll = tmp_path / "g.conll"
    conll.write_text("Angela B-PER\nMerkel I-PER\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        nerve.score(str(conll), str(OUTPUTS / "llm.jsonl"))
    assert err.value.source == str(OUTPUTS / "llm.jsonl")
    assert "reads as entity-list, but the gold" in str(err.value)
    assert "give the gold as spans with character offsets" in str(err.value)


def test_the_analysis_takes_model_outputs() -> None:
    result = nerve.score(GOLD, str(OUTPUTS / "llm.jsonl"), errors=True, bootstrap=50, seed=1)
    assert result.analysis is not None
    assert result.hallucinated == {"LOC": ("Berlin",), "ORG": ("hugging face",)}
    assert result.micro.fp == 2


def test_documents_paired_by_text(tmp_path: Path) -> None:
    other = tmp_path / "p.jsonl"
    lines = (OUTPUTS / "llm.jsonl").read_text(encoding="utf-8").splitlines()
    other.write_text(lines[1] + "\n" + lines[0] + "\n", encoding="utf-8")  # in another order
    with pytest.raises(InputError, match="write the prediction documents in the gold file's order"):
        nerve.score(GOLD, str(other))


def test_convert_writes_the_located_entities_and_counts_the_hallucinated(tmp_path: Path) -> None:
    out = tmp_path / "located.jsonl"
    report = convert(str(OUTPUTS / "llm.jsonl"), str(out), to="jsonl")
    assert report.lost == {"hallucinated entities (not found in their text: no offsets to write)": 2}
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [d["text"] for d in written] == [
        d["text"] for d in map(json.loads, Path(GOLD).read_text().splitlines())
    ]
    assert nerve.score(GOLD, str(out)).micro.fp == nerve.score(GOLD, str(OUTPUTS / "llm.jsonl")).micro.fp - 2


@pytest.mark.parametrize("name", ["pipeline-tokens.jsonl", "pipeline-grouped.json"])
def test_the_sweep_over_pipeline_scores_is_min_score_at_each_threshold(name: str) -> None:
    path = str(OUTPUTS / name)
    rows = nerve.score(GOLD, path, sweep=True).sweep.to_dict()["rows"]  # type: ignore[union-attr]
    assert len(rows) == 5  # one threshold per distinct (merged) score
    for row in rows:
        at = nerve.score(GOLD, path, min_score=row["threshold"]).micro
        assert (row["tp"], row["fp"], row["fn"]) == (at.tp, at.fp, at.fn), row


def test_a_side_named_wrongly_is_fixed_by_its_keyword() -> None:
    llm = str(OUTPUTS / "llm.jsonl")
    with pytest.raises(InputError) as err:
        nerve.score(GOLD, llm, pred_format="hf-pipeline")
    assert str(err.value).endswith("looks like entity-list, not hf-pipeline: pass pred_format='entity-list'")
    with pytest.raises(InputError) as err:
        nerve.score(GOLD, llm, gold_format="entity-list")
    assert (err.value.source, err.value.line) == (GOLD, 1)
    assert str(err.value).endswith("looks like jsonl, not entity-list: pass gold_format='jsonl'")
