"""How a store lives inside a Qdrant collection: point ids, payloads, manifests, filters.

Three kinds of points, every one tagged with ``store_id`` (a collection may hold several stores)::

    store     one per store: the embedding identity and the commit ``sequence`` (``version()``)
    manifest  one per source: its committed ``generation`` and its document table
    chunk     one per chunk: the dense and sparse vectors, the chunk metadata (the same fields as
              the local chunk table), ``source_id``, ``generation`` and ``sg`` = source@generation

A source's content is whatever chunk points carry the generation named by its manifest. An update
writes a *new* generation next to the served one and then switches the manifest — a single point
upsert, which Qdrant applies atomically — so readers, which filter on the committed ``sg`` values,
see either the old or the new generation of a source, never a mixture. Points of any other
generation are garbage: the previous generation after a commit, or a half-written one after a
failure or a crash; they are invisible to readers and removed by the next update.

Point ids are UUIDv5 of their content's coordinates, so re-sending a batch after a timeout or a
dropped connection overwrites the same points instead of adding duplicates.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import uuid
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from qdrant_client import models

from kortty_rag.errors import UsageError
from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.messages import msg
from kortty_rag.models import Chunk, Document, EmbeddingIdentity

#: bump when the payload layout changes incompatibly
LAYOUT_VERSION = 1
PRODUCT = "kortty-rag"
DENSE = "dense"
LEXICAL = "lexical"
KIND_STORE, KIND_MANIFEST, KIND_CHUNK = "store", "manifest", "chunk"
#: payload fields worth a keyword index on a server (filters use all of them)
INDEXED_FIELDS = ("store_id", "kind", "source_id", "sg")
_NAMESPACE = uuid.UUID("6f1b2c1e-5a34-4f8e-9d0b-3c0a3b1e7d52")
_COLLECTION = re.compile(r"^[A-Za-z0-9_-]{1,255}$")


def _point_id(*parts: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, "\0".join(parts)))


def store_point_id(store_id: str) -> str:
    return _point_id("store", store_id)


def manifest_point_id(store_id: str, source_id: str) -> str:
    return _point_id("manifest", store_id, source_id)


def chunk_point_id(store_id: str, source_id: str, generation: str, rel_path: str, n: int) -> str:
    return _point_id("chunk", store_id, source_id, generation, rel_path, str(n))


def label_of(point_id: str | int | uuid.UUID) -> int:
    """The integer that identifies a chunk point in :class:`~kortty_rag.models.Hit` (fusion key)."""
    return point_id if isinstance(point_id, int) else uuid.UUID(str(point_id)).int


def new_generation() -> str:
    return secrets.token_hex(8)


def sg(source_id: str, generation: str) -> str:
    return f"{source_id}@{generation}"


def identity_key(identity: EmbeddingIdentity) -> str:
    """A short fingerprint of everything that makes vectors comparable."""
    raw = json.dumps(identity.to_json(), sort_keys=True).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def default_collection(store_id: str) -> str:
    """The collection a store gets unless the user names one: safe characters only."""
    return "kortty_rag_" + re.sub(r"[^a-z0-9_]", "_", store_id.lower())


def validate_collection(name: str) -> str:
    name = name.strip()
    if not _COLLECTION.match(name):
        raise UsageError(
            msg("Invalid Qdrant collection name {name!r}", name=name),
            hint=msg("Use 1-255 letters, digits, '-' or '_'."),
        )
    return name


# -- payloads --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoreMarker:
    store_id: str
    sequence: int
    embedding: EmbeddingIdentity
    #: the analyzer that made the points' sparse vectors (:attr:`Analyzer.key`; ``""`` before the
    #: first document); ``None`` for points written before analyzers were recorded (FTS5's Porter
    #: tokenizer, read as English)
    lexical: str | None = None

    def payload(self) -> dict[str, Any]:
        return {
            "kind": KIND_STORE,
            "product": PRODUCT,
            "layout": LAYOUT_VERSION,
            "store_id": self.store_id,
            "sequence": self.sequence,
            "embedding": self.embedding.to_json(),
        } | ({} if self.lexical is None else {"lexical": self.lexical})

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> StoreMarker:
        lexical = data.get("lexical")
        return cls(
            str(data["store_id"]),
            int(data["sequence"]),
            EmbeddingIdentity.from_json(data["embedding"]),
            lexical if isinstance(lexical, str) else None,
        )


@dataclass(frozen=True)
class SourceManifest:
    """The committed state of one source: its generation and its documents."""

    store_id: str
    source_id: str
    generation: str
    sequence: int
    embedding_key: str
    documents: tuple[Document, ...]

    @property
    def sg(self) -> str:
        return sg(self.source_id, self.generation)

    def payload(self) -> dict[str, Any]:
        return {
            "kind": KIND_MANIFEST,
            "layout": LAYOUT_VERSION,
            "store_id": self.store_id,
            "source_id": self.source_id,
            "generation": self.generation,
            "sequence": self.sequence,
            "embedding_key": self.embedding_key,
            # compact rows: a source can hold many thousands of documents
            "documents": [
                [d.rel_path, d.sha256, d.size, d.format, d.chunk_count, d.pages]
                for d in self.documents
            ],
        }

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> SourceManifest:
        source_id = str(data["source_id"])
        return cls(
            store_id=str(data["store_id"]),
            source_id=source_id,
            generation=str(data["generation"]),
            sequence=int(data["sequence"]),
            embedding_key=str(data["embedding_key"]),
            documents=tuple(
                Document(
                    source_id, str(p), str(h), int(s), str(f), int(c), None if g is None else int(g)
                )
                for p, h, s, f, c, g in data["documents"]
            ),
        )


def chunk_payload(
    store_id: str, document: Document, generation: str, n: int, chunk: NewChunk
) -> dict[str, Any]:
    """The payload of a chunk point: the local chunk table's fields plus the generation tags."""
    return {
        "kind": KIND_CHUNK,
        "store_id": store_id,
        "source_id": document.source_id,
        "generation": generation,
        "sg": sg(document.source_id, generation),
        "rel_path": document.rel_path,
        "n": n,
        "chunk_id": chunk.chunk_id,
        "page": chunk.page,
        "start": chunk.start,
        "end": chunk.end,
        "token_count": chunk.token_count,
        "text": chunk.text,
        "heading": chunk.heading,
        "sha256": document.sha256,
    }


def chunk_from_payload(data: dict[str, Any]) -> Chunk:
    page = data.get("page")
    return Chunk(
        chunk_id=str(data["chunk_id"]),
        source_id=str(data["source_id"]),
        rel_path=str(data["rel_path"]),
        page=None if page is None else int(page),
        start=int(data["start"]),
        end=int(data["end"]),
        token_count=int(data["token_count"]),
        text=str(data["text"]),
        heading=str(data.get("heading", "")),
    )


def regenerated(data: dict[str, Any], generation: str) -> dict[str, Any]:
    """A copied chunk payload moved to ``generation`` (an unchanged document of a touched source)."""
    return data | {"generation": generation, "sg": sg(str(data["source_id"]), generation)}


# -- filters ---------------------------------------------------------------------------------------


def _match(key: str, value: str) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchValue(value=value))


def _any(key: str, values: Iterable[str]) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchAny(any=sorted(set(values))))


def kind_filter(store_id: str, kind: str) -> models.Filter:
    return models.Filter(must=[_match("store_id", store_id), _match("kind", kind)])


def served_filter(store_id: str, sgs: Collection[str]) -> models.Filter:
    """Chunks that retrieval may return: the committed generations of the wanted sources."""
    return models.Filter(
        must=[_match("store_id", store_id), _match("kind", KIND_CHUNK), _any("sg", sgs)]
    )


def generation_filter(store_id: str, source_id: str, generation: str) -> models.Filter:
    return served_filter(store_id, [sg(source_id, generation)])


def garbage_filter(store_id: str, committed: Collection[str]) -> models.Filter:
    """Chunks of this store that no manifest names: old, failed or crashed generations."""
    flt = kind_filter(store_id, KIND_CHUNK)
    if committed:
        flt.must_not = [_any("sg", committed)]
    return flt


def sources_filter(store_id: str, source_ids: Collection[str]) -> models.Filter:
    """Every chunk and manifest point of the given sources of a store (deleting a store)."""
    return models.Filter(must=[_match("store_id", store_id), _any("source_id", source_ids)])
