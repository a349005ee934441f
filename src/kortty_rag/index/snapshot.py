"""The local snapshot (SPEC §9): a self-describing folder activated by the atomic rename of a pointer.

Layout of a store folder::

    CURRENT                      {"snapshot": "snap-00000003-1a2b3c4d", "manifest_sha256": ...}
    snapshots/snap-…/            manifest.json, vectors.hnsw (hnswlib), chunks.sqlite (text, metadata)
    snapshots/.kortty-tmp-snap-… a snapshot being built (removed on the next open if it is left over)

A new snapshot is built in a temporary folder, every file is flushed and read back (size, SHA-256, the
structural check of the hnswlib file), the manifest records the checksums, the folder is renamed into
place and only then does ``CURRENT`` switch, by ``rename``. A crash at any point leaves ``CURRENT``
naming a complete, verified snapshot: the old one or the new one. Opening verifies the checksums before
hnswlib reads a byte.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from kortty_rag.config.atomic import TEMP_MARKER, fsync_dir, fsync_file, sha256_file, write_atomic
from kortty_rag.errors import IncompatibleIndexError, SnapshotError
from kortty_rag.index.chunkdb import ChunkReader, ChunkWriter, NewChunk
from kortty_rag.index.hnsw_file import HnswFileInfo, validate_hnsw_file
from kortty_rag.models import Chunk, Document, EmbeddingIdentity

#: 1: vectors + chunk table; 2: adds the lexical (BM25) index. Older formats are migrated on open.
FORMAT_VERSION = 2
PRODUCT = "kortty-rag"
CURRENT = "CURRENT"
SNAPSHOTS = "snapshots"
MANIFEST = "manifest.json"
VECTORS = "vectors.hnsw"
CHUNKS = "chunks.sqlite"
_SNAPSHOT_NAME = re.compile(r"^snap-\d{8}-[0-9a-f]{8}$")
_BUILD_PREFIX = f"{TEMP_MARKER}snap-"
#: Compact the graph when more than this share of its elements are deleted.
COMPACT_RATIO = 0.25

#: Fault-injection seam for the crash tests: called with the name of each durable step.
checkpoint: Callable[[str], None] = lambda step: None  # noqa: E731


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _rebuild_hint() -> str:
    return "Run `kortty-rag store rebuild STORE` to re-index every source into a fresh snapshot."


@dataclass(frozen=True)
class HnswParams:
    """Internal graph parameters (SPEC §3: no tuning in normal use)."""

    # measured (benchmarks/query_latency.py): M=32 with ef=512 gives recall@10 >= 0.99 against exact
    # search on clustered 384-d data at a few ms per query; M=16/ef=128 gave only 0.95
    m: int = 32
    ef_construction: int = 200
    ef_search: int = 512

    def to_json(self) -> dict[str, int]:
        return {"m": self.m, "ef_construction": self.ef_construction, "ef_search": self.ef_search}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HnswParams:
        return cls(int(data["m"]), int(data["ef_construction"]), int(data["ef_search"]))


@dataclass(frozen=True)
class Manifest:
    format: int
    name: str
    sequence: int
    created_at: str
    embedding: EmbeddingIdentity
    hnsw: HnswParams
    chunks: int
    documents: int
    files: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "product": PRODUCT,
            "format": self.format,
            "name": self.name,
            "sequence": self.sequence,
            "created_at": self.created_at,
            "embedding": self.embedding.to_json(),
            "hnsw": self.hnsw.to_json(),
            "chunks": self.chunks,
            "documents": self.documents,
            "files": self.files,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        return cls(
            format=int(data["format"]),
            name=str(data["name"]),
            sequence=int(data["sequence"]),
            created_at=str(data["created_at"]),
            embedding=EmbeddingIdentity.from_json(data["embedding"]),
            hnsw=HnswParams.from_json(data["hnsw"]),
            chunks=int(data["chunks"]),
            documents=int(data["documents"]),
            files={str(k): dict(v) for k, v in data["files"].items()},
        )


# -- reading --------------------------------------------------------------------------------------


def read_pointer(folder: Path) -> tuple[str, str] | None:
    """``(snapshot name, manifest sha256)`` from ``CURRENT``, or ``None`` for a store never indexed."""
    try:
        raw = (folder / CURRENT).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SnapshotError(f"Cannot read {folder / CURRENT}: {exc.strerror}") from exc
    try:
        data = json.loads(raw)
        name, digest = str(data["snapshot"]), str(data["manifest_sha256"])
    except (ValueError, KeyError, TypeError):
        raise SnapshotError(
            f"The snapshot pointer {folder / CURRENT} is damaged", hint=_rebuild_hint()
        ) from None
    if data.get("product") != PRODUCT or not _SNAPSHOT_NAME.match(name):
        raise SnapshotError(f"{folder / CURRENT} is not a kortty-rag snapshot pointer")
    return name, digest


def verify_snapshot(folder: Path, name: str, manifest_sha256: str) -> Manifest:
    """Check the manifest and every file it lists (size, SHA-256, hnswlib layout)."""
    snap = folder / SNAPSHOTS / name
    try:
        raw = (snap / MANIFEST).read_bytes()
    except OSError as exc:
        raise SnapshotError(
            f"Snapshot {name} has no readable manifest ({exc.strerror})", hint=_rebuild_hint()
        ) from exc
    if hashlib.sha256(raw).hexdigest() != manifest_sha256:
        raise SnapshotError(
            f"The manifest of snapshot {name} is damaged (checksum mismatch)", hint=_rebuild_hint()
        )
    try:
        data = json.loads(raw)
        if data.get("product") != PRODUCT:
            raise ValueError("foreign manifest")
        manifest = Manifest.from_json(data)
    except (ValueError, KeyError, TypeError) as exc:
        raise SnapshotError(f"The manifest of snapshot {name} is unreadable ({exc})") from None
    if manifest.name != name:  # the loader reads the folder the manifest names: it must be this one
        raise SnapshotError(
            f"The manifest in snapshot {name} belongs to snapshot {manifest.name}",
            hint=_rebuild_hint(),
        )
    if manifest.format > FORMAT_VERSION:
        raise SnapshotError(
            f"Snapshot {name} was written by a newer kortty-rag (format {manifest.format})",
            hint="Upgrade kortty-rag to open this store.",
        )
    if set(manifest.files) != {VECTORS, CHUNKS}:
        raise SnapshotError(f"The manifest of snapshot {name} lists unexpected files")
    for file_name, entry in manifest.files.items():
        path = snap / file_name
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise SnapshotError(
                f"Snapshot file {name}/{file_name} is missing", hint=_rebuild_hint()
            ) from exc
        if size != int(entry["size"]):
            raise SnapshotError(
                f"Snapshot file {name}/{file_name} has {size} bytes, expected {entry['size']} "
                "(truncated or replaced)",
                hint=_rebuild_hint(),
            )
        if sha256_file(path) != entry["sha256"]:
            raise SnapshotError(
                f"Snapshot file {name}/{file_name} is corrupted (checksum mismatch)",
                hint=_rebuild_hint(),
            )
    validate_hnsw_file(snap / VECTORS, manifest.embedding.dimensions)
    return manifest


def check_identity(manifest: Manifest, identity: EmbeddingIdentity) -> None:
    differences = manifest.embedding.differences(identity)
    if differences:
        raise IncompatibleIndexError(
            f"The snapshot was built with another embedding configuration "
            f"(model {manifest.embedding.model_id}; differs in {', '.join(differences)})",
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
        self._index, info = _load_hnsw(self.path / VECTORS, dim, manifest.hnsw)
        self.chunks = ChunkReader(self.path / CHUNKS)
        self._lock = threading.Lock()
        live = info.count - info.deleted
        if self.chunks.count() != manifest.chunks or live != manifest.chunks:
            self.close()
            raise SnapshotError(
                f"Snapshot {manifest.name} is inconsistent (chunk counts differ)",
                hint=_rebuild_hint(),
            )

    def close(self) -> None:
        self.chunks.close()

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
    ) -> list[tuple[int, float]]:
        """Labels and BM25 scores of the ``k`` best lexical matches."""
        return self.chunks.lexical(query, k, source_ids)

    def vectors(self, labels: list[int]) -> np.ndarray:
        with self._lock:
            return np.asarray(self._index.get_items(labels), dtype=np.float32)

    def chunk_map(self, labels: Iterable[int]) -> dict[int, Chunk]:
        return self.chunks.chunks(labels)


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

    Call only while holding the store lock: a running build lives in one of these folders.
    """
    removed: list[str] = []
    try:
        pointer = read_pointer(folder)
    except SnapshotError:
        return removed  # do not delete anything while the pointer itself is unreadable
    active = pointer[0] if pointer else None
    snapshots = folder / SNAPSHOTS
    if snapshots.is_dir():
        for entry in snapshots.iterdir():
            ours = entry.name.startswith(_BUILD_PREFIX) or _SNAPSHOT_NAME.match(entry.name)
            if ours and entry.name != active and entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
                removed.append(entry.name)
                checkpoint("leftover-removed")
    for entry in folder.iterdir() if folder.is_dir() else ():
        if entry.name.startswith(TEMP_MARKER) and entry.is_file():
            with contextlib.suppress(OSError):  # best effort: the next open tries again
                entry.unlink()
                removed.append(entry.name)
                checkpoint("leftover-removed")
    return removed


# -- writing --------------------------------------------------------------------------------------


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
    ) -> None:
        import hnswlib

        self.folder = folder
        self.identity = identity
        self.params = params or (base.hnsw if base else HnswParams())
        self.sequence = (base.sequence + 1) if base else 1
        self.tmp = folder / SNAPSHOTS / f"{_BUILD_PREFIX}{secrets.token_hex(4)}"
        try:
            self.tmp.mkdir(parents=True)
        except OSError as exc:
            raise SnapshotError(
                f"Could not start a new snapshot ({exc.strerror or exc}); the previous snapshot is "
                "still active",
                hint="Free disk space (or fix the I/O error) and run the job again.",
            ) from exc
        self._closed = False
        self._compact = False
        #: whether anything was added or removed (an unchanged update activates nothing)
        self.changed = False
        try:
            if base is not None and not fresh:
                base_dir = folder / SNAPSHOTS / base.name
                shutil.copyfile(base_dir / CHUNKS, self.tmp / CHUNKS)
                self.index, _ = _load_hnsw(base_dir / VECTORS, identity.dimensions, self.params)
            else:
                self.index = hnswlib.Index(space="cosine", dim=identity.dimensions)
                self.index.init_index(
                    max_elements=1024,
                    M=self.params.m,
                    ef_construction=self.params.ef_construction,
                    allow_replace_deleted=True,
                )
            self.db = ChunkWriter(self.tmp / CHUNKS)
            self.changed = self.db.lexical_rebuilt and base is not None  # a format migration
            self._next_label = self.db.next_label()
            self._docs = {(d.source_id, d.rel_path): (i, d) for i, d in self.db.documents()}
        except BaseException as exc:
            self._discard()
            if isinstance(exc, OSError):
                raise SnapshotError(
                    f"Could not start a new snapshot ({exc.strerror or exc}); the previous snapshot "
                    "is still active",
                    hint="Free disk space (or fix the I/O error) and run the job again.",
                ) from exc
            raise

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
        labels = self.db.remove_document(entry[0])
        for label in labels:
            self.index.mark_deleted(label)
        return len(labels)

    def remove_source(self, source_id: str) -> int:
        keys = [key for key in self._docs if key[0] == source_id]
        return sum(self.remove_document(*key) for key in keys)

    def add_document(self, document: Document, chunks: list[NewChunk], vectors: np.ndarray) -> None:
        """Add a document with its chunks; ``chunks[i]`` gets ``vectors[i]`` (labels are assigned)."""
        self.remove_document(document.source_id, document.rel_path)
        self.changed = True
        labels = np.arange(self._next_label, self._next_label + len(chunks), dtype=np.uint64)
        self._next_label += len(chunks)
        labelled = [
            NewChunk(int(label), c.chunk_id, c.page, c.start, c.end, c.token_count, c.text)
            for label, c in zip(labels, chunks, strict=True)
        ]
        doc_id = self.db.add_document(document, _now(), labelled)
        if len(chunks):
            needed = self.index.element_count + len(chunks)
            if needed > self.index.get_max_elements():
                try:
                    self.index.resize_index(
                        max(needed, int(self.index.get_max_elements() * 1.5) + 1024)
                    )
                except (MemoryError, RuntimeError) as exc:
                    raise SnapshotError(f"Could not grow the vector index: {exc}") from exc
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
                f"Could not write the new snapshot ({exc.strerror or exc}); the previous snapshot "
                "is still active",
                hint="Free disk space and run the refresh again.",
            ) from exc
        finally:
            self._discard()

    def _commit(self) -> Manifest:
        live = self.db.live_labels()
        self._maybe_compact(live)
        checkpoint("commit-started")
        vectors = self.tmp / VECTORS
        self.index.save_index(str(vectors))
        if vectors.stat().st_size != self.index.index_file_size():
            raise SnapshotError(
                "The vector index was not written completely (the disk may be full); the previous "
                "snapshot is still active",
                hint="Free disk space and run the refresh again.",
            )
        checkpoint("vectors-saved")
        self.db.finish(vacuum=self._compact)
        checkpoint("files-written")
        fsync_file(vectors)
        checkpoint("vectors-synced")
        fsync_file(self.tmp / CHUNKS)
        checkpoint("files-synced")
        files = {
            name: {"size": (self.tmp / name).stat().st_size, "sha256": sha256_file(self.tmp / name)}
            for name in (VECTORS, CHUNKS)
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
        )
        raw = (json.dumps(manifest.to_json(), indent=2) + "\n").encode()
        with (self.tmp / MANIFEST).open("wb") as handle:
            handle.write(raw)
            handle.flush()
            checkpoint("manifest-data-written")
            os.fsync(handle.fileno())
        checkpoint("manifest-synced")
        fsync_dir(self.tmp)
        checkpoint("manifest-written")
        final = self.folder / SNAPSHOTS / name
        self.tmp.rename(final)
        self.tmp = final
        checkpoint("snapshot-folder-renamed")
        fsync_dir(self.folder / SNAPSHOTS)
        checkpoint("snapshot-renamed")
        pointer = {
            "product": PRODUCT,
            "snapshot": name,
            "manifest_sha256": hashlib.sha256(raw).hexdigest(),
        }
        self._switch_pointer(name, (json.dumps(pointer) + "\n").encode())
        checkpoint("pointer-switched")
        with contextlib.suppress(OSError):  # the new snapshot is active; cleanup is retried on open
            remove_leftovers(self.folder)
        checkpoint("old-removed")
        return manifest

    def _switch_pointer(self, name: str, pointer: bytes) -> None:
        """Point ``CURRENT`` at the new snapshot. From the moment the rename happened the new folder
        is the active snapshot and must never be discarded, even if flushing the folder fails."""
        try:
            write_atomic(self.folder / CURRENT, pointer)
        except OSError as exc:
            try:
                switched = (read_pointer(self.folder) or ("",))[0] == name
            except SnapshotError:
                switched = False
            if not switched:
                raise
            self._closed = True
            raise SnapshotError(
                f"The new snapshot {name} is active, but flushing the store folder to disk failed "
                f"({exc.strerror or exc}); a power loss now could bring back the previous snapshot",
                hint="Check the disk, then run the refresh again to make sure it is stored durably.",
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
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self.db.abort()
        shutil.rmtree(self.tmp, ignore_errors=True)
