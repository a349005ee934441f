"""Searching one store: embed the query with the store's model, rank among enabled sources only."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kortty_rag.embedding.base import Embedder
from kortty_rag.index.base import VectorStore
from kortty_rag.models import Chunk, Source, SourceKind, Store


@dataclass(frozen=True)
class Excerpt:
    marker: str
    path: str
    page: int | None
    score: float
    chunk: Chunk

    def location(self) -> str:
        return f"{self.path}, page {self.page}" if self.page is not None else self.path

    def to_json(self) -> dict[str, object]:
        return {
            "marker": self.marker,
            "path": self.path,
            "page": self.page,
            "score": round(self.score, 6),
            "chunk_id": self.chunk.chunk_id,
            "start": self.chunk.start,
            "end": self.chunk.end,
            "text": self.chunk.text,
        }


def document_path(source: Source, rel_path: str) -> str:
    """Where a document of ``source`` lives on disk (what citations show)."""
    return source.path if source.kind is SourceKind.FILE else str(Path(source.path) / rel_path)


def enabled_sources(store: Store) -> dict[str, Source]:
    return {s.id: s for s in store.sources if s.enabled}


def search_store(
    store: Store, vectors: VectorStore, embedder: Embedder, query: str, *, k: int = 6
) -> list[Excerpt]:
    """The ``k`` best excerpts for ``query``, numbered ``R1``, ``R2``, … in rank order."""
    sources = enabled_sources(store)
    if not sources or not query.strip():
        return []
    vector = embedder.embed_query(query)
    hits = vectors.search(vector, k, sources.keys())
    return [
        Excerpt(
            marker=f"R{n}",
            path=document_path(sources[hit.chunk.source_id], hit.chunk.rel_path),
            page=hit.chunk.page,
            score=hit.score,
            chunk=hit.chunk,
        )
        for n, hit in enumerate(hits, start=1)
        if hit.chunk.source_id in sources
    ]
