"""The local store type: verified hnswlib snapshots in the store folder (docs/DESIGN.md §9)."""

from __future__ import annotations

import threading
from collections.abc import Collection
from pathlib import Path

import numpy as np

from kortty_rag.errors import SnapshotError, StoreBusyError
from kortty_rag.index.bm25 import AUTO
from kortty_rag.index.chunkdb import ChunkIdOf, NewChunk, NoteReport
from kortty_rag.index.lock import StoreLock
from kortty_rag.index.manifest import Manifest
from kortty_rag.index.snapshot import (
    FORMAT_VERSION,
    Snapshot,
    open_snapshot,
    read_pointer,
    remove_leftovers,
    verify_snapshot,
)
from kortty_rag.index.snapshot_builder import SnapshotBuilder
from kortty_rag.messages import msg
from kortty_rag.models import HEADING_SEPARATOR, Document, EmbeddingIdentity, Hit, LinkedChunk
from kortty_rag.notes.reader import NoteFacts
from kortty_rag.notes.resolve import fold

#: links followed per note and direction (the first ones written; backlinks by path)
LINKS_PER_NOTE = 8


class LocalUpdate:
    """An update of a local store: a :class:`SnapshotBuilder` until it is committed or aborted,
    then nothing — a job that goes on with a next update (a long index publishing parts) does not
    keep the previous one's graph and tables in memory beside the next one's."""

    def __init__(self, builder: SnapshotBuilder, on_commit: threading.Event) -> None:
        self._open: SnapshotBuilder | None = builder
        self._on_commit = on_commit

    @property
    def _builder(self) -> SnapshotBuilder:
        if self._open is None:
            raise SnapshotError("internal: this update was already committed or aborted")
        return self._open

    @property
    def changed(self) -> bool:
        """Whether committing would activate a new snapshot."""
        return self._builder.changed

    def documents(self) -> list[Document]:
        return self._builder.documents()

    def remove_document(self, source_id: str, rel_path: str) -> int:
        return self._builder.remove_document(source_id, rel_path)

    def remove_source(self, source_id: str) -> int:
        return self._builder.remove_source(source_id)

    def add_document(
        self,
        document: Document,
        chunks: list[NewChunk],
        vectors: np.ndarray,
        note: NoteFacts | None = None,
    ) -> None:
        self._builder.add_document(document, chunks, vectors, note)

    def vector_for(self, sha: bytes) -> np.ndarray | None:
        return self._builder.vector_for(sha)

    def calibrate(self, probes: np.ndarray) -> None:
        self._builder.calibrate(probes)

    def reuse_document(
        self, document: Document, chunk_id: ChunkIdOf, moving: tuple[str, str] | None = None
    ) -> int | None:
        return self._builder.reuse_document(document, chunk_id, moving)

    def commit(self) -> None:
        builder, self._open = self._builder, None
        if not builder.changed:  # nothing to activate: keep serving the same snapshot
            builder.abort()
            return
        builder.commit()
        self._on_commit.set()

    def abort(self) -> None:
        builder, self._open = self._open, None
        if builder is not None:
            builder.abort()


class LocalStore:
    """Serves the active snapshot and follows ``CURRENT`` when another job activates a new one."""

    def __init__(
        self,
        folder: Path,
        identity: EmbeddingIdentity,
        *,
        clean: bool = True,
        ignore_active: bool = False,
        language: str = AUTO,
    ) -> None:
        self.folder = folder
        self.identity = identity
        #: the lexical index's language setting (``auto``: detected once from the text)
        self.language = language
        self.ignore_active = ignore_active
        self._lock = threading.RLock()
        self._snapshot: Snapshot | None = None
        self._pointer: tuple[str, str] | None = None
        self._changed = threading.Event()
        self._allowed_cache: tuple[frozenset[str], set[int]] | None = None
        if clean:
            self.clean_leftovers()
        self._refresh()

    def clean_leftovers(self) -> list[str]:
        """Remove temporary leftovers of interrupted jobs, if no job is running right now."""
        try:
            with StoreLock(self.folder, purpose=msg("cleanup")):
                return remove_leftovers(self.folder)
        except StoreBusyError:
            return []

    def _refresh(self) -> Snapshot | None:
        if self.ignore_active and not self._changed.is_set() and self._snapshot is None:
            return None
        with self._lock:
            pointer = read_pointer(self.folder)
            if pointer != self._pointer or self._changed.is_set():
                self._changed.clear()
                old = self._snapshot
                self._snapshot = open_snapshot(self.folder, self.identity)
                self._pointer = read_pointer(self.folder) if self._snapshot else pointer
                self._allowed_cache = None
                if old is not None:
                    old.close()
                if self._snapshot is not None and (
                    self._snapshot.manifest.format < FORMAT_VERSION
                    or not self._snapshot.lexical_current
                ):
                    self._migrate()
            return self._snapshot

    def _migrate(self) -> None:
        """Promote an older snapshot format (or a lexical index made by an older analyzer) to the
        current one — same documents and vectors, the chunk texts analysed again, nothing
        re-embedded — atomically; if a job holds the store, serve the old one as is."""
        snapshot = self._snapshot
        assert snapshot is not None
        try:
            with StoreLock(self.folder, purpose=msg("format migration")):
                builder = SnapshotBuilder(
                    self.folder, self.identity, base=snapshot.manifest, language=self.language
                )
                if builder.changed:
                    builder.commit()
                else:
                    builder.abort()
        except StoreBusyError:
            return
        snapshot.close()
        self._snapshot = open_snapshot(self.folder, self.identity)
        self._pointer = read_pointer(self.folder)

    @property
    def snapshot(self) -> Snapshot | None:
        return self._refresh()

    def version(self) -> int:
        snap = self._refresh()
        return snap.manifest.sequence if snap else 0

    def documents(self) -> list[Document]:
        snap = self._refresh()
        return snap.documents() if snap else []

    def calibration(self) -> tuple[float, ...]:
        snap = self._refresh()
        return snap.manifest.calibration if snap else ()

    def begin(self, *, fresh: bool = False, keep: str | None = None) -> LocalUpdate:
        """An update of the active snapshot; ``fresh`` (or a store opened with ``ignore_active``,
        as a rebuild does): from empty, reusing the active snapshot's vectors by content when it was
        made by the same model. ``keep``: a snapshot its activation leaves in place."""
        snap = self._refresh()
        if snap is not None and not fresh:
            builder = SnapshotBuilder(
                self.folder, self.identity, base=snap.manifest, language=self.language, keep=keep
            )
        else:
            reuse = self._reusable_base()
            builder = SnapshotBuilder(
                self.folder,
                self.identity,
                base=reuse or (snap.manifest if snap else None),
                fresh=True,
                reuse_from=reuse,
                language=self.language,
                keep=keep,
            )
        return LocalUpdate(builder, self._changed)

    def release(self) -> None:
        """Close the snapshot held open for serving; it is opened again when next asked for. A job
        that publishes parts calls this after each, so it does not hold the part's graph and
        lexical index in memory beside the snapshot it builds."""
        with self._lock:
            if self._snapshot is not None:
                self._snapshot.close()
                self._snapshot = None
                self._pointer = None
                self._allowed_cache = None

    def _reusable_base(self) -> Manifest | None:
        """For a fresh build: the active snapshot, verified, if it was made by this same model — its
        vectors are reused for every chunk text it has (a rebuild that changes no model embeds only
        what is new). A damaged or incompatible one is simply not used."""
        try:
            pointer = read_pointer(self.folder)
            manifest = None if pointer is None else verify_snapshot(self.folder, *pointer)
        except SnapshotError:
            return None
        if manifest is None or manifest.embedding.differences(self.identity):
            return None
        return manifest

    def search(self, vector: np.ndarray, k: int, source_ids: Collection[str]) -> list[Hit]:
        with self._lock:
            snap = self._refresh()
            if snap is None or not source_ids:
                return []
            wanted = frozenset(source_ids)
            if self._allowed_cache is None or self._allowed_cache[0] != wanted:
                self._allowed_cache = (wanted, snap.chunks.labels_of_sources(wanted))
            allowed = self._allowed_cache[1]
            all_sources = len(allowed) == snap.size
            found = snap.search(vector, k, None if all_sources else allowed)
            return self._hits(snap, found)

    def lexical_search(self, query: str, k: int, source_ids: Collection[str]) -> list[Hit]:
        with self._lock:
            snap = self._refresh()
            if snap is None or not source_ids:
                return []
            found = snap.lexical(query, k, set(source_ids))
            chunks = snap.chunk_map(label for label, _, _ in found)
            return [
                Hit(label, chunks[label], score, coverage)
                for label, score, coverage in found
                if label in chunks
            ]

    def text_language(self) -> str | None:
        with self._lock:
            snap = self._refresh()
            return None if snap is None else snap.lexical_language

    def similarities(self, vector: np.ndarray, labels: Collection[int]) -> dict[int, float]:
        with self._lock:
            snap = self._refresh()
            if snap is None or not labels:
                return {}
            return snap.similarities(vector, labels)

    def linked(self, labels: Collection[int], source_ids: Collection[str]) -> list[LinkedChunk]:
        with self._lock:
            snap = self._refresh()
            if snap is None or not labels or not source_ids:
                return []
            found = snap.linked(labels, LINKS_PER_NOTE)
            chunks = snap.chunk_map(
                label for labels_of in found.chunks.values() for label, _ in labels_of
            )
        allowed = set(source_ids)
        result: list[LinkedChunk] = []
        for seed, document in sorted(found.document_of.items()):
            for link in found.links:
                outgoing = link.from_document == document
                if not outgoing and link.to_document != document:
                    continue
                other = link.to_document if outgoing else link.from_document
                anchor = fold(link.anchor.lstrip("^")) if outgoing else ""
                for label, heading in found.chunks.get(other, []):
                    chunk = chunks.get(label)
                    if chunk is None or chunk.source_id not in allowed:
                        continue
                    parts = [fold(p) for p in heading.split(HEADING_SEPARATOR)] if heading else []
                    result.append(
                        LinkedChunk(
                            seed,
                            label,
                            chunk,
                            outgoing,
                            found.titles.get(document, ""),
                            bool(anchor) and anchor in parts,
                        )
                    )
        return result

    def note_report(self, limit: int) -> NoteReport | None:
        with self._lock:
            snap = self._refresh()
            return (
                NoteReport(0, 0, 0, [], 0, []) if snap is None else snap.chunks.note_report(limit)
            )

    @staticmethod
    def _hits(snap: Snapshot, found: list[tuple[int, float]]) -> list[Hit]:
        chunks = snap.chunk_map(label for label, _ in found)
        return [Hit(label, chunks[label], score) for label, score in found if label in chunks]

    def close(self) -> None:
        with self._lock:
            if self._snapshot is not None:
                self._snapshot.close()
                self._snapshot = None
