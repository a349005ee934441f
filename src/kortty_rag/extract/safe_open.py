"""Reading a file without ever blocking on a FIFO or following a symbolic link.

``open()`` on a FIFO blocks until a writer appears; ``O_NONBLOCK`` makes the open return at once, and the
``fstat`` afterwards refuses anything that is not a regular file. ``O_NOFOLLOW`` refuses a symlink that
was swapped in after the scan looked at the entry.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from kortty_rag.messages import msg

_FLAGS = (
    os.O_RDONLY
    | os.O_NOFOLLOW
    | os.O_NONBLOCK
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


class NotRegularFile(OSError):
    """The entry turned out to be a symlink, FIFO, socket, device or folder."""


def kind_of(mode: int) -> str:
    """A human name for a file type, for skip reasons."""
    if stat.S_ISLNK(mode):
        return msg("symbolic link")
    if stat.S_ISFIFO(mode):
        return msg("FIFO (named pipe)")
    if stat.S_ISSOCK(mode):
        return msg("socket")
    if stat.S_ISCHR(mode):
        return msg("character device")
    if stat.S_ISBLK(mode):
        return msg("block device")
    if stat.S_ISDIR(mode):
        return msg("folder")
    return msg("special file")


def open_regular_file(path: Path | str) -> tuple[int, os.stat_result]:
    """Open a regular file for reading (a file descriptor the caller closes), or raise
    :class:`NotRegularFile`."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotRegularFile(errno.ELOOP, msg("symbolic link"), str(path)) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(errno.EINVAL, kind_of(info.st_mode), str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_regular_file(path: Path | str, limit: int) -> tuple[bytes, os.stat_result]:
    """Read at most ``limit + 1`` bytes of a regular file; raise :class:`NotRegularFile` otherwise.

    Reading one byte past ``limit`` lets the caller notice a file that grew beyond its size limit.
    """
    fd, info = open_regular_file(path)
    try:
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            block = os.read(fd, min(remaining, 1 << 20))
            if not block:
                break
            chunks.append(block)
            remaining -= len(block)
        return b"".join(chunks), info
    finally:
        os.close(fd)
