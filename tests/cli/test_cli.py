"""The ``nerve`` command end to end: ``score`` outputs, ``validate``, and every kind of bad input.

Most tests call `nerve.cli.main` in-process and read stdout/stderr with ``capsys``; a few run the
installed console script in a subprocess to check the entry point and that no traceback escapes.
Bad input must give exit status 2 and ONE line on stderr naming the file, the line and what was
expected.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import nerve
from nerve.cli import COMMANDS, main

# A merged file: token, gold tag, predicted tag. Gold has PER (1-2) and LOC (5); the prediction
# finds the PER only: tp 1, fp 0, fn 1, and 5 of 6 tokens tagged right.
MERGED = "John B-PER B-PER\nSmith I-PER I-PER\nlives O O\nin O O\nParis B-LOC O\n\nHe O O\n"
# The same corpus as a gold file and a prediction file (token, POS, tag).
GOLD = "John NNP B-PER\nSmith NNP I-PER\nlives VBZ O\nin IN O\nParis NNP B-LOC\n\nHe PRP O\n"
PRED = "John NNP B-PER\nSmith NNP I-PER\nlives VBZ O\nin IN O\nParis NNP O\n\nHe PRP O\n"

SCORE_KEYS = {"precision", "recall", "f1", "tp", "fp", "fn", "gold", "predicted"}
OUTPUTS = ("table", "json", "markdown", "csv", "latex")


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def score_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    code, out, err = run(capsys, "score", *args, "--output", "json")
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def assert_one_line_error(err: str, *fragments: str) -> str:
    """Stderr is exactly one line, without a traceback, containing every fragment."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {err!r}"
    line = lines[0]
    for fragment in fragments:
        assert fragment in line, f"{fragment!r} not in {line!r}"
    return line


def assert_bad_input(capsys: pytest.CaptureFixture[str], args: list[str], *fragments: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 2, (out, err)
    assert out == ""
    return assert_one_line_error(err, *fragments)


def nerve_exe() -> str:
    exe = Path(sys.executable).parent / "nerve"
    if exe.is_file():
        return str(exe)
    found = shutil.which("nerve")
    assert found is not None, "the nerve console script is not installed"
    return found


# ---------------------------------------------------------------------------------------------
# nerve score: the JSON object and the other outputs.


def check_score_dict(d: dict[str, object], *, fbeta: bool = False) -> None:
    expected = SCORE_KEYS | ({"fbeta"} if fbeta else set())
    assert set(d) == expected
    for key in ("precision", "recall", "f1", *(("fbeta",) if fbeta else ())):
        value = d[key]
        assert isinstance(value, float)
        assert 0.0 <= value <= 1.0
    for key in ("tp", "fp", "fn", "gold", "predicted"):
        assert isinstance(d[key], int)
        assert not isinstance(d[key], bool)
        assert d[key] >= 0
    assert d["gold"] == d["tp"] + d["fn"]
    assert d["predicted"] == d["tp"] + d["fp"]


def check_json_shape(d: dict[str, object], *, fbeta: bool = False) -> None:
    assert set(d) == {"signature", "tokens", "sentences", "documents", "exact", "repairs"}
    assert isinstance(d["signature"], str)
    assert d["signature"].startswith(f"nerve {nerve.__version__} |")
    tokens = d["tokens"]
    assert isinstance(tokens, dict)
    assert set(tokens) == {"count", "accuracy"}
    assert isinstance(tokens["count"], int)
    assert 0.0 <= tokens["accuracy"] <= 1.0
    exact = d["exact"]
    assert isinstance(exact, dict)
    assert set(exact) == {"micro", "macro", "weighted", "per_type"}
    for avg in ("micro", "macro", "weighted"):
        check_score_dict(exact[avg], fbeta=fbeta)
    assert isinstance(exact["per_type"], dict)
    for s in exact["per_type"].values():
        check_score_dict(s, fbeta=fbeta)
    assert isinstance(d["repairs"], dict)


def test_score_merged_file_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = score_json(capsys, write(tmp_path, "m.conll", MERGED))
    check_json_shape(d)
    assert d["tokens"] == {"count": 6, "accuracy": pytest.approx(5 / 6)}
    micro = d["exact"]["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"]) == (1, 0, 1)
    assert micro["precision"] == 1.0
    assert micro["recall"] == 0.5
    assert micro["f1"] == pytest.approx(2 / 3)
    assert set(d["exact"]["per_type"]) == {"PER", "LOC"}
    assert d["exact"]["per_type"]["PER"]["f1"] == 1.0
    assert d["exact"]["per_type"]["LOC"] == {
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
        "tp": 0,
        "fp": 0,
        "fn": 1,
        "gold": 1,
        "predicted": 0,
    }
    assert d["exact"]["macro"]["recall"] == pytest.approx(0.5)  # (1 + 0) / 2
    assert "scheme IOB2 (auto)" in d["signature"]


def test_score_gold_and_prediction_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = write(tmp_path, "g.conll", GOLD), write(tmp_path, "p.conll", PRED)
    pair = score_json(capsys, gold, pred)
    check_json_shape(pair)
    merged = score_json(capsys, write(tmp_path, "m.conll", MERGED))
    assert pair == merged


@pytest.mark.parametrize("output", OUTPUTS)
def test_every_output_carries_the_signature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    signature = score_json(capsys, path)["signature"]
    code, out, err = run(capsys, "score", path, "--output", output)
    assert code == 0
    assert err == ""
    assert signature in out
    assert "PER" in out
    assert "LOC" in out


def test_default_output_is_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    assert run(capsys, "score", path) == run(capsys, "score", path, "--output", "table")


def test_csv_output_has_fractions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    code, out, _ = run(capsys, "score", path, "--output", "csv")
    assert code == 0
    rows = [line.split(",") for line in out.splitlines() if not line.startswith("#")]
    header = rows[0]
    micro = next(r for r in rows if r[0] == "micro avg")
    assert float(micro[header.index("precision")]) == 1.0
    assert float(micro[header.index("recall")]) == 0.5


def test_beta_adds_fbeta(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    plain = score_json(capsys, path)
    d = score_json(capsys, path, "--beta", "0.5")
    check_json_shape(d, fbeta=True)
    micro = d["exact"]["micro"]
    p, r, b2 = micro["precision"], micro["recall"], 0.25
    assert micro["fbeta"] == pytest.approx((1 + b2) * p * r / (b2 * p + r))
    assert micro["f1"] == plain["exact"]["micro"]["f1"]
    assert "fbeta" not in plain["exact"]["micro"]
    assert "0.5" in d["signature"]
    for output in OUTPUTS:
        code, out, _ = run(capsys, "score", path, "--beta", "0.5", "--output", output)
        assert code == 0
        assert d["signature"] in out


def test_console_script_entry_point(tmp_path: Path) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    proc = subprocess.run(
        [nerve_exe(), "score", path, "--output", "json"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    check_json_shape(json.loads(proc.stdout))


def test_console_script_bad_input_has_no_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.conll", "John B-PER B-PER\nSmith I-PER\n")
    proc = subprocess.run([nerve_exe(), "score", path], capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert_one_line_error(proc.stderr, f"{path}:2")


# ---------------------------------------------------------------------------------------------
# Bad input: exit 2, one line on stderr naming the file and the line, no traceback.


def test_different_number_of_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", "John B-PER B-PER\nSmith I-PER I-PER\nsaid O\n")
    line = assert_bad_input(capsys, ["score", path], f"{path}:3", "3")
    assert "column" in line
    assert "said O" in line


def test_different_number_of_columns_in_prediction_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = write(tmp_path, "g.conll", GOLD)
    pred = write(tmp_path, "p.conll", PRED.replace("in IN O", "in O"))
    line = assert_bad_input(capsys, ["score", gold, pred], f"{pred}:4")
    assert "column" in line


@pytest.mark.parametrize("shorter", ["gold", "pred"])
def test_files_of_different_lengths(tmp_path: Path, capsys: pytest.CaptureFixture[str], shorter: str) -> None:
    full = GOLD
    cut = "".join(GOLD.splitlines(keepends=True)[:3])  # ends after line 3
    gold = write(tmp_path, "g.conll", cut if shorter == "gold" else full)
    pred = write(tmp_path, "p.conll", full if shorter == "gold" else cut)
    longer = pred if shorter == "gold" else gold
    line = assert_bad_input(capsys, ["score", gold, pred], f"{longer}:4")
    other = gold if shorter == "gold" else pred
    assert other in line.replace(f"{longer}:4", "")


def test_different_tokens_show_both_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", GOLD)
    pred = write(tmp_path, "p.conll", PRED.replace("Smith NNP", "Smyth NNP"))
    line = assert_bad_input(capsys, ["score", gold, pred], f"{gold}:2", f"{pred}:2")
    assert "Smith NNP I-PER" in line
    assert "Smyth NNP I-PER" in line


def test_tag_the_scheme_does_not_know(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", "John B-PER B-PER\nSmith E-PER I-PER\n")
    line = assert_bad_input(capsys, ["score", path, "--scheme", "IOB2"], f"{path}:2", "E-PER", "IOB2")
    assert "B-" in line  # says what was expected


@pytest.mark.parametrize(
    "content",
    [
        # gold E-PER on line 3, gold S-LOC on line 5
        "a O O\nb B-PER B-PER\nc E-PER O\nd O O\ne S-LOC O\n",
        # predicted E-PER on line 3, gold S-LOC on line 5
        "a O O\nb B-PER B-PER\nc O E-PER\nd O O\ne S-LOC O\n",
    ],
    ids=["gold-first", "pred-first"],
)
def test_unknown_tag_names_the_first_line_with_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = write(tmp_path, "m.conll", content)
    assert_bad_input(capsys, ["score", path, "--scheme", "IOB2"], f"{path}:3:", "E-PER")


def test_bytes_that_are_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", b"a O O\nb O O\nJos\xe9 B-PER B-PER\n")
    assert_bad_input(capsys, ["score", path], f"{path}:3", "--encoding")


def test_bytes_that_are_not_utf8_in_prediction_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = write(tmp_path, "g.conll", "a X O\nJose X B-PER\n")
    pred = write(tmp_path, "p.conll", b"a X O\nJos\xe9 X B-PER\n")
    assert_bad_input(capsys, ["score", gold, pred, "--ignore-tokens"], f"{pred}:2", "--encoding")


def test_latin1_is_read_with_encoding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = write(tmp_path, "latin.conll", "a O O\nJosé B-PER B-PER\nMüller I-PER O\n".encode("latin-1"))
    utf8 = write(tmp_path, "utf8.conll", "a O O\nJosé B-PER B-PER\nMüller I-PER O\n")
    d = score_json(capsys, latin, "--encoding", "latin-1")
    assert d == score_json(capsys, utf8)
    assert d["tokens"]["count"] == 3


def test_latin1_gold_and_prediction_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", "José NNP B-PER\n".encode("latin-1"))
    pred = write(tmp_path, "p.conll", "José NNP B-PER\n".encode("latin-1"))
    d = score_json(capsys, gold, pred, "--encoding", "latin-1")
    assert d["exact"]["micro"]["tp"] == 1


def test_non_utf8_line_number_in_a_file_read_in_several_blocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Over the 1 MiB read block (below the size at which files are read in parallel), with long
    # sentences so that whole lines are still waiting to be parsed when the bad byte is read.
    lines = []
    for i in range(120_000):
        lines.append(f"token{i} O O")
        if i % 1000 == 999:
            lines.append("")
    data = bytearray(("\n".join(lines) + "\n").encode())
    bad_line = len(lines) - 10
    assert lines[bad_line - 1]
    offset = sum(len(x) + 1 for x in lines[: bad_line - 1])
    data[offset] = 0xE9  # first byte of "token..." on that line
    path = write(tmp_path, "big.conll", bytes(data))
    assert_bad_input(capsys, ["score", path], f"{path}:{bad_line}:", "--encoding")


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "nothere.conll")
    assert_bad_input(capsys, ["score", path], path)


def test_missing_prediction_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", GOLD)
    pred = str(tmp_path / "nothere.conll")
    assert_bad_input(capsys, ["score", gold, pred], pred)


def test_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = assert_bad_input(capsys, ["score", str(tmp_path)], str(tmp_path))
    assert "directory" in line


def test_unknown_scheme(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    line = assert_bad_input(capsys, ["score", path, "--scheme", "NOPE"], "NOPE")
    assert "IOB2" in line  # lists what is accepted


def test_unknown_encoding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    assert_bad_input(capsys, ["score", path, "--encoding", "no-such-codec"], "no-such-codec")


def test_wrong_encoding_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    assert_bad_input(capsys, ["score", path, "--encoding", "utf-16"], path)


def test_one_column_merged_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", "John\nSmith\n")
    assert_bad_input(capsys, ["score", path], f"{path}:1", "column")


def test_repair_error_lists_every_invalid_transition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = "a O I-PER\nb I-PER O\nc O O\n\nd B-LOC I-ORG\ne I-LOC B-ORG\n"
    path = write(tmp_path, "m.conll", content)
    code, out, err = run(capsys, "score", path, "--scheme", "IOB2", "--repair", "error")
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    # pred I-PER at line 1 (sentence start), gold I-PER at line 2 (after O), pred I-ORG at line 5.
    for where in (f"{path}:1:", f"{path}:2:", f"{path}:5:"):
        assert any(line.startswith(where) for line in err.splitlines()), (where, err)
    assert not any(line.startswith((f"{path}:3:", f"{path}:4:", f"{path}:6:")) for line in err.splitlines())
    assert "3 invalid transitions" in err


def test_repair_error_with_valid_input_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "m.conll", MERGED)
    d = score_json(capsys, path, "--scheme", "IOB2", "--repair", "error")
    assert d["exact"]["micro"]["tp"] == 1


# ---------------------------------------------------------------------------------------------
# Valid inputs read transparently.


def test_empty_file_scores_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "empty.conll", b"")
    d = score_json(capsys, path)
    check_json_shape(d)
    assert d["tokens"]["count"] == 0
    assert d["exact"]["per_type"] == {}
    for avg in ("micro", "macro", "weighted"):
        assert d["exact"][avg]["f1"] == 0.0
        assert d["exact"][avg]["gold"] == 0
    for output in OUTPUTS:
        code, _, err = run(capsys, "score", path, "--output", output)
        assert code == 0, err


def test_empty_gold_and_prediction_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = write(tmp_path, "g.conll", b""), write(tmp_path, "p.conll", b"\n\n")
    assert score_json(capsys, gold, pred)["tokens"]["count"] == 0


@pytest.mark.parametrize(
    ("name", "transform"),
    [
        ("crlf", lambda b: b.replace(b"\n", b"\r\n")),
        ("bom", lambda b: b"\xef\xbb\xbf" + b),
        ("bom-crlf", lambda b: b"\xef\xbb\xbf" + b.replace(b"\n", b"\r\n")),
        ("no-final-newline", lambda b: b.rstrip(b"\n")),
    ],
)
def test_line_endings_and_bom_are_transparent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, transform: Callable[[bytes], bytes]
) -> None:
    plain = score_json(capsys, write(tmp_path, "plain.conll", MERGED))
    odd = score_json(capsys, write(tmp_path, f"{name}.conll", transform(MERGED.encode())))
    assert odd == plain
    gold = write(tmp_path, f"g-{name}.conll", transform(GOLD.encode()))
    pred = write(tmp_path, f"p-{name}.conll", transform(PRED.encode()))
    assert score_json(capsys, gold, pred) == plain


def test_crlf_gold_with_lf_prediction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", GOLD.replace("\n", "\r\n"))
    pred = write(tmp_path, "p.conll", "\ufeff" + PRED)
    assert score_json(capsys, gold, pred) == score_json(capsys, write(tmp_path, "m.conll", MERGED))


def test_comment_lines_need_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content = "# a comment line\n" + MERGED + "# another one\n"
    path = write(tmp_path, "c.conll", content)
    # Without --comments a '#' line is an ordinary line: here one with the wrong number of columns.
    assert_bad_input(capsys, ["score", path], f"{path}:2", "column")
    assert score_json(capsys, path, "--comments") == score_json(capsys, write(tmp_path, "m.conll", MERGED))


def test_comment_lines_are_tokens_without_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "c.conll", "# O O\n" + MERGED)
    assert score_json(capsys, path)["tokens"]["count"] == 7
    assert score_json(capsys, path, "--comments")["tokens"]["count"] == 6


def test_comment_lines_in_gold_and_prediction_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = write(tmp_path, "g.conll", "# sent_id = 1\n" + GOLD)
    pred = write(tmp_path, "p.conll", "# sent_id = 1\n" + PRED)
    d = score_json(capsys, gold, pred, "--comments")
    assert d == score_json(capsys, write(tmp_path, "m.conll", MERGED))


DOCS = (
    "-DOCSTART- -X- O O\n\nJohn NNP B-PER B-PER\nran VBD O O\n\n-DOCSTART- -X- O O\n\nParis NNP B-LOC B-LOC\n"
)


def test_docstart_lines_are_not_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "d.conll", DOCS)
    d = score_json(capsys, path)
    assert d["tokens"] == {"count": 3, "accuracy": 1.0}
    assert d["exact"]["micro"]["tp"] == 2
    code, out, _ = run(capsys, "score", path)
    assert code == 0
    assert "documents: 2" in out
    assert "sentences: 2" in out


def test_docstart_without_blank_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "d.conll", "-DOCSTART- O O\nJohn B-PER B-PER\n-DOCSTART- O O\nParis B-LOC B-LOC\n")
    d = score_json(capsys, path)
    assert d["tokens"]["count"] == 2
    code, out, _ = run(capsys, "score", path)
    assert code == 0
    assert "documents: 2" in out


def test_docstart_in_gold_and_prediction_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", "-DOCSTART- -X- O\n\n" + GOLD)
    pred = write(tmp_path, "p.conll", "-DOCSTART- -X- O\n\n" + PRED)
    d = score_json(capsys, gold, pred)
    assert d == score_json(capsys, write(tmp_path, "m.conll", MERGED))


def test_tab_and_space_delimiters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spaces = score_json(capsys, write(tmp_path, "s.conll", MERGED))
    tabs = score_json(capsys, write(tmp_path, "t.conll", MERGED.replace(" ", "\t")))
    mixed = score_json(capsys, write(tmp_path, "x.conll", MERGED.replace(" ", " \t  ")))
    assert spaces == tabs == mixed
    gold = write(tmp_path, "g.conll", GOLD.replace(" ", "\t"))
    pred = write(tmp_path, "p.conll", PRED)
    assert score_json(capsys, gold, pred) == spaces


@pytest.mark.parametrize(("gold_tail", "pred_tail"), [("\n\n\n", ""), ("", "\n\n"), ("\n", "\n\n\n\n")])
def test_trailing_blank_lines_may_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gold_tail: str, pred_tail: str
) -> None:
    gold = write(tmp_path, "g.conll", GOLD + gold_tail)
    pred = write(tmp_path, "p.conll", PRED + pred_tail)
    assert score_json(capsys, gold, pred) == score_json(capsys, write(tmp_path, "m.conll", MERGED))


def test_blank_line_in_one_file_only_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", GOLD)
    pred = write(tmp_path, "p.conll", PRED.replace("lives VBZ O\n", "lives VBZ O\n\n"))
    code, out, err = run(capsys, "score", gold, pred)
    assert code == 2
    assert out == ""
    assert_one_line_error(err, f"{gold}:4")


# ---------------------------------------------------------------------------------------------
# nerve validate.

TAG_FILE = "John B-PER\nSmith I-PER\nsaid O\nto I-ORG\nus O\n\nhey I-LOC\nyou O\n"


def test_validate_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "g.conll", TAG_FILE)
    code, out, err = run(capsys, "validate", path, "--scheme", "IOB2")
    assert code == 1
    assert err == ""
    problems = re.findall(rf"^{re.escape(path)}:(\d+):(.*)$", out, re.MULTILINE)
    assert [n for n, _ in problems] == ["4", "7"]
    assert "I-ORG" in problems[0][1]
    assert "I-LOC" in problems[1][1]


def test_validate_valid_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "g.conll", "John B-PER\nSmith I-PER\nsaid O\n\nParis B-LOC\n")
    code, out, err = run(capsys, "validate", path, "--scheme", "IOB2")
    assert code == 0
    assert err == ""
    assert f"{path}:" not in out


def test_validate_merged_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # gold I-PER after O on line 2; predicted I-PER at a sentence start (line 1) and I-ORG (line 5).
    path = write(tmp_path, "m.conll", "a O I-PER\nb I-PER O\nc O O\n\nd B-LOC I-ORG\n")
    code, out, _ = run(capsys, "validate", path, "--scheme", "IOB2", "--merged")
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith(f"{path}:")]
    assert len(lines) == 3
    for n in (1, 2, 5):
        assert any(line.startswith(f"{path}:{n}:") for line in lines)
    assert (
        run(capsys, "validate", write(tmp_path, "ok.conll", MERGED), "--scheme", "IOB2", "--merged")[0] == 0
    )


def test_validate_reads_a_merged_file_as_score_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # token POS gold pred, no --merged: gold I-LOC after O on line 2, pred I-ORG after O on line 4.
    path = write(tmp_path, "m.conll", "a NNP B-PER B-PER\nb NNP I-LOC O\nc NN O O\nd NN O I-ORG\n")
    code, out, err = run(capsys, "validate", path, "--scheme", "IOB2")
    assert code == 1, err
    problems = re.findall(rf"^{re.escape(path)}:(\d+): (gold|pred): .*'(I-\w+)'", out, re.MULTILINE)
    assert problems == [("2", "gold", "I-LOC"), ("4", "pred", "I-ORG")]
    assert nerve.validate(path, scheme="IOB2")[1] == nerve.validate(path, scheme="IOB2", merged=True)[1]
    # The example is merged too: its invalid transitions are in the prediction column.
    example = str(Path(__file__).resolve().parents[2] / "examples" / "news.conll")
    code, out, _ = run(capsys, "validate", example)
    assert code == 1
    assert re.findall(rf"^{re.escape(example)}:(\d+): (\w+):", out, re.MULTILINE) == [
        ("25", "pred"),
        ("40", "pred"),
    ]


def test_validate_a_file_with_one_tag_column_checks_it_as_gold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "g.conll", TAG_FILE)
    code, out, _ = run(capsys, "validate", path, "--scheme", "IOB2")
    assert code == 1
    sides = re.findall(rf"^{re.escape(path)}:(\d+): (\w+):", out, re.MULTILINE)
    assert sides == [("4", "gold"), ("7", "gold")]
    only_tags = write(tmp_path, "t.conll", "B-PER\nI-LOC\n")
    assert [(p.line, p.side) for p in nerve.validate(only_tags, scheme="IOB2")[1]] == [(2, "gold")]
    commented = write(tmp_path, "c.conll", "# a comment of words\nJohn B-PER\nSmith I-LOC\n")
    found = nerve.validate(commented, scheme="IOB2", comments=True)[1]
    assert [(p.line, p.side) for p in found] == [(3, "gold")]


def test_validate_names_the_side_of_each_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", GOLD.replace("Smith NNP I-PER", "Smith NNP I-ORG"))
    pred = write(tmp_path, "p.conll", PRED.replace("in IN O", "in IN I-LOC"))
    code, out, _ = run(capsys, "validate", gold, pred, "--scheme", "IOB2")
    assert code == 1
    assert re.search(rf"^{re.escape(gold)}:2: gold: .*'I-ORG'", out, re.MULTILINE)
    assert re.search(rf"^{re.escape(pred)}:4: pred: .*'I-LOC'", out, re.MULTILINE)


def test_validate_gold_and_prediction_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write(tmp_path, "g.conll", GOLD)
    pred = write(tmp_path, "p.conll", PRED.replace("Smith NNP I-PER", "Smith NNP I-LOC"))
    code, out, _ = run(capsys, "validate", gold, pred, "--scheme", "IOB2")
    assert code == 1
    assert re.search(rf"^{re.escape(pred)}:2:", out, re.MULTILINE)
    assert f"{gold}:" not in out


def test_validate_other_scheme(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "g.conll", "a B-PER\nb E-PER\nc S-LOC\nd I-LOC\n")
    code, out, _ = run(capsys, "validate", path, "--scheme", "IOBES")
    assert code == 1
    assert re.search(rf"^{re.escape(path)}:4:", out, re.MULTILINE)


def test_validate_unknown_tag_is_reported_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "g.conll", "John B-PER\nSmith E-PER\n")
    code, out, err = run(capsys, "validate", path, "--scheme", "IOB2")
    assert code in (1, 2)
    assert "Traceback" not in err
    assert f"{path}:2" in out + err


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{tmp}/nothere.conll", "--scheme", "IOB2"],
        ["validate", "{tmp}", "--scheme", "IOB2"],
        ["validate", "{tmp}/g.conll", "--scheme", "NOPE"],
    ],
    ids=["missing", "directory", "unknown-scheme"],
)
def test_validate_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    write(tmp_path, "g.conll", TAG_FILE)
    assert_bad_input(capsys, [a.format(tmp=tmp_path) for a in args])


def test_validate_non_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "g.conll", b"a O\nJos\xe9 B-PER\n")
    assert_bad_input(capsys, ["validate", path, "--scheme", "IOB2"], f"{path}:2", "--encoding")
    code, _, _ = run(capsys, "validate", path, "--scheme", "IOB2", "--encoding", "latin-1")
    assert code == 0


# ---------------------------------------------------------------------------------------------
# `-` is the standard input; a count of 1 is singular.


def stdin(monkeypatch: pytest.MonkeyPatch, content: str | bytes) -> None:
    data = content.encode("utf-8") if isinstance(content, str) else content
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_score_reads_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = score_json(capsys, write(tmp_path, "m.conll", MERGED))
    stdin(monkeypatch, MERGED)
    assert score_json(capsys, "-") == expected
    # Either side may be stdin, as long as only one is.
    gold, pred = write(tmp_path, "g.conll", GOLD), write(tmp_path, "p.conll", PRED)
    expected = score_json(capsys, gold, pred)
    stdin(monkeypatch, PRED)
    assert score_json(capsys, gold, "-") == expected
    stdin(monkeypatch, GOLD)
    assert score_json(capsys, "-", pred) == expected
    stdin(monkeypatch, MERGED)
    assert_bad_input(capsys, ["score", "-", "-"], "<stdin>", "not both")


def test_score_reads_stdin_with_an_encoding_and_names_it_in_errors(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin(monkeypatch, "a O O\nJosé B-PER B-PER\n".encode("latin-1"))
    assert score_json(capsys, "-", "--encoding", "latin-1")["tokens"]["count"] == 2
    stdin(monkeypatch, "a O O\nJosé B-PER B-PER\n".encode("latin-1"))
    assert_bad_input(capsys, ["score", "-"], "<stdin>:2", "--encoding")
    # The schemes that decode with the scheme read the input twice: stdin is kept.
    stdin(monkeypatch, MERGED)
    assert score_json(capsys, "-", "--repair", "discard")["exact"]["micro"]["tp"] == 1


def test_validate_reads_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    stdin(monkeypatch, TAG_FILE)
    code, out, err = run(capsys, "validate", "-")
    assert (code, err) == (1, "")
    assert [line.split(":")[:2] for line in out.splitlines()[:2]] == [["<stdin>", "4"], ["<stdin>", "7"]]
    assert out.splitlines()[-1] == "2 invalid transitions: scheme IOB2 (auto)"


def test_one_is_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "g.conll", "John B-PER\nsaid O\nto I-ORG\n")
    code, out, _ = run(capsys, "validate", path, "--scheme", "IOB2")
    assert code == 1
    assert out.splitlines()[-1] == "1 invalid transition: scheme IOB2"
    merged = write(tmp_path, "m.conll", "John B-PER B-PER\nsaid O O\nto I-ORG O\n")
    code, _, err = run(capsys, "score", merged, "--scheme", "IOB2", "--repair", "error")
    assert code == 2
    assert err.splitlines()[-1] == "nerve: error: 1 invalid transition for scheme IOB2 (--repair error)"
    assert str(nerve.InvalidSequenceError([], "IOB2")) == "0 invalid transitions for scheme IOB2"


@pytest.mark.parametrize(
    "command",
    [c for c in COMMANDS if c != "conlleval"],
)
def test_a_flag_typo_shows_the_subcommands_usage_and_the_closest_flag(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = ["--to", "conll"] if command == "convert" else []
    with pytest.raises(SystemExit) as err:
        main([command, "a", "b", *extra, "--schemme", "IOB2"])
    assert err.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0].startswith(f"usage: nerve {command} ")  # the subcommand's usage, not nerve's
    assert [ln for ln in lines if ": error:" in ln] == [
        f"nerve {command}: error: unrecognized arguments: --schemme IOB2; did you mean --scheme?"
    ]


def test_flag_typos_in_other_spellings(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, want in [
        (["score", "f", "--ouput", "json"], "--ouput json; did you mean --output?"),
        (["score", "f", "--ouput=json"], "--ouput=json; did you mean --output?"),
        (["compare", "g", "a", "--bootstrp", "5"], "--bootstrp 5; did you mean --bootstrap?"),
        (["score", "a", "b", "c"], "c"),  # no flag: nothing to suggest
        (["score", "f", "--zzzzzz"], "--zzzzzz"),  # nothing close
    ]:
        with pytest.raises(SystemExit):
            main(argv)
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1] == f"nerve {argv[0]}: error: unrecognized arguments: {want}"
