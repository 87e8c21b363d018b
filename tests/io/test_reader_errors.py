"""User mistakes in CoNLL files and tag lists: each is one `InputError` naming the file, the line
and the option that fixes it, and the CLI prints it as one line with exit status 2.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from cli_errors import cli_error, refuse_to_open
from nerve import InputError
from nerve.cli import main
from nerve.errors import OptionError
from nerve.io.bytes import split_fields
from nerve.io.tags.conll import iter_conll, split_files
from nerve.io.tags.conll_align import SENTENCES_NOTE
from nerve.model.quoting import QUOTE_LIMIT, quote


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return str(path)


# ---------------------------------------------------------------------------------------------
# Quoted input is cut to a readable length.

LONG = 100_000


def test_quote() -> None:
    assert quote("a b") == "'a b'"
    assert quote(["a", 1]) == "['a', 1]"
    assert quote("x" * LONG) == f"'{'x' * QUOTE_LIMIT}'… (100,000 characters)"
    assert quote(["y"] * LONG) == f"{str(['y'] * LONG)[:QUOTE_LIMIT]}… (500,000 characters)"


def short_enough(message: str) -> None:
    assert len(message) < 400, message[:500]
    assert "…" in message
    lengths = [int(n.replace(",", "")) for n in re.findall(r"… \(([\d,]+) characters\)", message)]
    assert lengths, message
    assert all(n >= LONG for n in lengths)


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        # a line with the wrong number of columns
        ("a O O\n" + "b " * (LONG // 2) + "\n", None),
        # a tag that is not a tag
        ("a B-PER O\nb O " + "x" * LONG + "\n", None),
        # tokens that differ
        ("a O\n" + "b" * LONG + " O\n", "a O\nc O\n"),
        # one file goes on after the other has ended
        ("a O\n", "a O\n" + "b" * LONG + " O\n"),
    ],
    ids=["columns", "tag", "tokens", "length"],
)
def test_long_lines_are_cut_in_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gold: str, pred: str | None
) -> None:
    files = [write(tmp_path, "g.conll", gold)]
    if pred is not None:
        files.append(write(tmp_path, "p.conll", pred))
    with pytest.raises(InputError) as err:
        nerve.score(*files)
    short_enough(str(err.value))
    short_enough(cli_error(capsys, "score", *files))


def test_long_tags_are_cut_in_tag_list_messages() -> None:
    with pytest.raises(InputError) as err:
        nerve.score([["B-PER", "x" * LONG]], [["O", "O"]])
    short_enough(str(err.value))
    with pytest.raises(InputError) as err:
        nerve.score([["O", "O"]], [["O", ["y"] * LONG]])  # type: ignore[list-item]
    assert len(str(err.value)) < 400


# ---------------------------------------------------------------------------------------------
# Files that cannot be read: a directory, or no permission to read.

MERGED = "John B-PER B-PER\nSmith I-PER I-PER\nlives O O\n\nParis B-LOC O\n"
GOLD = "John B-PER\nSmith I-PER\nlives O\n\nParis B-LOC\n"


@pytest.mark.parametrize("which", ["gold", "pred"])
@pytest.mark.parametrize("command", ["score", "validate"])
def test_a_directory_as_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str, command: str
) -> None:
    folder = tmp_path / "folder.conll"
    folder.mkdir()
    gold = str(folder) if which == "gold" else write(tmp_path, "g.conll", GOLD)
    pred = str(folder) if which == "pred" else write(tmp_path, "p.conll", GOLD)
    with pytest.raises(InputError, match="directory") as err:
        getattr(nerve, command)(gold, pred)
    assert err.value.source == str(folder)
    line = cli_error(capsys, command, gold, pred)
    assert str(folder) in line
    assert "directory" in line


@pytest.mark.parametrize("which", ["merged", "gold", "pred"])
def test_a_file_without_read_permission(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    if which == "merged":
        files = [write(tmp_path, "m.conll", MERGED)]
    else:
        files = [write(tmp_path, "g.conll", GOLD), write(tmp_path, "p.conll", GOLD)]
    locked = files[-1] if which == "pred" else files[0]
    refuse_to_open(monkeypatch, locked)
    with pytest.raises(InputError, match="Permission denied") as err:
        nerve.score(*files)
    assert err.value.source == locked
    line = cli_error(capsys, "score", *files)
    assert line.startswith(f"nerve: error: {locked}: ")
    assert "Permission denied" in line
    if which != "merged":
        line = cli_error(capsys, "validate", *files)
        assert f"{locked}: " in line


def test_a_big_file_without_read_permission(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Big files are first looked at to cut them into ranges for threads.
    lines = "".join(f"w{i} O O\n" + ("\n" if i % 10 == 9 else "") for i in range(200_000))
    path = write(tmp_path, "big.conll", lines)
    assert nerve.score(path, workers=2).tokens.count == 200_000
    refuse_to_open(monkeypatch, path)
    with pytest.raises(InputError, match="Permission denied"):
        nerve.score(path, workers=2)


# ---------------------------------------------------------------------------------------------
# Old Mac line ends: a lone CR ends a line, as LF and CRLF do.

CORPUS = "-DOCSTART- O O\n\nJohn B-PER B-PER\nSmith I-PER I-PER\nlives O O\n\nParis B-LOC O\nand O B-ORG\n"


def rows_of(path: str, pred: str | None = None, block_bytes: int = 1 << 20) -> list[tuple[object, ...]]:
    reader = iter_conll(path, pred, block_bytes=block_bytes)
    tags = reader.vocab.tags
    out: list[tuple[object, ...]] = []
    for b in reader:
        golds = [tags[i] for i in b.gold.tolist()]
        preds = [tags[i] for i in b.pred.tolist()] if b.pred is not None else [None] * len(b)
        starts = (b.sentence_start.tolist(), b.document_start.tolist())
        out.extend(zip(golds, preds, *starts, b.line.tolist(), strict=True))
    return out


@pytest.mark.parametrize("block_bytes", [1, 2, 3, 5, 1 << 20])
@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_lone_cr_ends_a_line(tmp_path: Path, block_bytes: int, ending: str) -> None:
    plain = write(tmp_path, "lf.conll", CORPUS)
    odd = write(tmp_path, "cr.conll", CORPUS.replace("\n", ending))
    assert rows_of(odd, block_bytes=block_bytes) == rows_of(plain)
    gold, pred = split_merged(CORPUS)
    g = write(tmp_path, "g.conll", gold.replace("\n", ending))
    p = write(tmp_path, "p.conll", pred)  # LF: line ends may differ between the files
    assert rows_of(g, p, block_bytes=block_bytes) == rows_of(plain)


def test_lone_cr_files_score_and_report_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = write(tmp_path, "lf.conll", CORPUS)
    odd = write(tmp_path, "cr.conll", CORPUS.replace("\n", "\r"))
    assert nerve.score(odd) == nerve.score(plain)
    bad = write(tmp_path, "bad.conll", CORPUS.replace("\n", "\r").replace("lives O O", "lives O"))
    line = cli_error(capsys, "score", bad)
    assert f"{bad}:5:" in line
    assert "'lives O'" in line


def split_merged(merged: str) -> tuple[str, str]:
    """The gold file (token, gold tag) and the prediction file (token, predicted tag) of a merged file."""
    gold, pred = [], []
    for line in merged.splitlines():
        fields = line.split()
        gold.append(" ".join(fields[:-1]))
        pred.append(" ".join([*fields[:-2], fields[-1]]) if fields else "")
    return "\n".join(gold) + "\n", "\n".join(pred) + "\n"


def test_lone_cr_files_in_threads(tmp_path: Path) -> None:
    lines = [f"w{i} {'B-PER' if i % 3 else 'O'} {'B-PER' if i % 4 else 'O'}" for i in range(3000)]
    text = "\n".join(line + ("\n" if i % 7 == 6 else "") for i, line in enumerate(lines)) + "\n"
    plain = write(tmp_path, "lf.conll", text)
    one = nerve.score(plain, workers=1)
    cr = write(tmp_path, "cr.conll", text.replace("\n", "\r"))
    assert split_files(cr, None, 3) is None  # line numbers of ranges would be off
    assert nerve.score(cr, workers=3) == one
    # One lone CR near the start: an empty line, which ends a sentence.
    stray = write(tmp_path, "stray.conll", text.replace("\n", "\n\r", 1))
    assert split_files(stray, None, 3) is None
    assert nerve.score(stray, workers=3).sentences == one.sentences + 1
    gold, pred = split_merged(text)
    g, p = write(tmp_path, "g.conll", gold), write(tmp_path, "p.conll", pred.replace("\n", "\r"))
    assert split_files(g, p, 3) is None
    assert nerve.score(g, p, workers=3) == one


# ---------------------------------------------------------------------------------------------
# Tags without a scheme letter (label ids, lower-case tags) are not taken for entity types.


@pytest.mark.parametrize(
    ("tags", "hint"),
    [
        (["0", "1", "2", "0"], "map label ids to tags"),
        (["o", "b-per", "i-per", "o"], "upper case"),
        (["O", "PER", "PER", "LOC"], "--tag-format X"),
    ],
    ids=["ids", "lower-case", "bare-types"],
)
def test_tags_without_a_letter_need_the_tag_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tags: list[str], hint: str
) -> None:
    with pytest.raises(InputError, match="no scheme letter") as err:
        nerve.score([tags], [tags])
    assert hint in str(err.value)
    assert "--tag-format X" in str(err.value)
    content = "".join(f"w{i} {t} {t}\n" for i, t in enumerate(tags))
    path = write(tmp_path, "m.conll", content)
    first = next(i for i, t in enumerate(tags) if t != "O") + 1
    line = cli_error(capsys, "score", path)
    assert f"{path}:{first}: " in line
    assert hint in line
    gold = write(tmp_path, "g.conll", "".join(f"w{i} {t}\n" for i, t in enumerate(tags)))
    assert hint in cli_error(capsys, "validate", gold)
    # Said so, they are bare types of the IO scheme.
    result = nerve.score([tags], [tags], tag_format="X")
    assert result.settings.scheme == "IO"
    assert result.micro.f1 == 1.0
    assert main(["score", path, "--tag-format", "X"]) == 0
    capsys.readouterr()


def test_tag_lists_without_a_letter_in_decode() -> None:
    with pytest.raises(InputError, match="--tag-format X"):
        nerve.decode(["PER", "O", "LOC"])
    assert [s.label for s in nerve.decode(["PER", "O", "LOC"], tag_format="X")] == ["PER", "LOC"]


# ---------------------------------------------------------------------------------------------
# Messages name the option that fixes them.


def test_different_tokens_name_ignore_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", GOLD)
    pred = write(tmp_path, "p.conll", GOLD.replace("Smith", "Smyth"))
    with pytest.raises(InputError) as err:
        nerve.score(gold, pred)
    assert err.value.option == "--ignore-tokens"
    assert err.value.line == 2
    assert "--ignore-tokens" in cli_error(capsys, "score", gold, pred)
    assert nerve.score(gold, pred, check_tokens=False).micro.f1 == 1.0
    # Lines of different kinds are no token mismatch: --ignore-tokens would not help.
    blank = write(tmp_path, "b.conll", GOLD.replace("lives O\n", "lives O\n\n"))
    assert "--ignore-tokens" not in cli_error(capsys, "score", gold, blank, "--ignore-tokens")


@pytest.mark.parametrize(
    ("files", "line"),
    [
        # the comment has more columns than the lines after it
        ({"m.conll": "# sent_id = 1\n" + MERGED}, 2),
        # a one-column comment first
        ({"m.conll": "#begin\n" + MERGED}, 1),
        # the comment's last field is read as a tag
        ({"g.conll": "# 1\n" + GOLD, "p.conll": "# 1\n" + GOLD}, 1),
        # a comment in the gold file only
        ({"g.conll": "# newdoc id = a\n" + GOLD, "p.conll": "John B-PER\n" + GOLD}, 1),
        # a comment at the end of one file
        ({"g.conll": GOLD, "p.conll": GOLD + "# end\n"}, 6),
    ],
    ids=["columns", "one-column", "tag", "tokens", "length"],
)
def test_comment_lines_name_comments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str], line: int
) -> None:
    paths = [write(tmp_path, name, content) for name, content in files.items()]
    with pytest.raises(InputError) as err:
        nerve.score(*paths)
    assert err.value.option == "--comments"
    assert err.value.line == line
    assert "--comments" in cli_error(capsys, "score", *paths)
    if len(paths) == 1 or "newdoc" not in files["g.conll"]:
        nerve.score(*paths, comments=True)


@pytest.mark.parametrize(
    "content",
    ["John B-PER\nSmith I-PER\n\nParis B-LOC\n", "John NNP B-PER\nSmith NNP I-PER\n", "B-PER\nI-PER\n"],
    ids=["token-tag", "token-pos-tag", "tag"],
)
def test_one_tag_column_alone_needs_a_prediction_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = write(tmp_path, "g.conll", content)
    with pytest.raises(InputError, match="a single FILE must hold gold and predicted tags") as err:
        nerve.score(path)
    assert err.value.line == 1
    line = cli_error(capsys, "score", path)
    assert "a single FILE must hold gold and predicted tags" in line
    assert "PRED_FILE" in line
    assert nerve.score(path, path).micro.f1 == 1.0


def test_a_typo_in_a_merged_file_is_no_missing_column(tmp_path: Path) -> None:
    path = write(tmp_path, "m.conll", MERGED.replace("Smith I-PER", "Smith I_PER"))
    with pytest.raises(InputError, match="'I_PER' does not have the form B-X") as err:
        nerve.score(path)
    assert "PRED_FILE" not in str(err.value)


# ---------------------------------------------------------------------------------------------
# Tab-separated files with empty fields: --delimiter tab.

TAB_GOLD = "John\tNNP\tB-PER\nSmith\tNNP\tI-PER\n\n\t:\tO\nParis\tNNP\tB-LOC\n"
TAB_PRED = "John\tNNP\tB-PER\nSmith\tNNP\t\n\n\t:\tO\nParis\tNNP\tB-LOC\n"  # one tag left empty


def test_empty_tab_fields_need_the_delimiter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = write(tmp_path, "g.tsv", TAB_GOLD), write(tmp_path, "p.tsv", TAB_PRED)
    with pytest.raises(InputError) as err:  # runs of blanks, as asked: the empty tag is lost
        nerve.score(gold, pred, delimiter="whitespace")
    assert err.value.option == "--delimiter tab"
    assert "--delimiter tab" in cli_error(capsys, "score", gold, pred, "--delimiter", "whitespace")
    assert nerve.score(gold, pred) == nerve.score(gold, pred, delimiter="tab")  # sniffed: tab-separated
    result = nerve.score(gold, pred, delimiter="tab")
    assert result.tokens.count == 4
    # The empty tag is the outside tag: the PER entity is cut to one token.
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (1, 1, 1)
    assert main(["score", gold, pred, "--delimiter", "tab", "--output", "json"]) == 0
    assert '"tp": 1' in capsys.readouterr().out
    # Spaces are part of a field: the token of line 4 is empty in both files.
    spaced = write(tmp_path, "s.tsv", TAB_GOLD.replace("Paris", "Paris Hilton"))
    assert nerve.score(spaced, spaced, delimiter="tab").micro.f1 == 1.0
    # validate reads the same way.
    assert nerve.validate(pred, delimiter="tab", scheme="IOB2")[1] == []
    assert main(["validate", pred, "--delimiter", "tab", "--scheme", "IOB2"]) == 0
    capsys.readouterr()


def test_other_delimiters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    comma = write(tmp_path, "m.csv", "John,B-PER,B-PER\nSmith,I-PER,\nlives well,O,O\n")
    result = nerve.score(comma, delimiter=",")
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (0, 1, 1)
    assert result.tokens.count == 3
    for bad in ("", "ab", "\n", "é"):
        with pytest.raises(OptionError, match="delimiter"):
            nerve.score(comma, delimiter=bad)
    assert "delimiter" in cli_error(capsys, "score", comma, "--delimiter", "ab")


def test_blank_lines_with_a_delimiter(tmp_path: Path) -> None:
    # Lines of only spaces and tabs end sentences, as they do without a delimiter.
    path = write(tmp_path, "m.tsv", "a\tB-PER\tB-PER\n \t \nb\tI-PER\tI-PER\n")
    assert nerve.score(path, delimiter="tab").sentences == 2


def test_real_prediction_file_with_empty_tags(shared_data: Path) -> None:
    # spaCy left 54 tags empty (token<TAB>); the derived merge gave them the tag O.
    base = shared_data / "germeval2014"
    gold = base / "NER-de-test-conll-formated.txt"
    name = "spacy_trained_with_germeval_tested_on_germeval"
    with pytest.raises(InputError, match="--delimiter tab"):
        nerve.score(gold, base / "predictions" / f"{name}.tsv", delimiter="whitespace")
    result = nerve.score(gold, base / "predictions" / f"{name}.tsv", delimiter="tab")
    assert result == nerve.score(base / "merged" / f"{name}.gold-pred.txt")
    assert nerve.score(gold, base / "predictions" / f"{name}.tsv") == result  # sniffed: tab-separated


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.text(alphabet="ab, \t", max_size=10), min_size=1, max_size=8),
    delimiter=st.sampled_from([ord(","), ord(" "), ord("\t")]),
)
def test_split_fields_keeping_trailing_fields(lines: list[str], delimiter: int) -> None:
    data = ("\n".join(lines) + "\n").encode()
    table = split_fields(np.frombuffer(data, dtype=np.uint8), delimiter, keep_trailing=True)
    for i, line in enumerate(data.split(b"\n")[:-1]):
        expected = [] if not line.strip(b" \t") else line.split(bytes([delimiter]))
        count = int(table.count[i])
        first = int(table.first[i])
        got = [data[int(table.start[k]) : int(table.end[k])] for k in range(first, first + count)]
        assert got == expected
        if count:
            assert data[int(table.start[table.last[i]]) : int(table.end[table.last[i]])] == expected[-1]
        if count >= 2:
            k = int(table.second_last[i])
            assert data[int(table.start[k]) : int(table.end[k])] == expected[-2]


# ---------------------------------------------------------------------------------------------
# A prediction file without the gold file's -DOCSTART- lines aligns on sentences.

DOC_GOLD = (
    "-DOCSTART- -X- O\n\nJohn NNP B-PER\nSmith NNP I-PER\n\nHe PRP O\nran VBD B-LOC\n\n"
    "-DOCSTART- -X- O\n\nParis NNP B-LOC\n\n-DOCSTART- -X- O\nRome NNP B-LOC\n"
)
DOC_PRED_TAGS = "B-PER\nI-PER\n\nO\nO\n\nB-LOC\n\nB-LOC\n"
DOC_MERGED = (
    "-DOCSTART- -X- O O\n\nJohn NNP B-PER B-PER\nSmith NNP I-PER I-PER\n\nHe PRP O O\nran VBD B-LOC O\n\n"
    "-DOCSTART- -X- O O\n\nParis NNP B-LOC B-LOC\n\n-DOCSTART- -X- O O\nRome NNP B-LOC B-LOC\n"
)


@pytest.mark.parametrize("block_bytes", [1, 7, 40, 1 << 20])
@pytest.mark.parametrize("tokens", [False, True])
def test_prediction_without_docstart_lines(tmp_path: Path, block_bytes: int, tokens: bool) -> None:
    pred_text = DOC_PRED_TAGS
    if tokens:  # token and tag, still without -DOCSTART- lines
        words = iter(["John", "Smith", "He", "ran", "Paris", "Rome"])
        pred_text = "".join(f"{next(words)} {t}\n" if t else "\n" for t in DOC_PRED_TAGS.split("\n")[:-1])
    gold, pred = write(tmp_path, "g.conll", DOC_GOLD), write(tmp_path, "p.conll", pred_text)
    merged = write(tmp_path, "m.conll", DOC_MERGED)
    expected = rows_of(merged)
    assert [r[3] for r in expected] == [True, False, False, False, True, True]  # document starts
    assert rows_of(gold, pred, block_bytes=block_bytes) == expected
    result = nerve.score(gold, pred)
    assert result == replace(nerve.score(merged), notes={"pred": {SENTENCES_NOTE: 3}})  # and says so
    assert result.documents == 3
    assert nerve.validate(gold, pred, scheme="IOB2")[1] == []


def test_prediction_without_docstart_lines_reports_both_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = write(tmp_path, "g.conll", DOC_GOLD)
    pred = write(tmp_path, "p.conll", DOC_PRED_TAGS.replace("O\nO\n\n", "O\n\n"))  # a tag missing
    line = cli_error(capsys, "score", gold, pred)
    assert f"{gold}:7: does not match {pred}:5:" in line  # gold's 'ran' on line 7, pred's blank line 5


def test_prediction_with_docstart_lines_still_aligns_line_by_line(tmp_path: Path) -> None:
    gold = write(tmp_path, "g.conll", DOC_GOLD)
    pred = write(tmp_path, "p.conll", DOC_GOLD.replace("I-PER", "B-PER"))
    assert nerve.score(gold, pred).micro.tp == 3
    shifted = write(tmp_path, "s.conll", "x O\n" + DOC_GOLD)  # a line too many before a -DOCSTART-
    with pytest.raises(InputError):
        nerve.score(gold, shifted)


def test_prediction_without_docstart_lines_in_threads(tmp_path: Path) -> None:
    gold, pred, merged = [], [], []
    for d in range(300):
        gold += ["-DOCSTART- -X- O", ""]
        merged += ["-DOCSTART- -X- O O", ""]
        for s in range(5):
            for i in range(8):
                g, p = ("B-PER" if i % 3 == 0 else "O"), ("B-PER" if (i + d + s) % 4 == 0 else "O")
                gold.append(f"w{i} X {g}")
                merged.append(f"w{i} X {g} {p}")
                pred.append(p)
            gold.append("")
            merged.append("")
            pred.append("")
    g = write(tmp_path, "g.conll", "\n".join(gold) + "\n")
    p = write(tmp_path, "p.conll", "\n".join(pred) + "\n")
    m = write(tmp_path, "m.conll", "\n".join(merged) + "\n")
    assert split_files(g, p, 3) is None  # the same line numbers are not the same sentences
    assert nerve.score(g, p, workers=3) == replace(
        nerve.score(m, workers=1), notes={"pred": {SENTENCES_NOTE: 300}}
    )


# ---------------------------------------------------------------------------------------------
# A merged file given as the gold file, beside a prediction file.

# CoNLL-2003 layout (token, POS, chunk, NE): the chunk tags B-NP/I-VP have other types than the NE tags.
CONLL03 = (
    "-DOCSTART- -X- -X- O\n\n"
    "EU NNP B-NP B-ORG\nrejects VBZ B-VP O\nGerman JJ B-NP B-MISC\ncall NN I-NP O\nto TO B-VP O\n"
    "boycott VB I-VP O\nBritish JJ B-NP B-MISC\nlamb NN I-NP O\n. . O O\n\n"
    "Peter NNP B-NP B-PER\nBlackburn NNP I-NP I-PER\n"
)


def test_a_merged_file_as_the_gold_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    merged = write(tmp_path, "merged.conll", MERGED)
    pred = write(tmp_path, "pred.conll", "John B-PER\nSmith I-PER\nlives O\n\nParis O\n")
    assert nerve.score(merged).micro.f1 < 1.0
    with pytest.raises(InputError, match="looks like a merged file") as err:
        nerve.score(merged, pred)  # scored 100 %: the gold column read was the predicted one
    assert err.value.source == merged
    assert err.value.line == 1
    line = cli_error(capsys, "score", merged, pred)
    assert "gold and predicted tags in its last two columns" in line
    assert f"nerve score {merged}" in line


def test_conll2003_gold_with_its_chunk_column_is_no_merged_file(tmp_path: Path) -> None:
    gold = write(tmp_path, "g.conll", CONLL03)
    pred = write(tmp_path, "p.conll", CONLL03.replace("German JJ B-NP B-MISC", "German JJ B-NP O"))
    result = nerve.score(gold, pred)
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (3, 0, 1)


def test_real_merged_files_as_gold_files(shared_data: Path) -> None:
    wnut = shared_data / "wnut16"
    merged = wnut / "predictions" / "wnut16_CelmoWglove_lstmCrf_29275447_4533.txt"
    with pytest.raises(InputError, match="looks like a merged file"):
        nerve.score(merged, wnut / "test.txt")
    chunks = shared_data / "conll2000-chunking" / "output.txt"  # word POS gold guess
    with pytest.raises(InputError, match="looks like a merged file"):
        nerve.score(chunks, chunks)
    small = shared_data / "seqscore-fixtures" / "conll_merged_predictions" / "correct1.bio"
    with pytest.raises(InputError, match="looks like a merged file"):
        nerve.score(small, shared_data / "seqscore-fixtures" / "conll_predictions" / "correct1.bio")


def test_real_gold_files_with_more_tag_columns_are_no_merged_files(shared_data: Path) -> None:
    germeval = shared_data / "germeval2014"
    # token O O O tag, scored against a real prediction (the derived merge gives the reference)
    gold = germeval / "NER-de-test-conll-formated.txt"
    name = "germaner_trained_with_germeval_tested_on_germeval"
    pair = nerve.score(gold, germeval / "predictions" / f"{name}.tsv")
    assert pair == nerve.score(germeval / "merged" / f"{name}.gold-pred.txt")
    # two annotation layers (outer and nested entities) of one type set
    nested = germeval / "NER-de-test.tsv"
    assert nerve.score(nested, nested, comments=True).micro.f1 == 1.0
    # CoNLL-2003 layout with its -X- and chunk columns
    fin3 = shared_data / "sec-filings" / "FIN3.txt"
    assert nerve.score(fin3, fin3).micro.f1 == 1.0


def test_a_merged_file_whose_first_sentences_have_no_entities(tmp_path: Path) -> None:
    # The first block (one sentence here) tells nothing: the check goes on to the next ones.
    content = "This O O\nis O O\n\nUniversity B-ORG B-ORG\nof I-ORG I-ORG\n\nWest B-LOC B-LOC\n"
    merged = write(tmp_path, "m.conll", content)
    with pytest.raises(InputError, match="looks like a merged file"):
        nerve.score(merged, merged)
    for block_bytes in (1, 30):
        with pytest.raises(InputError, match="looks like a merged file"):
            list(iter_conll(merged, merged, block_bytes=block_bytes))


def test_merged_check_decides_on_enough_entities(tmp_path: Path) -> None:
    # Nested layers that agree on a few tokens only are not predictions.
    lines = ["a B-LOC B-LOC"] * 3 + ["b B-ORG B-LOC"] * 60 + ["c O O"]
    gold = write(tmp_path, "g.conll", "\n".join(lines) + "\n")
    pred = write(tmp_path, "p.conll", "\n".join(f"{x.split()[0]} O" for x in lines) + "\n")
    assert nerve.score(gold, pred).micro.tp == 0
