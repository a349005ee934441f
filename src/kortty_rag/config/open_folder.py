"""Folders opened as directory descriptors, and every file operation relative to one.

Everything the product writes or deletes inside a store folder goes through an :class:`OpenFolder`. The
folder is opened without following symbolic links (``O_NOFOLLOW | O_DIRECTORY``), and every file,
sub-folder, rename and removal below it is relative to that descriptor (``dir_fd``) and again refuses to
follow a link. A symbolic link swapped in for the folder or for any part of it is therefore refused with
:class:`StoreFolderChangedError`, never followed out of ``KORTTY_HOME``; and a folder renamed while it is
open keeps receiving the writes meant for it.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from pathlib import Path
from types import TracebackType

from kortty_rag.errors import StoreFolderChangedError
from kortty_rag.messages import msg

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
#: Linux names an open folder's entries through its descriptor; libraries that take only a path
#: (SQLite, hnswlib) then still open the folder we hold, not whatever its path means by then.
_PROC_FD = Path("/proc/self/fd")


def describe(mode: int) -> str:
    """What an entry of this ``st_mode`` is, for messages."""
    if stat.S_ISLNK(mode):
        return msg("a symbolic link")
    if stat.S_ISDIR(mode):
        return msg("a folder")
    if stat.S_ISREG(mode):
        return msg("a file")
    return msg("a special file")


class OpenFolder:
    """One open folder; ``path`` is for messages only (operations never go through it)."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd
        self.path = path

    @classmethod
    def open(cls, path: Path, *, nofollow: int = 1, create: bool = False) -> OpenFolder:
        """Open ``path``; its last ``nofollow`` components must not be symbolic links (the parents
        above them may be, e.g. a home folder moved to another disk). ``create`` makes missing
        folders."""
        path = Path(os.path.abspath(path))
        names: list[str] = []
        top = path
        for _ in range(nofollow):
            if top.parent == top:
                break
            names.insert(0, top.name)
            top = top.parent
        try:
            fd = os.open(top, _DIR_FLAGS)
        except FileNotFoundError:
            if not create:
                raise
            top.mkdir(parents=True, exist_ok=True)
            fd = os.open(top, _DIR_FLAGS)
        folder = cls(fd, top)
        try:
            for name in names:
                child = folder.sub(name, create=create)
                folder.close()
                folder = child
        except BaseException:
            folder.close()
            raise
        return folder

    def close(self) -> None:
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)

    def __enter__(self) -> OpenFolder:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- entries ------------------------------------------------------------------------------------

    def _changed(self, name: str, exc: OSError) -> StoreFolderChangedError | None:
        """The error for an entry that is not of the kind we asked for (a link where a file or
        folder belongs, a file where a folder belongs), or ``None`` for any other failure."""
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            return None
        found = self.lstat(name)
        return StoreFolderChangedError(
            self.path / name, describe(found.st_mode) if found else msg("gone")
        )

    def sub(self, name: str, *, create: bool = False) -> OpenFolder:
        """The sub-folder ``name`` (made if missing and ``create``); a link or a file there is
        refused."""
        try:
            return OpenFolder(self._open_sub(name), self.path / name)
        except FileNotFoundError:
            if not create:
                raise
        with contextlib.suppress(FileExistsError):  # made meanwhile: opened (and checked) below
            os.mkdir(name, dir_fd=self.fd)
        return OpenFolder(self._open_sub(name), self.path / name)

    def _open_sub(self, name: str) -> int:
        try:
            return os.open(name, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=self.fd)
        except OSError as exc:
            changed = self._changed(name, exc)
            if changed is None:
                raise
            raise changed from exc

    def mkdir(self, name: str) -> None:
        os.mkdir(name, dir_fd=self.fd)

    def names(self) -> list[str]:
        return sorted(os.listdir(self.fd))

    def lstat(self, name: str) -> os.stat_result | None:
        """The entry itself (a link is not followed), or ``None`` if there is none."""
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def is_file(self, name: str) -> bool:
        found = self.lstat(name)
        return found is not None and stat.S_ISREG(found.st_mode)

    def is_folder(self, name: str) -> bool:
        found = self.lstat(name)
        return found is not None and stat.S_ISDIR(found.st_mode)

    # -- files --------------------------------------------------------------------------------------

    def open_file(self, name: str, flags: int, mode: int = 0o600) -> int:
        """``os.open`` of ``name`` in this folder; a symbolic link there is refused."""
        try:
            return os.open(name, flags | _NOFOLLOW, mode, dir_fd=self.fd)
        except OSError as exc:
            changed = self._changed(name, exc)
            if changed is None:
                raise
            raise changed from exc

    def read_bytes(self, name: str) -> bytes:
        fd = self.open_file(name, os.O_RDONLY)
        with os.fdopen(fd, "rb") as handle:
            return handle.read()

    def size(self, name: str) -> int:
        fd = self.open_file(name, os.O_RDONLY)
        try:
            return os.fstat(fd).st_size
        finally:
            os.close(fd)

    def sha256(self, name: str) -> str:
        """SHA-256 of a file, read in 1 MiB blocks."""
        digest = hashlib.sha256()
        with os.fdopen(self.open_file(name, os.O_RDONLY), "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()

    def copy_file(self, name: str, target: OpenFolder, target_name: str) -> None:
        """Copy ``name`` to a new file ``target_name`` in ``target`` (which must not exist yet)."""
        with os.fdopen(self.open_file(name, os.O_RDONLY), "rb") as source:
            fd = target.open_file(target_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
            with os.fdopen(fd, "wb") as copy:
                for block in iter(lambda: source.read(1 << 20), b""):
                    copy.write(block)

    def fsync_file(self, name: str) -> None:
        fd = self.open_file(name, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def fsync(self) -> None:
        """Flush this folder's entries (a rename is durable only after this)."""
        os.fsync(self.fd)

    def library_path(self, name: str) -> Path:
        """A path for a library that only takes paths (SQLite, hnswlib): through this folder's
        descriptor where the system offers one (Linux), else the folder's path, checked when it was
        opened."""
        if _PROC_FD.is_dir():
            return _PROC_FD / str(self.fd) / name
        return self.path / name

    # -- changes ------------------------------------------------------------------------------------

    def unlink(self, name: str) -> None:
        os.unlink(name, dir_fd=self.fd)

    def rmdir(self, name: str) -> None:
        os.rmdir(name, dir_fd=self.fd)

    def rename(self, name: str, new_name: str) -> None:
        """Rename within this folder (a folder ``new_name`` must not exist or be empty)."""
        os.rename(name, new_name, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def replace(self, name: str, new_name: str) -> None:
        """Atomically put ``name`` in place of ``new_name`` in this folder."""
        os.replace(name, new_name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
