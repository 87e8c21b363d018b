"""`nerve.api.agree_rows`: where the consensus is written, and in what, and what it records.

The consensus is written in the format ``to`` names, else the one ``out``'s extension names, else
JSONL; a target that is no format is refused naming ``to``; entities of the consensus that nest
cannot go into tags, and the refusal names the targets that hold them (agree has no
``--flatten``, the fix `nerve convert` gives). The `Consensus` records its rule, and ``written``
is ``None`` when nothing was written. Found by mutation testing: these passed every other test.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import nerve
from agree_corpora import nested_annotators
from agree_reference import disagreements_reference
from conftest import ROOT
from nerve.analysis.agree_votes import AGREE_CATEGORIES, votes_of
from nerve.api.agree_input import AnnotatorSpans
from nerve.api.agree_rows import check_agree_query, disagreements_of
from nerve.errors import OptionError
from nerve.io.write.tags import TokenColumns
from nerve.model.spans import SpanArray
from nerve.plan import InstanceQuery

EXPORT = ROOT / "examples" / "agreement" / "labelstudio.json"


def test_consensus_records_its_rule_and_nothing_written() -> None:
    result = nerve.agree(EXPORT, bootstrap=None, consensus="unanimous")
    assert result.consensus is not None
    assert result.consensus.rule == "unanimous"
    assert result.consensus.written is None
    found = result.consensus.to_dict()
    assert found["rule"] == "unanimous"
    assert found["written"] is None


def test_an_unknown_extension_is_written_as_jsonl(tmp_path: Path) -> None:
    out = tmp_path / "consensus.out"
    result = nerve.agree(EXPORT, bootstrap=None, consensus="majority", out=out)
    assert result.consensus is not None
    assert result.consensus.written == str(out)
    docs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(docs) == result.documents
    assert sum(len(d["spans"]) for d in docs) == result.consensus.entities > 0


def test_a_target_that_is_no_format_names_to(tmp_path: Path) -> None:
    with pytest.raises(OptionError) as err:
        nerve.agree(EXPORT, bootstrap=None, consensus="majority", out=tmp_path / "c.txt", to="xml")
    assert err.value.option == "to"
    assert "'xml'" in err.value.detail
    assert "jsonl" in err.value.detail


def test_a_nested_consensus_into_tags_names_the_targets_that_hold_it(tmp_path: Path) -> None:
    """Not "--flatten", which agree does not have: jsonl and brat write nested entities."""
    paths = nested_annotators(tmp_path)
    out = tmp_path / "c.conll"
    with pytest.raises(OptionError) as err:
        nerve.agree(*paths, bootstrap=None, consensus="majority", out=out)
    assert err.value.option == "to"
    assert "flatten" not in str(err.value)
    assert str(out) in err.value.detail
    assert "2 entities of the consensus nest" in err.value.detail
    assert "to='jsonl'" in err.value.detail
    assert "to='brat'" in err.value.detail
    assert not out.exists()
    kept = nerve.agree(*paths, bootstrap=None, consensus="majority", out=tmp_path / "c.jsonl")
    assert kept.consensus is not None
    assert kept.consensus.entities == 2


@pytest.mark.parametrize("words", [1, 2])
def test_context_words_longer_than_the_window_stay_whole(tmp_path: Path, words: int) -> None:
    """Words of 100 characters either side: the context holds them whole, not their last 64."""
    before, after = "a" * 99 + "z", "y" + "b" * 99
    text = f"{before} {before} Paris {after} {after}"
    at = text.index("Paris")
    marked = {"text": text, "spans": [{"start": at, "end": at + 5, "label": "LOC"}]}
    paths = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    paths[0].write_text(json.dumps(marked) + "\n", encoding="utf-8")
    paths[1].write_text(json.dumps({"text": text, "spans": []}) + "\n", encoding="utf-8")
    result = nerve.agree(*paths, bootstrap=None, instances=InstanceQuery(context=words))
    (row,) = result.disagreements.rows
    assert row.category == "missed"
    assert row.context == " ".join([before] * words + ["[[Paris]]"] + [after] * words)


def _alternating(tmp_path: Path, n: int) -> list[Path]:
    """``n`` words spaced apart, each marked A by one annotator; the other leaves the even ones out
    (``missed``) and marks the odd ones B (``type``): disagreements of two categories, alternating."""
    words = [f"w{i}" for i in range(n)]
    text = " . ".join(words)
    at = [text.index(f"w{i} ") if i < n - 1 else text.rindex(f"w{i}") for i in range(n)]
    one = [{"start": s, "end": s + len(w), "label": "A"} for s, w in zip(at, words, strict=True)]
    two = [
        {"start": s, "end": s + len(w), "label": "B"}
        for i, (s, w) in enumerate(zip(at, words, strict=True))
        if i % 2
    ]
    paths = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    for path, spans in zip(paths, (one, two), strict=True):
        path.write_text(json.dumps({"text": text, "spans": spans}) + "\n", encoding="utf-8")
    return paths


def _listed(paths: list[Path], query: InstanceQuery) -> list[tuple[str, str | None]]:
    rows = nerve.agree(*paths, bootstrap=None, instances=query).disagreements.rows
    return [(r.category, r.text) for r in rows]


def test_the_cap_keeps_the_first_of_each_category_in_order(tmp_path: Path) -> None:
    """60 disagreements, 30 of each category: the cap keeps the first 5 of each, by position."""
    paths = _alternating(tmp_path, 60)
    every = _listed(paths, InstanceQuery())
    assert len(every) == 60
    want = [r for r in every if r[0] == "missed"][:5] + [r for r in every if r[0] == "type"][:5]
    capped = _listed(paths, InstanceQuery(per_category=5))
    assert capped == sorted(want, key=every.index)
    assert capped[:2] == [("missed", "w0"), ("type", "w1")]


def test_types_and_categories_filter_together(tmp_path: Path) -> None:
    """A type picks the clusters holding an entity of it, within the categories asked for."""
    paths = _alternating(tmp_path, 8)
    every = _listed(paths, InstanceQuery())
    assert _listed(paths, InstanceQuery(types=("B",))) == [r for r in every if r[0] == "type"]
    assert _listed(paths, InstanceQuery(types=("A",))) == every
    assert _listed(paths, InstanceQuery(categories=("missed",), types=("A",))) == every[::2]
    assert _listed(paths, InstanceQuery(categories=("missed",), types=("B",))) == []
    assert _listed(paths, InstanceQuery(categories=("type",), types=("B",))) == every[1::2]


def test_a_type_filter_over_annotators_who_marked_nothing(tmp_path: Path) -> None:
    paths = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    for path in paths:
        path.write_text(json.dumps({"text": "nothing here", "spans": []}) + "\n", encoding="utf-8")
    result = nerve.agree(*paths, bootstrap=None, instances=InstanceQuery(types=("A",)))
    assert result.disagreements.total == 0
    assert result.disagreements.rows == ()


def test_frequency_puts_the_most_frequent_surfaces_first(tmp_path: Path) -> None:
    """Surfaces marked 3, 2 and 1 times apart: most frequent first, by position among equals."""
    words = ["y", "x", "z", "x", "y", "x"]
    text = " . ".join(words)
    at = [2 * 2 * i for i in range(len(words))]  # "w . " is 4 characters
    one = [{"start": s, "end": s + 1, "label": "A"} for s in at]
    paths = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    paths[0].write_text(json.dumps({"text": text, "spans": one}) + "\n", encoding="utf-8")
    paths[1].write_text(json.dumps({"text": text, "spans": []}) + "\n", encoding="utf-8")
    by_position = nerve.agree(*paths, bootstrap=None, instances=InstanceQuery()).disagreements.rows
    assert [r.text for r in by_position] == words
    rows = nerve.agree(*paths, bootstrap=None, instances=InstanceQuery(sort="frequency")).disagreements.rows
    assert [(r.text, r.start) for r in rows] == [
        ("x", 4),
        ("x", 12),
        ("x", 20),
        ("y", 0),
        ("y", 16),
        ("z", 8),
    ]


def test_more_annotators_than_bits_in_an_int64() -> None:
    """64 annotators: who marked what is kept beyond 62 of them, as the row-by-row reference has it."""
    m = 64
    marked = [[(0, 1, "A")] if a % 3 else [(0, 2, "B")] if a % 2 else [] for a in range(m)]
    marked[m - 1] = [(0, 1, "A"), (2, 3, "A")]
    spans = tuple(SpanArray.from_documents([doc]) for doc in marked)
    present = np.ones((m, 1), dtype=np.bool_)
    tokens = TokenColumns(["a", "b", "c"], np.asarray([0, 3]), np.asarray([True, False, False]))
    names = tuple(f"n{a}" for a in range(m))
    ann = AnnotatorSpans(names, names, spans, spans, present, ["d"], None, tokens, ("conll",) * m)
    votes = votes_of(list(spans), present)
    query = check_agree_query(InstanceQuery())
    found = disagreements_of(votes, ann, query)
    assert found == disagreements_reference(votes, ann, query)
    first, last = found.rows
    assert first.marks["n63"] == (("a", "A"),)
    assert first.marks["n3"] == (("a b", "B"),)
    assert first.marks["n0"] == ()
    assert last.marks["n63"] == (("c", "A"),)


def test_the_query_keeps_its_filters_and_refuses_other_categories() -> None:
    """Every category by default; a category of score's (``spurious``) refused, naming agree's."""
    assert check_agree_query(None) == InstanceQuery(categories=AGREE_CATEGORIES)
    asked = InstanceQuery(types=("A",), per_category=2, sort="frequency", context=1)
    assert check_agree_query(asked) == InstanceQuery(AGREE_CATEGORIES, ("A",), 2, "frequency", 1)
    with pytest.raises(OptionError) as err:
        check_agree_query(InstanceQuery(categories=("missed", "spurious")))
    assert err.value.option == "categories"
    assert err.value.detail == f"agreement lists the categories {', '.join(AGREE_CATEGORIES)}, got 'spurious'"
