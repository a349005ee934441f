"""A snapshot leaving its store or arriving in one whole: the files of a store archive
(docs/DESIGN.md §14). What a snapshot is made of, where it lives and how it becomes the active one
is known here, in the index layer; the archive's own format (its header, its members) is the
application's (``app/store_archive.py``).

Leaving: :func:`active_snapshot_files` verifies the active snapshot and opens every file of it at
once, so a job that activates another snapshot meanwhile cannot take the files away under a copy.
Arriving: :func:`arriving_snapshot` gives a build folder the files are written into one by one and,
when nothing went wrong, renames it into place and points ``CURRENT`` at it — the same steps as an
activation; a failure removes the build folder and leaves the store as it was.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, TypeVar

from kortty_rag.config.atomic import write_atomic_in
from kortty_rag.config.open_folder import OpenFolder
from kortty_rag.config.store_files import (
    BUILD_PREFIX,
    CHUNKS,
    CURRENT,
    LEXICAL,
    MANIFEST,
    SNAPSHOTS,
    VECTORS,
    open_snapshot_folder,
    open_store_folder,
    remove_snapshot_folder,
)
from kortty_rag.index.hnsw_file import validate_hnsw_file
from kortty_rag.index.manifest import PRODUCT, Manifest
from kortty_rag.index.snapshot import read_pointer, verify_snapshot

#: the files of a snapshot, in the order an archive holds them (the manifest first)
SNAPSHOT_FILES = (MANIFEST, VECTORS, CHUNKS, LEXICAL)

T = TypeVar("T")


def pointer_bytes(snapshot: str, manifest_sha256: str) -> bytes:
    """What ``CURRENT`` holds to name ``snapshot`` as the active one."""
    pointer = {"product": PRODUCT, "snapshot": snapshot, "manifest_sha256": manifest_sha256}
    return (json.dumps(pointer) + "\n").encode()


def active_snapshot_files(folder: Path) -> tuple[Manifest, str, dict[str, BinaryIO]] | None:
    """The store's active snapshot, verified: its manifest, the manifest's SHA-256 and every file of
    :data:`SNAPSHOT_FILES` opened for reading (the caller closes them); None for a store never
    indexed."""
    pointer = read_pointer(folder)
    if pointer is None:
        return None
    manifest = verify_snapshot(folder, *pointer)
    handles: dict[str, BinaryIO] = {}
    try:
        with open_snapshot_folder(folder, manifest.name) as snap:
            for name in SNAPSHOT_FILES:
                handles[name] = os.fdopen(snap.open_file(name, os.O_RDONLY), "rb")
    except BaseException:
        for handle in handles.values():
            handle.close()
        raise
    return manifest, pointer[1], handles


class ArrivingSnapshot:
    """The build folder of a snapshot that arrives whole."""

    def __init__(self, snap: OpenFolder) -> None:
        self._snap = snap

    def write(self, name: str, copy: Callable[[BinaryIO], T]) -> T:
        """Create the file ``name`` (one of :data:`SNAPSHOT_FILES`), let ``copy`` fill it, and flush
        it to disk; what ``copy`` returns."""
        fd = self._snap.open_file(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        with os.fdopen(fd, "wb") as out:
            result = copy(out)
            out.flush()
            os.fsync(out.fileno())
        return result

    def check(self, manifest: Manifest) -> list[object]:
        """Check the vector index's layout against ``manifest`` (raises
        :class:`~kortty_rag.errors.SnapshotError`); the relative paths its chunk table names, for
        the caller to judge (raises :class:`sqlite3.Error` for a table that cannot be read)."""
        validate_hnsw_file(self._snap.library_path(VECTORS), manifest.embedding.dimensions)
        db = sqlite3.connect(f"file:{self._snap.library_path(CHUNKS)}?mode=ro", uri=True)
        try:
            return [row[0] for row in db.execute("SELECT rel_path FROM documents")]
        finally:
            db.close()


@contextlib.contextmanager
def arriving_snapshot(folder: Path, name: str, manifest_sha256: str) -> Iterator[ArrivingSnapshot]:
    """A build folder in the store ``folder`` for the snapshot ``name``; on leaving without an
    error it is renamed to ``name`` and made the active snapshot, else removed."""
    build = f"{BUILD_PREFIX}{secrets.token_hex(4)}"
    with open_store_folder(folder) as store, store.sub(SNAPSHOTS, create=True) as snapshots:
        snapshots.mkdir(build)
        try:
            with snapshots.sub(build) as snap:
                yield ArrivingSnapshot(snap)
                snap.fsync()
            snapshots.rename(build, name)
            snapshots.fsync()
        except BaseException:
            with contextlib.suppress(OSError):
                remove_snapshot_folder(snapshots, build)
            raise
        write_atomic_in(store, CURRENT, pointer_bytes(name, manifest_sha256))
