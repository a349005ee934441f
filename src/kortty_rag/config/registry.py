"""Store definitions (SPEC §1, §2): ``~/.kortty/rag/stores/<store-id>/store.json``, written atomically.

Each store folder holds only files this product creates; a folder without our ``store.json`` marker is
someone else's and is never listed, changed or deleted. Read-modify-write of a definition happens under a
short per-store config lock, so a GUI toggling "enabled" and a running job recording its result cannot
lose each other's change.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kortty_rag.config import atomic
from kortty_rag.config.atomic import dump_json, write_atomic_in
from kortty_rag.config.open_folder import OpenFolder
from kortty_rag.config.paths import store_dir, stores_dir
from kortty_rag.config.store_files import (
    CONFIG_LOCK,
    STORE_FILE,
    open_store_folder,
    remove_store_contents,
)
from kortty_rag.errors import AlreadyExistsError, ConfigError, NotFoundError, UsageError
from kortty_rag.models import EmbeddingIdentity, Store, StoreRoles, StoreType

PRODUCT = "kortty-rag"
SCHEMA_VERSION = 1
_NAME = re.compile(r"^[\w][\w .@+-]{0,63}$")


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def validate_name(name: str, what: str = "store") -> str:
    name = name.strip()
    if not _NAME.match(name):
        raise UsageError(
            f"Invalid {what} name {name!r}",
            hint="Use 1-64 letters, digits, spaces, dots, dashes or underscores.",
        )
    return name


@contextlib.contextmanager
def config_lock(
    folder: Path, timeout: float = 10.0, name: str = CONFIG_LOCK, *, nofollow: int = 0
) -> Iterator[None]:
    """A short exclusive lock for read-modify-write of a definition file in ``folder`` (whose last
    ``nofollow`` path components must not be symbolic links; the lock file itself never is one)."""
    try:
        with OpenFolder.open(folder, nofollow=nofollow, create=True) as opened:
            fd = opened.open_file(name, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise ConfigError(
            f"Cannot open the lock file {folder / name} ({exc.strerror or exc})",
            hint="Free disk space (or fix the folder's permissions) and try again.",
        ) from exc
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise ConfigError(
                        f"Timed out waiting to update {folder / STORE_FILE}"
                    ) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)


def _read_store(folder: Path) -> Store | None:
    try:
        data = json.loads((folder / STORE_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{folder / STORE_FILE} is unreadable: {exc}") from exc
    if not isinstance(data, dict) or data.get("product") != PRODUCT:
        return None
    if int(data.get("schema", 0)) > SCHEMA_VERSION:
        raise ConfigError(
            f"{folder / STORE_FILE} was written by a newer kortty-rag",
            hint="Upgrade kortty-rag to use this store.",
        )
    try:
        return Store.from_json(data["store"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"{folder / STORE_FILE} is malformed: {exc}") from exc


def _write_store(store: Store) -> None:
    folder = store_dir(store.id)
    payload: dict[str, Any] = {
        "product": PRODUCT,
        "schema": SCHEMA_VERSION,
        "store": store.to_json(),
    }
    try:
        with open_store_folder(folder) as opened:
            write_atomic_in(opened, STORE_FILE, dump_json(payload))
    except OSError as exc:
        raise ConfigError(
            f"Could not save the store definition {folder / STORE_FILE} ({exc.strerror or exc})",
            hint="Free disk space (or fix the I/O error) and try again.",
        ) from exc


@dataclass(frozen=True)
class DeletionReport:
    folder: Path
    removed: tuple[str, ...]
    #: what the product did not create, as paths relative to the folder (``snapshots/notes.txt``)
    kept_foreign: tuple[str, ...]


class StoreRegistry:
    """All stores under the current ``KORTTY_HOME``."""

    def list(self) -> list[Store]:
        root = stores_dir()
        if not root.is_dir():
            return []
        stores: list[Store] = []
        for entry in sorted(root.iterdir()):
            if entry.is_dir() and not entry.is_symlink():
                store = _read_store(entry)
                if store is not None and store.id == entry.name:
                    stores.append(store)
        return sorted(stores, key=lambda s: s.name.lower())

    def get(self, name_or_id: str) -> Store:
        for store in self.list():
            if name_or_id in (store.id, store.name) or store.name.lower() == name_or_id.lower():
                return store
        raise NotFoundError(
            f"No store named {name_or_id!r}",
            hint="`kortty-rag store list` shows the stores; `store create` makes one.",
        )

    def create(
        self,
        name: str,
        embedding: EmbeddingIdentity,
        *,
        type: StoreType = StoreType.LOCAL,
        roles: StoreRoles | None = None,
        settings: dict[str, Any] | None = None,
    ) -> Store:
        name = validate_name(name)
        if any(s.name.lower() == name.lower() for s in self.list()):
            raise AlreadyExistsError(f"A store named {name!r} already exists")
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32] or "store"
        store_id = f"{slug}-{secrets.token_hex(3)}"
        folder = store_dir(store_id)
        try:
            with OpenFolder.open(stores_dir(), nofollow=1, create=True) as stores:
                stores.mkdir(store_id)
        except OSError as exc:
            raise ConfigError(
                f"Could not create the store folder {folder} ({exc.strerror or exc})",
                hint="Free disk space (or fix the I/O error) and try again.",
            ) from exc
        atomic.checkpoint("store-folder-created")
        store = Store(
            id=store_id,
            name=name,
            type=type,
            embedding=embedding,
            roles=roles or StoreRoles(),
            created_at=now_iso(),
            settings=dict(settings or {}),
        )
        try:
            _write_store(store)
        except ConfigError:
            with (
                contextlib.suppress(OSError),
                OpenFolder.open(stores_dir(), nofollow=1) as stores,
            ):
                stores.rmdir(store_id)  # still empty: nothing of the store was saved
            raise
        return store

    def reload(self, store: Store) -> Store:
        fresh = _read_store(store_dir(store.id))
        if fresh is None:
            raise NotFoundError(f"Store {store.name!r} no longer exists")
        return fresh

    def update(self, store_id: str, change: Callable[[Store], Store]) -> Store:
        """Apply ``change`` to the stored definition under the config lock and persist the result."""
        folder = store_dir(store_id)
        with config_lock(folder, nofollow=2):
            current = _read_store(folder)
            if current is None:
                raise NotFoundError(f"Store {store_id!r} no longer exists")
            updated = change(current)
            if updated != current:
                _write_store(updated)
            return updated

    def folder(self, store: Store) -> Path:
        return store_dir(store.id)

    def delete(self, store: Store) -> DeletionReport:
        """Remove the store's own files (and its folder if nothing else is in it); never sources.

        Only entries the product created are removed, each through the store folder's descriptor
        without following links; everything else is kept and listed. The caller holds the store's
        job lock.
        """
        folder = store_dir(store.id)
        try:
            with OpenFolder.open(stores_dir(), nofollow=1) as stores:
                try:
                    opened = stores.sub(store.id)
                except FileNotFoundError:
                    return DeletionReport(folder, (), ())
                with opened:
                    removed, kept = remove_store_contents(opened)
                if not kept:
                    with contextlib.suppress(OSError):  # something appeared meanwhile: it stays
                        stores.rmdir(store.id)
        except OSError as exc:
            raise ConfigError(
                f"Could not delete the store folder {folder} ({exc.strerror or exc})",
                hint="Fix the folder's permissions (or the I/O error) and delete the store again.",
            ) from exc
        return DeletionReport(folder, tuple(removed), tuple(kept))
