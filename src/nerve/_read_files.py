"""Read many small files of one directory and write them to stdout (run as a script).

`nerve.text_readers` runs this in a second interpreter (``python -I -S``) to read one side of a
pair of BIO directories while it reads the other: reading is one system call after another, and
two threads of one interpreter hand the GIL back and forth at each of them.

Input on stdin: the file names, encoded by ``os.fsencode`` and separated by NUL bytes. Output:
the number of files (8 bytes, little-endian), the size of each (8 bytes each), then the bytes of
all files in order. Any error exits with status 1 and writes nothing useful; the caller then
reads the directory itself, which names the problem. This module imports nothing from nerve.
"""

import os
import sys

FIRST = 1 << 13
PIECE = 1 << 20


def main() -> int:
    directory = sys.argv[1]
    blob = sys.stdin.buffer.read()
    names = blob.split(b"\0") if blob else []
    op, rd, cl, flag = os.open, os.read, os.close, os.O_RDONLY
    dfd = op(directory, flag)
    parts: list[bytes] = []
    append = parts.append
    for name in names:
        fd = op(name, flag, dir_fd=dfd)
        data = rd(fd, FIRST)
        if len(data) == FIRST:  # a short read is the end of a regular file
            more = [data]
            while more[-1]:
                more.append(rd(fd, PIECE))
            data = b"".join(more)
        cl(fd)
        append(data)
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
