"""The C engine against the numpy engine on CoNLL files: the same results, errors and messages.

Both engines run in this process: the compiled counter (`nerve.io.tags.conll_c`) is switched off by
making its `speedups` return ``None``, which sends `nerve.score` to the numpy reader. Random corpora
cover every scheme, repair policy, tag format, delimiter, document layout (merged files, gold and
prediction files, tags-only prediction files, streams, directories) and malformed line.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
import nerve.io.tags.conll_c as conll_c
from engines import CORE, both
from nerve.io.tags.conll_counted import scheme_tables
from nerve.io.tags.delimiters import sniff_delimiter
from nerve.model.pairs import code_tables
from nerve.model.schemes import SCHEMES, TagFormat

POLICIES = ("begin", "conlleval", "discard", "error")
FORMATS = (TagFormat("prefix", "-"), TagFormat("suffix", "-"), TagFormat("prefix", "_"))
SETTINGS = settings(
    max_examples=int(os.environ.get("NERVE_ENGINE_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# ---- random corpora ----

WORDS = st.sampled_from(["a", "Paris", "#tag", "é", "-X-", "x_y", "B-PER", "日本", "-DOCSTART-x", "O"])


@st.composite
def tags(draw: st.DrawFn, scheme: str, fmt: TagFormat, noise: bool) -> str:
    if draw(st.integers(0, 2)) == 0:
        return "O"
    letters = "BIESLUM" if noise else "".join(SCHEMES[scheme].letters)
    return fmt.join(draw(st.sampled_from(letters)), draw(st.sampled_from(["PER", "LOC", "G-M", ""])))


@st.composite
def corpora(draw: st.DrawFn) -> dict[str, Any]:
    """A corpus: documents of sentences of (word, gold tag, predicted tag), and how it is written."""
    scheme = draw(st.sampled_from(sorted(SCHEMES)))
    fmt = draw(st.sampled_from(FORMATS))
    noise = draw(st.booleans())
    token = st.tuples(WORDS, tags(scheme, fmt, noise), tags(scheme, fmt, noise))
    docs = draw(
        st.lists(st.lists(st.lists(token, min_size=1, max_size=5), max_size=3), min_size=1, max_size=3)
    )
    return {
        "docs": docs,
        "scheme": scheme,
        "fmt": fmt,
        "docstart": draw(st.booleans()),
        "sep": draw(st.sampled_from([" ", "\t", "  ", " \t"])),
        "blanks": draw(st.integers(1, 2)),
        "comment": draw(st.booleans()),
        "crlf": draw(st.booleans()),
        "bom": draw(st.booleans()),
        "last_newline": draw(st.booleans()),
        "pos": draw(st.booleans()),  # a POS column between the token and the tags
    }


def write(
    corpus: dict[str, Any], columns: Callable[[tuple[str, str, str]], list[str]], docstart: bool
) -> bytes:
    """The corpus as a file of the columns ``columns`` takes from each token."""
    lines: list[str] = []
    for doc in corpus["docs"]:
        if docstart:
            lines += ["-DOCSTART- -X- O O", ""]
        for sentence in doc:
            if corpus["comment"]:
                lines.append("# a comment")
            lines += [corpus["sep"].join(columns(t)) for t in sentence]
            lines += [""] * corpus["blanks"]
    end = "\r\n" if corpus["crlf"] else "\n"
    text = end.join(lines) + (end if corpus["last_newline"] else "")
    return (b"\xef\xbb\xbf" if corpus["bom"] else b"") + text.encode()


def merged(corpus: dict[str, Any]) -> bytes:
    pos = ["NN"] if corpus["pos"] else []
    return write(corpus, lambda t: [t[0], *pos, t[1], t[2]], corpus["docstart"])


def gold_file(corpus: dict[str, Any]) -> bytes:
    return write(corpus, lambda t: [t[0], t[1]], corpus["docstart"])


def pred_file(corpus: dict[str, Any], tags_only: bool, docstart: bool) -> bytes:
    return write(corpus, (lambda t: [t[2]]) if tags_only else (lambda t: [t[0], t[2]]), docstart)


MUTATIONS = st.one_of(
    st.just(b""),
    st.sampled_from([b"\xff", b"\x00", b"\r", b" ", b"\t", b"\n", b"x ", b"B-PER", b"-DOCSTART-\n", b"#"]),
)


@st.composite
def mutated(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a few bytes inserted or removed somewhere: a malformed line, perhaps."""
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(data)))
        cut = draw(st.integers(0, 3))
        data = data[:at] + draw(MUTATIONS) + data[at + cut :]
    return data


def options(draw: st.DrawFn, corpus: dict[str, Any]) -> dict[str, Any]:
    policy = draw(st.sampled_from(POLICIES))
    scheme = draw(st.sampled_from(["auto", corpus["scheme"], "IOB2", "IOBES"]))
    kw: dict[str, Any] = {"repair": policy, "scheme": scheme}
    if draw(st.booleans()):
        kw["comments"] = True
    if draw(st.integers(0, 3)) == 0:
        kw["delimiter"] = draw(st.sampled_from(["tab", "space", "whitespace", ","]))
    if draw(st.integers(0, 3)) == 0:
        kw["tag_format"] = draw(st.sampled_from(["B-X", "X-B", "B_X"]))
    if draw(st.integers(0, 4)) == 0:
        kw["check_tokens"] = False
    return kw


# ---- the suite ----


@SETTINGS
@given(data=st.data())
def test_merged_files(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    corpus = data.draw(corpora())
    raw = merged(corpus)
    text = data.draw(mutated(raw))
    kw = options(data.draw, corpus)
    path = tmp_path_factory.mktemp("merged") / "m.txt"
    path.write_bytes(text)
    fast, slow, spy = both(lambda: nerve.score(path, **kw))
    assert fast == slow
    plain = (
        kw == {"repair": "begin", "scheme": "auto"} and not corpus["comment"] and "\t" not in corpus["sep"]
    )
    plain &= corpus["fmt"] == FORMATS[0]  # B-X: a format inferred from one tag may hand over (`TagTable`)
    if text == raw and plain:
        assert spy.counted == 1  # plain input is the C engine's


@SETTINGS
@given(data=st.data())
def test_gold_and_prediction_files(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    corpus = data.draw(corpora())
    tags_only = data.draw(st.booleans())
    pred_docstart = corpus["docstart"] and data.draw(st.booleans())
    gold = data.draw(mutated(gold_file(corpus)))
    pred = data.draw(mutated(pred_file(corpus, tags_only, pred_docstart)))
    kw = options(data.draw, corpus)
    where = tmp_path_factory.mktemp("pair")
    (where / "g.txt").write_bytes(gold)
    (where / "p.txt").write_bytes(pred)
    fast, slow, _ = both(lambda: nerve.score(where / "g.txt", where / "p.txt", **kw))
    assert fast == slow


@SETTINGS
@given(data=st.data())
def test_streams(data: st.DataObject) -> None:
    corpus = data.draw(corpora())
    text = data.draw(mutated(merged(corpus)))
    kw = options(data.draw, corpus)
    fast, slow, _ = both(lambda: nerve.score(io.BytesIO(text), **kw))
    assert fast == slow


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_directories(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    root = tmp_path_factory.mktemp("dirs")
    for side in ("gold", "pred"):
        (root / side).mkdir()
    for name in ("a", "b"):
        corpus = data.draw(corpora())
        (root / "gold" / f"{name}.txt").write_bytes(gold_file(corpus))
        (root / "pred" / f"{name}.txt").write_bytes(
            data.draw(mutated(pred_file(corpus, False, corpus["docstart"])))
        )
    policy = data.draw(st.sampled_from(POLICIES))
    fast, slow, _ = both(lambda: nerve.score(root / "gold", root / "pred", repair=policy))
    assert fast == slow


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_lines_across_blocks(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    corpus = data.draw(corpora())
    where = tmp_path_factory.mktemp("blocks")
    files = [where / "g.txt"]
    if data.draw(st.booleans()):
        files[0].write_bytes(data.draw(mutated(merged(corpus))))
    else:  # a gold and a prediction file, read in lockstep
        files[0].write_bytes(gold_file(corpus))
        files.append(where / "p.txt")
        files[1].write_bytes(data.draw(mutated(pred_file(corpus, data.draw(st.booleans()), False))))
    block = data.draw(st.integers(1, 9))
    policy = data.draw(st.sampled_from(POLICIES))
    before = conll_c._BLOCK
    conll_c._BLOCK = block  # every line crosses blocks
    try:
        fast, slow, _ = both(lambda: nerve.score(*files, repair=policy))
    finally:
        conll_c._BLOCK = before
    assert fast == slow


@pytest.mark.parametrize("name", sorted(SCHEMES))
def test_scheme_tables_are_the_numpy_ones(name: str) -> None:
    _, bad_start, bad_end = code_tables(SCHEMES[name])
    assert scheme_tables(SCHEMES[name]) == (bad_start.tolist(), bad_end.tolist())


@settings(max_examples=300, deadline=None)
@given(
    head=st.lists(st.sampled_from([b"a", b" ", b"\t", b"\n", b"\r", b"#", b"-DOCSTART-", b"\xef\xbb\xbf"]))
)
def test_tab_sniffing_is_the_numpy_one(head: list[bytes]) -> None:
    data = b"".join(head)
    assert CORE.conll_sniff_tab(data) == (sniff_delimiter(data) == 9)


def test_real_files_are_counted_in_c(shared_data: Path) -> None:
    path = shared_data / "conll2000-chunking" / "output.txt"
    for policy in ("begin", "conlleval", "discard"):  # error: the numpy engine lists the invalid transitions
        fast, slow, spy = both(lambda policy=policy: nerve.score(path, repair=policy))  # type: ignore[misc]
        assert fast == slow
        assert fast[0] == "result"
        assert spy.counted >= 1  # discard counts again once the scheme is inferred
        assert spy.handed == 0


def test_the_default_engine_follows_the_environment() -> None:
    from nerve._engine import speedups

    off = os.environ.get("NERVE_NO_SPEEDUPS", "") not in ("", "0")
    assert (speedups() is None) == off


def test_many_distinct_tags(tmp_path: Path) -> None:
    """Hundreds of tags: the core's table of tags grows (rehashes) while a line's two tags are held."""
    lines = [f"w B-T{i} B-T{(i * 7) % 500}\nw I-T{i} I-T{i}\n\n" for i in range(500)]
    path = tmp_path / "many.txt"
    path.write_text("".join(lines))
    for policy in ("begin", "conlleval", "discard"):  # error: I-T1 after B-T7 is listed
        fast, slow, spy = both(lambda policy=policy: nerve.score(path, repair=policy))  # type: ignore[misc]
        assert fast == slow
        assert fast[0] == "result"
        assert spy.counted >= 1
