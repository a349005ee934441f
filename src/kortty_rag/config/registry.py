"""Store definitions (docs/DESIGN.md §1, §2): ``~/.kortty/rag/stores/<store-id>/store.json``, written atomically.

Each store folder holds only files this product creates; a folder without our ``store.json`` marker is
someone else's and is never listed, changed or deleted. Read-modify-write of a definition happens under a
short per-store config lock, so a GUI toggling "enabled" and a running job recording its result cannot
lose each other's change.

A damaged definition (not UTF-8 JSON, not an object, a field of the wrong type or value) never breaks the
other stores: :meth:`StoreRegistry.survey` lists it as damaged with an error naming the file and the
field, :meth:`StoreRegistry.list` returns the usable stores, and :meth:`StoreRegistry.get` of the damaged
store raises that error.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kortty_rag.config import atomic
from kortty_rag.config.atomic import dump_json, write_atomic_in
from kortty_rag.config.definitions import damaged, read_definition
from kortty_rag.config.open_folder import OpenFolder
from kortty_rag.config.paths import store_dir, stores_dir
from kortty_rag.config.store_files import (
    CONFIG_LOCK,
    STORE_FILE,
    open_store_folder,
    remove_store_contents,
)
from kortty_rag.decoding import FieldError, convert, problem_found
from kortty_rag.errors import AlreadyExistsError, ConfigError, NotFoundError, UsageError
from kortty_rag.messages import msg
from kortty_rag.models import EmbeddingIdentity, Store, StoreRoles, StoreType
from kortty_rag.remedies import Operation, place

PRODUCT = "kortty-rag"
SCHEMA_VERSION = 1
_NAME = re.compile(r"^[\w][\w .@+-]{0,63}$")


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def validate_name(name: str, what: str = msg("store")) -> str:
    name = name.strip()
    if not _NAME.match(name):
        raise UsageError(
            msg("Invalid {what} name {name}", what=what, name=repr(name)),
            hint=msg("Use 1-64 letters, digits, spaces, dots, dashes or underscores."),
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
            msg(
                "Cannot open the lock file {path} ({reason})",
                path=folder / name,
                reason=exc.strerror or exc,
            ),
            hint=msg("Free disk space (or fix the folder's permissions) and try again."),
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
                        msg("Timed out waiting to update {path}", path=folder / STORE_FILE)
                    ) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)


STORE_LABEL = msg("The store definition")
DAMAGED_HINT = msg(
    "Fix that part of the file or restore it from a backup; until then this store is listed "
    "as DAMAGED and every other store keeps working."
)


def _schema(data: dict[str, Any], path: Path, label: str, hint: str) -> None:
    try:
        schema = convert(int, data.get("schema", 0), "schema")
    except FieldError as exc:
        raise damaged(label, path, exc, hint) from None
    if schema > SCHEMA_VERSION:
        raise ConfigError(
            msg(
                "{label} {path} was written by a newer kortty-rag (schema {schema})",
                label=label,
                path=path,
                schema=schema,
            ),
            hint=msg("Upgrade kortty-rag to use it."),
        )


def _read_store(folder: Path) -> Store | None:
    """The store defined in ``folder``; ``None`` for a folder that is not ours (no ``store.json``, or
    an object without our product marker). Raises :class:`ConfigError` for a damaged definition: one
    that is not UTF-8 JSON, not an object, or has a wrong field."""
    path = folder / STORE_FILE
    data = read_definition(path, STORE_LABEL, DAMAGED_HINT)
    if data is None or data.get("product") != PRODUCT:
        return None  # an object without our marker is someone else's file
    try:
        _schema(data, path, STORE_LABEL, DAMAGED_HINT)
        if "store" not in data:
            raise FieldError("store", msg("is missing"))
        store = Store.from_json(data["store"], "store")
        if store.id != folder.name:
            requirement = msg('must be the folder\'s name "{name}"', name=folder.name)
            raise FieldError("store.id", problem_found(requirement, store.id))
    except FieldError as exc:
        raise damaged(STORE_LABEL, path, exc, DAMAGED_HINT) from None
    return store


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
            msg(
                "Could not save the store definition {path} ({reason})",
                path=folder / STORE_FILE,
                reason=exc.strerror or exc,
            ),
            hint=msg("Free disk space (or fix the I/O error) and try again."),
        ) from exc


@dataclass(frozen=True)
class DeletionReport:
    folder: Path
    removed: tuple[str, ...]
    #: what the product did not create, as paths relative to the folder (``snapshots/notes.txt``)
    kept_foreign: tuple[str, ...]


@dataclass(frozen=True)
class DamagedStore:
    """A store folder whose definition cannot be used; every other store keeps working."""

    id: str  # the folder's name
    name: str  # the name in the definition when it could be read, else the folder's name
    folder: Path
    error: ConfigError


@dataclass(frozen=True)
class StoreSurvey:
    """What ``stores/`` holds: usable stores (sorted by name) and damaged ones (sorted by folder)."""

    stores: tuple[Store, ...]
    damaged: tuple[DamagedStore, ...]


def _name_in(folder: Path) -> str:
    """The store name written in a damaged definition, if it can still be made out."""
    try:
        data = json.loads((folder / STORE_FILE).read_bytes())
        name = data["store"]["name"]
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return folder.name
    return name if isinstance(name, str) and name.strip() else folder.name


#: Who is told when this process wrote a store definition (:func:`on_store_written`).
_listeners: list[Callable[[str], None]] = []
_listeners_lock = threading.Lock()


def on_store_written(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener(store_id)`` after this process created, changed or deleted a store's
    definition, through any registry; returns the call that stops it. A listener runs on the writing
    thread, after the write, outside every lock the write took; its failure is logged, never raised
    into the write."""
    with _listeners_lock:
        _listeners.append(listener)

    def stop() -> None:
        with _listeners_lock, contextlib.suppress(ValueError):
            _listeners.remove(listener)

    return stop


def _written(store_id: str) -> None:
    with _listeners_lock:
        listeners = list(_listeners)
    for listener in listeners:
        try:
            listener(store_id)
        except Exception:
            logging.getLogger(__name__).exception("a listener to store writes failed")


class StoreRegistry:
    """All stores under the current ``KORTTY_HOME``; writes are announced to
    :func:`on_store_written`."""

    def survey(self) -> StoreSurvey:
        """Read every store folder; a damaged definition is recorded with its error, never raised."""
        root = stores_dir()
        stores: list[Store] = []
        broken: list[DamagedStore] = []
        if root.is_dir():
            for entry in sorted(root.iterdir()):
                if not entry.is_dir() or entry.is_symlink():
                    continue
                try:
                    store = _read_store(entry)
                except ConfigError as exc:
                    broken.append(DamagedStore(entry.name, _name_in(entry), entry, exc))
                    continue
                if store is not None:
                    stores.append(store)
        return StoreSurvey(tuple(sorted(stores, key=lambda s: s.name.lower())), tuple(broken))

    def list(self) -> list[Store]:
        """The usable stores; damaged ones are in :meth:`survey` (and :meth:`get` explains them)."""
        return list(self.survey().stores)

    def damaged(self) -> tuple[DamagedStore, ...]:
        return self.survey().damaged

    def get(self, name_or_id: str) -> Store:
        survey = self.survey()
        for store in survey.stores:
            if name_or_id in (store.id, store.name) or store.name.lower() == name_or_id.lower():
                return store
        for broken in survey.damaged:
            if name_or_id == broken.id or broken.name.lower() == name_or_id.lower():
                raise broken.error
        raise NotFoundError(
            msg("No store named {name}", name=repr(name_or_id)),
            hint=msg(
                "See the stores in {stores}; make one with {create}.",
                stores=place(Operation.STORE_LIST),
                create=place(Operation.STORE_CREATE),
            ),
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
        survey = self.survey()
        taken = [s.name for s in survey.stores] + [d.name for d in survey.damaged]
        if any(other.lower() == name.lower() for other in taken):
            raise AlreadyExistsError(msg("A store named {name} already exists", name=repr(name)))
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32] or "store"
        store_id = f"{slug}-{secrets.token_hex(3)}"
        folder = store_dir(store_id)
        try:
            with OpenFolder.open(stores_dir(), nofollow=1, create=True) as stores:
                stores.mkdir(store_id)
        except OSError as exc:
            raise ConfigError(
                msg(
                    "Could not create the store folder {path} ({reason})",
                    path=folder,
                    reason=exc.strerror or exc,
                ),
                hint=msg("Free disk space (or fix the I/O error) and try again."),
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
        _written(store_id)
        return store

    def reload(self, store: Store) -> Store:
        fresh = _read_store(store_dir(store.id))
        if fresh is None:
            raise NotFoundError(msg("Store {store} no longer exists", store=repr(store.name)))
        return fresh

    def update(self, store_id: str, change: Callable[[Store], Store]) -> Store:
        """Apply ``change`` to the stored definition under the config lock and persist the result."""
        folder = store_dir(store_id)
        with config_lock(folder, nofollow=2):
            current = _read_store(folder)
            if current is None:
                raise NotFoundError(msg("Store {store} no longer exists", store=repr(store_id)))
            updated = change(current)
            if updated == current:
                return updated
            _write_store(updated)
        _written(store_id)
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
            _written(store.id)
        except OSError as exc:
            raise ConfigError(
                msg(
                    "Could not delete the store folder {path} ({reason})",
                    path=folder,
                    reason=exc.strerror or exc,
                ),
                hint=msg(
                    "Fix the folder's permissions (or the I/O error) and delete the store again."
                ),
            ) from exc
        return DeletionReport(folder, tuple(removed), tuple(kept))
