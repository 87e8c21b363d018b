"""Bad input of span formats, sidecars and ``nerve convert`` (issue 25): each is exit status 2 and one
line naming the file (and the line or document) and what fixes it, never a traceback.

This adds to the table of `test_formats_bad_input` the cases that needed more than files written
as text: a file that cannot be read, a damaged Parquet file, a loop of symbolic links, a full disk,
bytes that are not UTF-8, nested entities for CoNLL.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cli_errors import cli_error, refuse_to_open
from conftest import peer
from nerve.cli import main


def brat_dir(root: Path) -> Path:
    d = root / "b"
    d.mkdir()
    (d / "a.txt").write_text("John lives.\n", encoding="utf-8")
    (d / "a.ann").write_text("T1\tPER 0 4\tJohn\n", encoding="utf-8")
    (d / "b.txt").write_text("Mary lives.\n", encoding="utf-8")
    (d / "b.ann").write_text("T1\tPER 0 4\tMary\n", encoding="utf-8")
    return d


COMMANDS = {
    "score": lambda d, out: ["score", str(d)],
    "score-pair": lambda d, out: ["score", str(d), str(d)],
    "validate": lambda d, out: ["validate", str(d)],
    "convert": lambda d, out: ["convert", str(d), str(out), "--to", "jsonl"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_unreadable_ann_in_a_brat_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    d = brat_dir(tmp_path)
    locked = str(d / "b.ann")
    refuse_to_open(monkeypatch, locked)
    args = COMMANDS[command](d, tmp_path / "o.jsonl")
    if command == "validate":
        assert main(args) == 1  # validate lists it as the input's problem
        out, err = capsys.readouterr()
        assert f"{locked}: cannot be read: Permission denied" in out + err
        assert "Traceback" not in err
        return
    line = cli_error(capsys, *args)
    assert line.startswith(f"nerve: error: {locked}: cannot be read: Permission denied"), line
    assert "chmod +r" in line


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_an_ann_without_read_permission(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same as a user without permission: the file's mode, not a stand-in for ``open``."""
    d = brat_dir(tmp_path)
    (d / "b.ann").chmod(0)
    try:
        line = cli_error(capsys, "score", str(d))
    finally:
        (d / "b.ann").chmod(0o644)
    assert f"{d / 'b.ann'}: cannot be read: Permission denied" in line


NOBODY = 65534  # the uid and gid of ``nobody`` on Debian and most Unix systems


@pytest.mark.skipif(not hasattr(os, "fork") or os.geteuid() != 0, reason="needs root, to become nobody")
def test_an_ann_without_read_permission_as_nobody(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Run as root (as here and in CI), a forked child becomes ``nobody`` and reads a brat directory
    whose ``b.ann`` has mode 0: the real ``EACCES`` of the file system, not a stand-in for ``open``."""
    import subprocess
    import sys
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="nerve-nobody-"))  # pytest's own tmp is root's alone (0700)
    try:
        root.chmod(0o755)
        d = brat_dir(root)
        d.chmod(0o755)
        for f in d.iterdir():
            f.chmod(0o644)
        (d / "b.ann").chmod(0)
        readable = brat_dir(tmp_path_factory.mktemp("warm"))
        code = (  # a first run as root imports what the command needs: nobody cannot read root's home
            "import contextlib, io, os, sys\n"
            "import nerve.cli\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            f"    assert nerve.cli.main(['score', {str(readable)!r}, {str(readable)!r}]) == 0\n"
            f"    assert nerve.cli.main(['score', {str(readable)!r}]) == 2\n"  # the error's path too
            f"os.setgroups([]); os.setgid({NOBODY}); os.setuid({NOBODY})\n"
            f"sys.exit(nerve.cli.main(['score', {str(d)!r}]))\n"
        )
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
        )
    finally:
        (d / "b.ann").chmod(0o644)
        import shutil

        shutil.rmtree(root)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"nerve: error: {d / 'b.ann'}: cannot be read: Permission denied"), (
        done.stderr
    )
    assert "chmod +r" in done.stderr


def damaged_parquet(tmp_path: Path, where: str) -> Path:
    """A Parquet file with one byte made 0xff: in a column's name, or in a token's text."""
    pa = peer("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "h.parquet"
    table = pa.table({"tokens": [["John", "Smith"]], "ner_tags": [["B-PER", "I-PER"]]})
    pq.write_table(table, path, compression="none", store_schema=False)
    data = path.read_bytes()
    at = data.index(b"ner_tags") if where == "name" else data.index(b"John")
    path.write_bytes(data[:at] + b"\xff" + data[at + 1 :])
    return path


@pytest.mark.parametrize(
    ("where", "says"),
    [("name", "a column name is not valid UTF-8"), ("text", "Invalid UTF8 sequence")],
)
def test_a_damaged_parquet_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, says: str
) -> None:
    path = damaged_parquet(tmp_path, where)
    line = cli_error(capsys, "score", str(path))
    assert line.startswith(f"nerve: error: {path}: is damaged: "), line
    assert says in line
    assert "write it again" in line


@pytest.mark.parametrize("fmt", [None, "jsonl", "brat", "doccano", "labelstudio", "conll", "hf"])
def test_a_loop_of_symbolic_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str | None
) -> None:
    (tmp_path / "a.jsonl").symlink_to(tmp_path / "b.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "a.jsonl")
    args = ["score", str(tmp_path / "a.jsonl"), *(["--format", fmt] if fmt else [])]
    line = cli_error(capsys, *args)
    assert line.startswith(f"nerve: error: {tmp_path / 'a.jsonl'}: cannot be read: "), line
    assert "Too many levels of symbolic links" in line
    assert "point it at a file" in line


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("to", ["conll", "jsonl", "spacy-jsonl"])
def test_convert_to_a_full_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str], to: str) -> None:
    src = tmp_path / "s.jsonl"
    src.write_text(json.dumps({"text": "John lives", "spans": [{"start": 0, "end": 4, "label": "PER"}]}))
    line = cli_error(capsys, "convert", str(src), "/dev/full", "--to", to, "--force")
    assert line == (
        "nerve: error: /dev/full: cannot be written: No space left on device "
        "(free space on its disk, or write OUT elsewhere)"
    )


def test_a_dangling_symbolic_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.jsonl").symlink_to(tmp_path / "gone.jsonl")
    line = cli_error(capsys, "score", str(tmp_path / "a.jsonl"), "--format", "jsonl")
    gone = str(tmp_path / "gone.jsonl")
    assert line.endswith(f"a.jsonl: is a symbolic link to {gone!r}, which does not exist"), line


def test_convert_into_a_path_that_cannot_be_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Any OSError while writing, here a directory to make under a file: one line, the path named."""
    (tmp_path / "f").write_text("")
    line = cli_error(capsys, "convert", str(brat_dir(tmp_path)), str(tmp_path / "f" / "out"), "--to", "brat")
    assert line.startswith(f"nerve: error: {tmp_path / 'f'}"), line
    assert "cannot be written: Not a directory (write OUT elsewhere)" in line


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_meta_csv_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str], bom: bytes) -> None:
    gold = tmp_path / "g.conll"
    gold.write_text("-DOCSTART- O O\n\nJohn B-PER B-PER\n\n-DOCSTART- O O\n\nMary B-PER O\n")
    meta = tmp_path / "m.csv"
    meta.write_bytes(bom + b"document,genre\n0,news\n1,caf\xe9\n")
    line = cli_error(capsys, "score", str(gold), "--slices", "meta", "--meta", str(meta))
    assert line == (
        f"nerve: error: {meta}:3: byte 0xe9 at column 6 is not valid UTF-8; save the file as UTF-8"
    )


def test_nested_spans_to_conll_name_the_file_document_and_entities(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "n.jsonl"
    flat = {"tokens": ["a"], "spans": [{"start": 0, "end": 1, "label": "X"}]}
    spans = [[0, 1, "X"], [1, 3, "PER"], [2, 4, "ORG"]]
    nested = {
        "tokens": ["a", "bb", "C", "d"],
        "spans": [dict(zip(("start", "end", "label"), s, strict=True)) for s in spans],
    }
    src.write_text(json.dumps(flat) + "\n" + json.dumps(nested) + "\n")
    line = cli_error(capsys, "convert", str(src), str(tmp_path / "o.conll"), "--to", "conll")
    assert line.startswith(
        f"nerve: error: --flatten: {src}: document 1: entity 'bb C' (PER) and entity 'C d' (ORG) overlap; "
        "2 entities nest or overlap in all"
    ), line
    assert "--flatten POLICY" in line


def test_nested_brat_to_conll_names_the_ann_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = brat_dir(tmp_path)
    (d / "b.ann").write_text("T1\tPER 0 4\tMary\nT2\tPER 0 10\tMary lives\n")
    line = cli_error(capsys, "convert", str(d), str(tmp_path / "o.conll"), "--to", "conll")
    assert re.match(
        rf"nerve: error: --flatten: {re.escape(str(d / 'b.ann'))}: entity 'Mary' \(PER\) and "
        r"entity 'Mary lives' \(PER\) overlap; 2 entities",
        line,
    ), line


# ---------------------------------------------------------------------------------------------
# A directory of CoNLL files named *.txt is not read as brat; a file in another format than the one
# it is read as says which format it looks like.


def conll_dir(root: Path, name: str) -> Path:
    d = root / name
    d.mkdir()
    (d / "a.txt").write_text("-DOCSTART- O\n\nJohn B-PER\nlives O\n\n", encoding="utf-8")
    (d / "b.txt").write_text("Mary B-PER\nSmith I-PER\n", encoding="utf-8")
    return d


def test_a_directory_of_conll_txt_files_is_scored_as_conll(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = conll_dir(tmp_path, "g"), conll_dir(tmp_path, "p")
    assert main(["score", str(gold), str(pred), "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["exact"]["micro"]["tp"] == 2
    assert result["documents"] == 2


def test_a_directory_of_conll_and_other_files_names_the_pattern(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = conll_dir(tmp_path, "g"), conll_dir(tmp_path, "p")
    (gold / "notes.md").write_text("# notes\n")
    line = cli_error(capsys, "score", str(gold), str(pred))
    assert "--pattern: no file under" in line
    assert "their files end in .txt, .md (--pattern '*.txt' reads the .txt files)" in line


def test_conll_txt_files_read_as_brat_suggest_format_conll(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = conll_dir(tmp_path, "g")
    line = cli_error(capsys, "score", str(d), str(d), "--format", "brat")
    assert line.startswith(f"nerve: error: {d / 'a.txt'}: has no .ann beside it")
    assert "--format conll --pattern '*.txt'" in line


def test_prose_txt_files_without_ann_stay_brat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "b"
    d.mkdir()
    (d / "a.txt").write_text("John lives in Paris.\nHe likes it.\n")
    line = cli_error(capsys, "score", str(d))
    assert line == (
        f"nerve: error: {d / 'a.txt'}: has no .ann beside it "
        "(brat documents are .txt/.ann pairs; an empty .ann has no entities)"
    )


def test_convert_refuses_a_directory_without_bio_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = conll_dir(tmp_path, "g")
    line = cli_error(capsys, "convert", str(d), str(tmp_path / "o.jsonl"), "--to", "jsonl")
    assert line.startswith(f"nerve: error: {d}: holds no .bio files (its files end in .txt)"), line
    assert "named *.bio" in line


FORMATS = Path(__file__).resolve().parents[1] / "data" / "formats"
DOCCANO = FORMATS / "doccano" / "sequence_labeling.jsonl"
LABEL_STUDIO = FORMATS / "labelstudio" / "named_entity_annotation.json"


@pytest.mark.parametrize(
    ("path", "given", "looks"),
    [
        (DOCCANO, "labelstudio", "doccano"),
        (DOCCANO, "jsonl", "doccano"),
        (LABEL_STUDIO, "doccano", "labelstudio"),
    ],
)
def test_a_format_named_that_the_file_is_not(
    capsys: pytest.CaptureFixture[str], path: Path, given: str, looks: str
) -> None:
    line = cli_error(capsys, "score", str(path), "--format", given)
    assert line.startswith(f"nerve: error: {path}"), line
    assert line.endswith(f"; the file looks like {looks}, not {given}: pass --format {looks}"), line


def test_a_conll_file_read_as_jsonl(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "t.conll"
    path.write_text("John B-PER\nlives O\n")
    line = cli_error(capsys, "score", str(path), "--format", "jsonl")
    assert line.endswith("; the file looks like conll, not jsonl: pass --format conll"), line


@pytest.mark.parametrize(("gold", "pred"), [(LABEL_STUDIO, DOCCANO), (DOCCANO, LABEL_STUDIO)])
def test_gold_and_predictions_in_two_formats(
    capsys: pytest.CaptureFixture[str], gold: Path, pred: Path
) -> None:
    names = {DOCCANO: "doccano", LABEL_STUDIO: "labelstudio"}
    line = cli_error(capsys, "score", str(gold), str(pred), "--format", names[gold])  # names both
    assert line.startswith(f"nerve: error: {pred}"), line
    assert f"the file looks like {names[pred]}, not {names[gold]}, and {gold} like {names[gold]}" in line
    assert line.endswith(f"--gold-format {names[gold]} --pred-format {names[pred]}"), line
    line = cli_error(capsys, "score", str(gold), str(pred))  # each sniffed on its own: both read, then paired
    assert line.startswith(f"nerve: error: {pred}: has "), line
    assert ", but the gold has" in line, line


def test_a_bad_file_of_the_format_named_gets_no_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text('{"text": "John", "label": [[0, 4, "PER"]]}\n{"text": "x", "label": [[0, 1\n')
    line = cli_error(capsys, "score", str(path), "--format", "doccano")
    assert "looks like" not in line
