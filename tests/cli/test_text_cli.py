"""Text-level commands: BIO directories, CoNLL files, bad input, ie-eval's CLI and its bugs."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.api import score_text
from nerve.cli import main
from nerve.errors import OptionError
from nerve.io.tags import bio_dirs as text_readers
from nerve.options import command_line_names
from nerve.tagging import texts
from nerve.tagging.texts import read_bio_dirs

Doc = list[tuple[str, str]]


def write_bio(directory: Path, name: str, tokens: list[tuple[str, str]]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text("".join(f"{w} {t}\n" for w, t in tokens), encoding="utf-8")


def small(tmp_path: Path) -> tuple[Path, Path]:
    label, pred = tmp_path / "labels", tmp_path / "predictions"
    write_bio(
        label, "d1.bio", [("Georges", "B-PER"), ("Washington", "I-PER"), ("in", "O"), ("1789", "B-DATE")]
    )
    write_bio(pred, "d1.bio", [("Georges", "B-PER"), ("Woshington", "I-PER"), ("in", "O")])
    write_bio(label, "d2.bio", [("Paris", "B-LOC"), ("Marie", "B-PER"), ("Curie", "I-PER")])
    write_bio(pred, "d2.bio", [("Marie", "B-PER"), ("Curie", "I-PER"), ("Paris", "B-LOC"), ("1895", "B-PER")])
    return label, pred


@pytest.fixture(params=[False, True], ids=["in-process", "apart"])
def apart(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether a second interpreter reads the predictions, as it does for many files."""
    if request.param:
        monkeypatch.setattr(text_readers, "_APART", 0)
    return bool(request.param)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_reading_directories(tmp_path: Path, apart: bool) -> None:
    label, pred = small(tmp_path)
    corpus = read_bio_dirs(label, pred)
    assert corpus.documents == ["d1.bio", "d2.bio"]
    assert corpus.gold.text == ["Georges Washington", "1789", "Paris", "Marie Curie"]
    assert corpus.gold.category == ["PER", "DATE", "LOC", "PER"]
    assert corpus.gold.doc.tolist() == [0, 0, 1, 1]
    assert corpus.pred.text == ["Georges Woshington", "Marie Curie", "Paris", "1895"]


def test_markdown_json_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label, pred = small(tmp_path)
    code, out, err = run(capsys, "ecer-ewer", "-l", str(label), "-p", str(pred), "--by-category")
    assert code == 0
    assert "2 documents, complete and valid" in err
    lines = out.splitlines()
    assert lines[0].startswith("`nerve ")
    assert (
        lines[2]
        == "| Category | ECER (%) | EWER (%) | Ground truth entities | Predicted entities | N documents |"
    )
    assert lines[4] == f"| total | {100 * (1 / 18 + 2) / 4:.2f} | 62.50 | 4 | 4 | 2 |"
    assert [line.split(" | ")[0] for line in lines[5:]] == ["| DATE", "| LOC", "| PER"]
    code, out, _ = run(capsys, "ie-all", "-l", str(label), "-p", str(pred), "-c", "-o", "json")
    d = json.loads(out)
    assert set(d["total"]) == {"ecer-ewer", "nerval", "bow", "botw", "boe"}
    assert d["per_category"]["PER"]["boe"]["fp"] == 2
    assert d["threshold"] == 0.3
    code, out, _ = run(capsys, "boe", "-l", str(label), "-p", str(pred), "-o", "table")
    assert "bWER (%)" in out.splitlines()[2]


def test_conll_files(tmp_path: Path) -> None:
    merged = tmp_path / "m.conll"
    merged.write_text(
        "-DOCSTART- O O\n\nJohn B-PER B-PER\nSmith I-PER O\n\n-DOCSTART- O O\n\nParis B-LOC B-LOC\n",
        encoding="utf-8",
    )
    scores = score_text(merged)
    assert scores.documents == 2
    assert scores.boe is not None
    b = scores.boe.total
    assert (b.tp, b.fp, b.fn) == (1, 1, 1)
    assert scores.ecer_ewer is not None
    # 'John Smith' -> 'John': 6 of 10 characters, 1 of 2 words.
    assert scores.ecer_ewer.total.char_errors == pytest.approx(0.6)
    assert scores.ecer_ewer.total.word_errors == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("John B-PER extra", "expected `token TAG`"),
        ("John", "expected `token TAG`"),
        ("John ORG", "ORG"),  # ie-eval reads this line as O
        ("John S-PER", "S-PER"),
    ],
)
def test_bad_lines_name_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    label, pred = small(tmp_path)
    (label / "d2.bio").write_text(f"Paris B-LOC\n{line}\n", encoding="utf-8")
    code, _, err = run(capsys, "boe", "-l", str(label), "-p", str(pred))
    assert code == 2
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert "d2.bio:2: " in err
    assert message in err


def test_files_on_one_side_and_missing_directories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    label, pred = small(tmp_path)
    write_bio(label, "d3.bio", [("x", "O")])
    write_bio(pred, "d9.bio", [("x", "O")])
    code, _, err = run(capsys, "bow", "-l", str(label), "-p", str(pred))
    assert code == 2
    assert "1 without a prediction (d3.bio)" in err
    assert "1 without a label (d9.bio)" in err
    code, _, err = run(capsys, "bow", "-l", str(tmp_path / "nowhere"), "-p", str(pred))
    assert code == 2
    assert "no such directory" in err
    code, _, err = run(capsys, "bow", "-l", str(label))
    assert code == 2
    assert "go together" in err


def test_a_directory_named_bio_is_named_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], apart: bool
) -> None:
    label, pred = small(tmp_path)
    (label / "d0.bio").mkdir()
    write_bio(pred, "d0.bio", [("x", "O")])
    code, _, err = run(capsys, "bow", "-l", str(pred), "-p", str(label))  # the predictions' side
    assert code == 2
    assert "d0.bio: is a directory, expected a file" in err
    code, _, err = run(capsys, "bow", "-l", str(label), "-p", str(pred))
    assert code == 2
    assert "d0.bio: is a directory, expected a file" in err
    assert "Traceback" not in err


def test_invalid_transitions_are_repaired_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    label, pred = small(tmp_path)
    write_bio(pred, "d2.bio", [("Marie", "I-PER"), ("Curie", "I-PER"), ("Paris", "B-LOC")])
    code, out, err = run(capsys, "boe", "-l", str(label), "-p", str(pred), "-o", "json")
    assert code == 0
    assert "1 invalid transition repaired (begin)" in err
    assert "(1 repair)" in json.loads(out)["signature"]
    code, _, err = run(capsys, "boe", "-l", str(label), "-p", str(pred), "--repair", "error")
    assert code == 2
    assert "d2.bio:1" in err


def test_blank_lines_and_empty_files(tmp_path: Path, apart: bool) -> None:
    label, pred = small(tmp_path)
    (label / "d3.bio").write_text("", encoding="utf-8")
    (pred / "d3.bio").write_text("\nA B-PER\n\nB I-PER\n", encoding="utf-8")
    corpus = read_bio_dirs(label, pred)
    assert corpus.pred.text[-2:] == ["A", "B"]  # a blank line ends the entity
    assert corpus.pred.doc.tolist()[-2:] == [2, 2]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_bom_crlf_cr_missing_newlines_and_long_files(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    # Every file gets a BOM, CRLF or lone-CR line ends, no final newline, or is longer than the first read
    # (8 KiB), at random; the entities read equal those of the plain files.
    rnd = random.Random(data.draw(st.integers(0, 10**6)))
    plain, odd = tmp_path_factory.mktemp("plain"), tmp_path_factory.mktemp("odd")
    for side in ("labels", "predictions"):
        for d in range(6):
            n = rnd.choice([0, 1, 3, 20, 1500])
            lines = [f"w{rnd.randrange(50)} {rnd.choice(['O', 'B-PER', 'I-PER', 'B-LOC'])}" for _ in range(n)]
            text = "".join(line + "\n" for line in lines)
            for root in (plain, odd):
                (root / side).mkdir(exist_ok=True)
            (plain / side / f"{d}.bio").write_bytes(text.encode())
            raw = text.encode()
            raw = raw.replace(b"\n", data.draw(st.sampled_from([b"\n", b"\r\n", b"\r"])))  # LF, CRLF, CR
            if data.draw(st.booleans()):
                raw = raw.rstrip(b"\r\n")
            if data.draw(st.booleans()):
                raw = "\ufeff".encode() + raw
            (odd / side / f"{d}.bio").write_bytes(raw)
    a = read_bio_dirs(plain / "labels", plain / "predictions")
    b = read_bio_dirs(odd / "labels", odd / "predictions")
    default, text_readers._APART = text_readers._APART, 0  # the predictions read apart
    try:
        c = read_bio_dirs(odd / "labels", odd / "predictions")
    finally:
        text_readers._APART = default
    for x, y, z in ((a.gold, b.gold, c.gold), (a.pred, b.pred, c.pred)):
        assert x.text == y.text == z.text
        assert x.category == y.category == z.category
        assert x.doc.tolist() == y.doc.tolist() == z.doc.tolist()


def test_a_second_interpreter_reads_what_this_one_reads(tmp_path: Path) -> None:
    """`_read_apart` really reads (a fallback would hide a broken helper), and says when it fails."""
    sizes = [0, 5, 8191, 8192, 8193, 3 * 2**20 + 7]  # around the first read and its pieces
    names = [f"{i}.bio" for i in range(len(sizes))]
    rnd = random.Random(5)
    for name, size in zip(names, sizes, strict=True):
        (tmp_path / name).write_bytes(rnd.randbytes(size))
    expected = [(tmp_path / name).read_bytes() for name in names]
    got = text_readers._read_apart(str(tmp_path), names)
    assert got is not None
    data, sizes_read = got
    assert sizes_read.tolist() == [len(e) for e in expected]
    assert data == b"".join(expected)
    empty = text_readers._read_apart(str(tmp_path), [])
    assert empty is not None
    assert (empty[0], empty[1].tolist()) == (b"", [])
    (tmp_path / "sub.bio").mkdir()
    assert text_readers._read_apart(str(tmp_path), [*names, "sub.bio"]) is None
    assert text_readers._read_apart(str(tmp_path), ["missing.bio"]) is None


def test_bad_bytes_name_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], apart: bool
) -> None:
    label, pred = small(tmp_path)
    (label / "d2.bio").write_bytes(b"\xef\xbb\xbfParis B-LOC\r\nMa\xffrie B-PER\r\n")
    code, _, err = run(capsys, "bow", "-l", str(label), "-p", str(pred))
    assert code == 2
    assert "d2.bio:2: byte 0xff is not valid UTF-8" in err


# --- ie-eval's bugs, and nerve's answers -----------------------------------------------------


def test_threshold_is_a_fraction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ie-eval passes `nerval -t 30` on unscaled: 3000 %. Here 30 is refused, 0.3 is 30 %.
    label, pred = small(tmp_path)
    code, _, err = run(capsys, "nerval", "-l", str(label), "-p", str(pred), "-t", "30")
    assert code == 2
    assert "fraction" in err
    code, out, _ = run(capsys, "nerval", "-l", str(label), "-p", str(pred), "-t", "0.3", "-o", "json")
    assert code == 0
    assert "nerval threshold 0.3" in json.loads(out)["signature"]


@pytest.mark.parametrize("command", ["nerval", "ie-all"])
def test_ie_evals_nerval_threshold_is_a_percentage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # ie-eval spells it --nerval-threshold, in percent: 30 there is --threshold 0.3 here.
    label, pred = small(tmp_path)
    dirs = [command, "-l", str(label), "-p", str(pred), "-o", "json"]
    outputs = {}
    for percent, fraction in (("0", "0"), ("5", "0.05"), ("30", "0.3"), ("100", "1")):
        code, ours, _ = run(capsys, *dirs, "--threshold", fraction)
        assert code == 0
        code, theirs, err = run(capsys, *dirs, "--nerval-threshold", percent)
        assert code == 0, err
        assert theirs == ours
        outputs[percent] = ours
    assert outputs["0"] != outputs["30"]  # Woshington matches Washington at 30 %, not at 0
    assert outputs["30"] == run(capsys, *dirs)[1]  # the default
    code, _, err = run(capsys, *dirs, "--nerval-threshold", "30", "--threshold", "0.3")
    assert code == 2
    assert err == (
        "nerve: error: --nerval-threshold: give --threshold (a fraction) or --nerval-threshold "
        "(a percentage, as ie-eval), not both\n"
    )
    code, _, err = run(capsys, *dirs, "--nerval-threshold", "300")
    assert code == 2
    assert err == "nerve: error: --nerval-threshold: expected a percentage in [0, 100], but got 300.0\n"


def test_ie_all_rows_belong_to_their_categories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ie-eval's `all --by-category` joins tables by row position, so columns land on other rows.
    label, pred = small(tmp_path)
    _, out, _ = run(capsys, "ie-all", "-l", str(label), "-p", str(pred), "-c", "-o", "json")
    together = json.loads(out)
    for command in ("ecer-ewer", "nerval", "bow", "botw", "boe"):
        _, out, _ = run(capsys, command, "-l", str(label), "-p", str(pred), "-c", "-o", "json")
        alone = json.loads(out)
        assert together["total"][command] == alone["total"]
        for category, row in alone["per_category"].items():
            assert together["per_category"][category][command] == row


def test_empty_dataset_is_defined(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ie-eval gives nan or ZeroDivisionError.
    label, pred = tmp_path / "l", tmp_path / "p"
    write_bio(label, "a.bio", [("the", "O")])
    write_bio(pred, "a.bio", [("the", "O")])
    code, out, _ = run(capsys, "ie-all", "-l", str(label), "-p", str(pred), "-o", "json")
    assert code == 0
    total = json.loads(out)["total"]
    assert total["ecer-ewer"]["ecer"] == 0.0
    assert total["boe"]["bwer"] == 0.0
    assert total["nerval"]["f1"] == 0.0


def test_category_named_total(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ie-eval merges a category named `total` into its total row.
    label, pred = tmp_path / "l", tmp_path / "p"
    write_bio(label, "a.bio", [("x", "B-total"), ("y", "B-PER")])
    write_bio(pred, "a.bio", [("x", "B-total"), ("z", "O")])
    _, out, _ = run(capsys, "boe", "-l", str(label), "-p", str(pred), "-c")
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    assert rows[1].startswith("| total | ")
    assert any(r.startswith('| "total" | ') for r in rows)
    _, out, _ = run(capsys, "boe", "-l", str(label), "-p", str(pred), "-c", "-o", "json")
    d = json.loads(out)
    assert d["total"]["gold"] == 2
    assert d["per_category"]["total"]["gold"] == 1


def test_nerval_counts_predictions_as_predictions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ie-eval's OI-Nerval table prints the gold count under "Predicted entities".
    label, pred = small(tmp_path)
    _, out, _ = run(capsys, "nerval", "-l", str(label), "-p", str(pred), "-o", "json")
    total = json.loads(out)["total"]
    assert (total["gold"], total["predicted"]) == (4, 4)
    write_bio(pred, "d2.bio", [("Marie", "B-PER"), ("Curie", "I-PER")])
    _, out, _ = run(capsys, "nerval", "-l", str(label), "-p", str(pred), "-o", "json")
    total = json.loads(out)["total"]
    assert (total["gold"], total["predicted"]) == (4, 2)


def test_per_category_ecer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ie-eval accepts `cer -oi -c` and ignores it; here each category has its row.
    label, pred = small(tmp_path)
    _, out, _ = run(capsys, "ecer-ewer", "-l", str(label), "-p", str(pred), "-c", "-o", "json")
    per = json.loads(out)["per_category"]
    assert per["DATE"]["ecer"] == 1.0
    assert per["LOC"]["ecer"] == 0.0
    assert per["PER"]["char_errors"] == pytest.approx(1 / 18 + 1)


# --- agreement with ie-eval's CLI --------------------------------------------------------------

IE_EVAL = shutil.which("ie-eval")
needs_ie_eval = pytest.mark.skipif(sys.version_info < (3, 11), reason="ie-eval needs Python 3.11")


def random_dirs(tmp_path: Path, seed: int, docs: int) -> tuple[Path, Path]:
    rnd = random.Random(seed)
    words = ["Paris", "Marie", "Curie", "York", "New", "de", "la", "Rue", "1895", "Jean"]
    label, pred = tmp_path / f"l{seed}", tmp_path / f"p{seed}"
    for d in range(docs):
        gold_tokens: list[tuple[str, str]] = []
        pred_tokens: list[tuple[str, str]] = []
        for _ in range(rnd.randint(0, 12)):
            word = rnd.choice(words)
            tag = rnd.choice(["O", "O", "B-PER", "B-LOC", "B-DATE"])
            if tag != "O" and gold_tokens and gold_tokens[-1][1] != "O" and rnd.random() < 0.4:
                tag = "I-" + gold_tokens[-1][1][2:]
            gold_tokens.append((word, tag))
            noisy = word if rnd.random() < 0.85 else word[:-1] + rnd.choice("aeiou")
            ptag = tag if rnd.random() < 0.85 else rnd.choice(["O", "B-PER", "B-ORG"])
            if ptag.startswith("I-") and (not pred_tokens or pred_tokens[-1][1] == "O"):
                ptag = "B-" + ptag[2:]
            if ptag.startswith("I-") and pred_tokens[-1][1][2:] != ptag[2:]:
                ptag = "B-" + ptag[2:]
            pred_tokens.append((noisy, ptag))
        write_bio(label, f"doc{d:03}.bio", gold_tokens)
        write_bio(pred, f"doc{d:03}.bio", pred_tokens)
    return label, pred


def ie_eval_total(*args: str) -> dict[str, float]:
    assert IE_EVAL is not None, "ie-eval 0.2.0 is a test dependency: pip install -e '.[test]'"
    done = subprocess.run([IE_EVAL, *args], capture_output=True, text=True, check=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == "total":
            return {h: float(c) for h, c in zip(head[1:], cells[1:], strict=True)}
    raise AssertionError(f"no total row in {done.stdout!r}")


@needs_ie_eval
@pytest.mark.parametrize("seed", [1, 2])
def test_agrees_with_the_ie_eval_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int) -> None:
    label, pred = random_dirs(tmp_path, seed, 25)
    dirs = ["-l", str(label), "-p", str(pred)]
    _, out, _ = run(capsys, "ie-all", *dirs, "-t", "0.3", "-o", "json")
    ours = json.loads(out)["total"]
    theirs = ie_eval_total("cer", "-oi", *dirs)
    assert round(100 * ours["ecer-ewer"]["ecer"], 2) == pytest.approx(theirs["ECER (%)"])
    assert round(100 * ours["ecer-ewer"]["ewer"], 2) == pytest.approx(theirs["EWER (%)"])
    theirs = ie_eval_total("nerval", "-oi", "-t", "30", *dirs)
    for key, column in (("precision", "Precision (%)"), ("recall", "Recall (%)"), ("f1", "F1 (%)")):
        assert round(100 * ours["nerval"][key], 2) == pytest.approx(theirs[column])
    for command in ("bow", "botw", "boe"):
        theirs = ie_eval_total(command, *dirs)
        for key, column in (("bwer", "bWER (%)"), ("precision", "Precision (%)"), ("f1", "F1 (%)")):
            assert round(100 * ours[command][key], 2) == pytest.approx(theirs[column]), (command, key)


def test_api_and_cli_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label, pred = small(tmp_path)
    scores = score_text(label, pred, metrics=["boe"])
    _, out, _ = run(capsys, "boe", "-l", str(label), "-p", str(pred), "-o", "json")
    assert json.loads(out)["total"] == scores.boe.total.to_dict()  # type: ignore[union-attr]
    with pytest.raises(nerve.NerveError, match="prediction directory"):
        score_text(label)
    assert re.search(r"\| 2 documents$", scores.signature)


def test_one_document_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label, pred = tmp_path / "labels", tmp_path / "predictions"
    write_bio(label, "d1.bio", [("Marie", "B-PER"), ("Curie", "I-PER")])
    write_bio(pred, "d1.bio", [("Marie", "I-PER"), ("Curie", "I-PER")])
    code, _, err = run(capsys, "bow", "-l", str(label), "-p", str(pred))
    assert code == 0
    assert err == "nerve: 1 document, complete and valid; 1 invalid transition repaired (begin)\n"


def test_usage_mistakes_name_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label, pred = small(tmp_path)
    code, _, err = run(capsys, "bow", "-p", str(pred))
    assert code == 2
    assert err == (
        "nerve: error: --prediction-dir: --label-dir and --prediction-dir go together: add --label-dir\n"
    )
    code, _, err = run(capsys, "bow", "-l", str(label), "-p", str(pred), "x.conll")
    assert code == 2
    assert err.startswith("nerve: error: --label-dir: give either")
    code, _, err = run(capsys, "bow")
    assert code == 2
    assert err == "nerve: error: FILE: expected --label-dir DIR --prediction-dir DIR, or FILE [PRED_FILE]\n"


#: The ie-eval command whose table each nerve command claims to lay out as ie-eval does.
IE_EVAL_COMMANDS = {
    "bow": ("bow",),
    "botw": ("botw",),
    "boe": ("boe",),
    "ecer-ewer": ("cer", "-oi"),
    "nerval": ("nerval", "-oi"),
    "ie-all": ("all",),
}
#: ie-eval's order-dependent columns of `all`, which nerve does not compute.
ORDER_DEPENDENT = ("ECER (%)", "EWER (%)", "Nerval-F1 (%)")


@needs_ie_eval
@pytest.mark.parametrize("command", sorted(IE_EVAL_COMMANDS))
def test_column_headers_are_ie_evals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """The Markdown header of each command is ie-eval 0.2.0's (ie-all: less the order-dependent columns)."""
    assert IE_EVAL is not None, "ie-eval 0.2.0 is a test dependency: pip install -e '.[test]'"
    label, pred = small(tmp_path)
    dirs = ["-l", str(label), "-p", str(pred)]
    done = subprocess.run(
        [IE_EVAL, *IE_EVAL_COMMANDS[command], *dirs], capture_output=True, text=True, check=True
    )
    line = next(line for line in done.stdout.splitlines() if line.startswith("|"))
    theirs = [c.strip() for c in line.strip("|").split("|")]
    if command == "ie-all":
        theirs = [h for h in theirs if h not in ORDER_DEPENDENT]
    for by_category in ([], ["--by-category"]):
        _, out, _ = run(capsys, command, *dirs, *by_category)
        assert [c.strip() for c in out.splitlines()[2].strip("|").split("|")] == theirs, by_category


@needs_ie_eval
def test_per_category_documents_differ_from_ie_eval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A category's row counts the documents with its entities on either side; ie-eval's, on the gold side.

    ie-eval also drops the category's predictions in the other documents: here the PER predicted
    in d3, whose gold has no PER, is a false positive of nerve's PER row and absent from ie-eval's.
    """
    assert IE_EVAL is not None, "ie-eval 0.2.0 is a test dependency: pip install -e '.[test]'"
    label, pred = small(tmp_path)
    write_bio(label, "d3.bio", [("Bob", "O"), ("ran", "O")])
    write_bio(pred, "d3.bio", [("Bob", "B-PER"), ("ran", "O")])
    dirs = ["-l", str(label), "-p", str(pred)]
    done = subprocess.run([IE_EVAL, "boe", "-c", *dirs], capture_output=True, text=True, check=True)
    theirs = {
        c[0]: c[1:]
        for c in ([x.strip() for x in line.strip("|").split("|")] for line in done.stdout.splitlines())
    }
    _, out, _ = run(capsys, "boe", "--by-category", *dirs)
    ours = {
        c[0]: c[1:]
        for c in ([x.strip() for x in line.strip("|").split("|")] for line in out.splitlines()[2:])
    }
    # Predicted entities and documents of PER: ie-eval 3 in 2 documents, nerve 4 in 3.
    assert (theirs["PER"][-2:], ours["PER"][-2:]) == (["3", "2"], ["4", "3"])
    assert theirs["total"][-3:] == ours["total"][-3:] == ["4", "5", "3"]


def test_no_files_to_pair_is_an_error_naming_both_directories_and_the_pattern(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    label, pred = tmp_path / "l", tmp_path / "p"
    label.mkdir()
    pred.mkdir()
    code, out, err = run(capsys, "ecer-ewer", "--label-dir", str(label), "--prediction-dir", str(pred))
    assert (code, out) == (2, "")
    assert str(label) in err
    assert str(pred) in err
    assert "'*.bio'" in err
    for directory in (label, pred):  # files, but none named *.bio
        (directory / "d1.txt").write_text("Paris B-LOC\n", encoding="utf-8")
    with pytest.raises(nerve.InputError, match=r"no files match '\*\.bio'") as info:
        score_text(label, pred)
    assert info.value.option == "--pattern"
    scores = score_text(label, pred, pattern="*.txt", metrics=["boe"])
    assert scores.documents == 1
    assert score_text(label, pred, pattern=".txt", metrics=["boe"]) == scores  # an extension alone
    assert read_bio_dirs(label, pred, pattern="d?.t[x]t").documents == ["d1.txt"]
    for bad in ("", "sub/*.bio"):
        with pytest.raises(OptionError, match="pattern"):
            score_text(label, pred, pattern=bad)


def test_sentences_as_documents_and_the_note_of_one_long_document(tmp_path: Path) -> None:
    # Without -DOCSTART- a CoNLL file is one document: the text metrics then compare every
    # entity with every other (a 43k-token file took 46 s). Sentences can be the documents.
    merged = tmp_path / "m.conll"
    merged.write_text("Paris B-LOC B-PER\n\nParis B-PER B-LOC\nx O O\n", encoding="utf-8")
    whole = score_text(merged, metrics=["boe"])
    assert whole.documents == 1
    assert whole.boe is not None
    assert whole.boe.total.tp == 2  # the two sentences' entities pair up across them
    assert len(whole.notes) == 1
    assert str(merged) in whole.notes[0]
    assert "2 sentences" in whole.notes[0]
    assert "documents='sentence'" in whole.notes[0]
    assert whole.merge(whole).notes == whole.notes
    apart = score_text(merged, metrics=["boe"], documents="sentence")
    assert (apart.documents, apart.notes) == (2, ())
    assert apart.boe is not None
    assert (apart.boe.total.tp, apart.boe.total.fp) == (0, 2)
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("Paris B-LOC\n\nParis B-PER\nx O\n", encoding="utf-8")
    pred.write_text("Paris B-PER\n\nParis B-LOC\nx O\n", encoding="utf-8")
    two = score_text(gold, pred, metrics=["boe"], documents="sentence")
    assert two.documents == 2
    assert len(score_text(gold, pred, metrics=["boe"]).notes) == 2  # each file is named
    merged.write_text("-DOCSTART- O O\n\nParis B-LOC B-PER\n\nParis B-PER B-LOC\n", encoding="utf-8")
    assert score_text(merged, metrics=["boe"]).notes == ()  # documents are marked
    assert score_text(merged, metrics=["boe"], documents="sentence").documents == 2
    merged.write_text("Paris B-LOC B-PER\nx O O\n", encoding="utf-8")
    assert score_text(merged, metrics=["boe"]).notes == ()  # one sentence: nothing to say
    with pytest.raises(OptionError, match="documents"):
        score_text(merged, documents="paragraph")
    label, pred_dir = small(tmp_path)
    with pytest.raises(OptionError, match="documents"):
        score_text(label, pred_dir, documents="sentence")


def test_text_decoding_is_the_shared_decode_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    merged = tmp_path / "m.conll"
    merged.write_text(
        "a I-PER O\nb I-LOC I-LOC\nc O B-PER\n\nd B-PER I-PER\ne I-LOC I-LOC\n\nf O I-X\n", encoding="utf-8"
    )
    sides: list[str] = []
    real = texts.decode_block

    def spy(*args: Any, **kwargs: Any) -> Any:
        sides.append(kwargs["side"])
        return real(*args, **kwargs)

    monkeypatch.setattr(texts, "decode_block", spy)
    scores = score_text(merged, metrics=["boe"])
    assert sides == ["gold", "pred"]
    _, problems = nerve.validate(merged, merged=True, scheme="IOB2")
    assert scores.repairs == len(problems) == 7
    with pytest.raises(nerve.InvalidSequenceError) as info:
        score_text(merged, metrics=["boe"], repair="error")
    assert len(info.value.problems) == 3
    assert list(map(str, info.value.problems)) == [str(p) for p in problems if p.side == "gold"]


def test_cli_pattern_documents_and_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label, pred = small(tmp_path)
    for d in (label, pred):
        for f in d.glob("*.bio"):
            f.rename(f.with_suffix(".txt"))
    code, _, err = run(capsys, "bow", "-l", str(label), "-p", str(pred))
    assert code == 2
    assert "*.bio" in err
    code, out, err = run(capsys, "bow", "-l", str(label), "-p", str(pred), "--pattern", "*.txt")
    assert code == 0
    assert err == "nerve: 2 documents, complete and valid\n"
    merged = tmp_path / "m.conll"
    merged.write_text("Paris B-LOC B-LOC\n\nCurie B-PER B-PER\n", encoding="utf-8")
    code, out, err = run(capsys, "boe", str(merged), "--output", "json")
    assert code == 0
    assert err.startswith("nerve: note: ")
    assert "--documents sentence" in err
    assert json.loads(out)["documents"] == 1
    code, out, err = run(capsys, "boe", str(merged), "--output", "json", "--documents", "sentence")
    assert code == 0
    assert "note" not in err
    assert json.loads(out)["documents"] == 2


def test_text_options_read_as_options(tmp_path: Path) -> None:
    # One wording (nerve.options) whether score_text or the reader below it checks documents=;
    # the note names the option as the caller spells it.
    merged = tmp_path / "m.conll"
    merged.write_text("Paris B-LOC B-LOC\n\nCurie B-PER B-PER\n", encoding="utf-8")
    message = r"^documents: expected one of docstart, sentence, but got 'page'$"
    with pytest.raises(OptionError, match=message):
        score_text(merged, documents="page")
    with pytest.raises(OptionError, match=message):
        texts.read_text_files(merged, documents="page")
    (note,) = score_text(merged, metrics=["boe"]).notes
    assert note.endswith("documents='sentence' makes each sentence a document")
    assert "--documents" not in note
    with command_line_names():
        (note,) = score_text(merged, metrics=["boe"]).notes
    assert note.endswith("--documents sentence makes each sentence a document")


@pytest.mark.parametrize("command", ["ecer-ewer", "nerval", "bow", "botw", "boe", "ie-all"])
def test_every_text_command_takes_pattern_and_documents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    label, pred = small(tmp_path)
    for d in (label, pred):
        for f in d.glob("*.bio"):
            f.rename(f.with_suffix(".txt"))
    dirs = ("-l", str(label), "-p", str(pred))
    code, out, err = run(capsys, command, *dirs, "--output", "json")
    assert (code, out) == (2, "")
    assert err == f"nerve: error: {label}: no files match '*.bio' here or in {pred} (use --pattern)\n"
    code, out, err = run(capsys, command, *dirs, "--pattern", ".txt", "--output", "json")
    assert (code, err) == (0, "nerve: 2 documents, complete and valid\n")
    assert json.loads(out)["documents"] == 2
    code, out, err = run(capsys, command, *dirs, "--pattern", "sub/*.txt")
    assert (code, out) == (2, "")
    assert err == "nerve: error: --pattern: expected a glob for file names such as '*.bio', got 'sub/*.txt'\n"
    code, out, err = run(capsys, command, *dirs, "--pattern", "*.txt", "--documents", "sentence")
    assert (code, out) == (2, "")
    assert err == "nerve: error: --documents: each file of a directory is a document, got 'sentence'\n"
    merged = tmp_path / "m.conll"
    merged.write_text("Paris B-LOC B-LOC\n\nCurie B-PER B-PER\n", encoding="utf-8")
    code, out, err = run(capsys, command, str(merged), "--output", "json")
    note = (
        f"nerve: note: {merged}: no -DOCSTART- lines, so its 2 sentences are scored as one document;"
        " --documents sentence makes each sentence a document\n"
    )
    assert (code, err) == (0, note + "nerve: 1 document, complete and valid\n")
    assert json.loads(out)["documents"] == 1
    code, out, err = run(capsys, command, str(merged), "--documents", "sentence", "--output", "json")
    assert (code, err) == (0, "nerve: 2 documents, complete and valid\n")
    assert json.loads(out)["documents"] == 2
    with pytest.raises(SystemExit) as exit_:
        main([command, str(merged), "--documents", "page"])
    assert exit_.value.code == 2
    assert "--documents: invalid choice: 'page'" in capsys.readouterr().err


def test_a_cell_too_large_to_assign_exits_2_naming_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from nerve.matching import text_cells

    label, pred = small(tmp_path)
    monkeypatch.setattr(text_cells, "MAX_BLOCK", 1)  # d1's PER cell has 1 x 1 pairs; d2's 2 x 2
    code, out, err = run(capsys, "ecer-ewer", "-l", str(label), "-p", str(pred))
    assert code == 2
    assert out == ""
    assert err == (
        "nerve: error: document 2, category PER: 1 gold and 2 predicted entities; their exact assignment "
        "needs a 0.0 GiB cost block (at most 1 GiB): score shorter documents (--documents sentence, "
        "or smaller files in a directory)\n"
    )
