"""Lexical coverage: the share of a query's distinct content terms that occur in a chunk.

The relevance floor (:mod:`kortty_rag.retrieval.relevance`) accepts a lexical match as evidence
only when it covers enough of the query. Terms are chosen and folded exactly as the lexical index
does: the query's terms with stopwords dropped (:func:`kortty_rag.index.lexical.query_terms`), each
tokenized by FTS5's own ``porter unicode61 remove_diacritics 2`` tokenizer
(:class:`kortty_rag.index.sparse.Fts5Tokenizer`), so "keys" and "key" are one term. An identifier
such as ``snake_case`` is one term that counts when all of its parts occur.

Interim: a lexical engine that knows the coverage of its hits fills :attr:`kortty_rag.models.Hit.coverage`
itself; retrieval calls :func:`coverage` only for lexical hits that do not carry it.
"""

from __future__ import annotations

from functools import cache

from kortty_rag.index.lexical import query_terms
from kortty_rag.index.sparse import Fts5Tokenizer


@cache
def _shared_tokenizer() -> Fts5Tokenizer:
    return Fts5Tokenizer()  # thread-safe: it serialises its own calls


def coverage(query: str, text: str) -> float:
    """The share (0..1) of ``query``'s distinct content terms that occur in ``text``; 0.0 when the
    query has no terms."""
    terms = query_terms(query)
    if not terms:
        return 0.0
    *tokenized, words = _shared_tokenizer().terms([*terms, text])
    distinct = {tuple(tokens) for tokens in tokenized if tokens}
    if not distinct:
        return 0.0
    present = set(words)
    found = sum(1 for term in distinct if all(token in present for token in term))
    return found / len(distinct)
