"""Writing the next local snapshot (docs/DESIGN.md §9): :class:`SnapshotBuilder` copies the active
one, applies a job's changes, then writes, verifies and activates the result (the layout and the
reading side are in :mod:`kortty_rag.index.snapshot`; the crash tests' fault-injection seam,
``snapshot.checkpoint``, is called at each durable step here).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

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
    open_store_folder,
    remove_snapshot_folder,
)
from kortty_rag.errors import SnapshotError
from kortty_rag.extract.formats import stale
from kortty_rag.index import snapshot
from kortty_rag.index.bm25 import AUTO
from kortty_rag.index.calibration import best_similarities
from kortty_rag.index.chunkdb import ChunkIdOf, ChunkWriter, NewChunk, write_errors
from kortty_rag.index.hnsw_file import validate_hnsw_file
from kortty_rag.index.manifest import FORMAT_VERSION, HnswParams, Manifest
from kortty_rag.index.snapshot import load_hnsw, now_iso, read_pointer, remove_leftovers_in
from kortty_rag.index.snapshot_transfer import pointer_bytes
from kortty_rag.index.vector_pool import ContentMatch, VectorPool, text_sha
from kortty_rag.messages import msg
from kortty_rag.models import Document, EmbeddingIdentity
from kortty_rag.notes.reader import NoteFacts
from kortty_rag.notes.resolve import NOTE_FORMATS

#: Compact the graph when more than this share of its elements are deleted.
COMPACT_RATIO = 0.25


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
                index, _ = load_hnsw(base.library_path(VECTORS), identity.dimensions, params)
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


def _not_started(exc: OSError) -> SnapshotError:
    """A new snapshot could not be started (its folders or files): the active one serves on."""
    return SnapshotError(
        msg(
            "Could not start a new snapshot ({reason}); the store still answers from its last completed index",
            reason=exc.strerror or str(exc),
        ),
        hint=msg("Free disk space (or fix the I/O error) and run the job again."),
    )


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
                    self.index, _ = load_hnsw(
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
                raise _not_started(exc) from exc
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
                raise _not_started(exc) from exc
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
                self.db.pool.retire(document, chunks, self._items(labels), now_iso())

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
            self.db.move_document(entry[0], moved, now_iso(), chunk_id)
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
        doc_id = self.db.add_document(document, now_iso(), labelled, note)
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
                    "Could not write the new snapshot ({reason}); the store still answers "
                    "from its last completed index",
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
        snapshot.checkpoint("commit-started")
        build = self._build
        vectors = build.library_path(VECTORS)
        self.index.save_index(str(vectors))
        if build.size(VECTORS) != self.index.index_file_size():
            raise SnapshotError(
                msg(
                    "The vector index was not written completely (the disk may be full); the "
                    "store still answers from its last completed index"
                ),
                hint=msg("Free disk space and run the refresh again."),
            )
        snapshot.checkpoint("vectors-saved")
        fd = build.open_file(LEXICAL, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        with os.fdopen(fd, "wb") as handle:
            self.db.write_lexical(handle)
        self.db.finish(vacuum=self._compact)
        snapshot.checkpoint("files-written")
        build.fsync_file(VECTORS)
        snapshot.checkpoint("vectors-synced")
        build.fsync_file(CHUNKS)
        snapshot.checkpoint("chunks-synced")
        build.fsync_file(LEXICAL)
        snapshot.checkpoint("files-synced")
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
            now_iso(),
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
            snapshot.checkpoint("manifest-data-written")
            os.fsync(handle.fileno())
        snapshot.checkpoint("manifest-synced")
        build.fsync()
        snapshot.checkpoint("manifest-written")
        self._snapshots.rename(self._tmp_name, name)
        self._tmp_name, self.tmp = name, self.folder / SNAPSHOTS / name
        snapshot.checkpoint("snapshot-folder-renamed")
        self._snapshots.fsync()
        snapshot.checkpoint("snapshot-renamed")
        self._switch_pointer(name, pointer_bytes(name, hashlib.sha256(raw).hexdigest()))
        snapshot.checkpoint("pointer-switched")
        with contextlib.suppress(OSError):  # the new snapshot is active; cleanup is retried on open
            remove_leftovers_in(self._store, name, self.keep)
        snapshot.checkpoint("old-removed")
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
        # the graph goes now, whoever still refers to the builder: a long index in parts starts the
        # next part at once, and a gc.collect() on the job's thread would hold the GIL for the
        # whole heap and stop the app's window meanwhile
        self.index = None
        for folder in (self._build, self._snapshots, self._store):
            folder.close()
