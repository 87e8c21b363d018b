"""Entities by text from CoNLL files and BIO directories (`tagging.texts`): columns, policies, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from nerve.errors import InputError, InvalidSequenceError, NerveError, SchemeError
from nerve.tagging.texts import read_bio_dirs, read_text_files

MERGED = (
    "-DOCSTART- O O\n\nJohn B-PER B-PER\nSmith I-PER O\nsaid O I-ORG\n\n-DOCSTART- O O\n\nParis B-LOC B-LOC\n"
)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_merged_file_reads_gold_from_the_second_last_column_with_iob2_and_begin(tmp_path: Path) -> None:
    corpus = read_text_files(write(tmp_path / "m.conll", MERGED))
    assert (corpus.scheme, corpus.repair) == ("IOB2", "begin")
    assert corpus.gold.text == ["John Smith", "Paris"]
    assert corpus.gold.category == ["PER", "LOC"]
    assert corpus.gold.doc.tolist() == [0, 1]
    # The predicted I-ORG after O begins an entity under ``begin``, and counts as one repair.
    assert corpus.pred.text == ["John", "said", "Paris"]
    assert corpus.pred.category == ["PER", "ORG", "LOC"]
    assert corpus.repairs == (0, 1)
    assert corpus.documents == [f"{tmp_path / 'm.conll'}#1", f"{tmp_path / 'm.conll'}#2"]


def test_gold_and_prediction_files_each_read_their_last_column(tmp_path: Path) -> None:
    gold = write(tmp_path / "g.conll", "John X B-PER\nSmith X I-PER\n\nParis X B-LOC\n")
    pred = write(tmp_path / "p.conll", "John B-PER\nSmyth I-PER\n\nParis O\n")
    corpus = read_text_files(gold, pred, scheme="iob2", repair="discard")
    assert (corpus.scheme, corpus.repair) == ("IOB2", "discard")
    assert corpus.gold.text == ["John Smith", "Paris"]
    assert corpus.pred.text == ["John Smyth"]
    assert corpus.pred.category == ["PER"]
    assert corpus.documents == [f"{gold}#1"]


def test_discard_drops_what_begin_repairs(tmp_path: Path) -> None:
    path = write(tmp_path / "m.conll", "a O I-PER\nb O I-PER\nc B-LOC B-LOC\n")
    begin = read_text_files(path)
    assert begin.pred.text == ["a b", "c"]
    discard = read_text_files(path, repair="discard")
    assert discard.pred.text == ["c"]
    assert discard.repairs == begin.repairs == (0, 1)


def test_error_names_each_side_file_and_line(tmp_path: Path) -> None:
    # The gold side is checked first: its problems alone are raised.
    path = write(tmp_path / "m.conll", "a B-PER B-PER\nb I-LOC I-PER\n\nc O I-ORG\n")
    with pytest.raises(InvalidSequenceError) as info:
        read_text_files(path, repair="error")
    assert info.value.scheme == "IOB2"
    found = [(p.source, p.line, p.side, p.previous, p.tag) for p in info.value.problems]
    assert found == [(str(path), 2, "gold", "B-PER", "I-LOC")]
    assert info.value.problems[0].message.startswith("invalid transition 'B-PER' -> 'I-LOC' (IOB2: ")
    path = write(tmp_path / "m.conll", "a B-PER B-PER\nb I-PER I-PER\n\nc O I-ORG\n")
    with pytest.raises(InvalidSequenceError) as info:
        read_text_files(path, repair="error")
    found = [(p.source, p.line, p.side, p.previous, p.tag) for p in info.value.problems]
    assert found == [(str(path), 4, "pred", None, "I-ORG")]
    gold = write(tmp_path / "g.conll", "a O\nb I-X\n")
    pred = write(tmp_path / "p.conll", "a O\nb O\n")
    with pytest.raises(InvalidSequenceError) as info:
        read_text_files(gold, pred, repair="error")
    assert [(p.source, p.line, p.side) for p in info.value.problems] == [(str(gold), 2, "gold")]
    pred = write(tmp_path / "p.conll", "a O\nb I-X\n")
    with pytest.raises(InvalidSequenceError) as info:
        read_text_files(write(tmp_path / "g.conll", "a O\nb O\n"), pred, repair="error")
    assert [(p.source, p.line, p.side) for p in info.value.problems] == [(str(pred), 2, "pred")]


def test_error_in_directories_names_the_file_and_its_line(tmp_path: Path) -> None:
    label, pred = tmp_path / "labels", tmp_path / "predictions"
    label.mkdir()
    pred.mkdir()
    for side in (label, pred):
        write(side / "a.bio", "x O\ny B-PER\n")
    write(label / "b.bio", "x O\ny B-PER\nz I-PER\n")
    write(pred / "b.bio", "x O\ny B-PER\nz I-LOC\n")
    with pytest.raises(InvalidSequenceError) as info:
        read_bio_dirs(label, pred, repair="error")
    [problem] = info.value.problems
    assert (problem.source, problem.line, problem.side) == (str(pred / "b.bio"), 3, "pred")
    assert (problem.previous, problem.tag) == ("B-PER", "I-LOC")
    assert problem.message.startswith("invalid transition 'B-PER' -> 'I-LOC' (IOB2: ")
    assert str(info.value).startswith("1 invalid transition for scheme IOB2; first: ")


def test_sentence_ends_are_checked_in_every_sentence(tmp_path: Path) -> None:
    # IOBES: B-PER and I-PER may not end an entity; the first of two sentences ends with B-PER.
    path = write(tmp_path / "m.conll", "a S-X B-PER\n\nb O O\nc O I-PER\n")
    corpus = read_text_files(path, scheme="IOBES")
    assert corpus.scheme == "IOBES"
    assert corpus.repairs == (0, 3)
    with pytest.raises(InvalidSequenceError) as info:
        read_text_files(path, scheme="IOBES", repair="error")
    found = [(p.line, p.previous, p.tag) for p in info.value.problems]
    assert found == [(1, "B-PER", None), (4, "O", "I-PER"), (4, "I-PER", None)]


def test_a_different_number_of_documents_names_the_prediction(tmp_path: Path) -> None:
    gold = write(tmp_path / "g.conll", "-DOCSTART- O\n\na B-X\n\n-DOCSTART- O\n\nb O\n")
    pred = write(tmp_path / "p.conll", "-DOCSTART- O\n\na B-X\nb O\n")
    with pytest.raises(InputError) as info:
        read_text_files(gold, pred)
    assert info.value.source == str(pred)
    assert info.value.line is None
    assert info.value.detail == "has 1 document, but the gold has 2"


def test_conlleval_repair_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "m.conll", MERGED)
    with pytest.raises(
        NerveError, match=r"^the text metrics need entities; use --repair begin, discard or error$"
    ):
        read_text_files(path, repair="conlleval")


# BIO directories and repair policies (cases the mutation run found unchecked)


def dirs(tmp_path: Path, label: str, pred: str) -> tuple[Path, Path]:
    """A label and a prediction directory holding one file ``a.bio`` each."""
    label_dir, pred_dir = tmp_path / "labels", tmp_path / "predictions"
    label_dir.mkdir()
    pred_dir.mkdir()
    write(label_dir / "a.bio", label)
    write(pred_dir / "a.bio", pred)
    return label_dir, pred_dir


def test_bio_dirs_corpus_names_its_scheme(tmp_path: Path) -> None:
    label, pred = dirs(tmp_path, "x B-PER\ny I-PER\n", "x B-PER\ny O\n")
    corpus = read_bio_dirs(label, pred)
    assert (corpus.scheme, corpus.repair) == ("IOB2", "begin")
    assert corpus.gold.text == ["x y"]
    assert corpus.pred.text == ["x"]
    assert read_bio_dirs(label, pred, scheme="iobes", repair="discard").scheme == "IOBES"


def test_bio_dirs_name_the_gold_side_of_an_invalid_transition(tmp_path: Path) -> None:
    label, pred = dirs(tmp_path, "x O\ny I-PER\n", "x O\ny B-PER\n")
    with pytest.raises(InvalidSequenceError) as info:
        read_bio_dirs(label, pred, repair="error")
    problems = [(p.source, p.line, p.side, p.tag) for p in info.value.problems]
    assert problems == [(str(label / "a.bio"), 2, "gold", "I-PER")]


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_a_bad_prediction_directory_is_named(tmp_path: Path, kind: str) -> None:
    label = tmp_path / "labels"
    label.mkdir()
    write(label / "a.bio", "x O\n")
    pred = tmp_path / "predictions"
    if kind == "file":
        write(pred, "x O\n")
    with pytest.raises(InputError) as info:
        read_bio_dirs(label, pred)
    assert info.value.source == str(pred)
    assert info.value.detail == ("no such directory" if kind == "missing" else "is not a directory")


def test_bio_dirs_read_tags_spelled_b_dash_x_only(tmp_path: Path) -> None:
    label_dir, pred_dir = dirs(tmp_path, "John B_PER\nSmith I_PER\n", "John B_PER\nSmith I_PER\n")
    with pytest.raises(InputError):
        read_bio_dirs(label_dir, pred_dir)


def test_tags_are_read_as_prefix_tags_not_guessed(tmp_path: Path) -> None:
    # ``PER-B`` is a suffix tag; the text metrics read ``B-PER`` only and name the line.
    path = write(tmp_path / "m.conll", "a PER-B PER-B\nb PER-I PER-I\n")
    with pytest.raises(InputError) as info:
        read_text_files(path)
    assert info.value.source == str(path)
    assert info.value.line == 1


def test_an_entity_at_the_end_of_a_file_without_a_final_newline(tmp_path: Path) -> None:
    gold = write(tmp_path / "g.conll", "a O\nbc B-PER\nde I-PER")
    pred = write(tmp_path / "p.conll", "a O\nbc O\nde B-PER")
    corpus = read_text_files(gold, pred)
    assert corpus.gold.text == ["bc de"]
    assert corpus.pred.text == ["de"]
    label, pred_dir = dirs(tmp_path, "a O\nbc B-PER\nxyz I-PER", "a O\nbc O\nxyz B-LOC")
    corpus = read_bio_dirs(label, pred_dir)
    assert corpus.gold.text == ["bc xyz"]
    assert (corpus.pred.text, corpus.pred.category) == (["xyz"], ["LOC"])


def test_an_unknown_repair_policy_lists_the_policies(tmp_path: Path) -> None:
    message = r"^Expected a repair policy among begin, conlleval, discard, error, but got 'bogus'$"
    with pytest.raises(SchemeError, match=message):
        read_bio_dirs(tmp_path, tmp_path, repair="bogus")
    with pytest.raises(SchemeError, match=message):
        read_text_files(tmp_path / "x.conll", repair="bogus")
