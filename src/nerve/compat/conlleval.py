r"""``nerve conlleval``: conlleval.pl (version 2004-01-26), reproduced byte for byte.

`run` is the ``nerve conlleval`` drop-in. It reads bytes the way the Perl script does (fields
split on a regex, default one space; the last two fields are gold and guess; ``-X-`` lines and
empty lines are boundaries; ``-DOCSTART-`` lines are tokens), counts chunks with conlleval.pl's
rules (`nerve.tagging.conlleval_rules`), and prints the same report, padding by bytes and sorting
types by bytes, with the same exit status.

The one intended difference: CRLF line endings are read as LF (conlleval.pl keeps the ``\\r`` on
the guessed tag and silently mis-scores the file).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from .._frozen import frozen
from ..io.bytes import intern, split_fields
from ..io.progress import note

# The chunk rules moved to nerve.tagging.conlleval_rules; they stay importable from here too.
from ..tagging.conlleval_rules import (
    END_OF_CHUNK,
    P_B,
    P_CLOSE,
    P_DOT,
    P_E,
    P_I,
    P_O,
    P_OPEN,
    P_OTHER,
    START_OF_CHUNK,
    PerlChunker,
    PerlCounts,
    PerlTagTable,
    perl_letter,
)

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Codes, Int

__all__ = [
    "END_OF_CHUNK",
    "P_B",
    "P_CLOSE",
    "P_DOT",
    "P_E",
    "P_I",
    "P_O",
    "P_OPEN",
    "P_OTHER",
    "START_OF_CHUNK",
    "ConllevalOptions",
    "PerlChunker",
    "PerlCounts",
    "perl_letter",
    "run",
]


@frozen
class ConllevalOptions:
    """conlleval.pl's options: ``-l`` (LaTeX), ``-r`` (raw tags), ``-d`` and ``-o``."""

    latex: bool = False
    raw: bool = False
    delimiter: str = " "
    outside: str = "O"


class ConllevalExit(Exception):
    """conlleval.pl stopped: nothing on stdout, a message on stderr, and this status."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        self.message = message
        super().__init__(message)


_REGEX_META = set(".^$*+?{}[]\\|()")


def _literal_delimiter(pattern: str) -> int | None:
    """The byte a delimiter regex matches if it is a single literal byte, else ``None``."""
    raw = pattern.encode("utf-8", "surrogateescape")
    if len(raw) == 1 and pattern not in _REGEX_META:
        return raw[0]
    if len(raw) == 2 and raw[0:1] == b"\\":
        escapes = {b"t": 9, b"n": 10, b"r": 13, b"f": 12, b"e": 27, b"a": 7}
        c = raw[1:2]
        if c in escapes:
            return escapes[c]
        if not c.isalnum():
            return c[0]
    return None


def _perl_split(regex: re.Pattern[bytes], line: bytes) -> list[bytes]:
    """Perl's ``split(/regex/, line)``.

    A zero-width match at the start gives no empty field, and trailing empty fields are removed.
    """
    fields: list[bytes] = []
    pos = 0
    for m in regex.finditer(line):
        if m.end() == 0:
            continue
        if m.start() == m.end() and m.start() >= len(line):
            break
        fields.append(line[pos : m.start()])
        fields.extend(g if g is not None else b"" for g in m.groups())
        pos = m.end()
    fields.append(line[pos:])
    while fields and not fields[-1]:
        fields.pop()
    return fields


@dataclass
class _Parsed:
    """One block of lines as conlleval.pl sees them."""

    count: Int  # fields per line after Perl's split
    boundary: npt.NDArray[np.bool_]
    gold: list[bytes]  # distinct gold tags of the block
    gold_id: Int  # per line, -1 for boundaries
    pred: list[bytes]
    pred_id: Int


def _parse_literal(data: bytes, delimiter: int) -> _Parsed:
    buf = np.frombuffer(data, dtype=np.uint8)
    t = split_fields(buf, delimiter)
    count = t.count
    first_is_x = np.zeros(count.shape[0], dtype=np.bool_)
    has = count > 0
    if has.any():
        f = t.first[has]
        s, e = t.start[f], t.end[f]
        maybe = (e - s) == 3
        rows = np.flatnonzero(has)[maybe]
        s = s[maybe]
        hit = (buf[s] == 45) & (buf[s + 1] == 88) & (buf[s + 2] == 45)
        first_is_x[rows[hit]] = True
    boundary = (count == 0) | first_is_x
    tagged = np.flatnonzero(~boundary & (count >= 2))
    gold_id = np.full(count.shape[0], -1, dtype=np.int64)
    pred_id = np.full(count.shape[0], -1, dtype=np.int64)
    g_ids, g_vals = intern(buf, t.start[t.second_last[tagged]], t.end[t.second_last[tagged]])
    p_ids, p_vals = intern(buf, t.start[t.last[tagged]], t.end[t.last[tagged]])
    gold_id[tagged] = g_ids
    pred_id[tagged] = p_ids
    return _Parsed(count, boundary, g_vals, gold_id, p_vals, pred_id)


def _parse_regex(data: bytes, regex: re.Pattern[bytes]) -> _Parsed:
    lines = data.split(b"\n")[:-1]
    n = len(lines)
    count = np.zeros(n, dtype=np.int64)
    boundary = np.zeros(n, dtype=np.bool_)
    gold_id = np.full(n, -1, dtype=np.int64)
    pred_id = np.full(n, -1, dtype=np.int64)
    gold: dict[bytes, int] = {}
    pred: dict[bytes, int] = {}
    for i, line in enumerate(lines):
        fields = _perl_split(regex, line)
        count[i] = len(fields)
        if not fields or fields[0] == b"-X-":
            boundary[i] = True
        elif len(fields) >= 2:
            gold_id[i] = gold.setdefault(fields[-2], len(gold))
            pred_id[i] = pred.setdefault(fields[-1], len(pred))
    return _Parsed(count, boundary, list(gold), gold_id, list(pred), pred_id)


def _chunks(stream: BinaryIO, size: int = 1 << 22) -> Iterator[bytes]:
    carry = b""
    while True:
        piece = stream.read(size)
        note(len(piece))  # `nerve.io.progress`: a call a piece
        if not piece:
            if carry:
                yield (carry + b"\n").replace(b"\r\n", b"\n")
            return
        data = carry + piece
        cut = data.rfind(b"\n") + 1
        carry = data[cut:]
        if cut:
            yield data[:cut].replace(b"\r\n", b"\n")


def _check_features(parsed: _Parsed, expected: int, data: bytes) -> None:
    """Stop as conlleval.pl does at a line with another number of fields, or fewer than two."""
    count = parsed.count
    wrong = (count != expected) & (count != 0)
    bad = np.flatnonzero(wrong | (~parsed.boundary & (count < 2)))
    if bad.shape[0]:
        i = int(bad[0])
        if wrong[i]:
            raise ConllevalExit(1, f"unexpected number of features: {count[i]} ({expected})")
        line = data.split(b"\n")[i].decode("utf-8", "replace")
        raise ConllevalExit(255, f"conlleval: unexpected number of features in line {line}")


def _per_line(table: tuple[Codes, Int, Int], ids: Int, rows: Int, n: int) -> tuple[Codes, Int, Int]:
    """Prefix code, type and (prefix, type) id of each line's tag; boundaries are ``O`` of type 0."""
    picked = ids[rows]
    code, typ, pair = (np.zeros(n, dtype=a.dtype) for a in table)
    code[rows], typ[rows], pair[rows] = table[0][picked], table[1][picked], table[2][picked]
    return code, typ, pair


def evaluate(stream: BinaryIO, options: ConllevalOptions) -> tuple[int, int, PerlCounts, list[bytes]]:
    """Score conlleval.pl input; return tokens, correct tags, chunk counts and type names.

    Raises:
        ConllevalExit: where conlleval.pl would stop with an error.
    """
    literal = _literal_delimiter(options.delimiter)
    regex = None
    if literal is None:
        try:
            regex = re.compile(options.delimiter.encode("utf-8", "surrogateescape"))
        except re.error as err:
            raise ConllevalExit(
                255, f"conlleval: invalid delimiter regex {options.delimiter!r}: {err}"
            ) from None
    tags = PerlTagTable(options.raw, options.outside.encode("utf-8", "surrogateescape"))
    chunker = PerlChunker()
    expected = -1  # conlleval.pl's $nbrOfFeatures + 1, fixed by the first line with fields
    tokens = correct_tags = 0
    for data in _chunks(stream):
        parsed = _parse_regex(data, regex) if regex is not None else _parse_literal(data, literal or 32)
        count = parsed.count
        if expected < 0:
            with_fields = np.flatnonzero(count > 0)
            if with_fields.shape[0]:
                expected = int(count[with_fields[0]])
        if expected >= 0:
            _check_features(parsed, expected, data)
        rows = np.flatnonzero(~parsed.boundary)
        gc, gt, gp = _per_line(tags.lookup(parsed.gold), parsed.gold_id, rows, count.shape[0])
        pc, pt, pp = _per_line(tags.lookup(parsed.pred), parsed.pred_id, rows, count.shape[0])
        chunker.update(gc, gt, pc, pt)
        tokens += int(rows.shape[0])
        correct_tags += int(np.count_nonzero(gp[rows] == pp[rows]))
    return tokens, correct_tags, chunker.finish(), tags.types


def _ratio(part: int, whole: int) -> float:
    return 100 * part / whole if whole > 0 else 0.0


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _sized(counts: Int, size: int) -> Int:
    out = np.zeros(size, np.int64)
    out[: counts.shape[0]] = counts
    return out


def _listed(types: list[bytes], gold: Int, pred: Int) -> list[int]:
    """The type ids reported, in conlleval.pl's order.

    Perl: sort(keys %foundCorrect, keys %foundGuessed), dropping a repeat unless the previous
    name is false (""), so an empty type found on both sides is listed twice.
    """
    names = sorted([types[i] for i in np.flatnonzero(gold)] + [types[i] for i in np.flatnonzero(pred)])
    listed: list[int] = []
    last: bytes | None = None
    index = {name: i for i, name in enumerate(types)}
    for name in names:
        if not last or last != name:
            listed.append(index[name])
        last = name
    return listed


def report(tokens: int, correct_tags: int, counts: PerlCounts, types: list[bytes], latex: bool) -> bytes:
    """conlleval.pl's report, byte for byte."""
    gold, pred, correct = (_sized(a, len(types)) for a in (counts.gold, counts.pred, counts.correct))
    total_gold, total_pred, total_correct = int(gold.sum()), int(pred.sum()), int(correct.sum())
    precision = _ratio(total_correct, total_pred)
    recall = _ratio(total_correct, total_gold)
    out = []
    if not latex:
        out.append(
            b"processed %d tokens with %d phrases; found: %d phrases; correct: %d.\n"
            % (tokens, total_gold, total_pred, total_correct)
        )
        if tokens > 0:
            out.append(
                b"accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n"
                % (100 * correct_tags / tokens, precision, recall, _f1(precision, recall))
            )
    rows = []
    for i in _listed(types, gold, pred):
        p, r = _ratio(int(correct[i]), int(pred[i])), _ratio(int(correct[i]), int(gold[i]))
        rows.append((types[i], p, r, _f1(p, r), int(pred[i])))
    if not latex:
        out.extend(b"%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n" % row for row in rows)
    else:
        out.append(b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline")
        out.extend(b"\n%-7s &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\" % row[:4] for row in rows)
        out.append(b"\\hline\n")
        out.append(
            b"Overall &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\\\hline\n"
            % (precision, recall, _f1(precision, recall))
        )
    return b"".join(out)


USAGE = """usage: nerve conlleval [FILE] [-l] [-r] [-d DELIMITER] [-o OUTSIDE]

A drop-in for conlleval.pl (version 2004-01-26): the same report and exit status, byte for byte.
Reads FILE, or standard input. Lines hold fields split by DELIMITER (a regular expression,
default one space); the last two are the gold and the guessed tag. Empty lines and lines whose
first field is -X- separate sentences.

  -l            print a LaTeX table
  -r            raw tags: every tag other than the outside tag is a one-token chunk
  -d DELIMITER  the field delimiter regex (default: one space)
  -o OUTSIDE    the outside tag in raw mode (default: O)

Unlike conlleval.pl, a FILE argument is accepted and CRLF line endings are read as LF.
"""


def parse_args(args: Sequence[str]) -> tuple[ConllevalOptions, str | None]:
    """Parse conlleval.pl's arguments (plus an optional FILE), failing as conlleval.pl does."""
    latex = raw = False
    delimiter, outside = " ", "O"
    path: str | None = None
    items = list(args)
    while items:
        arg = items.pop(0)
        if arg in ("-h", "--help"):
            raise ConllevalExit(0, USAGE)
        if arg == "-l":
            latex = True
        elif arg == "-r":
            raw = True
        elif arg in ("-d", "-o"):
            if not items:
                what = "-d requires delimiter character" if arg == "-d" else "-o requires delimiter character"
                raise ConllevalExit(255, f"conlleval: {what}")
            value = items.pop(0)
            if arg == "-d":
                delimiter = value
            else:
                outside = value
        elif arg.startswith("-") and arg != "-":
            raise ConllevalExit(255, f"conlleval: unknown argument {arg}")
        elif path is None:
            path = arg
        else:
            raise ConllevalExit(255, "conlleval: unexpected command line argument")
    return ConllevalOptions(latex=latex, raw=raw, delimiter=delimiter, outside=outside), path


def run(args: Sequence[str], stdin: BinaryIO, stdout: BinaryIO, stderr: BinaryIO) -> int:
    """Run ``nerve conlleval`` with ``args``; return the exit status."""
    try:
        options, path = parse_args(args)
        if path is None or path == "-":
            tokens, correct_tags, counts, types = evaluate(stdin, options)
        else:
            try:
                with open(path, "rb") as stream:
                    tokens, correct_tags, counts, types = evaluate(stream, options)
            except OSError as err:
                stderr.write(f"nerve conlleval: {path}: cannot read: {err.strerror}\n".encode())
                return 2
    except ConllevalExit as stop:
        target = stdout if stop.status == 0 else stderr
        text = stop.message if stop.message.endswith("\n") else stop.message + "\n"
        target.write(text.encode("utf-8", "surrogateescape"))
        return stop.status
    stdout.write(report(tokens, correct_tags, counts, types, options.latex))
    return 0


def main(args: Sequence[str] | None = None) -> int:
    """Entry point for ``nerve conlleval``."""
    return run(sys.argv[1:] if args is None else args, sys.stdin.buffer, sys.stdout.buffer, sys.stderr.buffer)
