"""The lexical half of hybrid ranking (SPEC §11): BM25 over the same chunks, persisted in the snapshot.

SQLite's FTS5 keeps the inverted index inside the snapshot's ``chunks.sqlite``, as an external-content
table over ``chunks`` maintained by triggers, so incremental updates touch only changed chunks and
nothing is rebuilt at start-up. Tokens are Unicode words with diacritics folded and Porter-stemmed;
``snake_case`` and ``dotted.names`` become phrase queries of their parts, so an exact identifier from a
code file is found even when no embedding model knows it. Scores are FTS5's BM25 (k1 = 1.2, b = 0.75),
negated so that larger is better.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Collection

FTS_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    text, content='chunks', content_rowid='label',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts (rowid, text) VALUES (new.label, new.text);
END;
CREATE TRIGGER IF NOT EXISTS chunks_fts_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.label, old.text);
END;
"""

_TERM = re.compile(r"[^\W_]+(?:[_.:\-/][^\W_]+)*", re.UNICODE)
#: Words that carry no meaning for ranking; dropped from queries (unless the query is only these).
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)
MAX_TERMS = 64


def match_query(text: str) -> str | None:
    """An FTS5 ``MATCH`` expression: the query's terms, each quoted (no operator injection), OR-ed."""
    terms = list(dict.fromkeys(t.lower() for t in _TERM.findall(text)))
    meaningful = [t for t in terms if t not in STOPWORDS] or terms
    if not meaningful:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in meaningful[:MAX_TERMS])


def ensure_index(db: sqlite3.Connection) -> bool:
    """Create the lexical index if missing and fill it from existing chunks; True if it was built."""
    db.executescript(FTS_SCHEMA)
    chunks = db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    indexed = db.execute("SELECT COUNT(*) FROM chunks_fts_docsize").fetchone()[0]
    if chunks != indexed:
        db.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild')")
        return True
    return False


def has_index(db: sqlite3.Connection) -> bool:
    row = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunks_fts'"
    ).fetchone()
    return row is not None


def search(
    db: sqlite3.Connection, query: str, k: int, source_ids: Collection[str] | None
) -> list[tuple[int, float]]:
    """Labels and BM25 scores of the ``k`` best chunks for ``query`` (only ``source_ids``)."""
    expression = match_query(query)
    if expression is None or k <= 0:
        return []
    sql = (
        "SELECT chunks_fts.rowid, -bm25(chunks_fts) FROM chunks_fts"
        " JOIN chunks c ON c.label = chunks_fts.rowid WHERE chunks_fts MATCH ?"
    )
    params: list[object] = [expression]
    if source_ids is not None:
        ids = list(source_ids)
        if not ids:
            return []
        sql += f" AND c.source_id IN ({','.join('?' * len(ids))})"
        params += ids
    sql += " ORDER BY bm25(chunks_fts) LIMIT ?"
    params.append(k)
    return [(int(label), float(score)) for label, score in db.execute(sql, params)]
