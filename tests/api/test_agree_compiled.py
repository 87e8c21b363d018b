"""`nerve.agree` of a CoNLL file of several tag columns: the compiled path against the numpy engine.

The compiled path (`nerve.compiled_agree`, `nerve.compiled_agree_flat`) must give the numpy engine's
`Agreement` to the last bit and row (its JSON, byte for byte) on random files: tags of every letter
and invalid transitions, documents and sentences of any size (empty documents between
``-DOCSTART-`` lines too), every instance filter, with and without the bootstrap; on GermEval's
five columns; and hand every file it does not read (a byte order mark, a CR, no final newline,
bytes that are not UTF-8, another column count, too few columns, a tag the format refuses, a
scheme the tags break) to the numpy engine, which gives the same result or error as without it.
It must not import numpy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from agree_corpora import germeval_sentences, write_columns
from conftest import engine
from engines import compiled_or_skip
from nerve import compiled_agree as agree_compiled
from nerve import options
from nerve.analysis.agree_query import check_agree_query
from nerve.api.agree_numpy import numpy_agreement
from nerve.errors import NerveError
from nerve.plan import InstanceQuery, statistics_of

compiled_or_skip()

TAGS = ("O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-LOC", "S-ORG", "I-ORG", "B-MISC")


@st.composite
def column_files(draw: st.DrawFn) -> tuple[str, int]:
    """A CoNLL file of 2 to 5 tag columns: its text and its tag column count."""
    m = draw(st.integers(2, 5))
    lines: list[str] = []
    if draw(st.booleans()):
        lines += ["-DOCSTART- " + " ".join("O" * m), ""]
    for _ in range(draw(st.integers(1, 8))):
        for _ in range(draw(st.integers(1, 6))):
            tags = [draw(st.sampled_from(TAGS)) for _ in range(m)]
            lines.append(" ".join([draw(st.sampled_from(["a", "b", "Bonn", "x-y", "é"])), *tags]))
        lines.append("")
        if draw(st.integers(0, 3)) == 0:
            lines += ["-DOCSTART- " + " ".join("O" * m), ""]
    return "\n".join(lines) + "\n", m


def _both(path: Path, **kw: object) -> tuple[str, str]:
    """The JSON of the compiled path and of the numpy engine (the compiled path must apply)."""
    query = check_agree_query(kw.pop("instances", None))  # type: ignore[arg-type]
    n, seed = kw.pop("bootstrap", None), kw.pop("seed", None)
    stats = statistics_of(n, seed, None, None) if n else None
    wanted = kw.pop("annotators", None)
    how = ("auto", None, "O")
    found = agree_compiled.compiled_agreement([str(path)], wanted, (None, None, how), stats, query)  # type: ignore[arg-type]
    assert found is not None, "the compiled path handed the file over"
    ref = numpy_agreement([str(path)], wanted, (None, None, how), stats, (query, None, None, None))  # type: ignore[arg-type]
    return json.dumps(found.to_dict()), json.dumps(ref.to_dict())


QUERIES = st.one_of(
    st.none(),
    st.builds(
        InstanceQuery,
        st.one_of(
            st.none(),
            st.lists(
                st.sampled_from(["missed", "type", "boundary", "boundary_type"]), min_size=1, max_size=2
            ).map(tuple),
        ),
        st.one_of(
            st.none(), st.lists(st.sampled_from(["PER", "LOC", "ORG"]), min_size=1, max_size=2).map(tuple)
        ),
        st.one_of(st.none(), st.integers(1, 3)),
        st.sampled_from(["position", "frequency"]),
        st.integers(0, 3),
    ),
)


@settings(max_examples=150, deadline=None)
@given(column_files(), QUERIES, st.sampled_from([None, 0, 40]), st.integers(0, 2**64))
def test_the_compiled_path_gives_the_numpy_engines_agreement(
    tmp_path_factory: pytest.TempPathFactory,
    file: tuple[str, int],
    query: InstanceQuery | None,
    n: int | None,
    seed: int,
) -> None:
    text, _ = file
    path = tmp_path_factory.mktemp("agree") / "columns.conll"
    path.write_text(text, encoding="utf-8")
    ours, theirs = _both(path, instances=query, bootstrap=n or None, seed=seed)
    assert ours == theirs


def test_picked_and_renamed_annotators(tmp_path: Path) -> None:
    path = tmp_path / "c.conll"
    path.write_text("a B-PER O B-PER I-PER\nb I-PER B-LOC O I-PER\n\nc O O B-PER O\n", encoding="utf-8")
    ours, theirs = _both(path, annotators=["4=x", "2", "5=z"], bootstrap=30, seed=3)
    assert ours == theirs
    assert '"name": "x"' in ours


def test_germeval_five_columns(shared_data: Path, tmp_path: Path) -> None:
    path = write_columns(germeval_sentences(shared_data, 600), tmp_path / "germeval.conll", 20)
    ours, theirs = _both(path, bootstrap=200, seed=11)
    assert ours == theirs
    rows = json.loads(ours)["disagreements"]["rows"]
    assert rows
    assert rows[0]["context"]


BOOTSTRAP_EDGES = {
    # one document of entities among documents of none: alpha is undefined in the resamples that
    # draw only the latter, so its interval is n/a; the mean pairwise F1 is defined in every one
    "alpha undefined in some resamples": (
        "-DOCSTART- O O O\n\na B-PER O B-LOC\nb I-PER B-PER O\n\n"
        + "-DOCSTART- O O O\n\nc O O O\nd O O O\n\n" * 3
    ),
    # the annotators agree everywhere: every resample gives the same F1 and alpha, a degenerate flag
    "every resample alike": "-DOCSTART- O O\n\na B-PER B-PER\nb O O\n\n" * 4,
}


@pytest.mark.parametrize("case", sorted(BOOTSTRAP_EDGES))
def test_resamples_that_cannot_give_an_interval(tmp_path: Path, case: str) -> None:
    """An interval is n/a where a resample's statistic is undefined or none varies, as on the numpy engine."""
    path = tmp_path / "c.conll"
    path.write_text(BOOTSTRAP_EDGES[case], encoding="utf-8")
    ours, theirs = _both(path, bootstrap=60, seed=5)
    assert ours == theirs
    alpha = json.loads(ours)["alpha"]
    assert alpha["interval"] is None
    assert alpha["reason"].startswith(("a resample leaves alpha undefined", "alpha: every resample"))


def test_too_many_resamples_for_memory_say_how_many_fit(tmp_path: Path) -> None:
    """A bootstrap whose sums would not fit in memory is refused as on the numpy engine, same words."""
    path = tmp_path / "c.conll"
    path.write_text("-DOCSTART- O O O O O\n\na B-PER O B-PER O O\n\n" * 3, encoding="utf-8")
    query, how = check_agree_query(None), ("auto", None, "O")
    stats = statistics_of(1_000_000, 1, None, None)
    with pytest.raises(NerveError) as want:
        numpy_agreement([str(path)], None, (None, None, how), stats, (query, None, None, None))
    with pytest.raises(type(want.value)) as got:
        agree_compiled.compiled_agreement([str(path)], None, (None, None, how), stats, query)
    assert str(got.value) == str(want.value)
    assert "37 columns" in str(got.value)


HANDED_OVER = {
    "a byte order mark": b"\xef\xbb\xbfa O O\n",
    "a carriage return": b"a O O\r\nb O O\r\n",
    "no final newline": b"a O O\nb O B-PER",
    "bytes that are not UTF-8": b"a\xff O O\n",
    "another column count": b"a O O\nb O O O\n",
    "too few columns": b"a O\nb O\n",
    "a tag the format refuses": b"a B-PER O\nb PER-B O\n",
    "a scheme the tags break": b"a B-PER O\nb X O\n",
    "no token": b"-DOCSTART- O O\n\n",
}


@pytest.mark.parametrize("case", sorted(HANDED_OVER))
def test_what_the_core_leaves_to_the_numpy_engine(tmp_path: Path, case: str) -> None:
    """The compiled path hands it over, and `agree` says what the numpy engine says."""
    path = tmp_path / "c.conll"
    path.write_bytes(HANDED_OVER[case])
    query, how = check_agree_query(None), ("auto", None, "O")
    assert agree_compiled.compiled_agreement([str(path)], None, (None, None, how), None, query) is None
    try:
        ref = json.dumps(
            numpy_agreement([str(path)], None, (None, None, how), None, (query, None, None, None)).to_dict()
        )
    except NerveError as err:
        said, kind = str(err), type(err)
    else:
        assert json.dumps(nerve.agree(path, bootstrap=0).to_dict()) == ref
        return
    with pytest.raises(kind) as got:
        nerve.agree(path, bootstrap=0)
    assert str(got.value) == said


@pytest.mark.parametrize("scheme", ["IO", "IOB1", "IOB2", "IOE2", "BILOU"])
def test_a_scheme_a_column_breaks_once_decoded_is_handed_over(tmp_path: Path, scheme: str) -> None:
    """The scheme is checked after decoding (`FlatColumn.decode`, in a task): where the tags break
    it the compiled path hands over (`HandOver`), and `agree` says what the numpy engine says."""
    path = tmp_path / "c.conll"
    path.write_bytes(b"a B-PER O\nb E-PER S-LOC\n\nc I-LOC U-PER\n")
    query, how = check_agree_query(None), (scheme, None, "O")
    with pytest.raises(NerveError) as want, options.renamed(from_scheme="scheme"):  # as agree names it
        numpy_agreement([str(path)], None, (None, None, how), None, (query, None, None, None))
    assert agree_compiled.compiled_agreement([str(path)], None, (None, None, how), None, query) is None
    with pytest.raises(type(want.value)) as got:
        nerve.agree(path, bootstrap=0, scheme=scheme)
    assert str(got.value) == str(want.value)


def test_a_plain_agree_of_columns_imports_only_what_it_uses(tmp_path: Path) -> None:
    path = tmp_path / "c.conll"
    path.write_text("-DOCSTART- O O O\n\na B-PER O B-PER\nb I-PER B-LOC O\n\n" * 30, encoding="utf-8")
    code = (
        "import sys, io, nerve.cli as c\n"
        "out, sys.stdout = sys.stdout, io.StringIO()\n"
        f"c.main(['agree', {str(path)!r}, '--seed', '3'])\n"
        "text, sys.stdout = sys.stdout.getvalue(), out\n"
        "heavy = ('numpy', 'typing', 'threading', 'json', 'csv')\n"
        "print(*(m in sys.modules for m in heavy), 'alpha' in text)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NERVE_NO_SPEEDUPS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split() == ["False"] * 5 + ["True"]  # none of numpy, typing, threading, json, csv


@pytest.fixture(autouse=True, scope="module")
def _compiled_engine() -> Iterator[None]:
    """The compiled engine on, also in the ``NERVE_NO_SPEEDUPS=1`` pass (it is built: compiled_or_skip)."""
    with engine(True):
        yield
