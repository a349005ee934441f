"""BM25 as sparse vectors: the lexical half of hybrid ranking for Qdrant stores.

Each chunk point carries, next to its dense vector, a sparse vector whose indices are 32-bit hashes
of its terms and whose values are BM25's term-frequency part; the collection declares that sparse
vector with Qdrant's ``IDF`` modifier, so at query time Qdrant multiplies each matching term by
``ln(1 + (N - n + 0.5) / (n + 0.5))`` and the dot product with a query of ones is a BM25 score.

Terms come from the very analyzer of the local store's index (:mod:`kortty_rag.index.analysis`:
words and identifier compounds, stopwords, Snowball stemming, folding), so both store types see the
same words. The store marker records which analyzer (language) wrote the points; queries use that
one, so changing a Qdrant store's language takes a ``store rebuild``.

Two differences from the local index remain, on purpose: the IDF is Qdrant's (computed over the
store's served chunks where the server supports IDF corpus filters, else the whole collection), and
the document-length normalisation uses a fixed average length derived from the store's chunk size
instead of the live average, so that a stored weight never goes stale when other documents change
(re-weighting every point on each update would defeat incremental sync). Chunks are cut to nearly
the same length anyway, so the ranking barely moves. Coverage (the relevance floor's lexical
evidence) is the plain share of the query's terms found in the chunk: Qdrant does not expose the
document frequencies an IDF-weighted share needs. And a query's compound that no chunk holds is
not split into known parts (:mod:`kortty_rag.index.compounds`): the points keep hashes, not a
vocabulary to look the parts up in.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence

from kortty_rag.index.analysis import Analyzer
from kortty_rag.index.bm25 import K1, B

#: words per model token, for the fixed average chunk length (English WordPiece/BPE: about 0.75)
WORDS_PER_TOKEN = 0.75


def average_length(chunk_tokens: int) -> float:
    """The fixed BM25 average document length (in words) for a store's chunk size."""
    return max(16.0, chunk_tokens * WORDS_PER_TOKEN)


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


def document_vectors(
    texts: Sequence[str], avgdl: float, words: Analyzer
) -> list[tuple[list[int], list[float]]]:
    """Sparse indices and BM25 term-frequency weights of each chunk's text."""
    vectors = []
    for text in texts:
        terms, length = words.terms(text)
        norm = K1 * (1.0 - B + B * length / avgdl)
        counts = Counter(terms)
        vectors.append(_vector({t: tf * (K1 + 1.0) / (tf + norm) for t, tf in counts.items()}))
    return vectors


def query_vector(text: str, words: Analyzer) -> tuple[list[int], list[float]] | None:
    """The query's terms with weight 1, or ``None`` if it has none."""
    terms = words.query_terms(text)
    return _vector(dict.fromkeys(terms, 1.0)) if terms else None


def coverage(query: str, text: str, words: Analyzer) -> float:
    """The share of the query's terms that occur in ``text``."""
    wanted = words.query_terms(query)
    if not wanted:
        return 0.0
    found = set(words.terms(text)[0])
    return sum(t in found for t in wanted) / len(wanted)
