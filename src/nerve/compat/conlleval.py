r"""conlleval.pl (version 2004-01-26), reproduced byte for byte, with its chunk rules as arrays.

Two things live here:

- `PerlChunker`: conlleval.pl's ``startOfChunk``/``endOfChunk`` rules and its correct-chunk
  state machine, vectorized. ``nerve score --repair conlleval`` counts with it too.
- `run`: the ``nerve conlleval`` drop-in. It reads bytes the way the Perl script does (fields
  split on a regex, default one space; the last two fields are gold and guess; ``-X-`` lines and
  empty lines are boundaries; ``-DOCSTART-`` lines are tokens), and prints the same report,
  padding by bytes and sorting types by bytes, with the same exit status.

The one intended difference: CRLF line endings are read as LF (conlleval.pl keeps the ``\\r`` on
the guessed tag and silently mis-scores the file).

The state machine: conlleval.pl keeps a flag "the chunks that started together are still equal".
At each token the flag is cleared or counted when either side ends a chunk, and set when both
start one of the same type. The flag's value at token t is therefore fixed by the last token
<= t at which it was set or cleared; `np.maximum.accumulate` over those positions finds it for
every token at once.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

import numpy as np

from ..io.bytes import intern, split_fields

if TYPE_CHECKING:
    import numpy.typing as npt

    Int = npt.NDArray[np.int64]
    Codes = npt.NDArray[np.int8]

ArrayT = TypeVar("ArrayT", bound="np.ndarray[Any, np.dtype[np.generic]]")

__all__ = ["ConllevalOptions", "PerlChunker", "PerlCounts", "perl_letter", "run"]


# conlleval.pl compares the part of a tag before its first hyphen with these strings.
P_O, P_B, P_I, P_E, P_DOT, P_OPEN, P_CLOSE, P_OTHER = range(8)
_PERL_LETTERS = {b"O": P_O, b"B": P_B, b"I": P_I, b"E": P_E, b".": P_DOT, b"[": P_OPEN, b"]": P_CLOSE}


def perl_letter(prefix: bytes) -> int:
    """The code conlleval.pl's rules see for a tag prefix; every other prefix acts alike."""
    return _PERL_LETTERS.get(prefix, P_OTHER)


def _rule_tables() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    end = np.zeros((8, 8), dtype=np.bool_)
    start = np.zeros((8, 8), dtype=np.bool_)
    for prev, cur in [(P_B, P_B), (P_B, P_O), (P_I, P_B), (P_I, P_O), (P_E, P_E), (P_E, P_I), (P_E, P_O)]:
        end[prev, cur] = True
    for prev, cur in [(P_B, P_B), (P_I, P_B), (P_O, P_B), (P_O, P_I), (P_E, P_E), (P_E, P_I), (P_O, P_E)]:
        start[prev, cur] = True
    end[[P_OPEN, P_CLOSE], :] = True
    start[:, [P_OPEN, P_CLOSE]] = True
    return end, start


END_OF_CHUNK, START_OF_CHUNK = _rule_tables()


@dataclass
class PerlCounts:
    """Per-type chunk counts of the state machine, indexed by type id."""

    gold: Int
    pred: Int
    correct: Int


def _bincount(values: Int, size: int) -> Int:
    return np.bincount(values, minlength=size).astype(np.int64)


def _add(a: Int, b: Int) -> Int:
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    out = a.copy()
    out[: b.shape[0]] += b
    return out


def _shift(values: ArrayT, first: int) -> ArrayT:
    """The value before each position: ``first``, then ``values`` shifted by one."""
    out = np.empty_like(values)
    out[0] = first
    out[1:] = values[:-1]
    return out


class PerlChunker:
    """conlleval.pl's chunk rules and correct-chunk counting, fed block by block.

    Each token is given as a prefix code (`perl_letter`) and a type id for each side. The
    empty type must have id 0: conlleval.pl gives ``O`` the empty type, and untyped tags too.
    """

    def __init__(self) -> None:
        self.last = (P_O, 0, P_O, 0)
        self.in_correct = False
        self.counts = PerlCounts(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))

    def update(self, gold_code: Codes, gold_type: Int, pred_code: Codes, pred_type: Int) -> None:
        """Run the rules over the next tokens (boundaries given as O tokens of type 0)."""
        n = gold_code.shape[0]
        if n == 0:
            return
        lgc, lgt = _shift(gold_code, self.last[0]), _shift(gold_type, self.last[1])
        lpc, lpt = _shift(pred_code, self.last[2]), _shift(pred_type, self.last[3])
        gold_end = END_OF_CHUNK[lgc, gold_code] | ((lgc != P_O) & (lgc != P_DOT) & (lgt != gold_type))
        pred_end = END_OF_CHUNK[lpc, pred_code] | ((lpc != P_O) & (lpc != P_DOT) & (lpt != pred_type))
        gold_start = START_OF_CHUNK[lgc, gold_code] | (
            (gold_code != P_O) & (gold_code != P_DOT) & (lgt != gold_type)
        )
        pred_start = START_OF_CHUNK[lpc, pred_code] | (
            (pred_code != P_O) & (pred_code != P_DOT) & (lpt != pred_type)
        )
        close = gold_end & pred_end & (lpt == lgt)
        broken = (gold_end != pred_end) | (pred_type != gold_type)
        set_ = gold_start & pred_start & (pred_type == gold_type)
        decided = set_ | close | broken
        where = np.maximum.accumulate(np.where(decided, np.arange(n), -1))
        flag = np.where(where >= 0, set_[np.maximum(where, 0)], self.in_correct)
        before = np.empty(n, dtype=np.bool_)
        before[0] = self.in_correct
        before[1:] = flag[:-1]
        size = int(max(gold_type.max(), pred_type.max(), self.counts.gold.shape[0] - 1)) + 1
        self.counts = PerlCounts(
            _add(self.counts.gold, _bincount(gold_type[gold_start], size)),
            _add(self.counts.pred, _bincount(pred_type[pred_start], size)),
            _add(self.counts.correct, _bincount(lgt[before & close], size)),
        )
        self.last = (int(gold_code[-1]), int(gold_type[-1]), int(pred_code[-1]), int(pred_type[-1]))
        self.in_correct = bool(flag[-1])

    def finish(self) -> PerlCounts:
        """Count the chunk still open at the end of the input, and return the totals."""
        if self.in_correct:
            self.in_correct = False
            extra = np.zeros(self.last[1] + 1, dtype=np.int64)
            extra[self.last[1]] = 1
            self.counts.correct = _add(self.counts.correct, extra)
        return self.counts


# ---------------------------------------------------------------- the conlleval.pl drop-in


@dataclass(frozen=True)
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


class _TagTable:
    """Distinct tags as conlleval.pl splits them: prefix code, type id and (prefix, type) id."""

    def __init__(self, options: ConllevalOptions) -> None:
        self.options = options
        self.types: list[bytes] = [b""]
        self._type_index = {b"": 0}
        self._pairs: dict[tuple[bytes, bytes], int] = {(b"O", b""): 0}
        self._cache: dict[bytes, tuple[int, int, int]] = {}

    def lookup(self, tags: Sequence[bytes]) -> tuple[Codes, Int, Int]:
        rows = [self._one(t) for t in tags]
        arr = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
        return arr[:, 0].astype(np.int8), arr[:, 1], arr[:, 2]

    def _one(self, tag: bytes) -> tuple[int, int, int]:
        found = self._cache.get(tag)
        if found is not None:
            return found
        t = tag
        if self.options.raw:
            if t == self.options.outside.encode("utf-8", "surrogateescape"):
                t = b"O"
            if t != b"O":
                t = b"B-" + t
        prefix, hyphen, typ = t.partition(b"-")
        if not hyphen:
            typ = b""
        if typ == b"0":
            typ = b""
        if typ not in self._type_index:
            self._type_index[typ] = len(self.types)
            self.types.append(typ)
        pair = self._pairs.setdefault((prefix, typ), len(self._pairs))
        found = (perl_letter(prefix), self._type_index[typ], pair)
        self._cache[tag] = found
        return found


def _chunks(stream: BinaryIO, size: int = 1 << 22) -> Iterator[bytes]:
    carry = b""
    while True:
        piece = stream.read(size)
        if not piece:
            if carry:
                yield (carry + b"\n").replace(b"\r\n", b"\n")
            return
        data = carry + piece
        cut = data.rfind(b"\n") + 1
        carry = data[cut:]
        if cut:
            yield data[:cut].replace(b"\r\n", b"\n")


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
    tags = _TagTable(options)
    chunker = PerlChunker()
    expected = -1  # conlleval.pl's $nbrOfFeatures + 1, fixed by the first line with fields
    tokens = correct_tags = 0
    for data in _chunks(stream):
        parsed = _parse_regex(data, regex) if regex is not None else _parse_literal(data, literal or 32)
        count = parsed.count
        n = count.shape[0]
        if expected < 0:
            with_fields = np.flatnonzero(count > 0)
            if with_fields.shape[0]:
                expected = int(count[with_fields[0]])
        if expected >= 0:
            wrong = (count != expected) & (count != 0)
            short = ~parsed.boundary & (count < 2)
            bad = np.flatnonzero(wrong | short)
            if bad.shape[0]:
                i = int(bad[0])
                if wrong[i]:
                    raise ConllevalExit(1, f"unexpected number of features: {count[i]} ({expected})")
                line = data.split(b"\n")[i].decode("utf-8", "replace")
                raise ConllevalExit(255, f"conlleval: unexpected number of features in line {line}")
        g_code, g_type, g_pair = tags.lookup(parsed.gold)
        p_code, p_type, p_pair = tags.lookup(parsed.pred)
        is_token = ~parsed.boundary
        gc = np.zeros(n, dtype=np.int8)
        gt = np.zeros(n, dtype=np.int64)
        gp = np.zeros(n, dtype=np.int64)
        pc = np.zeros(n, dtype=np.int8)
        pt = np.zeros(n, dtype=np.int64)
        pp = np.zeros(n, dtype=np.int64)
        rows = np.flatnonzero(is_token)
        gi, pi = parsed.gold_id[rows], parsed.pred_id[rows]
        gc[rows], gt[rows], gp[rows] = g_code[gi], g_type[gi], g_pair[gi]
        pc[rows], pt[rows], pp[rows] = p_code[pi], p_type[pi], p_pair[pi]
        chunker.update(gc, gt, pc, pt)
        tokens += int(rows.shape[0])
        correct_tags += int(np.count_nonzero(gp[rows] == pp[rows]))
    return tokens, correct_tags, chunker.finish(), tags.types


def _ratio(part: int, whole: int) -> float:
    return 100 * part / whole if whole > 0 else 0.0


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def report(tokens: int, correct_tags: int, counts: PerlCounts, types: list[bytes], latex: bool) -> bytes:
    """conlleval.pl's report, byte for byte."""
    size = len(types)
    gold = np.zeros(size, np.int64)
    pred = np.zeros(size, np.int64)
    correct = np.zeros(size, np.int64)
    gold[: counts.gold.shape[0]] = counts.gold
    pred[: counts.pred.shape[0]] = counts.pred
    correct[: counts.correct.shape[0]] = counts.correct
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
    # Perl: sort(keys %foundCorrect, keys %foundGuessed), dropping a repeat unless the previous
    # name is false (""), so an empty type found on both sides is listed twice.
    names = sorted([types[i] for i in np.flatnonzero(gold)] + [types[i] for i in np.flatnonzero(pred)])
    listed: list[int] = []
    last: bytes | None = None
    index = {name: i for i, name in enumerate(types)}
    for name in names:
        if not last or last != name:
            listed.append(index[name])
        last = name
    if not latex:
        for i in listed:
            p = _ratio(int(correct[i]), int(pred[i]))
            r = _ratio(int(correct[i]), int(gold[i]))
            out.append(
                b"%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n"
                % (types[i], p, r, _f1(p, r), int(pred[i]))
            )
    else:
        out.append(b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline")
        for i in listed:
            p = _ratio(int(correct[i]), int(pred[i]))
            r = _ratio(int(correct[i]), int(gold[i]))
            out.append(b"\n%-7s &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\" % (types[i], p, r, _f1(p, r)))
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
