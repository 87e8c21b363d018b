"""The brat reader's fast path (`io.tools.brat_batch`) reads a document as the slow path does, or not."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
import nerve.io.tools.brat_files as brat_files
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
