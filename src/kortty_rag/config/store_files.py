"""What kortty-rag creates inside a store folder, and the removal of exactly that.

Layout of a store folder (``KORTTY_HOME/rag/stores/<store-id>/``)::

    store.json  config.lock  store.lock  CURRENT   the definition, two lock files, the snapshot pointer
    judgments.json                                 the person's judged questions (app/judgments.py)
    .kortty-tmp-…                                  a definition or pointer being written atomically
    snapshots/snap-…/                              manifest.json, vectors.hnsw, chunks.sqlite, lexical.npz
    snapshots/.kortty-tmp-snap-…/                  a snapshot being built

An entry is the product's only if both its name and its kind match this layout: the product never
creates symbolic links, so a link is never its own, whatever its name. Everything else found in a store
folder belongs to someone else and is kept (and listed) when the store is deleted.
"""

from __future__ import annotations

import contextlib
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from kortty_rag.config.atomic import TEMP_MARKER
from kortty_rag.config.open_folder import OpenFolder, describe
from kortty_rag.messages import msg

STORE_FILE = "store.json"
CONFIG_LOCK = "config.lock"
STORE_LOCK = "store.lock"
CURRENT = "CURRENT"
#: the person's judged questions and their last check: beside the definition, never in a snapshot,
#: so a rebuild keeps them (kortty_rag.app.judgments)
JUDGMENTS = "judgments.json"
SNAPSHOTS = "snapshots"
MANIFEST = "manifest.json"
VECTORS = "vectors.hnsw"
CHUNKS = "chunks.sqlite"
LEXICAL = "lexical.npz"
#: The files at the top of a store folder (besides temporary files and ``snapshots/``).
TOP_FILES = frozenset({STORE_FILE, CONFIG_LOCK, STORE_LOCK, CURRENT, JUDGMENTS})
#: A snapshot's files, and the side files SQLite may leave next to its chunk table.
SNAPSHOT_FILES = frozenset(
    {MANIFEST, VECTORS, CHUNKS, LEXICAL, f"{CHUNKS}-journal", f"{CHUNKS}-wal", f"{CHUNKS}-shm"}
)
SNAPSHOT_NAME = re.compile(r"^snap-\d{8}-[0-9a-f]{8}$")
BUILD_PREFIX = f"{TEMP_MARKER}snap-"


def open_store_folder(path: Path, *, create: bool = False) -> OpenFolder:
    """Open a store folder: neither it nor the folder holding it (``KORTTY_HOME/rag/stores``) may be a
    symbolic link."""
    return OpenFolder.open(path, nofollow=2, create=create)


@contextlib.contextmanager
def open_snapshot_folder(folder: Path, name: str) -> Iterator[OpenFolder]:
    """The folder of snapshot ``name`` in a store folder, reached without following links."""
    with (
        open_store_folder(folder) as store,
        store.sub(SNAPSHOTS) as snapshots,
        snapshots.sub(name) as snapshot,
    ):
        yield snapshot


def is_snapshot_folder_name(name: str) -> bool:
    return bool(SNAPSHOT_NAME.match(name)) or name.startswith(BUILD_PREFIX)


def _is(folder: OpenFolder, name: str, kind: Callable[[int], bool]) -> bool:
    found = folder.lstat(name)
    return found is not None and kind(found.st_mode)


def _own_snapshot_file(snapshot: OpenFolder, entry: str) -> bool:
    """Whether ``entry`` of a snapshot folder is one of a snapshot's own files (a regular file)."""
    return entry in SNAPSHOT_FILES and snapshot.is_file(entry)


def remove_snapshot_folder(
    snapshots: OpenFolder, name: str, on_removed: Callable[[], None] = lambda: None
) -> list[str]:
    """Remove a snapshot folder's own files, then the folder if nothing else is left in it.

    Returns what was kept (paths relative to ``snapshots``). ``on_removed`` is called after each
    removal (the crash tests' checkpoint).
    """
    if not (is_snapshot_folder_name(name) and _is(snapshots, name, stat.S_ISDIR)):
        return [name]
    kept: list[str] = []
    with snapshots.sub(name) as snapshot:
        for entry in snapshot.names():
            if _own_snapshot_file(snapshot, entry):
                snapshot.unlink(entry)
                on_removed()
            else:
                kept.append(f"{name}/{entry}")
    if not kept:
        snapshots.rmdir(name)
        on_removed()
    return kept


def remove_store_contents(folder: OpenFolder) -> tuple[list[str], list[str]]:
    """Remove everything the product created in an open store folder; ``(removed, kept)``, both as
    paths relative to the folder. The definition goes first: an interrupted deletion leaves no store."""
    removed: list[str] = []
    kept: list[str] = []
    names = folder.names()
    names.sort(key=lambda n: n != STORE_FILE)
    for name in names:
        if (name in TOP_FILES or name.startswith(TEMP_MARKER)) and _is(folder, name, stat.S_ISREG):
            folder.unlink(name)
            removed.append(name)
        elif name == SNAPSHOTS and _is(folder, name, stat.S_ISDIR):
            kept_inside: list[str] = []
            with folder.sub(SNAPSHOTS) as snapshots:
                for entry in snapshots.names():
                    here = remove_snapshot_folder(snapshots, entry)
                    kept_inside += [f"{SNAPSHOTS}/{path}" for path in here]
                    if not here:
                        removed.append(f"{SNAPSHOTS}/{entry}")
            if kept_inside:
                kept += kept_inside
            else:
                folder.rmdir(SNAPSHOTS)
                removed.append(SNAPSHOTS)
        else:
            kept.append(name)
    return removed, sorted(kept)


def kept_snapshot_entries(folder: Path, found: list[str]) -> dict[str, list[str]]:
    """Of the leftovers ``found`` (paths in the store folder), those a repair keeps — by the rule of
    :func:`remove_snapshot_folder`, read only: an entry of
    ``snapshots/`` named like a snapshot folder that is not a folder (a link, a file), or a folder
    holding more than a snapshot's own files — each with what in it is not the product's."""
    kept: dict[str, list[str]] = {}
    prefix = f"{SNAPSHOTS}/"
    names = [path.removeprefix(prefix) for path in found if path.startswith(prefix)]
    if not names:
        return kept
    try:
        with open_store_folder(folder) as store, store.sub(SNAPSHOTS) as snapshots:
            for name in names:
                path = f"{prefix}{name}"
                info = snapshots.lstat(name)
                if info is None:  # removed meanwhile
                    continue
                if not stat.S_ISDIR(info.st_mode):
                    kept[path] = [msg("{path} ({kind})", path=path, kind=describe(info.st_mode))]
                    continue
                try:
                    with snapshots.sub(name) as snapshot:
                        foreign = [
                            f"{path}/{entry}"
                            for entry in snapshot.names()
                            if not _own_snapshot_file(snapshot, entry)
                        ]
                except OSError as exc:
                    foreign = [msg("{path} ({reason})", path=path, reason=exc.strerror)]
                if foreign:
                    kept[path] = foreign
    except FileNotFoundError:  # the store or its snapshots went meanwhile: nothing is kept
        return {}
    return kept
