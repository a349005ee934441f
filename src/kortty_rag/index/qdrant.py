"""The Qdrant store type (docs/DESIGN.md §10): the same ``VectorStore`` interface on an existing Qdrant service.

**Transactional per-source updates.** Every chunk point carries its source and a *generation*; a
single manifest point per source names the committed generation and holds the source's document
table (what ``documents()`` and the sync's hash comparison read). An update writes each touched
source's new generation completely — new documents embedded, unchanged documents' points read
back with their stored vectors and written again, never re-embedded — and then commits by upserting the touched
sources' manifests together with the store marker (whose ``sequence`` is ``version()``) in one
request. Readers filter on the committed generation of each wanted source, so a source is served
entirely old or entirely new. A failed, cancelled or crashed update leaves its half-written
generation invisible; old and stale generations are deleted after the commit and, should that
fail, at the start of the next update (see :mod:`kortty_rag.index.qdrant_layout`).

The price of per-source atomicity is that touching a source rewrites its points (a copy inside the
server, no embedding); very large folders are cheaper to refresh as several sources.

**Lexical part.** Hybrid ranking needs BM25 over the same chunks. It lives in the same points, as a
sparse vector with Qdrant's IDF modifier (:mod:`kortty_rag.index.sparse`), rather than in a local
index next to the definition: the two parts are then consistent by construction (written,
committed and deleted together, under the same generation filter), other machines using the same
collection get the lexical part too, and no local state has to be rebuilt after a restore
(docs/DESIGN.md §14: Qdrant data stays with the Qdrant deployment). The trade-offs — Qdrant's IDF over the whole
collection, a fixed length normalisation — are described in that module.

A store's updates are serialised by its store lock (one job per store); two machines must not
update the same store definition at the same time.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Collection
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from qdrant_client import QdrantClient, models

from kortty_rag.errors import ConfigError, IncompatibleIndexError, RemoteStoreError
from kortty_rag.index import qdrant_connection, sparse
from kortty_rag.index.analysis import Analyzer, analyzer, detect_language, parse_key
from kortty_rag.index.base import StoreUpdate, VectorStore
from kortty_rag.index.bm25 import AUTO
from kortty_rag.index.chunkdb import NoteReport
from kortty_rag.index.qdrant_connection import QdrantConnection
from kortty_rag.index.qdrant_layout import (
    DENSE,
    KIND_CHUNK,
    KIND_MANIFEST,
    LEXICAL,
    SourceManifest,
    StoreMarker,
    chunk_from_payload,
    garbage_filter,
    identity_key,
    kind_filter,
    label_of,
    served_filter,
    sources_filter,
    store_point_id,
)
from kortty_rag.index.qdrant_update import QdrantUpdate
from kortty_rag.messages import msg
from kortty_rag.models import Document, EmbeddingIdentity, Hit, LinkedChunk, Store
from kortty_rag.remedies import Operation, place, run

log = logging.getLogger(__name__)
_MANIFEST_FIELDS = ["store_id", "source_id", "generation", "sequence", "embedding_key"]


class QdrantStore:
    """A store's points in a Qdrant collection, served by committed generation."""

    def __init__(
        self,
        connection: QdrantConnection,
        store_id: str,
        identity: EmbeddingIdentity,
        *,
        ignore_active: bool = False,
        language: str = AUTO,
    ) -> None:
        self.connection = connection
        self.store_id = store_id
        self.identity = identity
        self.language = language
        self.key = identity_key(identity)
        self.avgdl = sparse.average_length(identity.chunk_tokens)
        #: a rebuild neither reads nor serves what is there until its own commit (like LocalStore)
        self.ignore_active = ignore_active
        #: BM25's IDF over this store's served chunks; servers without IDF corpus filters answer
        #: 4xx to that, and then the collection-wide IDF is used
        self.scoped_idf = True
        self.collection_info = connection.ensure_collection(identity.dimensions)
        marker = None if ignore_active else self.marker()
        #: the analyzer of the served points' sparse vectors; ``None`` until the first document of a
        #: new store with language ``auto`` is added (its text decides)
        self.words: Analyzer | None = self._analyzer(marker)
        if marker is not None and marker.embedding.differences(identity):
            raise IncompatibleIndexError(
                msg(
                    "The Qdrant points of this store were built with another embedding "
                    "configuration (model {model}; differs in {differences})",
                    model=marker.embedding.model_id,
                    differences=", ".join(marker.embedding.differences(identity)),
                ),
                hint=msg("{do} to re-index every source.", do=run(Operation.STORE_REBUILD)),
            )

    def _analyzer(self, marker: StoreMarker | None) -> Analyzer | None:
        if marker is not None:
            if marker.lexical is None:
                return analyzer("en")  # points from before analyzers were recorded
            language = parse_key(marker.lexical) if marker.lexical else None
            if language is not None:
                return analyzer(language)
        return None if self.language == AUTO else analyzer(self.language)

    def analyzer_for(self, texts: list[str]) -> Analyzer:
        """The analyzer for new points: the served one, else the configured or detected one."""
        if self.words is None:
            language = self.language if self.language != AUTO else detect_language(texts)
            self.words = analyzer(language)
        return self.words

    @property
    def collection(self) -> str:
        return self.connection.collection

    # -- reading ------------------------------------------------------------------------------------

    def marker(self) -> StoreMarker | None:
        found = self.connection.call(
            msg("read the store's version"),
            lambda c: c.retrieve(self.collection, [store_point_id(self.store_id)]),
        )
        return StoreMarker.from_payload(found[0].payload or {}) if found else None

    def raw_manifests(self) -> dict[str, SourceManifest]:
        """Every committed manifest of this store, whatever its embedding configuration."""
        records = self.connection.scroll(
            msg("read the source manifests"), kind_filter(self.store_id, KIND_MANIFEST), page=64
        )
        manifests = (SourceManifest.from_payload(dict(r.payload or {})) for r in records)
        return {m.source_id: m for m in manifests}

    def manifests(self) -> dict[str, SourceManifest]:
        """The manifests this store serves (its own embedding configuration only)."""
        if self.ignore_active:
            return {}
        raw = self.raw_manifests()
        return {sid: m for sid, m in raw.items() if m.embedding_key == self.key}

    def served_tags(self) -> dict[str, str]:
        """source id → committed ``source@generation`` tag, for every source this store serves
        (one small request: the manifests without their document tables)."""
        if self.ignore_active:
            return {}
        records = self.connection.scroll(
            msg("read the source manifests"),
            kind_filter(self.store_id, KIND_MANIFEST),
            page=256,
            with_payload=_MANIFEST_FIELDS,
        )
        manifests = (
            SourceManifest.from_payload(dict(r.payload or {}) | {"documents": []}) for r in records
        )
        return {m.source_id: m.sg for m in manifests if m.embedding_key == self.key}

    def version(self) -> int:
        if self.ignore_active:
            return 0
        marker = self.marker()
        return marker.sequence if marker else 0

    def documents(self) -> list[Document]:
        docs = [d for m in self.manifests().values() for d in m.documents]
        return sorted(docs, key=lambda d: (d.source_id, d.rel_path))

    def calibration(self) -> tuple[float, ...]:
        """None kept: retrieval computes a Qdrant store's calibration once per version
        (:mod:`kortty_rag.retrieval.calibrated`, docs/DESIGN.md §11)."""
        return ()

    def search(self, vector: np.ndarray, k: int, source_ids: Collection[str]) -> list[Hit]:
        query = np.asarray(vector, dtype=np.float32).reshape(-1).tolist()
        return self._query(msg("search the dense vectors"), query, DENSE, k, source_ids)

    def lexical_search(self, query: str, k: int, source_ids: Collection[str]) -> list[Hit]:
        words = self.words
        terms = None if words is None else sparse.query_vector(query, words)
        if words is None or terms is None:
            return []
        vector = models.SparseVector(indices=terms[0], values=terms[1])
        hits = self._query(msg("search the lexical index"), vector, LEXICAL, k, source_ids)
        return [
            Hit(h.label, h.chunk, h.score, sparse.coverage(query, h.chunk.embedded_text(), words))
            for h in hits
        ]

    def text_language(self) -> str | None:
        words = self.words
        return None if words is None else words.language

    def linked(self, labels: Collection[int], source_ids: Collection[str]) -> list[LinkedChunk]:
        """A Qdrant store keeps no link graph (docs/DESIGN.md §10)."""
        return []

    def note_report(self, limit: int) -> NoteReport | None:
        return None

    def similarities(self, vector: np.ndarray, labels: Collection[int]) -> dict[int, float]:
        """Read from the points' stored vectors (normalised by Qdrant's cosine distance)."""
        if not labels or self.ignore_active:
            return {}
        ids = [str(uuid.UUID(int=label)) for label in labels]

        def request(c: QdrantClient) -> list[models.Record]:
            return c.retrieve(self.collection, ids=ids, with_payload=False, with_vectors=[DENSE])

        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(query)) or 1.0
        try:
            records = self.connection.call(msg("read the dense vectors"), request)
        except RemoteStoreError as exc:  # an addition to ranking: both searches already succeeded
            log.warning(
                "%s: similarities of lexical matches not read: %s",
                self.connection.where,
                exc.message,
            )
            return {}
        found: dict[int, float] = {}
        for record in records:
            stored = record.vector.get(DENSE) if isinstance(record.vector, dict) else None
            if stored is not None:
                values = np.asarray(stored, dtype=np.float32)
                scale = norm * (float(np.linalg.norm(values)) or 1.0)
                found[label_of(record.id)] = float(values @ query) / scale
        return found

    def _query(
        self, what: str, query: Any, using: str, k: int, source_ids: Collection[str]
    ) -> list[Hit]:
        tags = self.served_tags() if k > 0 and source_ids else {}
        wanted = [tags[s] for s in set(source_ids) if s in tags]
        if not wanted:
            return []
        params = None
        if using == LEXICAL and self.scoped_idf:
            # BM25 statistics over this store's served chunks, all sources: the population of the
            # local store's lexical index, unaffected by other stores or not yet collected points
            corpus = served_filter(self.store_id, tags.values())
            params = models.SearchParams(idf=models.IdfCorpusParams(corpus=corpus))

        def request(c: QdrantClient) -> models.QueryResponse:
            return c.query_points(
                self.collection,
                query=query,
                using=using,
                query_filter=served_filter(self.store_id, wanted),
                search_params=params,
                limit=k,
                with_payload=True,
                with_vectors=False,
            )

        try:
            result = self.connection.call(what, request)
        except RemoteStoreError as exc:
            if params is None or exc.status not in (400, 422):
                raise
            log.info("%s: no IDF corpus scoping (older server); global IDF", self.connection.where)
            self.scoped_idf = False
            params = None
            result = self.connection.call(what, request)
        return [
            Hit(label_of(p.id), chunk_from_payload(p.payload or {}), float(p.score))
            for p in result.points
        ]

    # -- writing ------------------------------------------------------------------------------------

    def begin(self, *, fresh: bool = False) -> QdrantUpdate:
        raw = self.raw_manifests()
        self.collect_garbage(raw)  # what a failed or crashed update left behind
        marker = self.marker()
        return QdrantUpdate(
            self, raw, marker.sequence if marker else 0, fresh=fresh or self.ignore_active
        )

    def collect_garbage(self, committed: dict[str, SourceManifest]) -> None:
        """Delete chunk points of generations no manifest names (best effort: they are invisible)."""
        tags = [m.sg for m in committed.values()]
        try:
            self.connection.delete(
                msg("delete stale generations"), garbage_filter(self.store_id, tags)
            )
        except RemoteStoreError as exc:
            log.warning("Stale points left for the next update: %s", exc.message)

    def delete_store_points(self, source_ids: Collection[str]) -> int:
        """Remove this store's points: its sources' chunks and manifests, leftovers, the marker.

        Never the collection, and never another store's points (every filter names the store id).
        """
        count_filter = kind_filter(self.store_id, KIND_CHUNK)
        before = self.connection.call(
            msg("count the store's points"),
            lambda c: c.count(self.collection, count_filter=count_filter, exact=True).count,
        )
        if source_ids:
            self.connection.delete(
                msg("delete the sources' points"), sources_filter(self.store_id, source_ids)
            )
        self.connection.delete(msg("delete leftover points"), garbage_filter(self.store_id, []))
        self.connection.delete(
            msg("delete the store's manifests"), kind_filter(self.store_id, KIND_MANIFEST)
        )
        self.connection.delete(msg("delete the store marker"), [store_point_id(self.store_id)])
        return int(before)

    def close(self) -> None:
        self.connection.close()


@dataclass(frozen=True)
class StoreCheck:
    """What ``kortty-rag store check`` reports about a Qdrant store (never the key itself)."""

    endpoint: str
    collection: str
    server_version: str
    dimensions: int
    collection_points: int
    store_points: int
    documents: int
    version: int
    api_key: str  # "accepted" or "none stored"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check_store(store: Store) -> StoreCheck:
    """Connect, validate the collection and its dimension (creating nothing), count the points."""
    connection = connection_for(store)
    try:
        version = connection.call(msg("read the server version"), lambda c: c.info()).version
        info = connection.ensure_collection(store.embedding.dimensions, create=False)
        vectors = QdrantStore(connection, store.id, store.embedding)
        own = kind_filter(store.id, KIND_CHUNK)
        points = connection.call(
            msg("count the store's points"),
            lambda c: c.count(connection.collection, count_filter=own, exact=True).count,
        )
        return StoreCheck(
            endpoint=connection.endpoint,
            collection=connection.collection,
            server_version=str(version),
            dimensions=info.dimensions,
            collection_points=info.points,
            store_points=int(points),
            documents=len(vectors.documents()),
            version=vectors.version(),
            api_key="accepted" if connection.has_key else "none stored",
        )
    finally:
        connection.close()


def qdrant_settings(store: Store) -> tuple[str, str]:
    """The store's URL and collection (the API key is in the keyring, never in the settings)."""
    url, collection = store.options.qdrant.url, store.options.qdrant.collection
    if not url or not collection:
        raise ConfigError(
            msg(
                "Store {store!r} is a Qdrant store without a URL or collection in its settings",
                store=store.name,
            ),
            hint=msg(
                "Delete the store and create it again {how}.",
                how=place(Operation.STORE_QDRANT_SETTINGS, store=store.name),
            ),
        )
    return str(url), str(collection)


def connection_for(store: Store) -> QdrantConnection:
    """A connection to the store's Qdrant (a seam: tests substitute an embedded client here)."""
    from kortty_rag.config.secrets import read_api_key

    url, collection = qdrant_settings(store)
    return QdrantConnection.remote(
        url, collection, api_key=read_api_key(store.id), policy=qdrant_connection.DEFAULT_POLICY
    )


def open_qdrant_store(store: Store, *, ignore_active: bool = False) -> QdrantStore:
    connection = connection_for(store)
    try:
        return QdrantStore(
            connection,
            store.id,
            store.embedding,
            ignore_active=ignore_active,
            language=store.options.retrieval.language,
        )
    except BaseException:
        connection.close()
        raise


if TYPE_CHECKING:  # the protocols are structural: let mypy prove that these two satisfy them

    def _conforms(store: QdrantStore, update: QdrantUpdate) -> tuple[VectorStore, StoreUpdate]:
        return store, update
