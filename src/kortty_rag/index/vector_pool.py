"""Vectors addressed by content (docs/DESIGN.md §9): what a snapshot being built can reuse instead of
embedding a chunk again.

A chunk's vector depends only on the text that was embedded (its heading line and text) and on the
embedding identity, which is the same for every chunk of a snapshot. So every chunk row carries
``text_sha``, the SHA-256 of that text, and a vector is reused whenever a chunk with the same
``text_sha`` is live in the snapshot or was retired from it recently:

- a **live** chunk's vector is read from the graph by its label;
- a **retired** document — removed from the index by a refresh, a source gone ``MISSING``, a removed
  source — keeps its chunks and vectors in the tables below, inside ``chunks.sqlite`` and so under the
  snapshot's checksums and atomic activation like every other byte of it.

A whole document is reused too, without being read or cut again, when a document with the same
content hash and format is live or retired: its chunk rows are copied (with the new chunk ids).

The retired tables are bounded: at each activation documents retired more than
:data:`GRACE_DAYS` ago go, and the oldest go until at most :func:`retired_cap` chunks are kept (the
most live chunks the store has had, and at least :data:`MIN_RETIRED_CAP`), so a store holds at most
about twice the largest index it ever served.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np

from kortty_rag.extract.formats import reader_version
from kortty_rag.models import Document, with_heading

#: how long a retired document's vectors are kept for reuse
GRACE_DAYS = 30
#: the retired chunks kept even by a store that never had this many live ones
MIN_RETIRED_CAP = 10_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS retired_documents (
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL,
    format TEXT NOT NULL,
    pages INTEGER,
    chunk_count INTEGER NOT NULL,
    retired_at TEXT NOT NULL,
    UNIQUE (sha256, format)
);
CREATE TABLE IF NOT EXISTS retired_chunks (
    document_id INTEGER NOT NULL REFERENCES retired_documents (id),
    ordinal INTEGER NOT NULL,
    page INTEGER,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    token_count INTEGER NOT NULL,
    text TEXT NOT NULL,
    heading TEXT NOT NULL,
    text_sha BLOB NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (document_id, ordinal)
);
CREATE INDEX IF NOT EXISTS retired_chunks_text ON retired_chunks (text_sha);
CREATE TABLE IF NOT EXISTS pool_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS documents_content ON documents (sha256, format);
CREATE INDEX IF NOT EXISTS chunks_text ON chunks (text_sha);
"""


def text_sha(heading: str, text: str) -> bytes:
    """The content address of a chunk: SHA-256 of exactly the text that is embedded."""
    return hashlib.sha256(with_heading(heading, text).encode("utf-8", "surrogatepass")).digest()


def retired_cap(peak_live: int) -> int:
    return max(peak_live, MIN_RETIRED_CAP)


@dataclass(frozen=True)
class StoredChunk:
    """A chunk as a reusable document keeps it: everything but its ids."""

    page: int | None
    start: int
    end: int
    token_count: int
    text: str
    heading: str


@dataclass(frozen=True)
class ContentMatch:
    """A document whose chunks can be reused for the same content: live (``labels`` into the graph)
    or retired (``vectors`` kept in the table)."""

    pages: int | None
    chunks: list[StoredChunk]
    labels: list[int] | None = None
    vectors: np.ndarray | None = None
    retired_id: int | None = None


def _vector(blob: object, dims: int) -> np.ndarray | None:
    if not isinstance(blob, bytes) or len(blob) != dims * 4:
        return None
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


class VectorPool:
    """The content addresses of one chunk table (inside a :class:`~kortty_rag.index.chunkdb.ChunkWriter`
    transaction, or read-only for a rebuild's base)."""

    def __init__(self, db: sqlite3.Connection, dims: int, *, writable: bool) -> None:
        self.db = db
        self.dims = dims
        if writable:
            db.create_function("kortty_text_sha", 2, text_sha, deterministic=True)
            columns = {str(r[1]) for r in db.execute("PRAGMA table_info(chunks)")}
            if "text_sha" not in columns:  # a chunk table written before content addresses
                db.execute("ALTER TABLE chunks ADD COLUMN text_sha BLOB")
            db.executescript(SCHEMA)
            # rows written by a version that did not know the column get their address now
            db.execute(
                "UPDATE chunks SET text_sha = kortty_text_sha(heading, text) WHERE text_sha IS NULL"
            )
        self.enabled = writable or _has_pool(db)

    # -- lookups ----------------------------------------------------------------------------------

    def live_label(self, sha: bytes) -> int | None:
        if not self.enabled:
            return None
        row = self.db.execute(
            "SELECT label FROM chunks WHERE text_sha = ? LIMIT 1", (sha,)
        ).fetchone()
        return None if row is None or not isinstance(row[0], int) else int(row[0])

    def retired_vector(self, sha: bytes) -> np.ndarray | None:
        if not self.enabled:
            return None
        row = self.db.execute(
            "SELECT vector FROM retired_chunks WHERE text_sha = ? LIMIT 1", (sha,)
        ).fetchone()
        return None if row is None else _vector(row[0], self.dims)

    def live_document(self, sha256: str, fmt: str) -> tuple[int, int | None] | None:
        """``(document id, pages)`` of a live document with this content, if there is one."""
        row = self.db.execute(
            "SELECT id, pages FROM documents WHERE sha256 = ? AND format = ? AND chunk_count > 0"
            " AND reader >= ? LIMIT 1",
            (sha256, fmt, reader_version(fmt)),
        ).fetchone()
        return None if row is None else (int(row[0]), row[1])

    def live_chunks(self, document_id: int) -> tuple[list[int], list[StoredChunk]]:
        rows = self.db.execute(
            'SELECT label, page, start, "end", token_count, text, heading FROM chunks'
            " WHERE document_id = ? ORDER BY label",
            (document_id,),
        ).fetchall()
        return [int(r[0]) for r in rows], [StoredChunk(*r[1:]) for r in rows]

    def retired_document(self, sha256: str, fmt: str) -> ContentMatch | None:
        """A retired document's chunks with this content; not for a format whose reader has a
        version (a retired document does not record which one read it)."""
        if not self.enabled or reader_version(fmt):
            return None
        row = self.db.execute(
            "SELECT id, pages, chunk_count FROM retired_documents WHERE sha256 = ? AND format = ?",
            (sha256, fmt),
        ).fetchone()
        if row is None:
            return None
        rows = self.db.execute(
            'SELECT page, start, "end", token_count, text, heading, vector FROM retired_chunks'
            " WHERE document_id = ? ORDER BY ordinal",
            (int(row[0]),),
        ).fetchall()
        vectors = [_vector(r[6], self.dims) for r in rows]
        if len(rows) != int(row[2]) or not rows or any(v is None for v in vectors):
            return None
        return ContentMatch(
            row[1],
            [StoredChunk(*r[:6]) for r in rows],
            vectors=np.vstack([v for v in vectors if v is not None]),
            retired_id=int(row[0]),
        )

    # -- changes ----------------------------------------------------------------------------------

    def retire(
        self, document: Document, chunks: list[StoredChunk], vectors: np.ndarray, when: str
    ) -> None:
        """Keep a removed document's chunks and vectors for reuse (once per content)."""
        if not chunks:
            return
        sha256, fmt, pages = document.sha256, document.format, document.pages
        row = self.db.execute(
            "SELECT id FROM retired_documents WHERE sha256 = ? AND format = ?", (sha256, fmt)
        ).fetchone()
        if row is not None:  # the same content is kept already: it only stays longer
            self.db.execute(
                "UPDATE retired_documents SET retired_at = ? WHERE id = ?", (when, int(row[0]))
            )
            return
        cursor = self.db.execute(
            "INSERT INTO retired_documents (sha256, format, pages, chunk_count, retired_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (sha256, fmt, pages, len(chunks), when),
        )
        document_id = int(cursor.lastrowid or 0)
        self.db.executemany(
            'INSERT INTO retired_chunks (document_id, ordinal, page, start, "end", token_count,'
            " text, heading, text_sha, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (
                    document_id,
                    i,
                    c.page,
                    c.start,
                    c.end,
                    c.token_count,
                    c.text,
                    c.heading,
                    text_sha(c.heading, c.text),
                    np.asarray(vector, dtype="<f4").tobytes(),
                )
                for i, (c, vector) in enumerate(zip(chunks, vectors, strict=True))
            ),
        )

    def forget(self, retired_ids: Iterable[int]) -> None:
        """Drop retired documents (their content is live again, or their time is up)."""
        ids = [(i,) for i in retired_ids]
        self.db.executemany("DELETE FROM retired_chunks WHERE document_id = ?", ids)
        self.db.executemany("DELETE FROM retired_documents WHERE id = ?", ids)

    def clear(self) -> None:
        self.db.execute("DELETE FROM retired_chunks")
        self.db.execute("DELETE FROM retired_documents")

    def retired_chunks(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM retired_chunks").fetchone()[0])

    def collect(self, live: int, now: datetime | None = None) -> int:
        """Drop what is past its grace period, then the oldest beyond the cap; returns the chunks
        dropped. Called once per activation."""
        now = now or datetime.now(UTC)
        row = self.db.execute("SELECT value FROM pool_meta WHERE key = 'peak_live'").fetchone()
        peak = max(live, int(row[0]) if row and isinstance(row[0], int) else 0)
        self.db.execute(
            "INSERT OR REPLACE INTO pool_meta (key, value) VALUES ('peak_live', ?)", (peak,)
        )
        cutoff = (now - timedelta(days=GRACE_DAYS)).replace(microsecond=0).isoformat()
        before = self.retired_chunks()
        expired = [
            int(r[0])
            for r in self.db.execute(
                "SELECT id FROM retired_documents WHERE retired_at < ?", (cutoff,)
            )
        ]
        self.forget(expired)
        kept = self.retired_chunks()
        cap = retired_cap(peak)
        if kept > cap:
            oldest = self.db.execute(
                "SELECT id, chunk_count FROM retired_documents ORDER BY retired_at, id"
            ).fetchall()
            dropped: list[int] = []
            for document_id, count in oldest:
                if kept <= cap:
                    break
                dropped.append(int(document_id))
                kept -= int(count)
            self.forget(dropped)
        return before - self.retired_chunks()


def _has_pool(db: sqlite3.Connection) -> bool:
    tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    columns = {str(r[1]) for r in db.execute("PRAGMA table_info(chunks)")}
    return "retired_chunks" in tables and "text_sha" in columns
