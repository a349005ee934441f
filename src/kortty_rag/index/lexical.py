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


#: Terms found in more than this share of all chunks are left out of the query: their BM25 weight is
#: tiny, but scoring them means walking most of the index (measured: 120 ms at 100k chunks for a
#: query with a few such terms, against a few ms without them).
COMMON_SHARE = 0.3


def query_terms(text: str) -> list[str]:
    """The query's distinct terms (stopwords dropped unless nothing else is left)."""
    terms = list(dict.fromkeys(t.lower() for t in _TERM.findall(text)))
    return ([t for t in terms if t not in STOPWORDS] or terms)[:MAX_TERMS]


def match_query(text: str, terms: list[str] | None = None) -> str | None:
    """An FTS5 ``MATCH`` expression: the terms, each quoted (no operator injection), OR-ed."""
    chosen = query_terms(text) if terms is None else terms
    if not chosen:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in chosen)


class TermStatistics:
    """Document frequencies of query terms, tokenized exactly as the index tokenizes text.

    FTS5 itself tokenizes the query terms (a temporary in-memory FTS5 table with the same tokenizer
    and an ``fts5vocab`` view), and ``fts5vocab`` over the index gives each token's document count.
    Works on the read-only connection of an active snapshot: only the temp schema is written.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.executescript(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.kortty_query USING fts5(t, tokenize="
            "'porter unicode61 remove_diacritics 2');"
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.kortty_query_tokens USING "
            "fts5vocab(temp, kortty_query, 'instance');"
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.kortty_index_terms USING "
            "fts5vocab(main, chunks_fts, 'row');"
        )
        self.total = int(db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])

    def document_frequencies(self, terms: list[str]) -> dict[str, int]:
        """For each term, the chunk count of its rarest token (an upper bound for a phrase)."""
        if not terms:
            return {}
        self.db.execute("DELETE FROM temp.kortty_query")
        self.db.executemany(
            "INSERT INTO temp.kortty_query (rowid, t) VALUES (?, ?)", list(enumerate(terms))
        )
        tokens: dict[int, set[str]] = {}
        for token, row in self.db.execute("SELECT term, doc FROM temp.kortty_query_tokens"):
            tokens.setdefault(int(row), set()).add(str(token))
        wanted = sorted({t for group in tokens.values() for t in group})
        df: dict[str, int] = {}
        for start in range(0, len(wanted), 200):
            part = wanted[start : start + 200]
            df.update(
                self.db.execute(
                    f"SELECT term, doc FROM temp.kortty_index_terms WHERE term IN ({','.join('?' * len(part))})",
                    part,
                ).fetchall()
            )
        return {
            term: min((df.get(t, 0) for t in tokens.get(i, ())), default=0)
            for i, term in enumerate(terms)
        }

    def without_common(self, terms: list[str], share: float = COMMON_SHARE) -> list[str]:
        """``terms`` minus those in more than ``share`` of all chunks, unless the rest match nothing."""
        if len(terms) < 2 or self.total == 0:
            return terms
        frequencies = self.document_frequencies(terms)
        rare = [t for t in terms if frequencies[t] <= share * self.total]
        return rare if any(frequencies[t] for t in rare) else terms


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
    db: sqlite3.Connection,
    query: str,
    k: int,
    source_ids: Collection[str] | None,
    statistics: TermStatistics | None = None,
) -> list[tuple[int, float]]:
    """Labels and BM25 scores of the ``k`` best chunks for ``query`` (only ``source_ids``)."""
    terms = query_terms(query)
    if statistics is not None:
        terms = statistics.without_common(terms)
    expression = match_query(query, terms)
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
