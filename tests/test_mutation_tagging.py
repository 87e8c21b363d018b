"""Tagging behaviour the mutation run found unchecked: corpus fields, sides named, ids at the edges.

Small hand-made inputs only (tmp_path files), so these run inside mutmut's ``mutants/`` tree too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import need
from nerve.errors import InputError, InvalidSequenceError
from nerve.model.schemes import get_scheme
from nerve.model.vocab import TagVocab
from nerve.tagging.conlleval_rules import P_B, P_O, PerlTagTable
from nerve.tagging.decode import DecodeRules
from nerve.tagging.texts import read_bio_dirs, read_text_files

BAD_PRED = 2  # the third fixed scalar of a torch count vector: bad predicted ids


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


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
    assert corpus.scheme == "IOB2"
    assert corpus.gold.text == ["x y"]
    assert corpus.pred.text == ["x"]
    assert read_bio_dirs(label, pred, scheme="iobes", repair="discard").scheme == "IOBES"


def test_bio_dirs_name_the_gold_side_of_an_invalid_transition(tmp_path: Path) -> None:
    label, pred = dirs(tmp_path, "x O\ny I-PER\n", "x O\ny B-PER\n")
    with pytest.raises(InvalidSequenceError) as info:
        read_bio_dirs(label, pred, repair="error")
    assert [(p.source, p.line, p.side) for p in info.value.problems] == [(str(label / "a.bio"), 2, "gold")]


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


def test_raw_tag_table_makes_only_o_outside_by_default() -> None:
    # conlleval.pl -r without -o: every tag but ``O`` is ``B-`` and itself, whatever it spells.
    codes, types, _ = PerlTagTable(raw=True).lookup([b"O", b"XXOXX", b"PER", b"O"])
    assert codes.tolist() == [P_O, P_B, P_B, P_O]
    assert types.tolist() == [0, 1, 2, 0]


# --- the torch decoder: ids at the edges of the label list ---------------------------------------


def _tables(labels: list[str]) -> Any:
    from nerve.tagging.torch_decode import DeviceTables

    fixed = get_scheme("IOB2")
    vocab = TagVocab(scheme=fixed)
    ids = vocab.add(labels)
    return DeviceTables.build(vocab, DecodeRules.of(vocab, fixed), np.asarray(ids, dtype=np.int64), "cpu")


def _counts(tables: Any, gold: list[list[int]], pred: list[list[int]], **kw: Any) -> Any:
    torch = need("torch")
    from nerve.tagging.torch_decode import batch_counts, split_counts

    lengths = kw.get("lengths")
    out = batch_counts(
        torch.tensor(gold),
        torch.tensor(pred),
        None if lengths is None else torch.tensor(lengths),
        kw.get("ignore"),
        tables,
        "begin",
    ).numpy()
    return out, split_counts(out, tables)


def test_torch_counts_a_predicted_id_one_past_the_labels() -> None:
    need("torch")
    t = _tables(["O", "B-PER", "I-PER"])
    c, _ = _counts(t, [[0, 1, 2]], [[0, 1, 3]])
    assert c[BAD_PRED] == 1


@pytest.mark.parametrize("bad", [-100, -4])
def test_torch_counts_a_far_negative_predicted_id(bad: int) -> None:
    need("torch")
    t = _tables(["O", "B-PER", "I-PER"])
    c, _ = _counts(t, [[0, 1, 2]], [[bad, 1, 2]])
    assert c[BAD_PRED] == 1


def test_torch_counts_a_bad_prediction_with_a_single_label() -> None:
    need("torch")
    only_o = _tables(["O"])
    c, parts = _counts(only_o, [[0, 0]], [[0, 1]])
    assert c[BAD_PRED] == 1
    assert parts["tokens"] == 2


def test_torch_skips_positions_past_the_lengths_with_a_single_label() -> None:
    need("torch")
    only_o = _tables(["O"])
    _, parts = _counts(only_o, [[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]], lengths=[1, 3])
    assert (parts["tokens"], parts["correct"], parts["sentences"]) == (4, 4, 2)
    _, parts = _counts(only_o, [[0, -100], [0, 0]], [[0, 0], [0, 0]], ignore=-100)
    assert (parts["tokens"], parts["correct"]) == (3, 3)


def test_an_unknown_repair_policy_lists_the_known_ones() -> None:
    from nerve.errors import SchemeError
    from nerve.tagging.decode import get_policy

    assert get_policy("discard") == "discard"
    message = r"^Expected a repair policy among begin, conlleval, discard, error, but got 'mend'$"
    with pytest.raises(SchemeError, match=message):
        get_policy("mend")
