"""`nerve.io.tags.agree_scan`: a multi-column CoNLL file scanned as two halves gives what one pass gives.

For random files (documents of any size, empty ones between ``-DOCSTART-`` lines, tokens before
the first, new tags only in the second half), at every cut `cut_of` finds (before a ``-DOCSTART-``
line, after a blank line between token lines), the joined halves equal one pass field for field;
`documents` on its own, on hand-made cases; and halves the core would read another way (another
column count in the second half) are handed over.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import engine
from engines import compiled_or_skip
from nerve._engine import speedups
from nerve.errors import InputError
from nerve.io.tags.agree_scan import FileBytes, Scanned, cut_of, documents, raw, scan_columns

compiled_or_skip()


def _core() -> Any:
    found = speedups()
    assert found is not None
    return found


@st.composite
def files(draw: st.DrawFn) -> bytes:
    m = draw(st.integers(2, 4))
    tags = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "S-X", "E-LOC", f"I-T{draw(st.integers(0, 9))}"])
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            lines += ["-DOCSTART- " + " ".join("O" * m), ""]
        elif kind == 1:
            lines.append("")
        else:
            for _ in range(draw(st.integers(1, 4))):
                lines.append(" ".join(["w", *(draw(tags) for _ in range(m))]))
            lines.append("")
    return ("\n".join(lines) + "\n").encode()


def _assert_read_alike(core: Any, a: Scanned, b: Scanned) -> None:
    """Two scans read the same: documents, tokens, each column's tags, and the per-token arrays."""
    assert (a.n_docs, a.doc_start, a.tokens, a.tags) == (b.n_docs, b.doc_start, b.tokens, b.tags)
    assert a.arrays(core) == b.arrays(core)


@settings(max_examples=300, deadline=None)
@given(files())
def test_every_cut_gives_one_pass(data: bytes) -> None:
    core = _core()
    one = scan_columns(core, data, None)
    at = 0
    while (cut := cut_of(data, at)) is not None:
        two = scan_columns(core, data, cut)
        if one is None:
            assert two is None
        else:
            assert two is not None
            _assert_read_alike(core, two, one)
            words = core.agree_words(data, [scan for scan, _ in one.parts], 0, one.tokens)
            assert core.agree_words(data, [scan for scan, _ in two.parts], 0, two.tokens) == words
            assert _decoded(data, two) == _decoded(data, one)
        at = cut


def _decoded(data: bytes, scanned: Any) -> list[object]:
    """Each column decoded from the scan's parts (`agree_decode`): transitions, entities, repairs."""
    from nerve.compiled_agree_read import FlatColumn, FlatRead

    read = FlatRead("f", data, scanned)
    out: list[object] = []
    for c in range(len(scanned.tags)):
        column = FlatColumn(c, read, ("auto", None, "O"))
        out.append((column.codes, [bytes(a) for a in column.spans], column.names, column.repairs))
    return out


def test_documents_of_two_halves() -> None:
    # cut before a -DOCSTART- line: the second half's documents follow
    assert documents((2, [0, 3, 5], 1, 1), (1, [0, 4], 0)) == [0, 3, 5, 9]
    # cut after a blank line: the second half's first document goes on with the first half's last
    assert documents((2, [0, 3, 5], 1, 1), (2, [0, 4, 6], 1)) == [0, 3, 9, 11]
    # two -DOCSTART- lines at the end of the first half: an empty document between
    assert documents((1, [0, 3], 0, 3), (1, [0, 2], 0)) == [0, 3, 3, 3, 5]


def test_another_column_count_in_the_second_half_is_handed_over() -> None:
    core = _core()
    data = b"a O O\n\n-DOCSTART- O O\n\nb O O O\n"
    cut = cut_of(data, 0)
    assert cut is not None
    assert scan_columns(core, data, cut) is None
    assert core.agree_scan(data, 0, cut) != core.agree_scan(data, cut, len(data))


def test_a_big_file_on_two_cores_is_scanned_as_two_halves(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default the file is cut past its middle and both halves are scanned (mutation testing:
    one pass gives the same result, so only the calls show the cut)."""
    from nerve.io.tags import agree_scan

    core = _core()
    data = b"".join(b"-DOCSTART- O O\n\na B-PER O\nb I-PER B-LOC\n\n" for _ in range(50))
    calls: list[tuple[int, int]] = []

    class Recording:
        def agree_scan(self, d: bytes, start: int, end: int) -> object:
            calls.append((start, end))
            return _core().agree_scan(d, start, end)

    monkeypatch.setattr(agree_scan, "threads", lambda size, workers: 2)
    found = scan_columns(Recording(), data)  # type: ignore[arg-type]
    cut = cut_of(data, len(data) // 2)
    assert cut is not None
    assert sorted(calls) == [(0, cut), (cut, len(data))]
    one = scan_columns(core, data, None)
    assert found is not None
    assert one is not None
    _assert_read_alike(core, found, one)
    monkeypatch.setattr(agree_scan, "threads", lambda size, workers: 1)
    calls.clear()
    scan_columns(Recording(), data)  # type: ignore[arg-type]
    assert calls == [(0, len(data))]


@pytest.fixture(autouse=True, scope="module")
def _compiled_engine() -> Iterator[None]:
    """The compiled engine on, also in the ``NERVE_NO_SPEEDUPS=1`` pass (it is built: compiled_or_skip)."""
    with engine(True):
        yield


@settings(max_examples=50, deadline=None)
@given(files(), st.integers(0, 400), st.integers(0, 400))
def test_a_mapped_file_reads_as_its_bytes(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, lo: int, hi: int
) -> None:
    """The file mapped (`FileBytes`) slices, scans and gives words as its bytes do."""
    core = _core()
    path = tmp_path_factory.mktemp("mapped") / "a.conll"
    path.write_bytes(data)
    mapped = FileBytes(core, str(path))
    assert not isinstance(mapped.raw, bytes)  # a mapping, not a copy
    assert len(mapped) == len(data)
    assert mapped[lo:hi] == data[lo:hi]
    assert mapped[lo:] == data[lo:]
    assert mapped[:hi] == data[:hi]
    assert cut_of(mapped, lo) == cut_of(data, lo)
    one, other = scan_columns(core, mapped, None), scan_columns(core, data, None)
    assert (one is None) == (other is None)
    if one is not None and other is not None:
        _assert_read_alike(core, one, other)
        scans = [scan for scan, _ in one.parts]
        words = core.agree_words(data, scans, 0, one.tokens)
        assert core.agree_words(raw(mapped), scans, 0, one.tokens) == words


def test_a_file_that_is_not_mapped_is_read(tmp_path: Any) -> None:
    """An empty file (no mapping of no bytes) or a directory is read as bytes, or fails as reading does."""
    core = _core()
    empty = tmp_path / "empty.conll"
    empty.write_bytes(b"")
    assert core.agree_map(str(empty)) is None
    found = FileBytes(core, str(empty))
    assert found.raw == b""
    assert len(found) == 0
    assert found[0:10] == b""
    assert core.agree_map(str(tmp_path)) is None
    assert core.agree_map(str(tmp_path / "missing")) is None
    with pytest.raises(FileNotFoundError):
        FileBytes(core, str(tmp_path / "missing"))
    with pytest.raises(TypeError, match="bytes, or a mapping"):
        core.agree_scan(bytearray(b"w O O\n"), 0, 6)


def test_rows_of_a_file_changed_since_it_was_mapped_are_refused(tmp_path: Any) -> None:
    """A mapped file cut short would fault on its lost pages: its words are not read again once it
    changed (size, time or inode); the rows say so, with the file and what to do."""
    from nerve.compiled_agree import agree

    path = tmp_path / "c.conll"
    path.write_text("-DOCSTART- O O\n\na B-PER O\nb I-PER B-LOC\n\n" * 40, encoding="utf-8")
    found = agree(path, bootstrap=0)
    path.write_text("a O O\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"c\.conll: changed since nerve read it.*run nerve\.agree again"):
        list(found.disagreements.rows)


def test_one_pass_arrays_are_the_scans_own() -> None:
    """`Scanned.arrays` of one pass is what the core read (`agree_parts`), not a copy of something else."""
    core = _core()
    data = b"-DOCSTART- O O\n\na B-PER O\nb I-PER B-LOC\n\nc O O\n"
    one = scan_columns(core, data, None)
    assert one is not None
    ((scan, maps),) = one.parts
    assert maps is None
    assert one.arrays(core) == core.agree_parts(scan)
    sentence, words, ids = one.arrays(core)
    assert sentence == bytes([1, 0, 1])
    assert memoryview(words).cast("q").tolist() == [
        data.index(b"a B"),
        data.index(b"b I"),
        data.index(b"c O"),
    ]
    assert [memoryview(i).cast("H").tolist() for i in ids] == [[0, 1, 2], [0, 1, 0]]


@pytest.mark.parametrize("extra", [0, 1])
def test_halves_joined_hold_65536_tags_a_column_and_no_more(extra: int) -> None:
    """uint16 ids hold 65,536 tags: two halves of 32,768 new tags each join; one more is handed over,
    as one pass hands it over."""
    core = _core()
    first = b"".join(b"w T%d O\n" % i for i in range(32768))
    second = b"".join(b"w T%d O\n" % i for i in range(32768, 65536 + extra))
    data = first + b"\n" + second
    cut = len(first) + 1
    two = scan_columns(core, data, cut)
    one = scan_columns(core, data, None)
    if extra:
        assert two is None
        assert one is None
    else:
        assert two is not None
        assert one is not None
        assert len(two.tags[0]) == 65536
        assert two.arrays(core) == one.arrays(core)


def test_a_file_read_not_mapped_is_a_copy_that_a_change_does_not_touch(tmp_path: Any) -> None:
    """Where no mapping is made the bytes are read: a copy, so the file may change after."""
    core = _core()

    class Unmapped:
        def __getattr__(self, name: str) -> object:
            return getattr(core, name)

        def agree_map(self, path: str) -> None:
            return None

    path = tmp_path / "c.conll"
    path.write_bytes(b"a B-PER O\n")
    found = FileBytes(Unmapped(), str(path))  # type: ignore[arg-type]
    assert found.raw == b"a B-PER O\n"
    path.write_bytes(b"changed\n")
    found.check()  # no error: nothing is read from the file again
    assert found[0:5] == b"a B-P"
