"""One update of a Qdrant store: new generations of the touched sources, committed by manifests.

See :mod:`kortty_rag.index.qdrant` for the design. The update keeps the document table in memory,
streams new chunk points to the server in batches as documents arrive (memory stays bounded), copies
the unchanged documents' points of each touched source into its new generation at commit time, and
then switches the manifests; nothing it writes is visible before that single request.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import numpy as np
from qdrant_client import models

from kortty_rag.errors import RemoteStoreError
from kortty_rag.index import sparse
from kortty_rag.index.analysis import Analyzer
from kortty_rag.index.chunkdb import ChunkIdOf, NewChunk
from kortty_rag.index.qdrant_connection import QdrantConnection
from kortty_rag.index.qdrant_layout import (
    DENSE,
    LEXICAL,
    SourceManifest,
    StoreMarker,
    chunk_payload,
    chunk_point_id,
    generation_filter,
    manifest_point_id,
    new_generation,
    regenerated,
    served_filter,
    sg,
    store_point_id,
)
from kortty_rag.messages import msg
from kortty_rag.models import Document, EmbeddingIdentity, with_heading
from kortty_rag.notes.reader import NoteFacts
from kortty_rag.remedies import Operation, run


class UpdateTarget(Protocol):
    """What an update uses of its store (:class:`~kortty_rag.index.qdrant.QdrantStore`), named
    here so that this module does not import the store that imports it: its identity and
    connection, the lexical analyzer, and the two calls a commit makes."""

    store_id: str
    identity: EmbeddingIdentity
    #: the embedding key a manifest must carry to be served (``identity_key``)
    key: str
    connection: QdrantConnection
    avgdl: float
    words: Analyzer | None
    ignore_active: bool

    @property
    def collection(self) -> str: ...

    def analyzer_for(self, texts: list[str]) -> Analyzer: ...

    def collect_garbage(self, committed: dict[str, SourceManifest]) -> None: ...


log = logging.getLogger(__name__)
#: points per upsert request (a few hundred kB of JSON with 384-d vectors and chunk text)
BATCH = 128


def _sparse(indices: list[int], values: list[float]) -> dict[str, models.SparseVector]:
    return {LEXICAL: models.SparseVector(indices=indices, values=values)} if indices else {}


class QdrantUpdate:
    """One transaction: new generations of the touched sources, committed by their manifests."""

    def __init__(
        self,
        store: UpdateTarget,
        committed: dict[str, SourceManifest],
        sequence: int,
        *,
        fresh: bool,
    ) -> None:
        self.store = store
        self._committed = committed
        self._sequence = sequence
        visible = (
            {} if fresh else {s: m for s, m in committed.items() if m.embedding_key == store.key}
        )
        #: (source, path) → (document, generation holding its points)
        self._docs: dict[tuple[str, str], tuple[Document, str]] = {
            (d.source_id, d.rel_path): (d, m.generation)
            for m in visible.values()
            for d in m.documents
        }
        #: touched source → its new generation (a fresh update replaces every committed source)
        self._touched: dict[str, str] = {}
        for source_id in committed if fresh else ():
            self._touch(source_id)
        self._pending: list[models.PointStruct] = []
        self._state = "open"  # → "sent" (commit request sent) → "done" | "aborted"

    def _touch(self, source_id: str) -> str:
        if source_id not in self._touched:
            self._touched[source_id] = new_generation()
        return self._touched[source_id]

    def _check_open(self) -> None:
        if self._state != "open":
            raise RemoteStoreError(f"internal: update used after it was {self._state}")

    def documents(self) -> list[Document]:
        return [doc for doc, _ in self._docs.values()]

    def remove_document(self, source_id: str, rel_path: str) -> int:
        self._check_open()
        entry = self._docs.pop((source_id, rel_path), None)
        if entry is None:
            return 0
        document, generation = entry
        new = self._touch(source_id)
        if generation == new:  # written by this update: its points would be committed with it
            ids = {
                chunk_point_id(self.store.store_id, source_id, new, rel_path, n)
                for n in range(document.chunk_count)
            }
            self._pending = [p for p in self._pending if p.id not in ids]
            self.store.connection.delete(msg("delete replaced points"), sorted(ids))
        return document.chunk_count

    def remove_source(self, source_id: str) -> int:
        keys = [key for key in self._docs if key[0] == source_id]
        removed = sum(self.remove_document(*key) for key in keys)
        self._touch(source_id)
        return removed

    def calibrate(self, probes: np.ndarray) -> None:
        """A Qdrant store keeps no relevance calibration: retrieval computes it per version (see
        :meth:`QdrantStore.calibration`)."""

    def vector_for(self, sha: bytes) -> np.ndarray | None:
        """No reuse by content for a Qdrant store (docs/DESIGN.md §10): its vectors are embedded."""
        return None

    def reuse_document(
        self, document: Document, chunk_id: ChunkIdOf, moving: tuple[str, str] | None = None
    ) -> int | None:
        return None

    def add_document(
        self,
        document: Document,
        chunks: list[NewChunk],
        vectors: np.ndarray,
        note: NoteFacts | None = None,
    ) -> None:
        """Add or replace a document; its points go into the source's new generation (a Qdrant
        store keeps no link graph: ``note`` is not kept)."""
        self._check_open()
        self.remove_document(document.source_id, document.rel_path)
        generation = self._touch(document.source_id)
        document = Document(
            document.source_id,
            document.rel_path,
            document.sha256,
            document.size,
            document.format,
            len(chunks),
            document.pages,
        )
        dense = np.asarray(vectors, dtype=np.float32)
        for n, (chunk, vector) in enumerate(zip(chunks, dense, strict=True)):
            self._pending.append(  # the sparse vector is added when the batch is sent
                models.PointStruct(
                    id=chunk_point_id(
                        self.store.store_id, document.source_id, generation, document.rel_path, n
                    ),
                    vector={DENSE: vector.tolist()},
                    payload=chunk_payload(self.store.store_id, document, generation, n, chunk),
                )
            )
        self._docs[(document.source_id, document.rel_path)] = (document, generation)
        if len(self._pending) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        while self._pending:
            batch = self._pending[:BATCH]
            self._add_sparse(batch)
            self.store.connection.upsert(msg("write chunk points"), batch)
            del self._pending[:BATCH]

    def _add_sparse(self, batch: list[models.PointStruct]) -> None:
        """Give new points their BM25 sparse vectors. A new store with language ``auto`` decides its
        language here, from the first batch's text (a whole batch says more than one document)."""
        new = [p for p in batch if isinstance(p.vector, dict) and LEXICAL not in p.vector]
        if not new:
            return
        texts = [
            with_heading(str((p.payload or {}).get("heading", "")), str((p.payload or {})["text"]))
            for p in new
        ]
        words = self.store.analyzer_for(texts)
        for point, lexical in zip(
            new, sparse.document_vectors(texts, self.store.avgdl, words), strict=True
        ):
            assert isinstance(point.vector, dict)
            point.vector.update(_sparse(*lexical))

    def _copy_unchanged(self, source_id: str, old: str, new: str) -> None:
        """Copy the points of documents that stay unchanged from generation ``old`` to ``new``."""
        keep = {
            path: doc
            for (sid, path), (doc, gen) in self._docs.items()
            if sid == source_id and gen == old
        }
        if not keep:
            return
        copied: dict[str, int] = {}
        store = self.store
        for record in store.connection.scroll(
            msg("copy unchanged points"),
            generation_filter(store.store_id, source_id, old),
            page=BATCH,
            with_vectors=True,
        ):
            payload = dict(record.payload or {})
            path = str(payload.get("rel_path"))
            if path not in keep:
                continue
            copied[path] = copied.get(path, 0) + 1
            vector: dict[str, Any] = dict(record.vector) if isinstance(record.vector, dict) else {}
            self._pending.append(
                models.PointStruct(
                    id=chunk_point_id(store.store_id, source_id, new, path, int(payload["n"])),
                    vector=vector,
                    payload=regenerated(payload, new),
                )
            )
            if len(self._pending) >= BATCH:
                self._flush()
        broken = [p for p, doc in keep.items() if copied.get(p, 0) != doc.chunk_count]
        if broken:
            raise RemoteStoreError(
                msg(
                    "{where}: the served points of {count} documents are incomplete (e.g. "
                    "{example!r}); the previous state is still served",
                    where=store.connection.where,
                    count=len(broken),
                    example=broken[0],
                ),
                endpoint=store.connection.endpoint,
                hint=msg(
                    "{do} to re-index every source.",
                    do=run(Operation.STORE_REBUILD),
                ),
            )
        for path, doc in keep.items():
            self._docs[(source_id, path)] = (doc, new)

    def commit(self) -> None:
        """Write the new generations, then switch the touched sources' manifests in one request."""
        self._check_open()
        if not self._touched:  # nothing changed: serve the same state, same version
            self._state = "done"
            return
        store = self.store
        self._flush()
        for source_id, generation in self._touched.items():
            old = self._committed.get(source_id)
            if old is not None and old.embedding_key == store.key:
                self._copy_unchanged(source_id, old.generation, generation)
        self._flush()
        sequence = self._sequence + 1
        manifests = {
            source_id: SourceManifest(
                store.store_id,
                source_id,
                generation,
                sequence,
                store.key,
                tuple(
                    sorted(
                        (d for (sid, _), (d, _) in self._docs.items() if sid == source_id),
                        key=lambda d: d.rel_path,
                    )
                ),
            )
            for source_id, generation in self._touched.items()
        }
        points = [
            models.PointStruct(
                id=store_point_id(store.store_id),
                vector={},
                payload=StoreMarker(
                    store.store_id,
                    sequence,
                    store.identity,
                    "" if store.words is None else store.words.key,
                ).payload(),
            )
        ] + [
            models.PointStruct(
                id=manifest_point_id(store.store_id, m.source_id), vector={}, payload=m.payload()
            )
            for m in manifests.values()
        ]
        self._state = "sent"  # from here on the outcome may be unknown: never delete our points
        store.connection.upsert(msg("commit the update"), points)
        self._state = "done"
        store.ignore_active = False
        committed = {**self._committed, **manifests}
        emptied = [sid for sid, m in manifests.items() if not m.documents]
        store.collect_garbage({s: m for s, m in committed.items() if s not in emptied})
        if emptied:  # empty manifests serve nothing: dropping them changes nothing visible
            try:
                ids = [manifest_point_id(store.store_id, s) for s in emptied]
                store.connection.delete(msg("delete empty manifests"), ids)
            except RemoteStoreError as exc:
                log.warning("Empty manifests left for later: %s", exc.message)

    def abort(self) -> None:
        """Drop the update; the committed generations stay served.

        What was written is removed with one best-effort request (invisible either way, and the
        next update collects it) — unless the commit request was sent, since then it may have
        been applied.
        """
        if self._state != "open":
            if self._state == "sent":  # the commit's outcome is unknown: keep every point
                self._state = "aborted"
            return
        self._state = "aborted"
        self._pending.clear()
        if not self._touched:
            return
        store = self.store
        tags = [sg(s, g) for s, g in self._touched.items()]
        try:
            store.connection.client.delete(
                store.collection, served_filter(store.store_id, tags), wait=True
            )
        except Exception as exc:
            log.info("Uncommitted points left for the next update (%s)", type(exc).__name__)
