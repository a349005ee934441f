"""The chunk table of a snapshot: documents, chunk text and locations, keyed by vector label (SQLite).

A snapshot's database is written once while the snapshot is built and then only read, opened with
``immutable=1`` so reading never creates journal files inside an active snapshot.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kortty_rag.errors import SnapshotError
from kortty_rag.extract.formats import reader_version
from kortty_rag.index import note_links
from kortty_rag.index.bm25 import LexicalIndex, LexicalWriter
from kortty_rag.index.vector_pool import StoredChunk, VectorPool, text_sha
from kortty_rag.messages import msg
from kortty_rag.models import Chunk, Document
from kortty_rag.notes.reader import NoteFacts
from kortty_rag.remedies import Operation, run

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    source_id TEXT NOT NULL,
    rel_path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    format TEXT NOT NULL,
    pages INTEGER,
    chunk_count INTEGER NOT NULL,
    indexed_at TEXT NOT NULL,
    reader INTEGER NOT NULL DEFAULT 0,
    UNIQUE (source_id, rel_path)
);
CREATE TABLE IF NOT EXISTS chunks (
    label INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE,
    document_id INTEGER NOT NULL REFERENCES documents (id),
    source_id TEXT NOT NULL,
    page INTEGER,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    token_count INTEGER NOT NULL,
    text TEXT NOT NULL,
    heading TEXT NOT NULL DEFAULT '',
    text_sha BLOB
);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks (document_id);
CREATE INDEX IF NOT EXISTS chunks_source ON chunks (source_id);
"""

_CHUNK_COLUMNS = (
    'c.label, c.chunk_id, c.source_id, d.rel_path, c.page, c.start, c."end", c.token_count, c.text,'
    " c.heading"
)
#: the same for a chunk table of format 2 or older (no headings), served until it is migrated
_OLD_CHUNK_COLUMNS = _CHUNK_COLUMNS.replace("c.heading", "'' AS heading")


#: chunks of one linked document looked at (the best of them by similarity enters the ranking)
MAX_LINKED_CHUNKS = 64


@dataclass(frozen=True)
class LinkedDocuments:
    """What :meth:`ChunkReader.linked` found: the document of each label asked about, the links
    from and to those documents, the chunks (label, heading path) of each linked document, and
    the title of every document involved."""

    document_of: dict[int, int]
    links: list[note_links.NoteLink]
    chunks: dict[int, list[tuple[int, str]]]
    titles: dict[int, str]


@dataclass(frozen=True)
class NoteReport:
    notes: int
    links: int
    resolved: int
    dangling: list[note_links.DanglingLink]
    dangling_total: int
    problems: list[note_links.NoteProblem]


#: the stable id a reused chunk gets in its new document (``sync.pipeline.chunk_id``)
ChunkIdOf = Callable[[StoredChunk], str]


@dataclass(frozen=True)
class NewChunk:
    label: int
    chunk_id: str
    page: int | None
    start: int
    end: int
    token_count: int
    text: str
    heading: str = ""


def _typed(row: tuple[Any, ...], types: tuple[type | tuple[type, ...], ...]) -> tuple[Any, ...]:
    """``row`` if every value has the type its column must hold: SQLite stores whatever a damaged
    record says (a flipped type byte turns a number into NULL or text)."""
    if len(row) != len(types) or not all(
        isinstance(value, kind) for value, kind in zip(row, types, strict=True)
    ):
        raise TypeError(f"a row of the chunk table holds values of the wrong type: {row!r:.200}")
    return row


_CHUNK_TYPES = (int, str, str, str, (int, type(None)), int, int, int, str, str)
_DOCUMENT_TYPES = (str, str, str, int, str, int, (int, type(None)), int)


def _has_headings(db: sqlite3.Connection) -> bool:
    """Whether the chunk table has the ``heading`` column (snapshot format 3 and newer)."""
    return "heading" in {str(r[1]) for r in db.execute("PRAGMA table_info(chunks)")}


def _has_readers(db: sqlite3.Connection) -> bool:
    """Whether the documents table records the reader version of each document."""
    return "reader" in {str(r[1]) for r in db.execute("PRAGMA table_info(documents)")}


def _chunk(row: tuple[Any, ...]) -> tuple[int, Chunk]:
    label, chunk_id, source_id, rel_path, page, start, end, tokens, text, heading = _typed(
        row, _CHUNK_TYPES
    )
    return label, Chunk(chunk_id, source_id, rel_path, page, start, end, tokens, text, heading)


@contextlib.contextmanager
def write_errors() -> Iterator[None]:
    """A full disk or an I/O error while building becomes one clear :class:`SnapshotError`."""
    try:
        yield
    except (sqlite3.Error, OSError) as exc:
        raise SnapshotError(
            msg(
                "Could not write the new snapshot ({reason}); the store still answers "
                "from its last completed index",
                reason=str(exc),
            ),
            hint=msg("Free disk space (or fix the I/O error) and run the job again."),
        ) from exc


class ChunkWriter:
    """Read-write access while a snapshot is being built (inside its temporary folder)."""

    def __init__(self, path: Path, dims: int) -> None:
        self.path = path
        with write_errors():
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode = OFF")
            self._db.execute("PRAGMA synchronous = OFF")
            self._db.executescript(SCHEMA)
            self._db.executescript(note_links.SCHEMA)
            if not _has_headings(self._db):  # a chunk table of snapshot format 2 or older
                self._db.execute("ALTER TABLE chunks ADD COLUMN heading TEXT NOT NULL DEFAULT ''")
            if not _has_readers(self._db):  # documents read before readers had versions
                self._db.execute(
                    "ALTER TABLE documents ADD COLUMN reader INTEGER NOT NULL DEFAULT 0"
                )
            self.lexical = LexicalWriter(self._db)
            #: content addresses: the vectors this snapshot can reuse (docs/DESIGN.md §9)
            self.pool = VectorPool(self._db, dims, writable=True)
            self._db.execute("BEGIN")

    def next_label(self) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(label), -1) + 1 FROM chunks").fetchone()
        return int(row[0])

    def documents(self) -> list[tuple[int, Document]]:
        rows = self._db.execute(
            "SELECT id, source_id, rel_path, sha256, size, format, chunk_count, pages, reader"
            " FROM documents"
        )
        return [
            (int(r[0]), Document(r[1], r[2], r[3], r[4], r[5], r[6], r[7], int(r[8]))) for r in rows
        ]

    @write_errors()
    def remove_document(self, document_id: int) -> list[int]:
        labels = [
            int(r[0])
            for r in self._db.execute(
                "SELECT label FROM chunks WHERE document_id = ?", (document_id,)
            )
        ]
        self._db.execute("DELETE FROM chunks WHERE document_id = ?", (document_id,))
        self._db.execute("DELETE FROM documents WHERE id = ?", (document_id,))
        note_links.forget_note(self._db, document_id)
        self.lexical.forget(labels)
        return labels

    @write_errors()
    def add_document(
        self,
        document: Document,
        indexed_at: str,
        chunks: Iterable[NewChunk],
        note: NoteFacts | None = None,
    ) -> int:
        """Insert a document and its chunks (and a note's facts); returns the document's row id."""
        cursor = self._db.execute(
            "INSERT INTO documents (source_id, rel_path, sha256, size, format, pages, chunk_count,"
            " indexed_at, reader) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                document.source_id,
                document.rel_path,
                document.sha256,
                document.size,
                document.format,
                document.pages,
                document.chunk_count,
                indexed_at,
                reader_version(document.format),
            ),
        )
        document_id = int(cursor.lastrowid or 0)
        self._db.executemany(
            'INSERT INTO chunks (label, chunk_id, document_id, source_id, page, start, "end",'
            " token_count, text, heading, text_sha) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    c.label,
                    c.chunk_id,
                    document_id,
                    document.source_id,
                    c.page,
                    c.start,
                    c.end,
                    c.token_count,
                    c.text,
                    c.heading,
                    text_sha(c.heading, c.text),
                )
                for c in chunks
            ],
        )
        if note is not None:
            note_links.add_note(self._db, document_id, note)
        return document_id

    @write_errors()
    def copy_note(self, from_id: int, to_id: int) -> bool:
        """Give a document copied from another of the same content that one's note rows."""
        return note_links.copy_note(self._db, from_id, to_id)

    @write_errors()
    def resolve_links(self) -> None:
        """Resolve every note link against the documents as they are now (before committing)."""
        note_links.resolve_links(self._db)

    @write_errors()
    def move_document(
        self, document_id: int, document: Document, indexed_at: str, chunk_id: ChunkIdOf
    ) -> None:
        """Give a document another source and path, keeping its chunks and their labels (the graph
        and the lexical terms stay as they are); ``chunk_id`` names each chunk anew."""
        self._db.execute(
            "UPDATE documents SET source_id = ?, rel_path = ?, size = ?, indexed_at = ? WHERE id = ?",
            (document.source_id, document.rel_path, document.size, indexed_at, document_id),
        )
        labels, chunks = self.pool.live_chunks(document_id)
        self._db.executemany(
            "UPDATE chunks SET chunk_id = ?, source_id = ? WHERE label = ?",
            (
                (chunk_id(chunk), document.source_id, label)
                for label, chunk in zip(labels, chunks, strict=True)
            ),
        )

    @write_errors()
    def update_lexical(self, language: str) -> bool:
        """Analyse the chunks added since the last snapshot (all of them if the analyzer changed)."""
        return self.lexical.update(language)

    @write_errors()
    def write_lexical(self, out: Any) -> None:
        self.lexical.write_index(out)

    def live_labels(self) -> list[int]:
        return [int(r[0]) for r in self._db.execute("SELECT label FROM chunks ORDER BY label")]

    def finish(self, *, vacuum: bool) -> None:
        """Commit, optionally compact the file, verify it and close."""
        try:
            with write_errors():
                self._db.execute("COMMIT")
                if vacuum:
                    self._db.execute("VACUUM")
                result = self._db.execute("PRAGMA quick_check").fetchone()
            if result is None or result[0] != "ok":
                raise SnapshotError(
                    msg("The new chunk table failed its check: {result}", result=str(result))
                )
        finally:
            self._db.close()

    def abort(self) -> None:
        self._db.close()


@contextlib.contextmanager
def read_errors() -> Iterator[None]:
    """A chunk table that fails while being read is a damaged snapshot, reported as one (a verified
    snapshot never does this; a snapshot signed by a faulty writer could)."""
    try:
        yield
    except (sqlite3.Error, UnicodeDecodeError, TypeError, ValueError) as exc:
        raise SnapshotError(
            msg("The chunk table of the active snapshot is damaged ({reason})", reason=str(exc)),
            hint=msg(
                "{do} to re-index every source into a fresh snapshot.",
                do=run(Operation.STORE_REBUILD),
            ),
        ) from exc


class ChunkReader:
    """Read-only access to an active snapshot's chunk table; safe to share between threads."""

    def __init__(self, path: Path) -> None:
        try:
            self._db = sqlite3.connect(
                f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False
            )
            self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()
            self._columns = _CHUNK_COLUMNS if _has_headings(self._db) else _OLD_CHUNK_COLUMNS
            self._reader = "reader" if _has_readers(self._db) else "0 AS reader"
        except (sqlite3.Error, UnicodeDecodeError, TypeError, ValueError) as exc:
            raise SnapshotError(
                msg("Chunk table {file} is unreadable: {reason}", file=path.name, reason=str(exc))
            ) from exc
        self._lock = threading.Lock()

    def open_lexical(self, data: bytes) -> LexicalIndex:
        """The inverted index of ``lexical.npz`` (its vocabulary lives in this table)."""
        with read_errors():
            return LexicalIndex(data, self._db)

    def lexical(
        self, index: LexicalIndex, query: str, k: int, source_ids: Iterable[str] | None
    ) -> list[tuple[int, float, float]]:
        """Labels, BM25 scores and coverage of the ``k`` best lexical matches."""
        allowed = None if source_ids is None else index.allowed_rows(set(source_ids))
        if allowed is not None and not allowed.any():
            return []
        with self._lock, read_errors():
            return [(h.label, h.score, h.coverage) for h in index.search(query, k, allowed)]

    def close(self) -> None:
        self._db.close()

    @read_errors()
    def linked(self, labels: Iterable[int], limit: int) -> LinkedDocuments:
        """The documents linked from or to the documents of ``labels`` (see :class:`LinkedDocuments`)."""
        wanted = sorted(set(labels))
        with self._lock:
            if not wanted or not note_links.has_notes(self._db):
                return LinkedDocuments({}, [], {}, {})
            marks = ",".join("?" * len(wanted))
            rows = self._db.execute(
                f"SELECT label, document_id FROM chunks WHERE label IN ({marks})", wanted
            )
            of_label = {int(r[0]): int(r[1]) for r in rows}
            links = list(dict.fromkeys(note_links.links_of(self._db, of_label.values(), limit)))
            others = {link.to_document for link in links} | {link.from_document for link in links}
            chunks: dict[int, list[tuple[int, str]]] = {}
            for document in sorted(others):
                rows = self._db.execute(
                    "SELECT label, heading FROM chunks WHERE document_id = ? ORDER BY start, page"
                    " LIMIT ?",
                    (document, MAX_LINKED_CHUNKS),
                )
                chunks[document] = [(int(r[0]), str(r[1])) for r in rows]
            titles = note_links.titles(self._db, others | set(of_label.values()))
        return LinkedDocuments(of_label, links, chunks, titles)

    @read_errors()
    def note_report(self, limit: int) -> NoteReport:
        """The notes' counts, dangling links and front matter problems (at most ``limit`` each)."""
        with self._lock:
            if not note_links.has_notes(self._db):
                return NoteReport(0, 0, 0, [], 0, [])
            notes, links, resolved = note_links.graph_counts(self._db)
            dangling, total = note_links.dangling_links(self._db, limit)
            problems = note_links.note_problems(self._db, limit)
        return NoteReport(notes, links, resolved, dangling, total, problems)

    @read_errors()
    def chunks(self, labels: Iterable[int]) -> dict[int, Chunk]:
        wanted = list(labels)
        found: dict[int, Chunk] = {}
        with self._lock:
            for start in range(0, len(wanted), 500):
                part = wanted[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT {self._columns} FROM chunks c JOIN documents d ON d.id = c.document_id"
                    f" WHERE c.label IN ({marks})",
                    part,
                )
                found.update(_chunk(row) for row in rows)
        return found

    @read_errors()
    def documents(self) -> list[Document]:
        with self._lock:
            rows = self._db.execute(
                "SELECT source_id, rel_path, sha256, size, format, chunk_count, pages,"
                f" {self._reader} FROM documents ORDER BY source_id, rel_path"
            ).fetchall()
        return [Document(*_typed(row, _DOCUMENT_TYPES)) for row in rows]

    @read_errors()
    def present(self, labels: Iterable[int]) -> set[int]:
        """Those of ``labels`` that are chunks of this database."""
        wanted = list(labels)
        found: set[int] = set()
        with self._lock:
            for start in range(0, len(wanted), 500):
                part = wanted[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(f"SELECT label FROM chunks WHERE label IN ({marks})", part)
                found.update(_typed(r, (int,))[0] for r in rows)
        return found

    @read_errors()
    def labels_of_sources(self, source_ids: Iterable[str]) -> set[int]:
        ids = list(source_ids)
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        with self._lock:
            rows = self._db.execute(f"SELECT label FROM chunks WHERE source_id IN ({marks})", ids)
            return {_typed(r, (int,))[0] for r in rows}

    @read_errors()
    def quick_check(self) -> None:
        """SQLite's own check of the table's pages and indexes (``PRAGMA quick_check``), on the
        connection the snapshot opened through its folder's descriptor; a
        :class:`SnapshotError` says what it found."""
        try:
            with self._lock:
                result = self._db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.Error as exc:
            raise SnapshotError(
                msg("The chunk table cannot be checked ({error})", error=str(exc))
            ) from exc
        if result is None or result[0] != "ok":
            raise SnapshotError(
                msg("The chunk table failed its check: {result}", result=str(result))
            )

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])

    @read_errors()
    def iter_chunks(self) -> Iterator[tuple[int, Chunk]]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._columns} FROM chunks c JOIN documents d ON d.id = c.document_id"
                " ORDER BY c.label"
            ).fetchall()
        return iter([_chunk(row) for row in rows])  # converted here, inside read_errors
