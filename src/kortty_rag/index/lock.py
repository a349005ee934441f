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
from kortty_rag.messages import Message, msg

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
                msg(
                    "Cannot open the lock file {path} ({reason})",
                    path=self.path,
                    reason=exc.strerror or str(exc),
                ),
                hint=msg("Free disk space (or fix the folder's permissions) and try again."),
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            busy = _busy_message(self.store_name, fd)
            os.close(fd)
            raise StoreBusyError(
                busy,
                hint=msg("Wait for the running scan or indexing job to finish, or cancel it."),
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


def _busy_message(store_name: str, fd: int) -> Message:
    """That the store is busy, with the job holding it and its process when the lock file says."""
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return msg(
            "Store {store!r} is busy ({purpose} running in process {pid})",
            store=store_name,
            purpose=data["purpose"],
            pid=data["pid"],
        )
    except (OSError, ValueError, KeyError, TypeError):
        return msg("Store {store!r} is busy", store=store_name)
