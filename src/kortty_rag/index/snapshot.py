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
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from kortty_rag.config.atomic import TEMP_MARKER, write_atomic_in
from kortty_rag.config.open_folder import OpenFolder
from kortty_rag.config.store_files import (
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
from kortty_rag.index.bm25 import LexicalIndex
from kortty_rag.index.chunkdb import (
    ChunkReader,
    LinkedDocuments,
)
from kortty_rag.index.hnsw_file import HnswFileInfo, validate_hnsw_file
from kortty_rag.index.manifest import FORMAT_VERSION, PRODUCT, HnswParams, Manifest
from kortty_rag.messages import msg
from kortty_rag.models import Chunk, Document, EmbeddingIdentity
from kortty_rag.remedies import Operation, run

__all__ = ["CHUNKS", "CURRENT", "FORMAT_VERSION", "MANIFEST", "SNAPSHOTS", "VECTORS", "HnswParams"]
#: Fault-injection seam for the crash tests: called with the name of each durable step.
checkpoint: Callable[[str], None] = lambda step: None  # noqa: E731


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _rebuild_hint() -> str:
    return msg(
        "{do} to re-index every source into a fresh snapshot.", do=run(Operation.STORE_REBUILD)
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


def load_hnsw(path: Path, dim: int, params: HnswParams) -> tuple[Any, HnswFileInfo]:
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
                self._index, info = load_hnsw(snap.library_path(VECTORS), dim, manifest.hnsw)
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
            return remove_leftovers_in(store, pointer[0] if pointer else None)
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


def remove_leftovers_in(
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
