"""One job per store (docs/DESIGN.md §8): an exclusive, non-blocking ``flock`` on the store's lock file.

The kernel releases the lock when its holder exits or is killed, so a crashed job never leaves a store
locked. Two handles in the same process conflict as well (``flock`` locks belong to open file
descriptions), so this also serialises threads. The lock file is opened relative to the store folder's
descriptor and never through a symbolic link (one swapped in for the folder or the file is refused).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path
from types import TracebackType

from kortty_rag.config.store_files import STORE_LOCK, open_store_folder
from kortty_rag.errors import ConfigError, StoreBusyError

LOCK_FILE = STORE_LOCK


class StoreLock:
    def __init__(self, store_folder: Path, *, purpose: str, store_name: str = "") -> None:
        self.path = store_folder / LOCK_FILE
        self.purpose = purpose
        self.store_name = store_name or store_folder.name
        self._fd: int | None = None

    def acquire(self) -> StoreLock:
        try:
            with open_store_folder(self.path.parent, create=True) as folder:
                fd = folder.open_file(LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise ConfigError(
                f"Cannot open the lock file {self.path} ({exc.strerror or exc})",
                hint="Free disk space (or fix the folder's permissions) and try again.",
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise StoreBusyError(
                f"Store {self.store_name!r} is busy{holder}",
                hint="Wait for the running scan or indexing job to finish, or cancel it.",
            ) from None
        except OSError:
            os.close(fd)
            raise
        with contextlib.suppress(OSError):  # only a note for the busy message; a full disk is fine
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps({"pid": os.getpid(), "purpose": self.purpose}).encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> StoreLock:
        return self.acquire()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f" ({data['purpose']} running in process {data['pid']})"
    except (OSError, ValueError, KeyError, TypeError):
        return ""
