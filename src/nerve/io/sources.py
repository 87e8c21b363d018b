"""Files in, complete lines of UTF-8 bytes out: what the column readers read from.

In: paths, binary streams or `FileRange`s (byte ranges of whole lines, for threads). Out:
`LineSource` (the file's complete lines as UTF-8 bytes, read in pieces, with a leading BOM removed
and CRLF or lone CR line ends made LF) and `read_head` (a file's first bytes). A file that cannot
be found, decoded or read is an `InputError` naming it.
"""

from __future__ import annotations

import codecs
import errno
import os
from collections.abc import Iterator

from .._frozen import frozen
from ..errors import InputError
from .progress import note

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from typing import BinaryIO, TypeAlias

__all__ = [
    "FileRange",
    "LineSource",
    "Readable",
    "has_lone_cr",
    "not_found",
    "read_bytes",
    "read_head",
    "unify_line_ends",
    "unreadable",
]


@frozen
class FileRange:
    """Bytes ``[start, stop)`` of a UTF-8 file, which begin after ``line`` whole lines."""

    path: str
    start: int
    stop: int
    line: int


Readable: TypeAlias = "str | os.PathLike[str] | BinaryIO | FileRange"


def _chunks(path: Readable, encoding: str, size: int) -> Iterator[bytes]:
    """Yield the file's content as UTF-8 bytes, in pieces of about ``size`` bytes."""
    if isinstance(path, FileRange):
        with open(path.path, "rb") as f:
            f.seek(path.start)
            left = path.stop - path.start
            while left > 0 and (piece := f.read(min(size, left))):
                left -= len(piece)
                yield piece
        return
    if not isinstance(path, (str, os.PathLike)):
        if not callable(getattr(path, "read", None)):
            raise InputError(repr(path)[:60], None, "expected a file name, a path or a binary file object")
        while piece := path.read(size):
            yield piece
        return
    if codecs.lookup(encoding).name == "utf-8":
        with open(path, "rb") as f:
            while piece := f.read(size):
                yield piece
    else:
        with open(path, encoding=encoding, newline="") as t:
            while text := t.read(size):
                yield text.encode("utf-8")


#: What fixes a file that cannot be read, by the error's number.
_FIXES = {
    errno.EACCES: "chmod +r it, or move it out of the input",
    errno.EPERM: "chmod +r it, or move it out of the input",
    errno.ELOOP: "a symbolic link leads back to itself: point it at a file",
}


def unreadable(path: str, err: OSError) -> InputError:
    """The `InputError` of a file ``path`` that cannot be read, with what fixes it where known."""
    fix = _FIXES.get(err.errno or 0)
    return InputError(path, None, f"cannot be read: {err.strerror or err}" + (f" ({fix})" if fix else ""))


def not_found(path: str, what: str = "no such file") -> InputError:
    """The `InputError` of a ``path`` that names nothing readable: ``what``, or why a link leads nowhere."""
    try:
        os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            return InputError(
                path, None, f"is a symbolic link to {os.readlink(path)!r}, which does not exist"
            )
    except OSError as err:  # a loop of links, a part of the path that is a file...
        return unreadable(path, err)
    return InputError(path, None, what)


def read_bytes(path: str, expected: str = "a file") -> bytes:
    """The bytes of the file ``path``.

    Raises:
        InputError: there is none, it is a directory (``expected``), or it cannot be read (no
            permission, a loop of symbolic links...).
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise not_found(path) from None
    except IsADirectoryError:
        raise InputError(path, None, f"is a directory, expected {expected}") from None
    except OSError as err:
        raise unreadable(path, err) from None
    note(len(data))
    return data


def read_head(path: str, size: int) -> bytes:
    """The first ``size`` bytes of a file; an `InputError` naming it when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError as err:
        raise unreadable(path, err) from None


def _name(path: Readable) -> str:
    if isinstance(path, FileRange):
        return path.path
    if isinstance(path, (str, os.PathLike)):
        return os.fspath(path)
    return str(getattr(path, "name", "<stdin>"))


def _check_path(path: Readable) -> None:
    if not isinstance(path, (str, os.PathLike)):
        return
    if os.path.isdir(path):  # os.path, not pathlib: sniffing a file's head imports no pathlib
        raise InputError(os.fspath(path), None, "is a directory, expected a CoNLL file")
    if not os.path.exists(path):
        raise not_found(os.fspath(path))


def unify_line_ends(data: bytes) -> bytes:
    """``data`` with every CRLF and every lone CR (old Mac line end) turned into LF."""
    if b"\r" not in data:
        return data
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def has_lone_cr(data: bytes) -> bool:
    """Whether ``data`` has a CR that is not followed by an LF."""
    return b"\r" in data and data.count(b"\r") != data.count(b"\r\n")


class LineSource:
    """Complete lines of one file as UTF-8 bytes, each ended by LF, without a leading BOM.

    Lines may end with LF, CRLF or a lone CR (old Mac files).
    """

    def __init__(self, path: Readable, encoding: str, size: int):
        _check_path(path)
        self.name = _name(path)
        self.encoding = encoding
        self._pieces = _chunks(path, encoding, size)
        self._carry = b""
        self._at_start = not isinstance(path, FileRange) or path.start == 0
        self.done = False
        self.line = path.line if isinstance(path, FileRange) else 0  # lines of the blocks made so far
        self._returned = self.line  # lines returned by `more`

    def more(self) -> bytes:
        """Return the next complete lines (possibly none), reading one more piece."""
        try:
            piece = next(self._pieces)
        except StopIteration:
            self.done = True
            piece = b""
        except UnicodeError as err:
            reason = getattr(err, "reason", str(err))
            raise InputError(self.name, None, f"cannot be decoded as {self.encoding}: {reason}") from None
        except OSError as err:
            raise unreadable(self.name, err) from None
        note(len(piece))  # one call a piece (`nerve.io.progress`)
        data = self._carry + piece
        if self._at_start:
            if len(data) < len(codecs.BOM_UTF8) and not self.done:
                self._carry = data
                return b""
            self._at_start = False
            if data.startswith(codecs.BOM_UTF8):
                data = data[len(codecs.BOM_UTF8) :]
        held = b""
        if b"\r" in data:
            if data.endswith(b"\r") and not self.done:
                data, held = data[:-1], b"\r"  # an LF may follow in the next piece
            data = unify_line_ends(data)
        if self.done:
            cut = len(data)
            if data and not data.endswith(b"\n"):
                data += b"\n"
                cut += 1
        else:
            cut = data.rfind(b"\n") + 1
        self._carry = data[cut:] + held
        return self._check(data[:cut])

    def _check(self, data: bytes) -> bytes:
        """``data``, once it is known to be valid UTF-8."""
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = self._returned + data.count(b"\n", 0, err.start) + 1
            column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
            hint = "; pass --encoding if the file uses another encoding"
            detail = f"byte 0x{data[err.start]:02x} at column {column} is not valid UTF-8{hint}"
            raise InputError(self.name, line, detail) from None
        self._returned += data.count(b"\n")  # the lines returned so far
        return data
