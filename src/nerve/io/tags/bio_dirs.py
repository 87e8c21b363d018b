"""Inputs of the text-level metrics, read: tagged lines of BIO directories and CoNLL files.

- **Directories of BIO files** (ie-eval's layout): a label directory and a prediction directory,
  each with one ``*.bio`` file per document, paired by file name. A line is ``token TAG`` (two
  fields, separated by spaces or tabs); blank lines may separate sentences.
- **CoNLL files**, as `nerve score` reads them: a merged file (token first, gold and predicted
  tags last) or a gold and a prediction file, with documents starting at ``-DOCSTART-`` lines
  (the whole file is one document without them), or with each sentence a document.

In: directories and files. Out: `TagLines`, the tag ids of one side with their tokens'
bytes, sentences and documents; `nerve.tagging.texts` decodes them into entity texts. A file on
one side only, a line that is not ``token TAG`` or a tag the scheme does not know raise
`InputError` with the file and line.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ... import options
from ..._frozen import frozen
from ...errors import InputError, OptionError
from ...model.quoting import quote
from ...model.vocab import TagVocab
from ..bytes import BOM, DOCSTART, FieldTable, intern, split_fields, starts_with
from ..progress import note
from ..sources import unify_line_ends
from ._read_files import FIRST, PIECE, read_all

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Int

__all__ = [
    "Files",
    "TagLines",
    "bio_names",
    "check_directories",
    "load_files",
    "name_pattern",
    "one_side_only",
    "parse_tag_lines",
    "read_side",
]

_APART = 8192  # files per side from which a second interpreter reads the predictions


@frozen
class Files:
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
    """Bytes without a BOM, with LF line ends (for CRLF and a lone CR) and a final newline (unless empty)."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    data = unify_line_ends(data)
    if data and not data.endswith(b"\n"):
        data += b"\n"
    return data


def _read_bytes(path: str) -> bytes:
    """A file's bytes, as they are (`load_files` normalizes them).

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
        note(len(pieces[-1]))  # `nerve.io.progress`: a call a piece, or a file for many small ones
        size = FIRST
        while len(pieces[-1]) == size:
            size = PIECE
            pieces.append(os.read(fd, size))
            note(len(pieces[-1]))
    except IsADirectoryError:
        raise InputError(path, None, "is a directory, expected a file") from None
    except OSError as err:
        raise InputError(path, None, f"cannot be read: {err.strerror or err}") from None
    finally:
        os.close(fd)
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def _read_dir(directory: str, names: list[str]) -> list[bytes]:
    """The bytes of many files of one directory, as `_read_bytes` gives them.

    A tight loop of system calls relative to the directory (`nerve.io.tags._read_files.read_all`); any
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


def load_files(paths: list[str], parts: list[bytes] | None = None, directory: str | None = None) -> Files:
    """The files (``paths`` relative to ``directory`` if given) in one buffer; ``parts`` if read."""
    if parts is None:
        parts = [_read_bytes(path if directory is None else os.path.join(directory, path)) for path in paths]
    sizes = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    return load_joined(paths, b"".join(parts), sizes, directory)


def load_joined(paths: list[str], data: bytes, sizes: Int, directory: str | None = None) -> Files:
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
        name, line = Files(data, paths, first, directory).where(data.count(b"\n", 0, err.start))
        raise InputError(name, line, f"byte 0x{data[err.start]:02x} is not valid UTF-8") from None
    return Files(data, paths, first, directory)


def name_pattern(pattern: str) -> str:
    """A checked glob for file names: ``*.bio``, ``d?.txt``; a bare extension ``.txt`` means ``*.txt``.

    Raises:
        OptionError: an empty pattern, or one with a path separator (it matches names, not paths).
    """
    if not pattern or "/" in pattern or os.sep in pattern or "\0" in pattern:
        detail = f"expected a glob for file names such as '*.bio', got {pattern!r}"
        raise OptionError(options.flag("pattern"), detail)
    if pattern.startswith(".") and not any(c in pattern for c in "*?["):
        return "*" + pattern
    return pattern


def bio_names(directory: str | os.PathLike[str], pattern: str = "*.bio") -> list[str]:
    """The names in a directory that match ``pattern``, sorted (a subdirectory too: reading names it)."""
    names = os.listdir(directory)
    suffix = pattern[1:] if pattern.startswith("*") and not any(c in pattern[1:] for c in "*?[") else None
    if suffix is None:
        names = list(filter(re.compile(fnmatch.translate(pattern)).match, names))
    elif ("\0".join(names) + "\0").count(suffix + "\0") != len(names):  # one C pass when all match
        names = [name for name in names if name.endswith(suffix)]
    names.sort()
    return names


def one_side_only(
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


def check_directories(*directories: str | os.PathLike[str]) -> None:
    """Raise `InputError` for the first of ``directories`` that is missing or not a directory."""
    for d in directories:
        path = Path(d)
        if not path.is_dir():
            raise InputError(
                os.fspath(d), None, "no such directory" if not path.exists() else "is not a directory"
            )


def read_side(directory: str, names: list[str], role: str) -> Files:
    """The files ``names`` of one directory in one buffer.

    With many files, the predictions are read by a second interpreter (`_read_apart`) while this
    one reads the labels.
    """
    joined = _read_apart(directory, names) if role == "pred" and len(names) >= _APART else None
    if joined is None:
        return load_files(names, _read_dir(directory, names), directory)
    return load_joined(names, *joined, directory)


@frozen
class TagLines:
    """One side's token lines: tag ids, where sentences start, documents, and token bytes.

    Attributes:
        files: the files read, to name a line's file and number (`Files.where`).
        vocab: the vocabulary ``ids`` index (scheme included).
        buf: the bytes of all files.
        rows: the global line index of each token line.
        ids: the tag id of each token line.
        sentence_start: whether each token line starts a sentence.
        doc: the document of each token line.
        n_docs: the number of documents, including those without tokens.
        token_start: the byte offset of each token in ``buf``.
        token_end: the byte offset one past each token.
        docstarts: the number of ``-DOCSTART-`` lines read (CoNLL files).
    """

    files: Files
    vocab: TagVocab
    buf: npt.NDArray[np.uint8]
    rows: Int
    ids: npt.NDArray[np.int32]
    sentence_start: npt.NDArray[np.bool_]
    doc: Int
    n_docs: int
    token_start: Int
    token_end: Int
    docstarts: int = 0

    @property
    def sentences(self) -> int:
        """The number of sentences."""
        return int(np.count_nonzero(self.sentence_start))


def _check_lines(files: Files, ft: FieldTable, is_docstart: npt.NDArray[np.bool_], tag_column: str) -> None:
    """Raise `InputError` at the first line with too few (or, in BIO files, too many) fields."""
    if tag_column == "bio":
        bad = np.flatnonzero((ft.count > 0) & (ft.count != 2))
        expected = "`token TAG`"
    else:
        wanted = 3 if tag_column == "second_last" else 2
        bad = np.flatnonzero((ft.count > 0) & ~is_docstart & (ft.count < wanted))
        expected = "token, gold tag, predicted tag" if wanted == 3 else "token and tag"
    if bad.shape[0]:
        i = int(bad[0])
        name, line = files.where(i)
        text = files.data[int(ft.start[ft.first_gap[i]]) : int(ft.end[ft.line_cut[i]])].decode(
            "utf-8", "replace"
        )
        raise InputError(name, line, f"expected {expected}, found {quote(text)}")


def _tag_ids(
    files: Files, buf: npt.NDArray[np.uint8], ft: FieldTable, rows: Int, tag_column: str, vocab: TagVocab
) -> npt.NDArray[np.int32]:
    """The tag id of each token line; `InputError` at the first tag the vocabulary rejects."""
    tag_field = ft.second_last[rows] if tag_column == "second_last" else ft.last[rows]
    ids_raw, values = intern(buf, ft.start[tag_field], ft.end[tag_field])
    tags = [v.decode("utf-8") for v in values]
    mapped = vocab.add(tags)
    if (mapped < 0).any():
        bad_tok = np.flatnonzero(mapped[ids_raw] < 0)
        name, line = files.where(int(rows[bad_tok[0]]))
        raise InputError(name, line, vocab.explain(tags[ids_raw[bad_tok[0]]]))
    return mapped[ids_raw].astype(np.int32)


def _docstart_documents(is_docstart: npt.NDArray[np.bool_], rows: Int) -> tuple[Int, int]:
    """The document of each token line, numbered by ``-DOCSTART-`` lines, and their count."""
    n_lines = is_docstart.shape[0]
    starts_before = np.cumsum(is_docstart)
    doc_number = starts_before[rows] if rows.shape[0] else np.zeros(0, dtype=np.int64)
    # Without -DOCSTART- lines the file is one document; text before the first one is one too.
    has_leading = rows.shape[0] > 0 and int(doc_number[0]) == 0
    doc = doc_number - (0 if has_leading else 1)
    n_docs = int(starts_before[-1]) + (1 if has_leading else 0) if n_lines else 0
    return doc, max(n_docs, int(doc.max(initial=-1)) + 1)


def parse_tag_lines(
    files: Files, doc_of_file: Int | None, vocab: TagVocab, tag_column: str, documents: str = "docstart"
) -> TagLines:
    """The token lines of ``files``, their tags added to ``vocab``.

    Args:
        files: the files of one side (or a merged CoNLL file).
        doc_of_file: the document of each file (BIO directories: lines are ``token TAG``), or
            ``None`` for CoNLL files, whose documents ``documents`` says.
        vocab: the vocabulary to add the tags to; a tag it rejects is an `InputError`.
        tag_column: ``"last"``, or ``"second_last"`` for the gold tags of a merged file.
        documents: for CoNLL files, ``"docstart"`` to number documents by ``-DOCSTART-`` lines,
            or ``"sentence"`` to make each sentence a document.
    """
    buf = np.frombuffer(files.data, dtype=np.uint8)
    ft = split_fields(buf)
    is_docstart = np.zeros(ft.count.shape[0], dtype=np.bool_)
    if doc_of_file is None:
        is_docstart[starts_with(files.data, DOCSTART, ft, whole_field=True)] = True
    _check_lines(files, ft, is_docstart, "bio" if doc_of_file is not None else tag_column)
    rows = np.flatnonzero((ft.count > 0) & ~is_docstart)
    ids = _tag_ids(files, buf, ft, rows, tag_column, vocab)
    # A sentence starts after a non-token line or at a file's first line.
    file_of_row = np.searchsorted(files.first_line, rows, side="right") - 1
    sentence_start = np.ones(rows.shape[0], dtype=np.bool_)
    sentence_start[1:] = (rows[1:] != rows[:-1] + 1) | (file_of_row[1:] != file_of_row[:-1])
    if doc_of_file is not None:
        doc, n_docs = doc_of_file[file_of_row], int(doc_of_file.max(initial=-1)) + 1
    elif documents == "sentence":
        doc = np.cumsum(sentence_start, dtype=np.int64) - 1
        n_docs = int(doc[-1]) + 1 if doc.shape[0] else 0
    else:
        doc, n_docs = _docstart_documents(is_docstart, rows)
    token_field = ft.first[rows]
    bounds = ft.start[token_field], ft.end[token_field]
    docstarts = int(np.count_nonzero(is_docstart))
    return TagLines(files, vocab, buf, rows, ids, sentence_start, doc, n_docs, *bounds, docstarts)
