"""Entities by text from CoNLL files and BIO directories (`tagging.texts`): columns, policies, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from nerve.errors import InputError, InvalidSequenceError, NerveError
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
