"""The local snapshot (docs/DESIGN.md §9): a self-describing folder activated by the atomic rename of a pointer.

Layout of a store folder::

    CURRENT                      {"snapshot": "snap-00000003-1a2b3c4d", "manifest_sha256": ...}
    snapshots/snap-…/            manifest.json, vectors.hnsw (hnswlib), chunks.sqlite (text, metadata, terms),
                                 lexical.npz (the inverted index, :mod:`kortty_rag.index.bm25`)
    snapshots/.kortty-tmp-snap-… a snapshot being built (removed on the next open if it is left over)

A new snapshot is built in a temporary folder, every file is flushed and read back (size, SHA-256, the
structural check of the hnswlib file), the manifest records the checksums, the folder is renamed into
place and only then does ``CURRENT`` switch, by ``rename``. A crash at any point leaves ``CURRENT``
naming a complete, verified snapshot: the old one or the new one. Opening verifies the checksums before
hnswlib reads a byte.

Every file is read, written and removed relative to the store folder's descriptor, never through a
symbolic link (:mod:`kortty_rag.config.open_folder`); a store folder whose ``snapshots``, snapshot
folder or pointer was replaced by a link is refused with :class:`StoreFolderChangedError`, and cleanup
removes only the files a snapshot consists of (:mod:`kortty_rag.config.store_files`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from kortty_rag.config.atomic import TEMP_MARKER, write_atomic_in
from kortty_rag.config.open_folder import OpenFolder
from kortty_rag.config.store_files import (
    BUILD_PREFIX,
    CHUNKS,
    CURRENT,
    LEXICAL,
    MANIFEST,
    SNAPSHOT_NAME,
    SNAPSHOTS,
    VECTORS,
    is_snapshot_folder_name,
    open_snapshot_folder,
    open_store_folder,
    remove_snapshot_folder,
)
from kortty_rag.errors import IncompatibleIndexError, SnapshotError, StoreFolderChangedError
from kortty_rag.index.bm25 import AUTO, LexicalIndex
from kortty_rag.index.calibration import best_similarities
from kortty_rag.index.chunkdb import (
    ChunkIdOf,
    ChunkReader,
    ChunkWriter,
    LinkedDocuments,
    NewChunk,
    write_errors,
)
from kortty_rag.index.hnsw_file import HnswFileInfo, validate_hnsw_file
from kortty_rag.index.manifest import FORMAT_VERSION, PRODUCT, HnswParams, Manifest
from kortty_rag.index.vector_pool import ContentMatch, VectorPool, text_sha
from kortty_rag.messages import msg
from kortty_rag.models import Chunk, Document, EmbeddingIdentity
from kortty_rag.notes.reader import NoteFacts
from kortty_rag.notes.resolve import NOTE_FORMATS
from kortty_rag.sources.formats import stale

__all__ = ["CHUNKS", "CURRENT", "FORMAT_VERSION", "MANIFEST", "SNAPSHOTS", "VECTORS", "HnswParams"]
#: Compact the graph when more than this share of its elements are deleted.
COMPACT_RATIO = 0.25

#: Fault-injection seam for the crash tests: called with the name of each durable step.
checkpoint: Callable[[str], None] = lambda step: None  # noqa: E731


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _rebuild_hint() -> str:
    return msg(
        "Run `kortty-rag store rebuild STORE` to re-index every source into a fresh snapshot."
    )


# -- reading --------------------------------------------------------------------------------------


def read_pointer(folder: Path) -> tuple[str, str] | None:
    """``(snapshot name, manifest sha256)`` from ``CURRENT``, or ``None`` for a store never indexed."""
    try:
        with open_store_folder(folder) as store:
            raw = store.read_bytes(CURRENT)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SnapshotError(
            msg("Cannot read {path}: {reason}", path=folder / CURRENT, reason=exc.strerror)
        ) from exc
    try:
        data = json.loads(raw)
        name, digest = str(data["snapshot"]), str(data["manifest_sha256"])
    except (ValueError, KeyError, TypeError):
        raise SnapshotError(
            msg("The snapshot pointer {path} is damaged", path=folder / CURRENT),
            hint=_rebuild_hint(),
        ) from None
    if data.get("product") != PRODUCT or not SNAPSHOT_NAME.match(name):
        raise SnapshotError(
            msg("{path} is not a kortty-rag snapshot pointer", path=folder / CURRENT)
        )
    return name, digest


def verify_snapshot(folder: Path, name: str, manifest_sha256: str) -> Manifest:
    """Check the manifest and every file it lists (size, SHA-256, hnswlib layout)."""
    try:
        with open_snapshot_folder(folder, name) as snap:
            return _verify(snap, name, manifest_sha256)
    except OSError as exc:
        raise SnapshotError(
            msg(
                "Snapshot {name} is missing or unreadable ({reason})",
                name=name,
                reason=exc.strerror or str(exc),
            ),
            hint=_rebuild_hint(),
        ) from exc


def _files_of(format_version: int) -> set[str]:
    return {VECTORS, CHUNKS, LEXICAL} if format_version >= 3 else {VECTORS, CHUNKS}


def _verify(snap: OpenFolder, name: str, manifest_sha256: str) -> Manifest:
    try:
        raw = snap.read_bytes(MANIFEST)
    except OSError as exc:
        raise SnapshotError(
            msg(
                "Snapshot {name} has no readable manifest ({reason})",
                name=name,
                reason=exc.strerror,
            ),
            hint=_rebuild_hint(),
        ) from exc
    if hashlib.sha256(raw).hexdigest() != manifest_sha256:
        raise SnapshotError(
            msg("The manifest of snapshot {name} is damaged (checksum mismatch)", name=name),
            hint=_rebuild_hint(),
        )
    try:
        data = json.loads(raw)
        if data.get("product") != PRODUCT:
            raise ValueError("foreign manifest")
        manifest = Manifest.from_json(data)
    except (ValueError, KeyError, TypeError) as exc:
        raise SnapshotError(
            msg(
                "The manifest of snapshot {name} is unreadable ({reason})",
                name=name,
                reason=str(exc),
            )
        ) from None
    if manifest.name != name:  # the loader reads the folder the manifest names: it must be this one
        raise SnapshotError(
            msg(
                "The manifest in snapshot {name} belongs to snapshot {other}",
                name=name,
                other=manifest.name,
            ),
            hint=_rebuild_hint(),
        )
    if manifest.format > FORMAT_VERSION:
        raise SnapshotError(
            msg(
                "Snapshot {name} was written by a newer kortty-rag (format {format})",
                name=name,
                format=manifest.format,
            ),
            hint=msg("Upgrade kortty-rag to open this store."),
        )
    if set(manifest.files) != _files_of(manifest.format):
        raise SnapshotError(
            msg("The manifest of snapshot {name} lists unexpected files", name=name)
        )
    for file_name, entry in manifest.files.items():
        try:
            size = snap.size(file_name)
        except OSError as exc:
            raise SnapshotError(
                msg("Snapshot file {name}/{file} is missing", name=name, file=file_name),
                hint=_rebuild_hint(),
            ) from exc
        if size != int(entry["size"]):
            raise SnapshotError(
                msg(
                    "Snapshot file {name}/{file} has {size} bytes, expected {expected} "
                    "(truncated or replaced)",
                    name=name,
                    file=file_name,
                    size=size,
                    expected=entry["size"],
                ),
                hint=_rebuild_hint(),
            )
        if snap.sha256(file_name) != entry["sha256"]:
            raise SnapshotError(
                msg(
                    "Snapshot file {name}/{file} is corrupted (checksum mismatch)",
                    name=name,
                    file=file_name,
                ),
                hint=_rebuild_hint(),
            )
    validate_hnsw_file(snap.library_path(VECTORS), manifest.embedding.dimensions)
    return manifest


def check_identity(manifest: Manifest, identity: EmbeddingIdentity) -> None:
    differences = manifest.embedding.differences(identity)
    if differences:
        raise IncompatibleIndexError(
            msg(
                "The snapshot was built with another embedding configuration "
                "(model {model}; differs in {differences})",
                model=manifest.embedding.model_id,
                differences=", ".join(differences),
            ),
            hint=_rebuild_hint(),
        )


def _load_hnsw(path: Path, dim: int, params: HnswParams) -> tuple[Any, HnswFileInfo]:
    import hnswlib

    info = validate_hnsw_file(path, dim)
    index = hnswlib.Index(space="cosine", dim=dim)
    # room for exactly the stored elements: the capacity in the header is never trusted with an
    # allocation (a builder grows the graph when it adds)
    index.load_index(str(path), max_elements=max(info.count, 1), allow_replace_deleted=True)
    index.set_ef(params.ef_search)
    return index, info


class Snapshot:
    """An opened, verified, read-only snapshot."""

    def __init__(self, folder: Path, manifest: Manifest) -> None:
        self.folder = folder
        self.manifest = manifest
        self.path = folder / SNAPSHOTS / manifest.name
        dim = manifest.embedding.dimensions
        try:
            with open_snapshot_folder(folder, manifest.name) as snap:
                self._index, info = _load_hnsw(snap.library_path(VECTORS), dim, manifest.hnsw)
                self.chunks = ChunkReader(snap.library_path(CHUNKS))
                self._lexical = self._open_lexical(snap) if LEXICAL in manifest.files else None
        except OSError as exc:
            raise SnapshotError(
                msg(
                    "Snapshot {name} became unreadable ({reason})",
                    name=manifest.name,
                    reason=exc.strerror or str(exc),
                ),
                hint=_rebuild_hint(),
            ) from exc
        self._lock = threading.Lock()
        live = info.count - info.deleted
        if self.chunks.count() != manifest.chunks or live != manifest.chunks:
            self.close()
            raise SnapshotError(
                msg("Snapshot {name} is inconsistent (chunk counts differ)", name=manifest.name),
                hint=_rebuild_hint(),
            )

    def _open_lexical(self, snap: OpenFolder) -> LexicalIndex:
        """Read ``lexical.npz`` once and check the bytes read against the manifest, so that what is
        parsed is exactly what was verified."""
        data = snap.read_bytes(LEXICAL)
        if hashlib.sha256(data).hexdigest() != self.manifest.files[LEXICAL]["sha256"]:
            self.chunks.close()
            raise SnapshotError(
                msg(
                    "Snapshot file {name}/{file} changed after it was verified",
                    name=self.manifest.name,
                    file=LEXICAL,
                ),
                hint=_rebuild_hint(),
            )
        try:
            index = self.chunks.open_lexical(data)
        except SnapshotError:
            self.chunks.close()
            raise
        if index.size != self.manifest.chunks:
            self.chunks.close()
            raise SnapshotError(
                msg(
                    "Snapshot {name} is inconsistent (lexical index counts differ)",
                    name=self.manifest.name,
                ),
                hint=_rebuild_hint(),
            )
        return index

    def close(self) -> None:
        self.chunks.close()

    @property
    def lexical_current(self) -> bool:
        """Whether the lexical index was made by this version's analyzer (else it is migrated)."""
        return self._lexical is not None and self._lexical.current

    @property
    def lexical_language(self) -> str | None:
        """The language the lexical index was analysed in (``none``: no stemming or stopwords)."""
        return None if self._lexical is None else self._lexical.analyzer.language

    @property
    def size(self) -> int:
        return self.manifest.chunks

    def documents(self) -> list[Document]:
        return self.chunks.documents()

    def search(
        self, vector: np.ndarray, k: int, allowed: set[int] | None = None
    ) -> list[tuple[int, float]]:
        """Labels and cosine similarities of the ``k`` nearest chunks (only ``allowed`` labels)."""
        pool = self.size if allowed is None else len(allowed)
        k = min(k, pool)
        if k <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        with self._lock:
            if allowed is not None and len(allowed) <= max(2000, k * 4):
                return self._exact(query[0], sorted(allowed), k)
            flt = None if allowed is None else allowed.__contains__
            ef = max(self.manifest.hnsw.ef_search, HnswParams().ef_search, k)
            self._index.set_ef(ef)
            try:
                labels, distances = self._index.knn_query(query, k=k, filter=flt)
            except RuntimeError:
                # the filter left fewer reachable items than k: fall back to the exact search
                return self._exact(query[0], sorted(allowed or self._all_labels()), k)
        return [
            (int(label), 1.0 - float(dist))
            for label, dist in zip(labels[0], distances[0], strict=True)
        ]

    def _all_labels(self) -> set[int]:
        return set(self.chunks.labels_of_sources(s.source_id for s in self.documents()))

    def _exact(self, query: np.ndarray, labels: list[int], k: int) -> list[tuple[int, float]]:
        if not labels:
            return []
        vectors = np.asarray(self._index.get_items(labels), dtype=np.float32)
        scores = vectors @ query
        order = np.argsort(-scores, kind="stable")[:k]
        return [(labels[i], float(scores[i])) for i in order]

    def lexical(
        self, query: str, k: int, source_ids: set[str] | None = None
    ) -> list[tuple[int, float, float]]:
        """Labels, BM25 scores and coverage of the ``k`` best lexical matches (none for a snapshot of
        an older format that could not be migrated yet)."""
        if self._lexical is None:
            return []
        return self.chunks.lexical(self._lexical, query, k, source_ids)

    def vectors(self, labels: list[int]) -> np.ndarray:
        with self._lock:
            return np.asarray(self._index.get_items(labels), dtype=np.float32)

    def similarities(self, vector: np.ndarray, labels: Iterable[int]) -> dict[int, float]:
        """The cosine similarity of ``vector`` to each of ``labels`` in this snapshot (a label it
        does not have is left out)."""
        wanted = sorted(self.chunks.present(set(labels)))
        if not wanted:
            return {}
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        scores = self.vectors(wanted) @ query
        return {label: float(score) for label, score in zip(wanted, scores, strict=True)}

    def chunk_map(self, labels: Iterable[int]) -> dict[int, Chunk]:
        return self.chunks.chunks(labels)

    def linked(self, labels: Iterable[int], limit: int) -> LinkedDocuments:
        return self.chunks.linked(labels, limit)


def open_snapshot(folder: Path, identity: EmbeddingIdentity) -> Snapshot | None:
    """Open the active snapshot of a store folder, verified; ``None`` if the store has none yet.

    A writer may retire the snapshot between reading ``CURRENT`` and opening its files; then the
    pointer is read again.
    """
    for attempt in range(3):
        pointer = read_pointer(folder)
        if pointer is None:
            return None
        try:
            manifest = verify_snapshot(folder, *pointer)
        except SnapshotError:
            if attempt < 2 and read_pointer(folder) != pointer:
                continue
            raise
        check_identity(manifest, identity)
        return Snapshot(folder, manifest)
    return None


# -- cleanup --------------------------------------------------------------------------------------


def remove_leftovers(folder: Path) -> list[str]:
    """Remove our temporary files and every snapshot folder that ``CURRENT`` does not name.

    Only the files a snapshot consists of are removed (a folder holding anything else stays); a
    symbolic link swapped in for ``snapshots`` or the pointer is refused, never followed. Call only
    while holding the store lock: a running build lives in one of these folders.
    """
    try:
        pointer = read_pointer(folder)
    except StoreFolderChangedError:
        raise
    except SnapshotError:
        return []  # do not delete anything while the pointer itself is unreadable
    try:
        with open_store_folder(folder) as store:
            return _remove_leftovers_in(store, pointer[0] if pointer else None)
    except FileNotFoundError:
        return []


def list_leftovers(folder: Path) -> list[str]:
    """What :func:`remove_leftovers` would remove (nothing while the pointer is unreadable)."""
    try:
        pointer = read_pointer(folder)
    except StoreFolderChangedError:
        raise
    except SnapshotError:
        return []
    active = pointer[0] if pointer else None
    try:
        with open_store_folder(folder) as store:
            found = [
                name
                for name in store.names()
                if name.startswith(TEMP_MARKER) and store.is_file(name)
            ]
            if store.lstat(SNAPSHOTS) is not None:
                with store.sub(SNAPSHOTS) as snapshots:
                    found += [
                        f"{SNAPSHOTS}/{name}"
                        for name in snapshots.names()
                        if name != active and is_snapshot_folder_name(name)
                    ]
            return sorted(found)
    except FileNotFoundError:
        return []


def newest_valid_snapshot(folder: Path, identity: EmbeddingIdentity) -> tuple[str, str] | None:
    """``(name, manifest sha256)`` of the newest snapshot folder that verifies completely and was
    made with ``identity`` — what a damaged pointer can safely be pointed at again. Its manifest
    cannot be checked against the pointer (that is what is damaged); every file is checked against
    the manifest, and the manifest must name its own folder."""
    try:
        with open_store_folder(folder) as store, store.sub(SNAPSHOTS) as snapshots:
            names = [n for n in snapshots.names() if SNAPSHOT_NAME.match(n)]
            candidates: list[tuple[str, str]] = []
            for name in names:
                with contextlib.suppress(OSError), snapshots.sub(name) as snap:
                    raw = snap.read_bytes(MANIFEST)
                    candidates.append((name, hashlib.sha256(raw).hexdigest()))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise SnapshotError(
            msg(
                "Cannot read the snapshots of {folder}: {reason}",
                folder=folder,
                reason=exc.strerror,
            )
        ) from exc
    for name, digest in sorted(candidates, key=lambda c: c[0], reverse=True):  # sequence first
        try:
            manifest = verify_snapshot(folder, name, digest)
        except SnapshotError:
            continue
        if not manifest.embedding.differences(identity):
            return name, digest
    return None


def activate_snapshot(folder: Path, name: str, manifest_sha256: str) -> None:
    """Point ``CURRENT`` at a verified snapshot (atomically); only for a repair under the store
    lock — a build activates its own snapshot in :meth:`SnapshotBuilder.commit`."""
    pointer = {"product": PRODUCT, "snapshot": name, "manifest_sha256": manifest_sha256}
    with open_store_folder(folder) as store:
        write_atomic_in(store, CURRENT, (json.dumps(pointer) + "\n").encode())


def _leftover_removed() -> None:
    checkpoint("leftover-removed")


def _remove_leftovers_in(
    store: OpenFolder, active: str | None, keep: str | None = None
) -> list[str]:
    removed: list[str] = []
    if store.lstat(SNAPSHOTS) is not None:  # a link or a file there is refused, not skipped
        with store.sub(SNAPSHOTS) as snapshots:
            for name in snapshots.names():
                if name in (active, keep) or not is_snapshot_folder_name(name):
                    continue
                with contextlib.suppress(OSError):  # best effort: the next open tries again
                    if not remove_snapshot_folder(snapshots, name, _leftover_removed):
                        removed.append(name)
    for name in store.names():
        if name.startswith(TEMP_MARKER) and store.is_file(name):
            with contextlib.suppress(OSError):  # best effort: the next open tries again
                store.unlink(name)
                removed.append(name)
                checkpoint("leftover-removed")
    return removed


# -- writing --------------------------------------------------------------------------------------


class BaseVectors:
    """The vectors of the previous snapshot, read-only, for a fresh build with the same model: a
    rebuild re-reads and re-cuts every document but embeds only chunk text the store never saw."""

    def __init__(self, index: Any, db: sqlite3.Connection, dims: int) -> None:
        self._index = index
        self._db: sqlite3.Connection | None = db
        self._dims = dims
        self.pool = VectorPool(db, dims, writable=False)
        #: a snapshot written before chunk rows carried their address: addressed here, in memory
        self._labels: dict[bytes, int] | None = None
        if not self.pool.enabled:
            self._labels = {
                text_sha(str(heading), str(text)): int(label)
                for label, heading, text in db.execute("SELECT label, heading, text FROM chunks")
            }

    @classmethod
    def open(
        cls,
        snapshots: OpenFolder,
        manifest: Manifest,
        identity: EmbeddingIdentity,
        params: HnswParams,
    ) -> BaseVectors | None:
        """The base's vectors, or ``None`` when nothing of it can be reused (another model, or a
        base that cannot be read: a rebuild is what repairs that)."""
        if manifest.embedding.differences(identity):
            return None
        db: sqlite3.Connection | None = None
        try:
            with snapshots.sub(manifest.name) as base:
                index, _ = _load_hnsw(base.library_path(VECTORS), identity.dimensions, params)
                db = sqlite3.connect(
                    f"file:{base.library_path(CHUNKS)}?mode=ro&immutable=1",
                    uri=True,
                    check_same_thread=False,
                )
                return cls(index, db, identity.dimensions)
        except (OSError, sqlite3.Error, SnapshotError, RuntimeError, ValueError, TypeError):
            if db is not None:
                db.close()
            return None

    def vector_for(self, sha: bytes) -> np.ndarray | None:
        if self._db is None:
            return None
        try:
            if self._labels is not None:
                label: int | None = self._labels.get(sha)
            else:
                label = self.pool.live_label(sha)
                if label is None:
                    return self.pool.retired_vector(sha)
            if label is None:
                return None
            vector = np.asarray(self._index.get_items([label]), dtype=np.float32)
            return vector.reshape(self._dims)
        except (sqlite3.Error, RuntimeError, ValueError):
            self.close()  # a base that fails to read is not used any further
            return None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class SnapshotBuilder:
    """Builds the next snapshot from the active one (copy, then update) and activates it.

    Unchanged documents keep their chunks and vectors: the chunk table is copied and the hnswlib graph
    is loaded and updated (``mark_deleted`` / ``add_items`` into freed slots), not rebuilt; it is
    compacted only when deleted elements pass :data:`COMPACT_RATIO`.
    """

    def __init__(
        self,
        folder: Path,
        identity: EmbeddingIdentity,
        *,
        base: Manifest | None,
        params: HnswParams | None = None,
        fresh: bool = False,
        reuse_from: Manifest | None = None,
        language: str = AUTO,
        keep: str | None = None,
    ) -> None:
        """``reuse_from``: for a ``fresh`` build, a verified snapshot whose vectors are reused where
        the same model sees the same chunk text (a rebuild without a model change). ``keep``: a
        snapshot the activation does not clean up (the one a job published in parts goes back to)."""
        import hnswlib

        self.folder = folder
        self.keep = keep
        self.identity = identity
        self.language = language
        self.params = params or (base.hnsw if base else HnswParams())
        self.sequence = (base.sequence + 1) if base else 1
        self._tmp_name = f"{BUILD_PREFIX}{secrets.token_hex(4)}"
        self.tmp = folder / SNAPSHOTS / self._tmp_name
        self._store, self._snapshots, self._build = self._open_folders()
        self._closed = False
        self._compact = False
        #: whether anything was added or removed (an unchanged update activates nothing)
        self.changed = False
        #: chunks whose vector was reused by content instead of being embedded
        self.reused = 0
        #: the relevance calibration: the base's until :meth:`calibrate` gives probes
        self.calibration = base.calibration if base is not None and not fresh else ()
        self._probes: np.ndarray | None = None
        self._base: BaseVectors | None = None
        try:
            if base is not None and not fresh:
                with self._snapshots.sub(base.name) as base_dir:
                    base_dir.copy_file(CHUNKS, self._build, CHUNKS)
                    self.index, _ = _load_hnsw(
                        base_dir.library_path(VECTORS), identity.dimensions, self.params
                    )
            else:
                self.index = hnswlib.Index(space="cosine", dim=identity.dimensions)
                self.index.init_index(
                    max_elements=1024,
                    M=self.params.m,
                    ef_construction=self.params.ef_construction,
                    allow_replace_deleted=True,
                )
            self.db = ChunkWriter(self._build.library_path(CHUNKS), identity.dimensions)
            if fresh and reuse_from is not None:
                self._base = BaseVectors.open(self._snapshots, reuse_from, identity, self.params)
            # a format migration, or the lexical index asked for another language: worth activating
            self.changed = base is not None and (
                base.format < FORMAT_VERSION or self.db.lexical.needs_update(language)
            )
            self._next_label = self.db.next_label()
            self._docs = {(d.source_id, d.rel_path): (i, d) for i, d in self.db.documents()}
        except BaseException as exc:
            self._discard()
            if isinstance(exc, OSError):
                raise SnapshotError(
                    msg(
                        "Could not start a new snapshot ({reason}); the previous snapshot is still "
                        "active",
                        reason=exc.strerror or str(exc),
                    ),
                    hint=msg("Free disk space (or fix the I/O error) and run the job again."),
                ) from exc
            raise

    def _open_folders(self) -> tuple[OpenFolder, OpenFolder, OpenFolder]:
        """The store folder, ``snapshots`` and the new build folder in it, held open until the end:
        everything the builder writes goes through these descriptors."""
        opened: list[OpenFolder] = []
        try:
            opened.append(open_store_folder(self.folder, create=True))
            opened.append(opened[0].sub(SNAPSHOTS, create=True))
            opened[1].mkdir(self._tmp_name)
            opened.append(opened[1].sub(self._tmp_name))
        except BaseException as exc:
            for folder in opened:
                folder.close()
            if isinstance(exc, OSError):
                raise SnapshotError(
                    msg(
                        "Could not start a new snapshot ({reason}); the previous snapshot is still "
                        "active",
                        reason=exc.strerror or str(exc),
                    ),
                    hint=msg("Free disk space (or fix the I/O error) and run the job again."),
                ) from exc
            raise
        return opened[0], opened[1], opened[2]

    # -- content --------------------------------------------------------------------------------

    def documents(self) -> list[Document]:
        return [doc for _, doc in self._docs.values()]

    def has(self, source_id: str, rel_path: str) -> bool:
        return (source_id, rel_path) in self._docs

    def remove_document(self, source_id: str, rel_path: str) -> int:
        entry = self._docs.pop((source_id, rel_path), None)
        if entry is None:
            return 0
        self.changed = True
        self._retire(*entry)
        labels = self.db.remove_document(entry[0])
        for label in labels:
            self.index.mark_deleted(label)
        return len(labels)

    def _retire(self, document_id: int, document: Document) -> None:
        """Keep a document's chunks and vectors for reuse by content (docs/DESIGN.md §9)."""
        labels, chunks = self.db.pool.live_chunks(document_id)
        if labels:
            with write_errors():
                self.db.pool.retire(document, chunks, self._items(labels), _now())

    def _items(self, labels: list[int]) -> np.ndarray:
        return np.asarray(self.index.get_items(labels), dtype=np.float32).reshape(
            len(labels), self.identity.dimensions
        )

    # -- reuse by content -------------------------------------------------------------------------

    def vector_for(self, sha: bytes) -> np.ndarray | None:
        """A vector this model already made for exactly this text, if the store has one."""
        with write_errors():
            label = self.db.pool.live_label(sha)
            vector = (
                self._items([label])[0] if label is not None else self.db.pool.retired_vector(sha)
            )
            if vector is None and self._base is not None:
                vector = self._base.vector_for(sha)
        if vector is not None:
            self.reused += 1
        return vector

    def reuse_document(
        self, document: Document, chunk_id: ChunkIdOf, moving: tuple[str, str] | None = None
    ) -> int | None:
        """Index ``document`` from a document with the same content and format, without reading or
        embedding it: ``moving`` (a document this update removes anyway) is re-pointed in place,
        keeping its labels; else a live or a retired document with that content is copied. Returns
        the chunks reused, or ``None`` when there is nothing to reuse (then index it as usual).

        ``document.chunk_count`` and ``pages`` are taken from the match."""
        key = (document.source_id, document.rel_path)
        entry = self._docs.get(moving) if moving is not None and moving != key else None
        if (
            entry is not None
            and (entry[1].sha256, entry[1].format) == (document.sha256, document.format)
            and not stale(entry[1])
        ):
            self.remove_document(*key)
            del self._docs[moving]  # type: ignore[arg-type]
            moved = replace(document, chunk_count=entry[1].chunk_count, pages=entry[1].pages)
            self.db.move_document(entry[0], moved, _now(), chunk_id)
            self._docs[key] = (entry[0], moved)
            self.changed = True
            self.reused += moved.chunk_count
            return moved.chunk_count
        with write_errors():
            match = self._content_match(document)
            live = self.db.pool.live_document(document.sha256, document.format)
        if match is None:
            return None
        if document.format in NOTE_FORMATS and live is None:
            return None  # a note is read again for its links (its vectors are reused by text)
        chunks = [
            NewChunk(0, chunk_id(c), c.page, c.start, c.end, c.token_count, c.text, c.heading)
            for c in match.chunks
        ]
        vectors = match.vectors if match.vectors is not None else self._items(match.labels or [])
        copied = replace(document, chunk_count=len(chunks), pages=match.pages)
        self.add_document(copied, chunks, vectors)
        if live is not None and document.format in NOTE_FORMATS:
            self.db.copy_note(live[0], self._docs[key][0])
        if match.retired_id is not None:  # live again: no longer kept as retired
            with write_errors():
                self.db.pool.forget([match.retired_id])
        self.reused += len(chunks)
        return len(chunks)

    def _content_match(self, document: Document) -> ContentMatch | None:
        live = self.db.pool.live_document(document.sha256, document.format)
        if live is not None:
            labels, chunks = self.db.pool.live_chunks(live[0])
            if labels:
                return ContentMatch(live[1], chunks, labels=labels)
        return self.db.pool.retired_document(document.sha256, document.format)

    def remove_source(self, source_id: str) -> int:
        keys = [key for key in self._docs if key[0] == source_id]
        return sum(self.remove_document(*key) for key in keys)

    def add_document(
        self,
        document: Document,
        chunks: list[NewChunk],
        vectors: np.ndarray,
        note: NoteFacts | None = None,
    ) -> None:
        """Add a document with its chunks; ``chunks[i]`` gets ``vectors[i]`` (labels are assigned);
        ``note``: what a Markdown note says about itself (its links are resolved at commit)."""
        self.remove_document(document.source_id, document.rel_path)
        self.changed = True
        labels = np.arange(self._next_label, self._next_label + len(chunks), dtype=np.uint64)
        self._next_label += len(chunks)
        labelled = [
            NewChunk(
                int(label), c.chunk_id, c.page, c.start, c.end, c.token_count, c.text, c.heading
            )
            for label, c in zip(labels, chunks, strict=True)
        ]
        doc_id = self.db.add_document(document, _now(), labelled, note)
        if len(chunks):
            needed = self.index.element_count + len(chunks)
            if needed > self.index.get_max_elements():
                try:
                    self.index.resize_index(
                        max(needed, int(self.index.get_max_elements() * 1.5) + 1024)
                    )
                except (MemoryError, RuntimeError) as exc:
                    raise SnapshotError(
                        msg("Could not grow the vector index: {reason}", reason=str(exc))
                    ) from exc
            self.index.add_items(
                np.asarray(vectors, dtype=np.float32), labels, replace_deleted=True
            )
        self._docs[(document.source_id, document.rel_path)] = (doc_id, document)

    # -- activation -----------------------------------------------------------------------------

    def commit(self) -> Manifest:
        """Write, verify and activate the snapshot; the previous one stays active on any failure."""
        try:
            return self._commit()
        except OSError as exc:
            raise SnapshotError(
                msg(
                    "Could not write the new snapshot ({reason}); the previous snapshot is still "
                    "active",
                    reason=exc.strerror or str(exc),
                ),
                hint=msg("Free disk space and run the refresh again."),
            ) from exc
        finally:
            self._discard()

    def calibrate(self, probes: np.ndarray) -> None:
        """Record the probes' best similarities to the snapshot when it is committed."""
        self._probes = probes

    def _commit(self) -> Manifest:
        live = self.db.live_labels()
        with write_errors():
            self.db.pool.collect(len(live))
        self._maybe_compact(live)
        if self._probes is not None:
            self.calibration = best_similarities(self.index, self._probes, len(live))
        self.db.update_lexical(self.language)
        self.db.resolve_links()
        checkpoint("commit-started")
        build = self._build
        vectors = build.library_path(VECTORS)
        self.index.save_index(str(vectors))
        if build.size(VECTORS) != self.index.index_file_size():
            raise SnapshotError(
                msg(
                    "The vector index was not written completely (the disk may be full); the "
                    "previous snapshot is still active"
                ),
                hint=msg("Free disk space and run the refresh again."),
            )
        checkpoint("vectors-saved")
        fd = build.open_file(LEXICAL, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        with os.fdopen(fd, "wb") as handle:
            self.db.write_lexical(handle)
        self.db.finish(vacuum=self._compact)
        checkpoint("files-written")
        build.fsync_file(VECTORS)
        checkpoint("vectors-synced")
        build.fsync_file(CHUNKS)
        checkpoint("chunks-synced")
        build.fsync_file(LEXICAL)
        checkpoint("files-synced")
        files = {
            name: {"size": build.size(name), "sha256": build.sha256(name)}
            for name in (VECTORS, CHUNKS, LEXICAL)
        }
        validate_hnsw_file(vectors, self.identity.dimensions)
        name = f"snap-{self.sequence:08d}-{secrets.token_hex(4)}"
        manifest = Manifest(
            FORMAT_VERSION,
            name,
            self.sequence,
            _now(),
            self.identity,
            self.params,
            len(live),
            len(self._docs),
            files,
            self.calibration,
        )
        raw = (json.dumps(manifest.to_json(), indent=2) + "\n").encode()
        fd = build.open_file(MANIFEST, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
            handle.flush()
            checkpoint("manifest-data-written")
            os.fsync(handle.fileno())
        checkpoint("manifest-synced")
        build.fsync()
        checkpoint("manifest-written")
        self._snapshots.rename(self._tmp_name, name)
        self._tmp_name, self.tmp = name, self.folder / SNAPSHOTS / name
        checkpoint("snapshot-folder-renamed")
        self._snapshots.fsync()
        checkpoint("snapshot-renamed")
        pointer = {
            "product": PRODUCT,
            "snapshot": name,
            "manifest_sha256": hashlib.sha256(raw).hexdigest(),
        }
        self._switch_pointer(name, (json.dumps(pointer) + "\n").encode())
        checkpoint("pointer-switched")
        with contextlib.suppress(OSError):  # the new snapshot is active; cleanup is retried on open
            _remove_leftovers_in(self._store, name, self.keep)
        checkpoint("old-removed")
        return manifest

    def _switch_pointer(self, name: str, pointer: bytes) -> None:
        """Point ``CURRENT`` at the new snapshot. From the moment the rename happened the new folder
        is the active snapshot and must never be discarded, even if flushing the folder fails."""
        try:
            write_atomic_in(self._store, CURRENT, pointer)
        except OSError as exc:
            try:
                switched = (read_pointer(self.folder) or ("",))[0] == name
            except SnapshotError:
                switched = False
            if not switched:
                raise
            self._closed = True
            raise SnapshotError(
                msg(
                    "The new snapshot {name} is active, but flushing the store folder to disk "
                    "failed ({reason}); a power loss now could bring back the previous snapshot",
                    name=name,
                    reason=exc.strerror or str(exc),
                ),
                hint=msg(
                    "Check the disk, then run the refresh again to make sure it is stored durably."
                ),
            ) from exc
        self._closed = True  # the folder is now the active snapshot: never discard it

    def _maybe_compact(self, live: list[int]) -> None:
        import hnswlib

        total = int(self.index.element_count)
        deleted = total - len(live)
        if deleted <= 64 or deleted <= COMPACT_RATIO * total:
            return
        fresh = hnswlib.Index(space="cosine", dim=self.identity.dimensions)
        fresh.init_index(
            max_elements=max(len(live), 1024),
            M=self.params.m,
            ef_construction=self.params.ef_construction,
            allow_replace_deleted=True,
        )
        for start in range(0, len(live), 4096):
            part = live[start : start + 4096]
            fresh.add_items(
                np.asarray(self.index.get_items(part), dtype=np.float32),
                np.asarray(part, dtype=np.uint64),
            )
        self.index = fresh
        self._compact = True

    def abort(self) -> None:
        self._discard()

    def _discard(self) -> None:
        if not self._closed:
            self._closed = True
            with contextlib.suppress(Exception):
                self.db.abort()
            with contextlib.suppress(OSError):  # best effort: the next open removes what is left
                remove_snapshot_folder(self._snapshots, self._tmp_name)
        if self._base is not None:
            self._base.close()
            self._base = None
        for folder in (self._build, self._snapshots, self._store):
            folder.close()
