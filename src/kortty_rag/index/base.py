"""The one ``VectorStore`` interface that retrieval, sync, the CLI and the GUI use for every store type."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

import numpy as np

from kortty_rag.extract.formats import READ_AGAIN, stale
from kortty_rag.index.chunkdb import ChunkIdOf, NewChunk, NoteReport
from kortty_rag.models import Document, Hit, LinkedChunk
from kortty_rag.notes.reader import NoteFacts


class StoreUpdate(Protocol):
    """A transaction: nothing is visible to retrieval until :meth:`commit` returns."""

    def documents(self) -> list[Document]: ...

    def remove_document(self, source_id: str, rel_path: str) -> int:
        """Drop a document's chunks; returns how many."""

    def remove_source(self, source_id: str) -> int: ...

    def add_document(
        self,
        document: Document,
        chunks: list[NewChunk],
        vectors: np.ndarray,
        note: NoteFacts | None = None,
    ) -> None:
        """Add or replace a document (``chunks[i]`` has ``vectors[i]``); ``note``: what a Markdown
        note says about itself (kept by a store type with a link graph, else ignored)."""

    def vector_for(self, sha: bytes) -> np.ndarray | None:
        """The vector the store's model made for the chunk text with this content address
        (:func:`kortty_rag.index.vector_pool.text_sha`), if the store still has it."""

    def reuse_document(
        self, document: Document, chunk_id: ChunkIdOf, moving: tuple[str, str] | None = None
    ) -> int | None:
        """Index ``document`` from stored chunks of the same content (``moving``: a document this
        update removes anyway, re-pointed in place); the chunks reused, or ``None``."""

    def calibrate(self, probes: np.ndarray) -> None:
        """Record, at commit, how close the store's chunks come to the off-topic ``probes`` (query
        vectors, one per row; :mod:`kortty_rag.index.calibration`). A store type that keeps no
        calibration ignores it."""

    def commit(self) -> None:
        """Make the update visible atomically; on failure the previous state stays served."""

    def abort(self) -> None: ...


class VectorStore(Protocol):
    def version(self) -> int:
        """Changes whenever a commit becomes visible (lets a job notice a store changed under it)."""

    def documents(self) -> list[Document]: ...

    def calibration(self) -> tuple[float, ...]:
        """The probes' best similarities to the served state, ascending (empty: not calibrated)."""

    def begin(self, *, fresh: bool = False) -> StoreUpdate:
        """Start an update from the current state (``fresh``: from empty, for a rebuild)."""

    def search(self, vector: np.ndarray, k: int, source_ids: Collection[str]) -> list[Hit]:
        """The ``k`` nearest chunks among ``source_ids`` (cosine similarity in ``Hit.score``)."""

    def lexical_search(self, query: str, k: int, source_ids: Collection[str]) -> list[Hit]:
        """The ``k`` best BM25 matches among ``source_ids`` (BM25 score in ``Hit.score``)."""

    def text_language(self) -> str | None:
        """The language the served lexical index was analysed in (an ISO code, or ``none``: not
        detected), ``None`` before there is one."""

    def similarities(self, vector: np.ndarray, labels: Collection[int]) -> dict[int, float]:
        """The cosine similarity of ``vector`` to each chunk of ``labels`` that the served state
        still has (a chunk the lexical search found beyond the dense search's candidates)."""

    def linked(self, labels: Collection[int], source_ids: Collection[str]) -> list[LinkedChunk]:
        """The chunks (of ``source_ids``) of the notes linked from or to the notes of ``labels``,
        one hop, bounded per note (:mod:`kortty_rag.index.note_links`); a store type without a
        link graph returns none."""

    def note_report(self, limit: int) -> NoteReport | None:
        """The served state's notes and links: counts, dangling links and front matter problems
        (at most ``limit`` each); ``None`` for a store type without a link graph."""

    def close(self) -> None: ...


def known_hashes(documents: list[Document]) -> dict[str, dict[str, str]]:
    """source id → rel path → SHA-256: what the scan compares files against; a document an older
    reader read is known as :data:`~kortty_rag.extract.formats.READ_AGAIN`, so the scan offers it
    to be read again (docs/DESIGN.md §9)."""
    known: dict[str, dict[str, str]] = {}
    for doc in documents:
        known.setdefault(doc.source_id, {})[doc.rel_path] = READ_AGAIN if stale(doc) else doc.sha256
    return known
