"""The brat reader's fast path (`io.tools.brat_batch`) reads a document as the slow path does, or not."""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
import nerve.io.tools.brat_files as brat_files
from conftest import engine
from nerve._engine import speedups
from nerve.io.tools.brat_batch import plain_documents
from nerve.io.tools.brat_files import read_brat

TEXT = "Ann met Bob in Dover.\nCy left.\tZoë"
SPANS = [(0, 3), (8, 11), (15, 20), (22, 24), (0, 7), (4, 7), (5, 5), (30, 40)]


@st.composite
def ann_line(draw: Any, n: int) -> str:
    s, e = draw(st.sampled_from(SPANS))
    label = draw(st.sampled_from(["PER", "LOC", "B-X", "Organization_name", "Ty pe", "Tÿ", "", "x" * 70]))
    covered = TEXT[s:e]
    text = draw(st.sampled_from([covered, covered, covered, covered + " more", "wrong", ""]))
    tid = draw(st.sampled_from([f"T{n}", f"T{n}", f"T{n}", "T1", f"T0{n}", "Tx", "T" + "9" * 12]))
    sep = draw(st.sampled_from([" ", " ", " ", "  "]))
    numbers = draw(
        st.sampled_from([f"{s}{sep}{e}", f"{s}{sep}{e}", f"{s} {e};{e} {e + 1}", "٣ 4", "1" * 20 + " 2"])
    )
    return draw(
        st.sampled_from(
            [
                f"{tid}\t{label} {numbers}\t{text}",
                f"{tid}\t{label} {numbers}\t{text}",
                f"{tid}\t{label} {numbers}",
                "R1\tRel Arg1:T1 Arg2:T2",
                "",
                f"A1\tNeg {tid}",
            ]
        )
    )


@st.composite
def documents(draw: Any) -> list[tuple[str, str]]:
    docs = []
    for _ in range(draw(st.integers(1, 4))):
        lines = [draw(ann_line(n)) for n in range(1, draw(st.integers(0, 5)) + 1)]
        end = draw(st.sampled_from(["\n", "\n", "", "\r\n"]))
        text = draw(st.sampled_from([TEXT, TEXT, TEXT.replace("\n", "\r\n"), "\ufeff" + TEXT, TEXT[:24]]))
        docs.append((end.join(lines) + (end if lines else ""), text))
    return docs


def read_both(directory: Path) -> tuple[Any, Any]:
    """(result or error) of the reader as it is, and with the fast path off."""
    out = []
    for fast in (True, False):
        saved = brat_files.plain_documents
        if not fast:
            brat_files.plain_documents = lambda items: {}
        try:
            out.append(read_brat(str(directory))[0])
        except nerve.InputError as err:
            out.append(str(err))
        finally:
            brat_files.plain_documents = saved
    return out[0], out[1]


def same(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    columns = ("doc", "start", "end", "label")
    return (
        all(np.array_equal(getattr(a, c), getattr(b, c)) for c in columns)
        and a.labels == b.labels
        and a.notes == b.notes
        and a.n_docs == b.n_docs
        and (a.fragments is None) == (b.fragments is None)
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_fast_path_reads_as_the_slow_path(docs: list[tuple[str, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i, (ann, text) in enumerate(docs):
            (Path(tmp) / f"d{i}.ann").write_bytes(ann.encode("utf-8"))
            (Path(tmp) / f"d{i}.txt").write_bytes(text.encode("utf-8"))
        fast, slow = read_both(Path(tmp))
        assert same(fast, slow), (fast, slow)


def test_plain_documents_are_read_fast_and_others_are_not(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Ann met Bob.", encoding="utf-8")
    (tmp_path / "a.ann").write_text("T1\tPER 0 3\tAnn\nT2\tPER 8 11\tBob\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("Ann met Bob.", encoding="utf-8")
    (tmp_path / "b.ann").write_text("T1\tPER 0 3\tAnn\nR1\tKnows Arg1:T1 Arg2:T1\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("Ann met Bob.", encoding="utf-8")
    (tmp_path / "c.ann").write_text("T1\tPER 0 3\tAnn\nT1\tPER 8 11\tBob\n", encoding="utf-8")
    items = [(str(tmp_path / f"{n}.ann"), "Ann met Bob.", str(tmp_path / f"{n}.txt")) for n in "abc"]
    found = plain_documents(items)
    assert set(found) == {0}
    assert found[0].labels == ["PER", "PER"]
    assert found[0].pieces.tolist() == [[0, 3], [8, 11]]
    with pytest.raises(nerve.InputError, match="id T1 is used twice"):
        read_brat(str(tmp_path))


def need_compiled() -> None:
    """The compiled engine must be built (whatever NERVE_NO_SPEEDUPS says): else skipped, failed under CI."""
    if importlib.util.find_spec("nerve._speedups") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nerve._speedups is not built; CI builds it (pip install -e .)")
        pytest.skip("nerve._speedups is not built (python setup.py build_ext --inplace)")


def plain_on(numpy: bool, items: list[Any]) -> dict[int, tuple[list[str], list[list[int]], list[int]]]:
    """`plain_documents` on one engine (``NERVE_NO_SPEEDUPS`` set for the call), as plain lists."""
    with engine(not numpy):
        assert (speedups() is None) == numpy
        found = plain_documents(items)
    return {k: (d.labels, d.pieces.tolist(), d.counts.tolist()) for k, d in found.items()}


@st.composite
def nearly_plain(draw: Any) -> list[tuple[str, str]]:
    """Plain lines over an ASCII text, at most one flaw a line: where the parse must look closely."""
    docs = []
    flaw = draw(st.sampled_from(FLAWS))  # one kind of flaw an example, on some of its lines
    for _ in range(draw(st.integers(1, 3))):
        lines = []
        for n in range(1, draw(st.integers(1, 4)) + 1):
            s, e = draw(st.sampled_from(SPANS[:5]))
            parts = {"id": f"T{n}", "type": "PER", "gap": " ", "start": str(s), "end": str(e)}
            parts["text"] = ASCII_TEXT[s:e]
            if draw(st.integers(0, 2)) == 0:
                parts[flaw[0]] = flaw[1](parts[flaw[0]])
            lines.append("{id}\t{type} {start}{gap}{end}\t{text}".format(**parts))
        docs.append(("\n".join(lines) + "\n", ASCII_TEXT))
    return docs


ASCII_TEXT = TEXT[:24]
FLAWS = [
    ("text", lambda t: t[::-1].upper()),
    ("text", lambda t: t + "x"),
    ("text", lambda t: t[:-1]),
    ("id", lambda i: "T1"),
    ("id", lambda i: "T0" + i[1:]),
    ("id", lambda i: "T" + "1" * 10),
    ("id", lambda i: "t" + i[1:]),
    ("type", lambda t: "x" * 65),
    ("type", lambda t: "x" * 64),
    ("type", lambda t: "P\u00e9R"),
    ("type", lambda t: ""),
    ("gap", lambda g: "  "),
    ("gap", lambda g: "\t"),
    ("start", lambda s: "0" * (15 - len(s)) + s),
    ("start", lambda s: "0" * (16 - len(s)) + s),
    ("end", lambda e: "0" * (15 - len(e)) + e),
    ("end", lambda e: "0" * (16 - len(e)) + e),
    ("id", lambda i: "T" + "0" * (9 - len(i) + 1) + i[1:]),
    ("id", lambda i: "T" + "0" * (10 - len(i) + 1) + i[1:]),
    ("start", lambda s: ""),
    ("end", lambda e: "99"),
    ("end", lambda e: e + " "),
    ("end", lambda e: "+" + e),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(documents(), nearly_plain()))
def test_engines_read_the_same_plain_documents(docs: list[tuple[str, str]]) -> None:
    """The compiled parse (csrc/brat.c) takes the documents numpy takes, with the same entities."""
    need_compiled()
    with tempfile.TemporaryDirectory() as tmp:
        items: list[Any] = []
        for i, (ann, text) in enumerate(docs):
            (Path(tmp) / f"d{i}.ann").write_bytes(ann.encode("utf-8"))
            (Path(tmp) / f"d{i}.txt").write_bytes(text.encode("utf-8"))
            items.append((str(Path(tmp) / f"d{i}.ann"), text, str(Path(tmp) / f"d{i}.txt")))
        assert plain_on(False, items) == plain_on(True, items)


@pytest.mark.parametrize("flaw", range(len(FLAWS)))
def test_engines_agree_on_each_flaw(tmp_path: Path, flaw: int) -> None:
    """Each flaw alone, on the first or second line of a document: the same documents on both engines."""
    need_compiled()
    key, change = FLAWS[flaw]
    items: list[Any] = []
    for i, (s, e) in enumerate(SPANS[:5]):
        lines = []
        for n in (1, 2):
            parts = {"id": f"T{n}", "type": "PER", "gap": " ", "start": str(s), "end": str(e)}
            parts["text"] = ASCII_TEXT[s:e]
            if n == 1 + i % 2:
                parts[key] = change(parts[key])
            lines.append("{id}\t{type} {start}{gap}{end}\t{text}\n".format(**parts))
        for name, ann in ((f"a{i}", lines[0]), (f"b{i}", "".join(lines))):
            (tmp_path / f"{name}.ann").write_text(ann, encoding="utf-8")
            items.append((str(tmp_path / f"{name}.ann"), ASCII_TEXT, str(tmp_path / f"{name}.txt")))
    assert plain_on(False, items) == plain_on(True, items)
