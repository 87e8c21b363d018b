"""A large JSONL span file is scored piece by piece: the same result as reading it at once."""

from __future__ import annotations

import json
import random
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.api import span_chunks
from nerve.errors import InputError
from nerve.io.json.jsonl_chunks import line_chunks


def spans(rnd: random.Random, n_tokens: int) -> list[dict[str, object]]:
    out = []
    for _ in range(rnd.randint(0, 4)):
        start = rnd.randrange(n_tokens)
        out.append({"start": start, "end": rnd.randint(start + 1, n_tokens), "label": rnd.choice("ABC")})
    return out


def write_corpus(path: Path, seed: int, docs: int) -> Path:
    rnd = random.Random(seed)
    lines = []
    for _ in range(docs):
        n = rnd.randint(1, 12)
        tokens = [rnd.choice(["a", "b", "c"]) for _ in range(n)]
        lines.append(json.dumps({"tokens": tokens, "gold": spans(rnd, n), "pred": spans(rnd, n)}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def scored(path: Path, size: int, **kwargs: object) -> dict[str, object]:
    with mock.patch.object(span_chunks, "CHUNK_BYTES", size):
        return nerve.score(path, metrics=["exact", "muc"], **kwargs).to_dict()  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("kwargs", [{}, {"document_average": True}, {"matching": "greedy"}])
def test_pieces_give_the_result_of_the_whole_file(
    tmp_path: Path, seed: int, kwargs: dict[str, object]
) -> None:
    path = write_corpus(tmp_path / "c.jsonl", seed, 300)
    whole = scored(path, 1 << 40, **kwargs)
    for size in (1, 100, 4096):
        assert scored(path, size, **kwargs) == whole


def test_an_error_names_its_line_in_a_later_piece(tmp_path: Path) -> None:
    path = write_corpus(tmp_path / "c.jsonl", 4, 50)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[41] = '{"tokens": ["a"], "gold": [{"start": 0, "end": 5, "label": "A"}], "pred": []}'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        scored(path, 200)
    assert err.value.line == 42
    with pytest.raises(InputError) as whole:
        scored(path, 1 << 40)
    assert str(err.value) == str(whole.value)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200).map(lambda b: b.replace(b"\r", b"")), st.integers(1, 50), st.booleans())
def test_line_chunks_cover_the_file_in_whole_lines(data: bytes, size: int, bom: bool) -> None:
    import tempfile

    with tempfile.NamedTemporaryFile(delete=False) as f:
        f.write(b"\xef\xbb\xbf" * bom + data)
    pieces = list(line_chunks(f.name, size))
    Path(f.name).unlink()
    # a BOM opening the file is read through, also when the drawn bytes are the ones that begin with it
    assert b"".join(p for p, _ in pieces) == (b"\xef\xbb\xbf" * bom + data).removeprefix(b"\xef\xbb\xbf")
    line = 1
    for i, (piece, first) in enumerate(pieces):
        assert first == line
        assert piece.endswith(b"\n") or i == len(pieces) - 1
        line += piece.count(b"\n")
