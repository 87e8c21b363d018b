"""User mistakes in CoNLL files and tag lists: each is one `InputError` naming the file, the line
and the option that fixes it, and the CLI prints it as one line with exit status 2.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import nerve
from nerve import InputError
from nerve.cli import main
from nerve.model.quoting import QUOTE_LIMIT, quote


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return str(path)


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``nerve ARGS``, which must fail with status 2 and one line on stderr; return that line."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


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


def refuse_to_open(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """Make ``open(path)`` raise PermissionError, as for a file without read permission (the
    tests may run as root, who can read anything)."""
    import builtins

    real_open = builtins.open

    def fake_open(file: object, *args: object, **kwargs: object) -> object:
        if isinstance(file, (str, Path)) and str(file) == path:
            raise PermissionError(13, "Permission denied", path)
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", fake_open)


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
