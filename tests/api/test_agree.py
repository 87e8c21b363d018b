"""`nerve.agree`: inputs of several annotators, and pairwise F1 against bratiaa and against `nerve.score`.

Pairwise F1 is checked against ``bratiaa`` 0.1.4 on a brat project of five annotators made from
GermEval 2014 (the gold and four systems), and against `nerve.score` run pair by pair on a Label
Studio export of three annotators (``--gold-annotator``/``--pred-annotator``). The readers of one
export of several (Label Studio, doccano, CoNLL columns) and the refusals of bad input too.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

import nerve
from agree_corpora import NAMES, chunks, germeval_sentences
from conftest import ROOT, need
from nerve.errors import InputError, OptionError

EXPORT = ROOT / "examples" / "agreement" / "labelstudio.json"


def test_label_studio_annotators_and_the_task_one_left_out() -> None:
    result = nerve.agree(EXPORT)
    assert result.names == ("3", "7", "9")
    seven = result.annotators[1]
    assert (seven.documents, seven.missing) == (3, ("task-4",))
    assert any("annotator 7 left out 1 document (task-4)" in w for w in result.warnings)
    assert result.pair("3", "7").documents == 3  # type: ignore[union-attr]
    assert result.pair("3", "9").documents == 4  # type: ignore[union-attr]


@pytest.mark.parametrize(("a", "b"), list(combinations(("3", "7", "9"), 2)))
def test_pairwise_f1_is_score_of_one_annotator_against_the_other(a: str, b: str) -> None:
    """Each cell is `nerve.score` with one annotator as gold and the other as predictions."""
    pair = nerve.agree(EXPORT, bootstrap=None).pair(a, b)
    scored = nerve.score(EXPORT, gold_annotator=a, pred_annotator=b, metrics="exact,muc")
    assert pair is not None
    assert scored.muc is not None
    assert pair.exact == scored.micro
    assert pair.partial == scored.muc.modes["partial"].overall
    assert {t: s.f1 for t, s in pair.exact_types.items()} == {t: s.f1 for t, s in scored.per_type.items()}


def test_picked_annotators_are_named_in_order() -> None:
    result = nerve.agree(EXPORT, annotators="9,3")
    assert result.names == ("9", "3")
    assert len(result.pairs) == 1
    renamed = nerve.agree(EXPORT, annotators="9=carol,3=alice")
    assert renamed.names == ("carol", "alice")
    assert renamed.pairs[0].exact == result.pairs[0].exact
    with pytest.raises(OptionError, match="names an annotator twice"):
        nerve.agree(EXPORT, annotators="9=x,3=x")


def _brat_project(root: Path, per_doc: int, documents: int) -> list[Path]:
    """GermEval's first sentences as a brat project: one directory per annotator, documents of
    ``per_doc`` sentences (tokens joined by spaces, a sentence a line), and annotation.conf."""
    from conftest import shared_data_dir

    sentences = germeval_sentences(shared_data_dir(), per_doc * documents)
    dirs = [root / name for name in NAMES]
    for d in dirs:
        d.mkdir(parents=True)
    (root / "annotation.conf").write_text(
        "[entities]\nLOC\nORG\nOTH\nPER\n[relations]\n[events]\n[attributes]\n"
    )
    for k in range(documents):
        lines, anns = [], [[] for _ in NAMES]
        base = 0
        for sentence in sentences[k * per_doc : (k + 1) * per_doc]:
            tokens = [t for t, _ in sentence]
            starts = [base + sum(len(t) + 1 for t in tokens[:i]) for i in range(len(tokens))]
            for a in range(len(NAMES)):
                for s, e, y in chunks([tags[a] for _, tags in sentence]):
                    start, end = starts[s], starts[e - 1] + len(tokens[e - 1])
                    anns[a].append((y, start, end))
            lines.append(" ".join(tokens))
            base += len(lines[-1]) + 1
        text = "\n".join(lines) + "\n"
        for a, d in enumerate(dirs):
            (d / f"doc{k:02d}.txt").write_text(text, encoding="utf-8")
            rows = [f"T{i + 1}\t{y} {s} {e}\t{text[s:e]}" for i, (y, s, e) in enumerate(anns[a])]
            (d / f"doc{k:02d}.ann").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return dirs


@pytest.mark.slow
def test_pairwise_f1_matches_bratiaa_on_five_annotators(tmp_path: Path) -> None:
    """bratiaa's total F1 matrix of a real brat project of five annotators is nerve's exact F1 matrix."""
    bratiaa = need("bratiaa")
    dirs = _brat_project(tmp_path / "project", 20, 8)
    theirs = bratiaa.compute_f1_agreement(str(tmp_path / "project"))
    matrix = theirs.compute_total_f1_matrix()
    order = theirs.annotators  # sorted names
    result = nerve.agree(*dirs, bootstrap=100)
    project = nerve.agree(tmp_path / "project", bootstrap=None)  # bratiaa's layout: annotators by name
    assert project.names == tuple(sorted(NAMES))
    assert project.matrix("exact") == result.matrix("exact")
    assert project.alpha.value == result.alpha.value
    assert result.documents == 8
    ours = result.matrix("exact")
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            if a != b:
                assert ours[a][b] == pytest.approx(matrix[i][j], abs=1e-12)
    assert result.mean_f1.interval is not None  # eight documents: an interval, flagged few_units
    assert result.bootstrap is not None
    assert [f.kind for f in result.bootstrap.flags] == ["few_units"]


def test_brat_directories_pair_documents_by_name(tmp_path: Path) -> None:
    """A file one annotator lacks is a document they left out, named."""
    for name, files in (("a", ("x", "y")), ("b", ("x",))):
        (tmp_path / name).mkdir()
        for f in files:
            (tmp_path / name / f"{f}.txt").write_text("Ada met Bob .\n")
            (tmp_path / name / f"{f}.ann").write_text("T1\tPER 0 3\tAda\n")
    result = nerve.agree(tmp_path / "a", tmp_path / "b")
    assert result.annotators[1].missing == ("y",)
    assert result.pair("a", "b").exact.f1 == 1.0  # type: ignore[union-attr]


def test_a_conll_file_of_tag_columns_and_files_of_one_annotator_each(tmp_path: Path) -> None:
    """One file of three tag columns is three annotators, as are three files of one each."""
    rows = [("Ada", "B-PER", "B-PER", "O"), ("met", "O", "O", "O"), ("Bob", "B-PER", "B-ORG", "B-PER")]
    (tmp_path / "three.conll").write_text("\n".join(" ".join(r) for r in rows) + "\n")
    for k in range(3):
        (tmp_path / f"n{k}.conll").write_text("\n".join(f"{r[0]} {r[k + 1]}" for r in rows) + "\n")
    one = nerve.agree(tmp_path / "three.conll", bootstrap=None)
    many = nerve.agree(*(tmp_path / f"n{k}.conll" for k in range(3)), annotators="2,3,4", bootstrap=None)
    assert one.names == many.names == ("2", "3", "4")
    assert one.to_dict()["pairwise"] == many.to_dict()["pairwise"]
    assert one.matrix("exact")["2"]["3"] == 0.5
    spaced = tmp_path / "spaced.conll"  # runs of spaces and tabs between the columns
    spaced.write_text("\n".join("  ".join(r[:2]) + "\t " + " ".join(r[2:]) for r in rows) + "\n")
    assert nerve.agree(spaced, bootstrap=None).to_dict()["pairwise"] == one.to_dict()["pairwise"]


def test_a_doccano_export_of_several_users(tmp_path: Path) -> None:
    lines = [
        {"text": "Ada met Bob", "annotations": [
            {"start_offset": 0, "end_offset": 3, "label": "PER", "user": 1},
            {"start_offset": 0, "end_offset": 3, "label": "PER", "user": 2},
            {"start_offset": 8, "end_offset": 11, "label": "ORG", "user": 2},
        ]},
    ]  # fmt: skip
    path = tmp_path / "users.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    result = nerve.agree(path, input_format="doccano")
    assert result.names == ("1", "2")
    pair = result.pair("1", "2")
    assert pair is not None
    assert (pair.exact.tp, pair.exact.fp, pair.exact.fn) == (1, 1, 0)


def test_bad_input_is_refused_naming_the_file_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(
        InputError, match=r"labelstudio\.json: has no annotator '5': its annotators are 3, 7, 9"
    ):
        nerve.agree(EXPORT, annotators="3,5")
    with pytest.raises(InputError, match="one annotator only"):
        nerve.agree(EXPORT, annotators="3")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text('{"text": "Ada met Bob", "label": [[0, 3, "PER"]]}\n')
    b.write_text('{"text": "Ada met Rob", "label": [[0, 3, "PER"]]}\n')
    with pytest.raises(InputError, match=r"b\.jsonl: document doc0001: its text differs"):
        nerve.agree(a, b, input_format="doccano")
    b.write_text(a.read_text() * 2)
    with pytest.raises(InputError, match=r"has 2 documents, but .* has 1"):
        nerve.agree(a, b, input_format="doccano")
    with pytest.raises(InputError, match="holds one annotator's entities"):
        nerve.agree(a, input_format="doccano")
    with pytest.raises(OptionError, match="unit"):
        nerve.agree(EXPORT, unit="sentence")
    with pytest.raises(OptionError, match="consensus"):
        nerve.agree(EXPORT, out=tmp_path / "c.jsonl")


def test_score_of_an_export_given_twice_is_refused_without_annotators() -> None:
    with pytest.raises(InputError, match=r"holds 3 annotators .* score one against itself"):
        nerve.score(EXPORT, EXPORT)
    with pytest.raises(OptionError, match="pred_annotator"):
        nerve.score(EXPORT, gold_annotator="3")
    with pytest.raises(OptionError, match="gold_annotator"):
        nerve.score(ROOT / "examples" / "news.conll", gold_annotator="3")


def test_what_reading_changed_is_counted_and_warned(tmp_path: Path) -> None:
    """Repaired tags and entities widened to token edges are counted per annotator, and said."""
    (tmp_path / "tags.conll").write_text("Ada B-PER I-PER\nmet O O\nBob I-PER B-PER\n")
    result = nerve.agree(tmp_path / "tags.conll", bootstrap=None)
    assert dict(result.annotators[0].notes) == {
        "invalid transitions repaired by beginning an entity (O -> I)": 1
    }
    assert "annotator 2: 1 invalid transitions repaired by beginning an entity (O -> I)" in result.warnings
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text('{"text": "Ada-Lovelace met Bob", "label": [[0, 5, "PER"]]}\n')
    b.write_text('{"text": "Ada-Lovelace met Bob", "label": [[0, 3, "PER"]]}\n')
    widened = nerve.agree(a, b, input_format="doccano", bootstrap=None)
    assert [dict(x.notes) for x in widened.annotators] == [
        {"entities widened to token boundaries (a boundary fell inside a token) for the token labels": 1},
        {},
    ]
    assert widened.pairs[0].exact.f1 == 0.0  # the F1 is on the characters as marked
    # "Ada-L" covers the tokens Ada, -, Lovelace: PER PER PER O O against PER O O O O
    assert widened.pairs[0].kappa == pytest.approx((0.6 - 0.44) / (1 - 0.44))


def test_score_of_doccano_exports_of_several_users(tmp_path: Path) -> None:
    """Read as one side, users' spans would merge: refused; picked, one user against another."""
    line = {"text": "Ada met Bob", "annotations": [
        {"start_offset": 0, "end_offset": 3, "label": "PER", "user": 1},
        {"start_offset": 8, "end_offset": 11, "label": "PER", "user": 2},
    ]}  # fmt: skip
    path = tmp_path / "users.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(InputError, match=r"holds 2 annotators \(1, 2\): read as usual"):
        nerve.score(path, path, input_format="doccano")
    other = tmp_path / "other.jsonl"
    other.write_text(path.read_text())
    with pytest.raises(InputError, match=r"holds the spans of 2 users \(1, 2\)"):
        nerve.score(path, other, input_format="doccano")
    result = nerve.score(path, input_format="doccano", gold_annotator=1, pred_annotator=2)
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (0, 1, 1)
