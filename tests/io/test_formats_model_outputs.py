"""The readers of model outputs: ``hf-pipeline`` (pipeline("ner") output) and ``entity-list``.

The pipeline files are hand-written in the exact shape ``TokenClassificationPipeline`` returns
(``transformers`` is not a test dependency): per sub-token with ``aggregation_strategy="none"``
(``entity``, ``score``, ``index``, ``word``, ``start``, ``end``) and grouped otherwise
(``entity_group``, ``score``, ``word``, ``start``, ``end``), including a grouped output whose
``word`` keeps a ``##`` sub-token marker, as a cased BERT model's "simple" aggregation gives it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nerve.errors import InputError, OptionError
from nerve.io.json.entity_list import HALLUCINATED_NOTE, REPEATED_NOTE, read_entity_list
from nerve.io.json.hf_pipeline import BELOW_MIN_SCORE, read_hf_pipeline, read_pipeline_documents
from nerve.io.outputs import HALLUCINATED, OutputReading, output_reading, reading_outputs
from nerve.io.spans import read_span_columns, validate_spans

ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = ROOT / "docs" / "examples" / "outputs"
TESLA = "Tesla's new Cybertruck is set to hit the roads in late 2023, according to CEO Elon Musk."
# A cased BERT NER model's "simple" aggregation of the text above: it splits words whose sub-tokens
# it tags B- (the shape of such outputs as the Inference API returns them).
TESLA_GROUPED = [
    {"entity_group": "ORG", "score": 0.979661226272583, "word": "Tesla", "start": 0, "end": 5},
    {"entity_group": "ORG", "score": 0.8453200459480286, "word": "Cybertru", "start": 12, "end": 20},
    {"entity_group": "MISC", "score": 0.7452507019042969, "word": "##ck", "start": 20, "end": 22},
    {"entity_group": "PER", "score": 0.9728273153305054, "word": "El", "start": 78, "end": 80},
    {"entity_group": "PER", "score": 0.9739447236061096, "word": "##on Musk", "start": 80, "end": 87},
]


def write(tmp_path: Path, name: str, value: Any, lines: bool = False) -> str:
    path = tmp_path / name
    text = "".join(json.dumps(v) + "\n" for v in value) if lines else json.dumps(value)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_sub_tokens_merge_by_the_pipelines_rule() -> None:
    docs = read_pipeline_documents(str(OUTPUTS / "pipeline-tokens.jsonl"))
    got = [[(e.start, e.end, e.label, e.word) for e in doc] for doc in docs]
    assert got == [
        [(0, 13, "PER", "Angela Me ##rk ##el"), (22, 27, "LOC", "Paris"), (31, 37, "MISC", "Monday")],
        [(0, 12, "ORG", "Hu ##gging Face"), (25, 33, "LOC", "New York")],
    ]
    assert docs[0][0].score == pytest.approx(
        (0.9991 + 0.9987 + 0.9979 + 0.9982) / 4
    )  # the mean, as the pipeline's


def test_grouped_and_sub_token_outputs_of_one_prediction_read_alike() -> None:
    grouped, _ = read_hf_pipeline(str(OUTPUTS / "pipeline-grouped.json"))
    tokens, _ = read_hf_pipeline(str(OUTPUTS / "pipeline-tokens.jsonl"))
    assert grouped.documents() == tokens.documents()


def test_a_grouped_output_with_sub_token_markers_is_checked_against_its_text(tmp_path: Path) -> None:
    path = write(tmp_path, "tesla.jsonl", [{"text": TESLA, "entities": TESLA_GROUPED}], lines=True)
    spans, none = read_hf_pipeline(path)
    assert none is None
    assert spans.documents() == [
        [(0, 5, "ORG"), (12, 20, "ORG"), (20, 22, "MISC"), (78, 80, "PER"), (80, 87, "PER")]
    ]
    assert [e.score for e in read_pipeline_documents(path)[0]] == [e["score"] for e in TESLA_GROUPED]


@pytest.mark.parametrize(
    ("entities", "expected"),
    [
        # I- opens an entity (IOB1 models), and goes on while the type stays and the tokens follow
        (
            [("I-PER", 1, 0, 4), ("I-PER", 2, 5, 9), ("B-PER", 3, 10, 14), ("I-LOC", 5, 20, 24)],
            [(0, 9, "PER"), (10, 14, "PER"), (20, 24, "LOC")],
        ),
        # an outside token left out of the output (index 2) ends the entity before it
        ([("B-PER", 1, 0, 4), ("I-PER", 3, 10, 14)], [(0, 4, "PER"), (10, 14, "PER")]),
        # tags without a prefix continue, as the pipeline's get_tag reads them
        ([("PER", 1, 0, 4), ("PER", 2, 4, 6), ("LOC", 3, 7, 9)], [(0, 6, "PER"), (7, 9, "LOC")]),
        # an O token kept (ignore_labels=[]) ends the entity too
        ([("B-PER", 1, 0, 4), ("O", 2, 5, 9), ("I-PER", 3, 10, 14)], [(0, 4, "PER"), (10, 14, "PER")]),
    ],
)
def test_sub_token_rules(
    tmp_path: Path, entities: list[tuple[str, int, int, int]], expected: list[Any]
) -> None:
    items = [
        {"entity": t, "score": 0.9, "index": i, "word": "w", "start": s, "end": e} for t, i, s, e in entities
    ]
    spans, _ = read_hf_pipeline(write(tmp_path, "p.json", [items]))  # a bare list of lists: no text to check
    assert spans.documents() == [expected]


def test_the_layouts_of_a_pipeline_file(tmp_path: Path) -> None:
    one = [{"entity_group": "PER", "score": 0.5, "word": "Ann", "start": 0, "end": 3}]
    expected = [[(0, 3, "PER")], []]
    for name, value, lines in [
        ("lists.json", [one, []], False),
        ("lists.jsonl", [one, []], True),
        ("docs.json", [{"id": 1, "entities": one}, {"id": 2, "entities": []}], False),
        ("docs.jsonl", [{"text": "Ann", "entities": one}, {"text": "Bo", "entities": []}], True),
    ]:
        assert read_hf_pipeline(write(tmp_path, name, value, lines))[0].documents() == expected, name
    single = read_hf_pipeline(write(tmp_path, "one.json", one))[0]  # one text's output: one document
    assert single.documents() == [[(0, 3, "PER")]]


def test_min_score_drops_and_counts(tmp_path: Path) -> None:
    with reading_outputs(output_reading(0.5, None, None)):
        spans, _ = read_hf_pipeline(str(OUTPUTS / "pipeline-grouped.json"))
    assert spans.notes == {BELOW_MIN_SCORE: 1}
    assert (31, 37, "MISC") not in spans.documents()[0]
    with reading_outputs(output_reading(1.0, None, None)):
        assert read_hf_pipeline(str(OUTPUTS / "pipeline-grouped.json"))[0].notes == {BELOW_MIN_SCORE: 5}


@pytest.mark.parametrize(
    ("entity", "wanted"),
    [
        ({"word": "Paris"}, "text[0:3] is 'Ann', not the word 'Paris'"),
        ({"score": 1.5}, "expected a score in [0, 1], got 1.5"),
        ({"start": None, "end": None}, 'no "start" and "end" offsets; offsets come from a fast tokenizer'),
        ({"end": 40}, "end 40 is beyond the text (9 characters)"),
        ({"start": 3, "end": 3}, "expected integer offsets 0 <= start < end, got 3 and 3"),
        ({"entity_group": 7}, 'expected a string under "entity_group", got 7'),
    ],
)
def test_bad_pipeline_entities(tmp_path: Path, entity: dict[str, Any], wanted: str) -> None:
    good = {"entity_group": "PER", "score": 0.9, "word": "Ann", "start": 0, "end": 3}
    path = write(
        tmp_path,
        "p.jsonl",
        [{"text": "Ann lives", "entities": []}, {"text": "Ann lives", "entities": [{**good, **entity}]}],
        True,
    )
    with pytest.raises(InputError) as err:
        read_hf_pipeline(path)
    assert err.value.source == path
    assert err.value.line == 2
    assert f"document 1 (line 2): entity 0: {wanted}" in str(err.value)
    assert len(validate_spans(path, fmt="hf-pipeline")) == 1  # collected, the reading goes on


def test_bad_pipeline_documents(tmp_path: Path) -> None:
    e = {"entity": "B-PER", "score": 0.9, "start": 0, "end": 1}
    mixed = write(tmp_path, "m.json", [[e, {**e, "entity_group": "PER"}]])
    with pytest.raises(InputError, match=r'every entity with "entity" .* or every one with "entity_group"'):
        read_hf_pipeline(mixed)
    keys = r"document 0 \(line 1\): expected an \"entities\" key, got the keys 'text'"
    with pytest.raises(InputError, match=keys):
        read_hf_pipeline(write(tmp_path, "k.jsonl", [{"text": "a"}], True))
    with pytest.raises(InputError, match="document 0: expected a list of entities, got 'PER'"):
        read_hf_pipeline(write(tmp_path, "l.json", [{"entities": "PER"}]))
    unscored = write(tmp_path, "s.json", [[{k: v for k, v in e.items() if k != "score"}]])
    with (
        pytest.raises(InputError, match="an entity has no score to compare with min_score"),
        reading_outputs(OutputReading(min_score=0.5)),
    ):
        read_hf_pipeline(unscored)


def test_a_word_unlike_its_text_is_counted_with_lenient(tmp_path: Path) -> None:
    gold = write(
        tmp_path, "g.jsonl", [{"text": "Ann lives", "spans": [{"start": 0, "end": 3, "label": "PER"}]}], True
    )
    bad = {"entity_group": "PER", "score": 0.9, "word": "Bob", "start": 0, "end": 3}
    pred = write(tmp_path, "p.jsonl", [{"text": "Ann lives", "entities": [bad]}], True)
    _, p = read_span_columns(gold, pred, lenient=True)
    assert p.documents() == [[(0, 3, "PER")]]
    assert sum(p.notes.values()) == 1


def test_uncased_and_accent_stripped_words_match(tmp_path: Path) -> None:
    text = "José Álvarez visited"
    items = [{"entity_group": "PER", "score": 0.9, "word": "jose alvarez", "start": 0, "end": 12}]
    assert read_hf_pipeline(write(tmp_path, "p.json", [{"text": text, "entities": items}]))[
        0
    ].documents() == [[(0, 12, "PER")]]


# --------------------------------------------------------------------------- entity-list


def test_entity_list_is_located_and_hallucinations_kept_apart() -> None:
    spans, none = read_entity_list(str(OUTPUTS / "llm.jsonl"))
    assert none is None
    # Berlin is not in the first text, "hugging face" not in the second (case counts by default):
    # each is placed past its text's end (38 and 39 characters), a false positive of its type
    assert spans.documents() == [
        [(0, 13, "PER"), (22, 27, "LOC"), (38, 39, "LOC")],
        [(25, 38, "LOC"), (39, 40, "ORG")],
    ]
    assert spans.notes == {HALLUCINATED_NOTE: 2}
    assert spans.attributes is not None
    assert spans.attributes[HALLUCINATED].tolist() == [None, None, "Berlin", None, "hugging face"]
    with reading_outputs(output_reading(None, None, "case")):
        found, _ = read_entity_list(str(OUTPUTS / "llm.jsonl"))
    assert found.documents()[1] == [(0, 12, "ORG"), (25, 38, "LOC")]
    assert found.notes == {HALLUCINATED_NOTE: 1}


@pytest.mark.parametrize(
    "entities",
    [
        [{"text": "Ann", "type": "PER"}, {"text": "Paris", "type": "LOC"}],
        [{"entity": "Ann", "label": "PER"}, {"mention": "Paris", "entity_type": "LOC"}],
        [{"span": "Ann", "category": "PER"}, {"name": "Paris", "tag": "LOC", "confidence": 0.3}],
        [["Ann", "PER"], ["Paris", "LOC"]],
        {"PER": ["Ann"], "LOC": ["Paris"]},
    ],
)
def test_entity_list_spellings(tmp_path: Path, entities: Any) -> None:
    path = write(tmp_path, "e.jsonl", [{"id": "a", "text": "Ann left Paris.", "entities": entities}], True)
    spans, _ = read_entity_list(path)
    assert sorted(spans.documents()[0]) == [(0, 3, "PER"), (9, 14, "LOC")]
    assert spans.attributes is None


@pytest.mark.parametrize(
    ("rule", "expected", "notes"),
    [
        ("in-order", [(0, 3, "PER"), (8, 11, "PER"), (16, 17, "PER")], {HALLUCINATED_NOTE: 1}),
        ("first", [(0, 3, "PER")], {REPEATED_NOTE: 2}),
        ("all", [(0, 3, "PER"), (8, 11, "PER")], {REPEATED_NOTE: 4}),
    ],
)
def test_locate_rules(tmp_path: Path, rule: str, expected: list[Any], notes: dict[str, int]) -> None:
    path = write(tmp_path, "e.jsonl", [{"text": "Ann and Ann met.", "entities": [["Ann", "PER"]] * 3}], True)
    with reading_outputs(output_reading(None, rule, None)):
        spans, _ = read_entity_list(path)
    assert spans.documents() == [expected]
    assert spans.notes == notes


@pytest.mark.parametrize(
    ("steps", "entity", "found"),
    [
        ("case", "NEW  YORK", (8, 17)),
        ("space", " New\n York ", (8, 17)),
        ("punct", "US", (0, 3)),
        ("nfkc", "ﬁne", (21, 25)),
        ("case,space,punct,nfkc", " u.s. ", (0, 3)),
    ],
)
def test_normalisation(tmp_path: Path, steps: str, entity: str, found: tuple[int, int]) -> None:
    text = "U.S. in New  York, a fine day"
    path = write(tmp_path, "e.jsonl", [{"text": text, "entities": [[entity, "X"]]}], True)
    assert read_entity_list(path)[0].notes == {HALLUCINATED_NOTE: 1}  # none: exact
    with reading_outputs(output_reading(None, None, steps)):
        spans, _ = read_entity_list(path)
    assert spans.documents() == [[(*found, "X")]]


@pytest.mark.parametrize(
    ("doc", "wanted"),
    [
        ({"text": "a", "entities": "Paris"}, "expected a list of entities under \"entities\", got 'Paris'"),
        ({"text": "a", "entities": [{"text": "a"}]}, "entity 0: expected a text (text, span"),
        ({"text": "a", "entities": [{"text": "a", "type": 3}]}, 'expected strings under "text" and "type"'),
        (
            {"text": "a", "entities": [{"start": 0, "end": 1, "label": "X"}]},
            "read as jsonl, or as hf-pipeline)",
        ),
        ({"text": "a", "entities": {"X": "a"}}, "type 'X': expected a list of entity texts"),
        ({"entities": []}, 'expected the source text, a string, under "text", got None'),
        (["a", "X"], 'expected {"id"?, "text", "entities"}'),
    ],
)
def test_bad_entity_lists(tmp_path: Path, doc: Any, wanted: str) -> None:
    path = write(tmp_path, "e.jsonl", [{"text": "x", "entities": []}, doc], True)
    with pytest.raises(InputError) as err:
        read_entity_list(path)
    assert (err.value.source, err.value.line) == (path, 2)
    assert wanted in str(err.value)


def test_output_options_are_checked() -> None:
    with pytest.raises(OptionError, match=r"min_score: expected a fraction in \[0, 1\], but got 1.5"):
        output_reading(1.5, None, None)
    with pytest.raises(OptionError, match="locate: expected one of in-order, first, all, but got 'last'"):
        output_reading(None, "last", None)
    with pytest.raises(OptionError, match="normalize: expected names among case, space, punct, nfkc"):
        output_reading(None, None, "case,accents")
    assert output_reading(None, None, ["space", "case"]).normalize == ("case", "space")  # in one order
    assert output_reading(None, None, "none").normalize == ()
    with pytest.raises(OptionError):  # NaN too
        output_reading(float("nan"), None, None)
