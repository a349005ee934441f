"""BM25 as sparse vectors: the lexical half of hybrid ranking for Qdrant stores (SPEC §11).

Each chunk point carries, next to its dense vector, a sparse vector whose indices are 32-bit hashes
of its terms and whose values are BM25's term-frequency part; the collection declares that sparse
vector with Qdrant's ``IDF`` modifier, so at query time Qdrant multiplies each matching term by
``ln(1 + (N - n + 0.5) / (n + 0.5))`` and the dot product with a query of ones is a BM25 score.

Terms are made by the very tokenizer of the local store's lexical index — SQLite FTS5's
``porter unicode61 remove_diacritics 2``, run on an in-memory table — so both store types see the
same words, folded and stemmed the same way, and queries drop the same stopwords
(:mod:`kortty_rag.index.lexical`). Where FTS5 answers ``snake_case`` and ``dotted.names`` with a
phrase query of their parts, here every such compound is also indexed as one term of its own and
the query asks for that term, so an exact identifier still finds its file.

Two differences from the FTS5 index remain, on purpose: the IDF is Qdrant's (always positive, and
computed over the whole collection), and the document-length normalisation uses a fixed average
length derived from the store's chunk size instead of the live average, so that a stored weight
never goes stale when other documents change (re-weighting every point on each update would defeat
incremental sync). Chunks are cut to nearly the same length anyway, so the ranking barely moves.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Sequence

from kortty_rag.index.lexical import _TERM as TERM
from kortty_rag.index.lexical import query_terms

K1 = 1.2
B = 0.75
#: words per model token, for the fixed average chunk length (English WordPiece/BPE: about 0.75)
WORDS_PER_TOKEN = 0.75
TOKENIZE = "porter unicode61 remove_diacritics 2"  # the local index's (lexical.FTS_SCHEMA)
_JOINER = re.compile(r"[_.:\-/]")
_COMPOUND_JOIN = "\x1f"


class Fts5Tokenizer:
    """FTS5's own tokenizer on an in-memory table: texts in, their terms (in order) out."""

    def __init__(self) -> None:
        self._db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._db.executescript(
            f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{TOKENIZE}');"
            "CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');"
        )
        self._lock = threading.Lock()

    def terms(self, texts: Sequence[str]) -> list[list[str]]:
        result: list[list[str]] = [[] for _ in texts]
        if not texts:
            return result
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", enumerate(texts))
                for term, doc in self._db.execute("SELECT term, doc FROM v ORDER BY doc, offset"):
                    result[int(doc)].append(str(term))
            finally:
                self._db.execute("ROLLBACK")  # the table stays empty between calls
        return result


_tokenizer = Fts5Tokenizer()


def average_length(chunk_tokens: int) -> float:
    """The fixed BM25 average document length (in words) for a store's chunk size."""
    return max(16.0, chunk_tokens * WORDS_PER_TOKEN)


def compound(parts: Sequence[str]) -> str:
    """The single term standing for an identifier made of several words."""
    return _COMPOUND_JOIN.join(parts)


def term_index(term: str) -> int:
    """A term's sparse-vector index: a 32-bit hash (collisions are rare and only add noise)."""
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest(), "little")


def _vector(weights: dict[str, float]) -> tuple[list[int], list[float]]:
    merged: dict[int, float] = {}
    for term, weight in weights.items():
        index = term_index(term)
        merged[index] = merged.get(index, 0.0) + weight
    indices = sorted(merged)
    return indices, [merged[i] for i in indices]


def _compounds(text: str) -> list[str]:
    return [m.group(0) for m in TERM.finditer(text) if _JOINER.search(m.group(0))]


def document_terms(texts: Sequence[str]) -> list[tuple[Counter[str], int]]:
    """For each chunk: its term frequencies (words and compounds) and its length in words."""
    words = _tokenizer.terms(texts)
    pieces = [_compounds(text) for text in texts]
    parts = iter(_tokenizer.terms([p for chunk in pieces for p in chunk]))
    result = []
    for chunk_words, chunk_pieces in zip(words, pieces, strict=True):
        counts = Counter(chunk_words)
        for _ in chunk_pieces:
            tokens = next(parts)
            if len(tokens) > 1:
                counts[compound(tokens)] += 1
        result.append((counts, len(chunk_words)))
    return result


def document_vectors(texts: Sequence[str], avgdl: float) -> list[tuple[list[int], list[float]]]:
    """Sparse indices and BM25 term-frequency weights of each chunk's text."""
    vectors = []
    for counts, length in document_terms(texts):
        norm = K1 * (1.0 - B + B * length / avgdl)
        vectors.append(_vector({t: tf * (K1 + 1.0) / (tf + norm) for t, tf in counts.items()}))
    return vectors


def query_vector(text: str) -> tuple[list[int], list[float]] | None:
    """The query's terms (stopwords dropped as for FTS5) with weight 1, or ``None`` if none."""
    terms: dict[str, float] = {}
    for tokens in _tokenizer.terms(query_terms(text)):
        if tokens:
            terms[compound(tokens) if len(tokens) > 1 else tokens[0]] = 1.0
    return _vector(terms) if terms else None
