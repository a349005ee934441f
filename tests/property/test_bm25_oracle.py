"""The local lexical index scores exactly as an independent BM25 implementation does.

The oracle is the bm25s library (``method="lucene"``, the same k1 and b), given the same term lists
the product's analyzer makes: what is judged is the inverted index, its incremental updates, the
source filter and the scoring — not the analyzer, which both sides share on purpose. The index is
written reading the chunks in one batch or in batches of a few (each batch's postings placed among
those of the batches before, as a large store's are).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

import bm25s
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers.fakes import HashEmbedder

from kortty_rag.index import bm25
from kortty_rag.index.analysis import analyzer
from kortty_rag.index.bm25 import K1, B
from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.index.local import LocalStore
from kortty_rag.models import Document

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "kilo"]
IDENTITY = HashEmbedder().identity
ENGLISH = analyzer("en")

documents = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=30).map(" ".join),
    min_size=1,
    max_size=25,
)
queries = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


def index(folder: Path, texts: list[str], removed: set[int]) -> LocalStore:
    """Index ``texts`` in two snapshots (half, then the rest and the removals): incremental."""
    store = LocalStore(folder, IDENTITY, language="en")
    embedder = HashEmbedder()
    half = len(texts) // 2
    for part in (range(half), range(half, len(texts))):
        update = store.begin()
        for i in part:
            update.add_document(
                Document(f"s{i % 2}", f"d{i}.txt", f"sha{i}", 10, "Text", 1),
                [NewChunk(0, f"c{i}", None, 0, len(texts[i]), 10, texts[i])],
                embedder.embed_documents([texts[i]]),
            )
        if part.start == half:
            for i in removed:
                update.remove_document(f"s{i % 2}", f"d{i}.txt")
        update.commit()
    return store


@settings(max_examples=150, deadline=None)
@given(
    documents,
    queries,
    st.sets(st.integers(0, 24), max_size=5),
    st.booleans(),
    st.sampled_from([bm25._BATCH, 1, 3]),
)
def test_scores_equal_bm25s(
    texts: list[str], query: str, removed: set[int], one_source: bool, batch: int
) -> None:
    removed = {i for i in removed if i < len(texts)}
    kept = [i for i in range(len(texts)) if i not in removed]
    sources = ["s0"] if one_source else ["s0", "s1"]
    with tempfile.TemporaryDirectory() as tmp:
        with mock.patch.object(bm25, "_BATCH", batch):
            store = index(Path(tmp), texts, removed)
        hits = store.lexical_search(query, len(texts), sources)
        store.close()
    if not kept:
        assert hits == []
        return
    oracle = bm25s.BM25(method="lucene", k1=K1, b=B)
    oracle.index([ENGLISH.terms(texts[i])[0] for i in kept], show_progress=False)
    terms = ENGLISH.query_terms(query)
    # bm25s scores a query token list against the whole corpus
    expected = np.asarray(oracle.get_scores(terms), dtype=np.float64)
    want = {
        f"d{i}.txt": float(expected[n])
        for n, i in enumerate(kept)
        if expected[n] > 0 and f"s{i % 2}" in sources
    }
    got = {h.chunk.rel_path: h.score for h in hits}
    assert got.keys() == want.keys()
    for name, score in want.items():
        assert abs(got[name] - score) <= 1e-4 * max(1.0, score), (name, got[name], score)
    ordered = [h.score for h in hits]
    assert ordered == sorted(ordered, reverse=True)
