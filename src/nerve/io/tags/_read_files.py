"""Read many small files of one directory: in process, or as a script in a second interpreter.

`read_all` is the tight loop of system calls that `nerve.io.tags.bio_dirs` reads BIO directories
with. Run as a script (``python -I -S``), it reads one side of a pair of directories while nerve
reads the other: two threads of one interpreter hand the GIL back and forth at every call.

Script input on stdin: the file names, encoded by ``os.fsencode`` and separated by NUL bytes.
Output: the number of files (8 bytes, little-endian), the size of each (8 bytes each), then the
bytes of all files in order. Any error exits with status 1 and writes nothing useful; the caller
then reads the directory itself, which names the problem. This module imports nothing from nerve,
so that the script starts fast.
"""

from __future__ import annotations

import os
import sys

FIRST = 1 << 13  # os.read allocates the whole size asked for: small first
PIECE = 1 << 20


def read_all(directory: str, names: list[str] | list[bytes]) -> list[bytes]:
    """The bytes of each file, opened relative to the directory.

    Raises:
        OSError: any file or the directory that cannot be opened or read (nothing is named:
            the caller reads again file by file to say which and why).
    """
    op, rd, cl, flag = os.open, os.read, os.close, os.O_RDONLY
    dfd = op(directory, flag)
    parts: list[bytes] = []
    append = parts.append
    try:
        for name in names:
            fd = op(name, flag, dir_fd=dfd)
            try:
                data = rd(fd, FIRST)
                if len(data) == FIRST:  # a short read is the end of a regular file
                    more = [data]
                    while more[-1]:
                        more.append(rd(fd, PIECE))
                    data = b"".join(more)
            finally:
                cl(fd)
            append(data)
    finally:
        cl(dfd)
    return parts


def main() -> int:
    blob = sys.stdin.buffer.read()
    parts = read_all(sys.argv[1], blob.split(b"\0") if blob else [])
    out = sys.stdout.buffer
    out.write(len(parts).to_bytes(8, "little"))
    out.write(b"".join(len(p).to_bytes(8, "little") for p in parts))
    out.write(b"".join(parts))
    out.flush()
    return 0


if __name__ == "__main__":
    try:
        status = main()
    except Exception:
        status = 1
    sys.exit(status)
