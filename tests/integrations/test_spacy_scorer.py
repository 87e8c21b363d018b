"""The spaCy scorer against spaCy's own scorers, on WikiGold with spaCy's real predictions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import nerve
from conftest import ROOT, peer

spacy = peer("spacy")
from spacy.scorer import get_ner_prf  # noqa: E402
from spacy.tokens import Doc  # noqa: E402
from spacy.training import Example, iob_to_biluo  # noqa: E402
from spacy.training.iob_utils import biluo_tags_to_spans  # noqa: E402

from nerve.errors import OptionError  # noqa: E402
from nerve.integrations.spacy_scorer import SCORER, score_examples  # noqa: E402

WIKIGOLD = "wikigold/predictions/spacy-en_core_web_sm-3.6.0.conll-labels.gold-pred.txt"


def documents(path: Path) -> list[tuple[list[str], list[str], list[str]]]:
    """Words, gold and predicted tags of each ``-DOCSTART-`` document of a merged file."""
    docs: list[tuple[list[str], list[str], list[str]]] = [([], [], [])]
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split(" ")
        if fields[0] == "-DOCSTART-":
            docs.append(([], [], []))
        elif line.strip():
            for column, value in zip(docs[-1], (fields[0], fields[-2], fields[-1]), strict=True):
                column.append(value)
    return [d for d in docs if d[0]]


def tagged(nlp: Any, words: list[str], tags: list[str]) -> Doc:
    doc = Doc(nlp.vocab, words=words)
    doc.ents = biluo_tags_to_spans(doc, iob_to_biluo(tags))
    return doc


@pytest.fixture(scope="module")
def corpus() -> list[tuple[list[str], list[str], list[str]]]:
    from conftest import shared_data_dir

    return documents(shared_data_dir() / WIKIGOLD)


@pytest.fixture(scope="module")
def examples(corpus: list[tuple[list[str], list[str], list[str]]]) -> list[Example]:
    nlp = spacy.blank("en")
    return [Example(tagged(nlp, w, p), tagged(nlp, w, g)) for w, g, p in corpus]


def assert_spacy_scores(got: dict[str, Any], want: dict[str, Any], prefix: str) -> None:
    for k in ("p", "r", "f"):
        assert got[f"{prefix}_{k}"] == pytest.approx(want[f"{prefix}_{k}"], abs=1e-9), k
    theirs = {n: s for n, s in want[f"{prefix}_per_type"].items()}
    assert set(got[f"{prefix}_per_type"]) == set(theirs)
    for name, s in theirs.items():
        for k in ("p", "r", "f"):
            assert got[f"{prefix}_per_type"][name][k] == pytest.approx(s[k], abs=1e-9), (name, k)


def test_doc_ents_scores_equal_get_ner_prf(examples: list[Example]) -> None:
    scorer = spacy.registry.scorers.get(SCORER)()
    got = scorer(examples)
    assert_spacy_scores(got, get_ner_prf(examples), "ents")
    assert 0.3 < got["ents_f"] < 0.9
    nerve_keys = got["ents_nerve"]
    assert nerve_keys["counts"]["gold"] == sum(len(eg.reference.ents) for eg in examples)
    assert nerve_keys["counts"]["predicted"] == sum(len(eg.predicted.ents) for eg in examples)
    assert nerve_keys["ignored"] == {"examples": 0, "predictions": 0}
    assert nerve_keys["signature"].startswith("nerve ")


def test_scores_equal_nerve_on_the_same_tags(
    corpus: list[tuple[list[str], list[str], list[str]]], examples: list[Example]
) -> None:
    """Tags decoded by spaCy's iob_to_biluo here, by nerve there: the same exact and MUC scores."""
    got = score_examples(examples, muc=True)
    gold, pred = [g for _, g, _ in corpus], [p for _, _, p in corpus]
    result = nerve.score(gold, pred, metrics="exact,muc")
    assert got["ents_f"] == pytest.approx(result.micro.f1, abs=1e-12)
    assert got["ents_nerve"]["counts"]["tp"] == result.micro.tp
    assert result.muc is not None
    for mode, values in result.muc.to_dict().items():
        assert got[f"ents_muc_{mode}_f"] == pytest.approx(values["overall"]["f1"], abs=1e-12), mode
        assert got["ents_nerve"]["muc"][mode] == values["overall"]
    assert got["ents_muc_partial_f"] > got["ents_muc_strict_f"]


def test_span_groups_equal_spacys_spancat_scorer(examples: list[Example]) -> None:
    grouped = []
    for eg in examples:
        pred, gold = eg.predicted.copy(), eg.reference.copy()
        for doc in (pred, gold):
            doc.spans["sc"] = list(doc.ents)
            doc.ents = []
        grouped.append(Example(pred, gold))
    spancat = spacy.registry.scorers.get("spacy.spancat_scorer.v1")()
    want = spancat(grouped, spans_key="sc")
    by_config = spacy.registry.scorers.get(SCORER)(spans_key="sc")(grouped)
    by_component = spacy.registry.scorers.get(SCORER)()(grouped, spans_key="sc", threshold=0.5)
    assert_spacy_scores(by_config, want, "spans_sc")
    assert by_component == by_config
    assert by_config["spans_sc_f"] == pytest.approx(score_examples(examples)["ents_f"], abs=1e-12)
    with pytest.raises(OptionError, match="spans_key"):
        spacy.registry.scorers.get(SCORER)(spans_key="sc")(grouped, spans_key="other")


def test_other_tokenisation_and_missing_annotation_as_get_ner_prf(
    corpus: list[tuple[list[str], list[str], list[str]]],
) -> None:
    """Predictions on spaCy's own tokens, some gold docs half-annotated and one not at all."""
    nlp = spacy.blank("en")
    out = []
    for i, (words, gold_tags, pred_tags) in enumerate(corpus):
        gold = tagged(nlp, words, gold_tags)
        if i % 7 == 3:  # only the entities are known: predictions elsewhere are neither right nor wrong
            gold.set_ents(list(gold.ents), default="missing")
        if i == 5:
            gold = Doc(nlp.vocab, words=words)  # no entity annotation: the example is skipped
        pred = nlp.make_doc(gold.text)
        spans = [
            pred.char_span(e.start_char, e.end_char, e.label_, alignment_mode="expand")
            for e in tagged(nlp, words, pred_tags).ents
        ]
        pred.ents = spacy.util.filter_spans([s for s in spans if s is not None])
        out.append(Example(pred, gold))
    differ = sum(len(eg.predicted) != len(eg.reference) for eg in out)
    assert differ > 10  # the tokenisations really differ
    got = score_examples(out)
    assert_spacy_scores(got, get_ner_prf(out), "ents")
    assert got["ents_nerve"]["ignored"]["examples"] == 1
    assert got["ents_nerve"]["ignored"]["predictions"] > 0


def test_a_pipeline_configured_with_the_scorer_evaluates_with_it(examples: list[Example]) -> None:
    """An entity ruler whose config names the scorer: nlp.evaluate gives what get_ner_prf gives."""
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler", config={"scorer": {"@scorers": SCORER, "muc": True}})
    some = [eg.reference.ents for eg in examples[::3]]
    ruler.add_patterns([{"label": e.label_, "pattern": e.text} for ents in some for e in ents])
    gold = [Example(nlp.make_doc(eg.reference.text), eg.reference) for eg in examples[:40]]
    scores = nlp.evaluate(gold)
    predicted = [Example(nlp(eg.reference.text), eg.reference) for eg in gold]
    assert_spacy_scores(scores, get_ner_prf(predicted), "ents")
    assert scores["ents_f"] > 0
    assert {"ents_muc_partial_f", "ents_muc_type_p", "ents_nerve"} <= set(scores)
    assert nlp.config["components"]["entity_ruler"]["scorer"]["@scorers"] == SCORER


def test_options_are_checked() -> None:
    with pytest.raises(OptionError, match="min_iou"):
        score_examples([], min_iou=0.5)
    with pytest.raises(OptionError, match="min_iou"):
        spacy.registry.scorers.get(SCORER)(muc=True, min_iou=2.0)
    empty = score_examples([])
    assert empty["ents_f"] is None
    assert empty["ents_per_type"] is None


def test_entry_point_is_declared() -> None:
    """spaCy's registry finds the scorer by the ``spacy_scorers`` entry point of an installed nerve."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    point = "nerve.integrations.spacy_scorer:make_scorer"
    assert f'[project.entry-points.spacy_scorers]\n"{SCORER}" = "{point}"\n' in text
    module, _, name = point.partition(":")
    assert getattr(__import__(module, fromlist=[name]), name) is spacy.registry.scorers.get(SCORER)
