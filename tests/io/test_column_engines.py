"""The HIPE and CoNLL-U readers on both engines: the compiled scan (csrc/columns.c) and numpy.

Random files, malformed lines included (wrong widths, bad IDs, bad tags, a value with a second
``=``, a missing key or column), comments and document markers, multiword tokens and empty nodes,
blank lines of Unicode spaces, LF, CR LF and lone CR, a byte order mark, bytes that are not
UTF-8, no last line end. Each is read by every entry point of both readers on each engine, in one
process, and the spans, notes, texts, errors and messages must be the same. Where the compiled scan
hands over (bytes that are not UTF-8, a CoNLL-U ID that is none), numpy reads the file: the
answers are the same by construction, and `test_what_hands_over` pins which inputs do.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from conftest import engine
from nerve._engine import speedups
from nerve.errors import InputError
from nerve.io.tags.column_scan import CONLLU, HIPE, scan_lines
from nerve.io.tags.conllu import conllu_texts, read_conllu, read_conllu_pair
from nerve.io.tags.hipe import hipe_texts, read_hipe, read_hipe_pair
from nerve.io.tools.brat_files import read_brat

HEADER = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-NESTED\tMISC"
TAGS = ["O", "B-PER", "I-PER", "E-LOC", "S-ORG", "I-LOC", "_", "B-LOC", "L-PER", "U-ORG", "X", "B-"]
TOKENS = ["Paris", "é", "a b", "#tag", "\u00a0x", "", " ", "TOKEN", "1", "Zoë\u3000", "\x00"]
BLANKS = ["", " ", "\t", "  \t ", "\u00a0", "\u3000 ", "\u2028", "\x1c", " \u0085", "\u200b"]
HIPE_COMMENTS = [
    "# hipe2022:document_id = d1",
    "# document_id = d2",
    "#\u00a0document_id\u3000= d3",
    "# document_id",
    "#document_id=",
    "# hipe2022:document_id x = y",
    "# segment_iiif_link = _",
    "# hipe2022:date = 1900",
    "#",
]
CONLLU_COMMENTS = [
    "# newdoc id = d",
    "#newdoc",
    "# \u00a0newdoc",
    "# sent_id = 1",
    "# text = a b",
    "#",
    "# x newdoc",
]
IDS = ["1", "2", "10", "1-2", "1.1", "0001", "a", "", "1-", "-1", "1.2.3", "1--2", "٣", "9" * 33, "1-2 "]
MISCS = [
    "NER=B-PER",
    "NER=I-PER",
    "NER=O",
    "_",
    "SpaceAfter=No|NER=I-LOC",
    "SpaceAfter=No NER=B-ORG",
    "NER=B-PER=X",
    "name=B-GPE",
    "NER=S-LOC|name=O",
    "NER=",
]
ENDS = ["\n", "\r\n", "\r"]


@pytest.fixture(autouse=True)
def compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled engine must be built (whatever NERVE_NO_SPEEDUPS says): else skipped, failed under CI."""
    speedups.cache_clear()
    if importlib.util.find_spec("nerve._speedups") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nerve._speedups is not built; CI builds it (pip install -e .)")
        pytest.skip("nerve._speedups is not built (python setup.py build_ext --inplace)")
    monkeypatch.setenv("NERVE_NO_SPEEDUPS", "0")  # the suite also runs under NERVE_NO_SPEEDUPS=1
    speedups.cache_clear()
    yield
    speedups.cache_clear()


def on_engine(numpy: bool, call: Callable[[], object]) -> object:
    """What ``call`` gives (or the error it raises, as its type, message and option) on one engine."""
    with engine(not numpy):
        assert (speedups() is None) == numpy
        try:
            return outcome(call())
        except InputError as err:
            return ("InputError", str(err), err.option)


def outcome(value: object) -> object:
    """A comparable form of a reader's answer: spans as lists, problems as messages."""
    if isinstance(value, tuple):
        return tuple(outcome(v) for v in value)
    if isinstance(value, list):
        return [outcome(v) for v in value]
    if isinstance(value, InputError):
        return ("InputError", str(value), value.option)
    if hasattr(value, "documents"):
        spans = value
        return (spans.documents(), spans.labels, spans.n_docs, dict(spans.notes), spans.source)  # type: ignore[attr-defined]
    return value


def same_on_both(call: Callable[[], object]) -> object:
    c, numpy = on_engine(False, call), on_engine(True, call)
    assert c == numpy
    with contextlib.suppress(InvalidArgument):  # outside a hypothesis test: no events
        event("error" if isinstance(c, tuple) and c[:1] == ("InputError",) else "read")
    return c


def collected(call: Callable[[list[InputError]], object]) -> object:
    """What ``call`` gives with a fresh list of problems, and the problems it collected."""
    problems: list[InputError] = []
    return call(problems), problems


def write(path: Path, lines: list[str], ends: list[str], bom: bool, bad: int | None, last_end: bool) -> str:
    data = b"\xef\xbb\xbf" if bom else b""
    for i, line in enumerate(lines):
        end = ends[i % len(ends)] if (i < len(lines) - 1 or last_end) else ""
        data += line.encode("utf-8") + end.encode()
    if bad is not None and data:
        at = bad % len(data)
        data = data[:at] + b"\xff\xc3" + data[at:]
    path.write_bytes(data)
    return str(path)


def hipe_line(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["row", "row", "row", "row", "blank", "comment", "short", "header"]))
    if kind == "blank":
        return draw(st.sampled_from(BLANKS))
    if kind == "comment":
        return draw(st.sampled_from(HIPE_COMMENTS))
    if kind == "header":
        return HEADER
    width = 6 if kind == "row" else draw(st.sampled_from([1, 5, 7]))
    cells = [draw(st.sampled_from(TOKENS))] + [draw(st.sampled_from(TAGS)) for _ in range(width - 1)]
    return "\t".join(cells)


def conllu_line(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["word", "word", "word", "word", "blank", "comment", "short"]))
    if kind == "blank":
        return draw(st.sampled_from(BLANKS))
    if kind == "comment":
        return draw(st.sampled_from(CONLLU_COMMENTS))
    ident = draw(st.sampled_from(IDS[:6])) if draw(st.integers(0, 9)) else draw(st.sampled_from(IDS))
    cells = [
        ident,
        draw(st.sampled_from(TOKENS)),
        "_",
        "_",
        "_",
        "_",
        "0",
        "_",
        "_",
        draw(st.sampled_from(MISCS)),
    ]
    if kind == "short":
        cells = cells[: draw(st.sampled_from([1, 9]))]
    return "\t".join(cells)


@st.composite
def files(
    draw: st.DrawFn, line: Callable[[st.DrawFn], str], header: bool
) -> tuple[list[str], list[str], bool, int | None, bool]:
    lines = [line(draw) for _ in range(draw(st.integers(0, 25)))]
    if header and draw(st.integers(0, 5)):
        lines.insert(draw(st.integers(0, min(2, len(lines)))), HEADER)
    ends = draw(st.lists(st.sampled_from(ENDS), min_size=1, max_size=3))
    bom = draw(st.booleans())
    bad = draw(st.integers(0, 10_000)) if not draw(st.integers(0, 9)) else None
    return lines, ends, bom, bad, draw(st.booleans())


def variants(lines: list[str], seed: int) -> list[str]:
    """A prediction file like ``lines``: the same, a tag changed, a line dropped."""
    out = list(lines)
    if out and seed % 3 == 1:
        out[seed % len(out)] = out[seed % len(out)].replace("B-PER", "I-LOC").replace("NER=O", "NER=B-PER")
    elif out and seed % 3 == 2:
        del out[seed % len(out)]
    return out


SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.slow
@SETTINGS
@given(files(hipe_line, header=True), st.integers(0, 100))
def test_hipe_on_both_engines(
    tmp_path: Path, file: tuple[list[str], list[str], bool, int | None, bool], seed: int
) -> None:
    lines, ends, bom, bad, last_end = file
    gold = write(tmp_path / "gold.tsv", lines, ends, bom, bad, last_end)
    pred = write(tmp_path / "pred.tsv", variants(lines, seed), ends[::-1], not bom, None, True)
    for column in (None, "NE-FINE-LIT", "NE-COARSE-LIT,NE-NESTED", "MISSING"):
        same_on_both(lambda c=column: read_hipe(gold, column=c))
        same_on_both(lambda c=column: collected(lambda p: read_hipe_pair(gold, pred, problems=p, column=c)))
    same_on_both(lambda: hipe_texts(gold))


@pytest.mark.slow
@SETTINGS
@given(files(conllu_line, header=False), st.integers(0, 100))
def test_conllu_on_both_engines(
    tmp_path: Path, file: tuple[list[str], list[str], bool, int | None, bool], seed: int
) -> None:
    lines, ends, bom, bad, last_end = file
    gold = write(tmp_path / "gold.conllu", lines, ends, bom, bad, last_end)
    pred = write(tmp_path / "pred.conllu", variants(lines, seed), ends[::-1], not bom, None, True)
    for key in (None, "name"):
        same_on_both(lambda k=key: read_conllu(gold, column=k))
        same_on_both(lambda k=key: collected(lambda p: read_conllu_pair(gold, pred, problems=p, column=k)))
    same_on_both(lambda: conllu_texts(gold))


def test_what_hands_over() -> None:
    """The compiled scan takes clean files; it hands over bytes not UTF-8 and CoNLL-U IDs that are none."""
    assert scan_lines(f"{HEADER}\r\nParis\tB-LOC\tO\tO\tO\t_\n".encode(), HIPE) is not None
    assert scan_lines(b"\xef\xbb\xbf1\tx\t_\t_\t_\t_\t0\t_\t_\tNER=O\r1-2\t\r", CONLLU) is not None
    assert scan_lines(b"TOKEN\nx\xff\n", HIPE) is None
    assert scan_lines(b"\xed\xa0\x80\n", HIPE) is None  # a surrogate, which Python refuses too
    assert scan_lines(b"x\tNER=O\n", CONLLU) is None
    assert scan_lines(b"1.2.3\tNER=O\n", CONLLU) is None


def test_lines_and_kinds() -> None:
    """Offsets in the bytes as read (BOM and CR outside), kinds, widths; a cut CR LF stays one line end."""
    data = b"\xef\xbb\xbf# newdoc\r\n1\ta\r\n \xc2\xa0\r2.1\tb\n\n#x"
    lines = scan_lines(data, CONLLU)
    assert lines is not None
    assert [lines.text(i) for i in range(len(lines))] == ["# newdoc", "1\ta", " \u00a0", "2.1\tb", "", "#x"]
    assert lines.kind.tolist() == [1, 0, 3, 4, 3, 2]
    assert lines.width.tolist() == [1, 2, 1, 2, 1, 1]
    assert lines.start[0] == 3


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from([*HIPE_COMMENTS, *CONLLU_COMMENTS, *BLANKS, HEADER, "1\tx", "1-2\ty", "é\tB-X"]),
        max_size=12,
    ),
    st.lists(st.sampled_from(ENDS), min_size=1, max_size=3),
    st.booleans(),
    st.integers(1, 9),
    st.sampled_from([HIPE, CONLLU]),
)
def test_blocks_cut_anywhere(lines: list[str], ends: list[str], bom: bool, block: int, mode: int) -> None:
    """Fed in blocks of a few bytes (lines, CR LF, characters and the BOM cut anywhere): the same lines."""
    engine = importlib.import_module("nerve._speedups")
    data = b"\xef\xbb\xbf" * bom + b"".join(
        line.encode() + ends[i % len(ends)].encode() for i, line in enumerate(lines)
    )
    for tail in (b"", b"x", b"\r", b"\xef\xbb"):
        whole = engine.scan_columns(data + tail, mode)
        assert engine.scan_columns(data + tail, mode, block) == whole


def test_numpy_engine_is_what_runs_without_speedups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NERVE_NO_SPEEDUPS", "1")
    speedups.cache_clear()
    assert scan_lines(b"TOKEN\n", HIPE) is None
    assert importlib.import_module("nerve._speedups").scan_columns(b"TOKEN\n", HIPE) != 1


FORMATS = Path(__file__).parents[1] / "data" / "formats"


@pytest.mark.parametrize("path", sorted((FORMATS / "hipe").glob("*.tsv")), ids=lambda p: p.name)
def test_real_hipe_files_on_both_engines(path: Path) -> None:
    """The HIPE scorer's own test files: every column, the texts, and the pairs they come in."""
    for column in ("NE-COARSE-LIT", "NE-FINE-LIT", "NE-COARSE-LIT,NE-NESTED", "NE-FINE-METO"):
        assert same_on_both(lambda c=column: read_hipe(str(path), column=c)) is not None
    assert same_on_both(lambda: hipe_texts(str(path)))
    gold = path.with_name(path.name.replace("-pred.", "-true."))
    if gold != path:
        same_on_both(lambda: collected(lambda p: read_hipe_pair(str(gold), str(path), problems=p)))


@pytest.mark.parametrize("path", sorted((FORMATS / "conllu").glob("*.conllu")), ids=lambda p: p.name)
def test_real_conllu_files_on_both_engines(path: Path) -> None:
    """A Universal Dependencies treebank (no NER key: the same refusal) and the sample."""
    for key in (None, "SpaceAfter", "Translit"):
        same_on_both(lambda k=key: read_conllu(str(path), column=k))
    assert same_on_both(lambda: conllu_texts(str(path)))


@pytest.mark.parametrize(
    "where",
    [
        "wlp-wnut2020/gold/standoff",
        "wlp-wnut2020/predictions/baseline-crf/standoff",
        "bio-ncbi-disease/spyysalo-standoff/test",
    ],
)
def test_real_brat_directories_on_both_engines(shared_data: Path, where: str) -> None:
    """Real brat directories (../shared/data): the same spans, notes and errors on both engines."""
    path = shared_data / where
    if not path.is_dir():
        pytest.skip(f"{where} is not in ../shared/data")
    found = same_on_both(lambda: read_brat(str(path)))
    assert isinstance(found, tuple)
    assert found[0] != "InputError"


def test_the_readers_take_the_compiled_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On clean files the C engine does the reading: the numpy scans are not called at all."""
    import nerve.io.tags.conllu as conllu_module
    import nerve.io.tags.hipe as hipe_module
    import nerve.io.tools.brat_batch as brat_batch

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the numpy path ran")

    for module, name in ((hipe_module, "text_bytes"), (conllu_module, "text_bytes"), (brat_batch, "_numpy")):
        monkeypatch.setattr(module, name, refuse)
    hipe = tmp_path / "a.tsv"
    hipe.write_text(f"{HEADER}\n# document_id = 1\nParis\tB-LOC\tO\tB-LOC\tO\t_\n", encoding="utf-8")
    assert read_hipe(str(hipe))[0].documents() == [[(0, 1, "LOC")]]
    conllu = tmp_path / "a.conllu"
    conllu.write_text("# newdoc\n1\tParis\t_\t_\t_\t_\t0\t_\t_\tNER=B-LOC\n", encoding="utf-8")
    assert read_conllu(str(conllu))[0].documents() == [[(0, 1, "LOC")]]
    (tmp_path / "brat").mkdir()
    (tmp_path / "brat" / "d.txt").write_text("Paris", encoding="utf-8")
    (tmp_path / "brat" / "d.ann").write_text("T1\tLOC 0 5\tParis\n", encoding="utf-8")
    assert read_brat(str(tmp_path / "brat"))[0].documents() == [[(0, 5, "LOC")]]
