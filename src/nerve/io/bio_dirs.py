"""Inputs of the text-level metrics: entities with their text, per document.

- **Directories of BIO files** (ie-eval's layout): a label directory and a prediction directory,
  each with one ``*.bio`` file per document, paired by file name. A line is ``token TAG`` (two
  fields, separated by spaces or tabs); blank lines may separate sentences. Tags are IOB2
  (``B-X``, ``I-X``, ``O``); a file's words may differ from its counterpart's (transcription
  errors).
- **CoNLL files**, as `nerve score` reads them: a merged file (token first, gold and predicted
  tags last) or a gold and a prediction file, with documents starting at ``-DOCSTART-`` lines
  (the whole file is one document without them).

The text of an entity is its tokens joined by single spaces. Each file is checked as a whole
before scoring: a file on one side only, a line that is not ``token TAG`` or a tag the scheme does
not know raise `InputError` with the file and line. Invalid transitions (``I-X`` after ``O``) are
repaired by the policy given (``begin`` by default) and counted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError, InvalidSequenceError, NerveError
from ..model.quoting import quote
from ..model.schemes import TagFormat, get_scheme
from ..model.texts import EntityTexts
from ..model.vocab import TagVocab
from ..tagging.decode import (
    chunk_validity,
    decode_ids,
    get_policy,
    invalid_positions,
    neighbours,
    problems_for,
)
from ._read_files import FIRST, PIECE, read_all
from .bytes import BOM, DOCSTART, intern, split_fields, starts_with

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]

__all__ = ["TextCorpus", "read_bio_dirs", "read_text_files"]

_APART = 8192  # files per side from which a second interpreter reads the predictions


@dataclass(frozen=True)
class TextCorpus:
    """Gold and predicted entities by text, document by document, and what reading found."""

    gold: EntityTexts
    pred: EntityTexts
    documents: list[str]
    repairs: tuple[int, int]  # invalid transitions repaired, gold and predicted
    scheme: str
    repair: str


@dataclass(frozen=True)
class _Files:
    """Files read into one buffer of whole lines, and where each begins."""

    data: bytes
    names: list[str]  # file names, relative to ``directory`` when it is given
    first_line: Int  # global index of each file's first line
    directory: str | None = None

    def where(self, line: int) -> tuple[str, int]:
        """The file and 1-based line of a global line index."""
        f = int(np.searchsorted(self.first_line, line, side="right")) - 1
        name = self.names[f] if self.directory is None else os.path.join(self.directory, self.names[f])
        return name, line - int(self.first_line[f]) + 1


def _normalize(data: bytes) -> bytes:
    """Bytes without a BOM, with LF line ends and a final newline (unless empty)."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    if data and not data.endswith(b"\n"):
        data += b"\n"
    return data


def _read_bytes(path: str) -> bytes:
    """A file's bytes, as they are (`_load` normalizes them).

    ``os.open``/``os.read`` rather than ``open()``: a directory may hold tens of thousands of
    small files, and the buffered-file machinery costs more than the reading.
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        raise InputError(path, None, "no such file") from None
    except OSError as err:
        raise InputError(path, None, f"cannot be read: {err.strerror or err}") from None
    try:
        # Small first: os.read allocates the whole size asked for. A short read is the end.
        pieces = [os.read(fd, FIRST)]
        size = FIRST
        while len(pieces[-1]) == size:
            size = PIECE
            pieces.append(os.read(fd, size))
    except IsADirectoryError:
        raise InputError(path, None, "is a directory, expected a file") from None
    except OSError as err:
        raise InputError(path, None, f"cannot be read: {err.strerror or err}") from None
    finally:
        os.close(fd)
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def _read_dir(directory: str, names: list[str]) -> list[bytes]:
    """The bytes of many files of one directory, as `_read_bytes` gives them.

    A tight loop of system calls relative to the directory (`nerve._read_files.read_all`); any
    trouble is left to `_read_bytes`, file by file, to name.
    """
    try:
        return read_all(directory, names)
    except OSError:
        return [_read_bytes(os.path.join(directory, n)) for n in names]


def _read_apart(directory: str, names: list[str]) -> tuple[bytes, Int] | None:
    """The joined bytes and sizes of a directory's files, read by a second interpreter.

    Reading many files is one system call after another; a second process reads them while
    this one reads the other side, with no GIL between the two. ``None`` when that fails in any
    way (no interpreter, a file that cannot be read...): the caller then reads the files itself,
    which names the problem.
    """
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(__file__), "_read_files.py")
    if not sys.executable:
        return None
    try:
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", script, directory],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        with proc.stdin:
            proc.stdin.write(b"\0".join(map(os.fsencode, names)))
        out = proc.stdout.read()
    except OSError:
        out = b""
    finally:
        proc.stdout.close()
        status = proc.wait()
    n = len(names)
    if status != 0 or len(out) < 8 * (n + 1) or int.from_bytes(out[:8], "little") != n:
        return None
    sizes = np.frombuffer(out, dtype="<i8", count=n, offset=8).astype(np.int64)
    data = out[8 * (n + 1) :]
    if int(sizes.sum()) != len(data):
        return None
    return data, sizes


def _load(paths: list[str], parts: list[bytes] | None = None, directory: str | None = None) -> _Files:
    """The files (``paths`` relative to ``directory`` if given) in one buffer; ``parts`` if read."""
    if parts is None:
        parts = [_read_bytes(path if directory is None else os.path.join(directory, path)) for path in paths]
    sizes = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    return _load_joined(paths, b"".join(parts), sizes, directory)


def _load_joined(paths: list[str], data: bytes, sizes: Int, directory: str | None = None) -> _Files:
    """Files read into one buffer (``sizes`` bytes each), checked and normalized.

    Files are normalized (`_normalize`) only where an array test over the joined bytes finds a
    BOM, a carriage return or a missing final newline.
    """
    ends = np.cumsum(sizes)
    buf = np.frombuffer(data, dtype=np.uint8)
    if buf.shape[0]:
        starts = ends - sizes
        head = np.zeros((len(paths), len(BOM)), dtype=np.uint8)
        room = sizes >= len(BOM)
        head[room] = buf[starts[room, None] + np.arange(len(BOM))]
        odd = room & (head == np.frombuffer(BOM, dtype=np.uint8)).all(axis=1)
        odd |= (sizes > 0) & (buf[np.maximum(ends - 1, 0)] != 10)
        if b"\r" in data:
            odd[np.searchsorted(ends, np.flatnonzero(buf == 13), side="right")] = True
        if odd.any():
            bounds = zip(starts.tolist(), ends.tolist(), strict=True)
            parts = [data[a:b] for a, b in bounds]
            for i in np.flatnonzero(odd).tolist():
                parts[i] = _normalize(parts[i])
            data = b"".join(parts)
            buf = np.frombuffer(data, dtype=np.uint8)
            sizes = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
            ends = np.cumsum(sizes)
    newlines = np.flatnonzero(buf == 10)
    first = np.searchsorted(newlines, ends - sizes)  # lines before each file
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        name, line = _Files(data, paths, first, directory).where(data.count(b"\n", 0, err.start))
        raise InputError(name, line, f"byte 0x{data[err.start]:02x} is not valid UTF-8") from None
    return _Files(data, paths, first, directory)


def _entity_texts(buf: npt.NDArray[np.uint8], starts: Int, ends: Int, first: Int, last: Int) -> list[str]:
    """The text of each entity: its tokens ``first[k]..last[k]`` (inclusive) joined by spaces.

    The bytes are gathered in one pass over the buffer.
    """
    n_entities = first.shape[0]
    if not n_entities:
        return []
    per_entity = last - first + 1
    tokens = np.repeat(first - np.cumsum(per_entity) + per_entity, per_entity) + np.arange(
        int(per_entity.sum())
    )
    s, e = starts[tokens], ends[tokens]
    lengths = e - s + 1  # each token is followed by a space, or by a newline ending its entity
    total = int(lengths.sum())
    out_start = np.cumsum(lengths) - lengths
    index = np.repeat(s - out_start, lengths) + np.arange(total)
    out = buf[np.minimum(index, buf.shape[0] - 1)].copy()
    sep_at = out_start + lengths - 1
    out[sep_at] = 32
    out[sep_at[np.cumsum(per_entity) - 1]] = 10
    return out.tobytes().decode("utf-8").split("\n")[:-1]


def _side(
    files: _Files,
    doc_of_file: Int | None,
    vocab: TagVocab,
    policy: str,
    role: str,
    tag_column: str,
) -> tuple[EntityTexts, int]:
    """One side's entities and its number of invalid transitions.

    ``doc_of_file`` numbers documents by file (BIO directories); ``None`` numbers them by
    ``-DOCSTART-`` lines (CoNLL). ``tag_column`` is ``"last"``, or ``"second_last"`` for the gold
    tags of a merged file.
    """
    buf = np.frombuffer(files.data, dtype=np.uint8)
    ft = split_fields(buf)
    n_lines = ft.count.shape[0]
    line_no = np.arange(n_lines)
    is_docstart = np.zeros(n_lines, dtype=np.bool_)
    if doc_of_file is None:
        is_docstart[starts_with(files.data, DOCSTART, ft, whole_field=True)] = True
        wanted = 3 if tag_column == "second_last" else 2
        bad = np.flatnonzero((ft.count > 0) & ~is_docstart & (ft.count < wanted))
        expected = "token, gold tag, predicted tag" if wanted == 3 else "token and tag"
    else:
        bad = np.flatnonzero((ft.count > 0) & (ft.count != 2))
        expected = "`token TAG`"
    if bad.shape[0]:
        i = int(bad[0])
        name, line = files.where(i)
        text = files.data[int(ft.start[ft.first_gap[i]]) : int(ft.end[ft.line_cut[i]])].decode(
            "utf-8", "replace"
        )
        raise InputError(name, line, f"expected {expected}, found {quote(text)}")
    rows = np.flatnonzero((ft.count > 0) & ~is_docstart)
    tag_field = ft.last[rows] if tag_column == "last" else ft.second_last[rows]
    ids_raw, values = intern(buf, ft.start[tag_field], ft.end[tag_field])
    tags = [v.decode("utf-8") for v in values]
    mapped = vocab.add(tags)
    if (mapped < 0).any():
        bad_tok = np.flatnonzero(mapped[ids_raw] < 0)
        name, line = files.where(int(rows[bad_tok[0]]))
        raise InputError(name, line, vocab.explain(tags[ids_raw[bad_tok[0]]]))
    ids = mapped[ids_raw].astype(np.int32)
    # A sentence starts after a non-token line or at a file's first line.
    file_of_row = np.searchsorted(files.first_line, rows, side="right") - 1
    sentence_start = np.ones(rows.shape[0], dtype=np.bool_)
    sentence_start[1:] = (rows[1:] != rows[:-1] + 1) | (file_of_row[1:] != file_of_row[:-1])
    if doc_of_file is not None:
        doc = doc_of_file[file_of_row]
        n_docs = int(doc_of_file.max(initial=-1)) + 1
    else:
        starts_before = np.cumsum(is_docstart)
        doc_number = starts_before[rows] if rows.shape[0] else np.zeros(0, dtype=np.int64)
        # Without -DOCSTART- lines the file is one document; text before the first one is one too.
        has_leading = rows.shape[0] > 0 and int(doc_number[0]) == 0
        doc = doc_number - (0 if has_leading else 1)
        n_docs = int(starts_before[-1]) + (1 if has_leading else 0) if n_lines else 0
        n_docs = max(n_docs, int(doc.max(initial=-1)) + 1)
    scheme = vocab.scheme
    assert scheme is not None
    continues, bad_start, bad_end = scheme.transition_tables(vocab.kinds, vocab.types)
    prev, nxt = neighbours(ids, sentence_start)
    entering, leaving = invalid_positions(ids, sentence_start, prev, nxt, bad_start | bad_end)
    repairs = int(entering.shape[0] + leaving.shape[0])
    if policy == "error" and repairs:
        lines = line_no[rows]
        problems = problems_for(
            vocab, scheme, role, files.where(0)[0], lines, ids, prev, sentence_start, entering, leaving
        )
        located = []
        for p in problems:
            name, line = files.where(p.line)
            located.append(type(p)(name, line, p.side, p.previous, p.tag, p.message))
        raise InvalidSequenceError(located, scheme.name)
    chunks = decode_ids(ids, prev, continues, vocab.kinds, vocab.types)
    if policy == "discard":
        chunks = chunks.select(chunk_validity(chunks, ids, prev, nxt, bad_start, bad_end))
    token_field = ft.first[rows]
    texts = _entity_texts(buf, ft.start[token_field], ft.end[token_field], chunks.start, chunks.end - 1)
    names = vocab.type_names
    categories = [names[t] for t in chunks.type.tolist()]
    return EntityTexts(doc[chunks.start].astype(np.int64), categories, texts, n_docs), repairs


def _vocab(scheme: str) -> TagVocab:
    fixed = get_scheme(scheme)
    return TagVocab(TagFormat(), fixed, "O")


def read_bio_dirs(
    label_dir: str | os.PathLike[str],
    prediction_dir: str | os.PathLike[str],
    *,
    scheme: str = "IOB2",
    repair: str = "begin",
) -> TextCorpus:
    """Read a label and a prediction directory of ``*.bio`` files, paired by name.

    Raises:
        InputError: a missing or empty directory, a file on one side only (all are named), a
            line that is not ``token TAG``, or a tag the scheme does not know.
    """
    policy = get_policy(repair)
    if policy == "conlleval":
        raise NerveError("the text metrics need entities; use --repair begin, discard or error")
    for d in (label_dir, prediction_dir):
        path = Path(d)
        if not path.is_dir():
            raise InputError(
                os.fspath(d), None, "no such directory" if not path.exists() else "is not a directory"
            )
    # The two sides are listed, read and parsed at once, each with its own vocabulary: listing
    # and reading are system calls and parsing mostly numpy, all of which release the GIL.
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(2)
    with pool:
        label_names, pred_names = pool.map(_bio_names, (label_dir, prediction_dir))
        if label_names != pred_names:
            raise _one_side_only(label_dir, label_names, pred_names)
        names = label_names  # no files at all is an empty dataset: every count is 0
        doc_of_file = np.arange(len(names), dtype=np.int64)

        def side(directory: str | os.PathLike[str], role: str) -> tuple[EntityTexts, int]:
            d = os.fspath(directory)
            # With many files, the predictions are read by a second interpreter (`_read_apart`).
            joined = _read_apart(d, names) if role == "pred" and len(names) >= _APART else None
            if joined is None:
                files = _load(names, _read_dir(d, names), d)
            else:
                files = _load_joined(names, *joined, d)
            return _side(files, doc_of_file, _vocab(scheme), policy, role, "last")

        (gold, g_rep), (pred, p_rep) = pool.map(side, (label_dir, prediction_dir), ("gold", "pred"))
    vocab = _vocab(scheme)
    return TextCorpus(
        gold, pred, names, (g_rep, p_rep), vocab.scheme.name if vocab.scheme else scheme, policy
    )


def _bio_names(directory: str | os.PathLike[str]) -> list[str]:
    """The ``*.bio`` names of a directory, sorted (a directory named so is kept: reading names it)."""
    names = os.listdir(directory)
    if ("\0".join(names) + "\0").count(".bio\0") != len(names):  # one C pass when all are .bio
        names = [name for name in names if name.endswith(".bio")]
    names.sort()
    return names


def _one_side_only(
    label_dir: str | os.PathLike[str], label_names: list[str], pred_names: list[str]
) -> InputError:
    """The error that names the files found on one side only (the sorted listings differ)."""
    labels, predictions = set(label_names), set(pred_names)

    def listing(names: list[str]) -> str:
        return ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")

    parts = []
    only_label = sorted(labels - predictions)
    only_pred = sorted(predictions - labels)
    if only_label:
        parts.append(f"{len(only_label)} without a prediction ({listing(only_label)})")
    if only_pred:
        parts.append(f"{len(only_pred)} without a label ({listing(only_pred)})")
    return InputError(os.fspath(label_dir), None, "files are on one side only: " + "; ".join(parts))


def read_text_files(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    scheme: str = "IOB2",
    repair: str = "begin",
) -> TextCorpus:
    """Read a merged CoNLL file, or a gold and a prediction file; documents at ``-DOCSTART-``."""
    policy = get_policy(repair)
    if policy == "conlleval":
        raise NerveError("the text metrics need entities; use --repair begin, discard or error")
    vocab = _vocab(scheme)
    g_files = _load([os.fspath(gold)])
    if pred is None:
        g, g_rep = _side(g_files, None, vocab, policy, "gold", "second_last")
        p, p_rep = _side(g_files, None, vocab, policy, "pred", "last")
    else:
        g, g_rep = _side(g_files, None, vocab, policy, "gold", "last")
        p, p_rep = _side(_load([os.fspath(pred)]), None, vocab, policy, "pred", "last")
    if g.n_docs != p.n_docs:
        raise InputError(
            os.fspath(pred or gold), None, f"has {p.n_docs} documents, but the gold has {g.n_docs}"
        )
    names = [f"{os.fspath(gold)}#{i + 1}" for i in range(g.n_docs)]
    return TextCorpus(g, p, names, (g_rep, p_rep), vocab.scheme.name if vocab.scheme else scheme, policy)
