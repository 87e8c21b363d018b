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
