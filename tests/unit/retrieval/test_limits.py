"""Retrieval limits and explanations with a fake vector store."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import numpy as np
import pytest
from tests.helpers.fakes import HashEmbedder, SearchOnlyVectors

from kortty_rag.models import Chunk, Hit, Source, SourceKind, Store, StoreType
from kortty_rag.retrieval.context import estimate_tokens, structure_of
from kortty_rag.retrieval.search import (
    DROP_BELOW_FLOOR,
    DROP_BUDGET,
    DROP_DISABLED,
    DROP_TOTAL,
    RetrievalLimits,
    SearchOptions,
    retrieve,
)


class FakeVectors(SearchOnlyVectors):
    """Every source has 5 chunks of ``words`` words, each a document of its own; dense and lexical
    rank them differently. Dense similarities are above every relevance floor."""

    def __init__(self, sources: list[Source], words: int = 120) -> None:
        self.chunks: list[Chunk] = []
        for s in sources:
            for j in range(5):
                text = f"{s.id} chunk {j} " + "lorem ipsum " * (words // 2)
                self.chunks.append(
                    Chunk(f"{s.id}-{j}", s.id, f"doc{j}.txt", None, 0, len(text), words, text)
                )
        self.calls: list[str] = []

    def _hits(self, source_ids: Collection[str], k: int, reverse: bool) -> list[Hit]:
        pool = [c for c in self.chunks if c.source_id in source_ids]
        pool.sort(key=lambda c: c.chunk_id, reverse=reverse)
        return [Hit(self.chunks.index(c), c, 0.9 - 0.005 * i) for i, c in enumerate(pool[:k])]

    def search(self, vector: np.ndarray, k: int, source_ids: Collection[str]) -> list[Hit]:
        self.calls.append("dense")
        return self._hits(source_ids, k, reverse=False)

    def lexical_search(self, query: str, k: int, source_ids: Collection[str]) -> list[Hit]:
        self.calls.append("lexical")
        return self._hits(source_ids, k, reverse=True)


def make_store(n_sources: int, enabled: int | None = None) -> Store:
    sources = tuple(
        Source(
            id=f"s{i}",
            path=f"/data/s{i}",
            kind=SourceKind.FOLDER,
            enabled=enabled is None or i < enabled,
        )
        for i in range(n_sources)
    )
    return Store(
        id="st",
        name="Big",
        type=StoreType.LOCAL,
        embedding=HashEmbedder().identity,
        sources=sources,
    )


def run(store: Store, vectors: FakeVectors, **kwargs: object):  # type: ignore[no-untyped-def]
    embedder = HashEmbedder()
    return retrieve(
        "query", [store], lambda s, dense: (vectors, embedder if dense else None), **kwargs
    )  # type: ignore[arg-type]


def test_at_most_six_excerpts_in_fused_order() -> None:
    store = make_store(10)
    vectors = FakeVectors(list(store.sources), words=40)
    result = run(store, vectors, options=SearchOptions(explain=True))
    assert len(result.excerpts) == 6
    reasons = {d.reason for d in result.dropped}
    # one document per chunk here; chunks only the lexical part found have no evidence of relevance
    assert reasons == {DROP_TOTAL, DROP_BELOW_FLOOR}
    assert [e.marker for e in result.excerpts] == [f"R{i}" for i in range(1, 7)]
    fused = [e.candidate.fused for e in result.excerpts]
    assert fused == sorted(fused, reverse=True)
    assert structure_of(result.block).markers.count("[R6]") == 1


def test_token_budget_of_4000_and_25_percent_of_the_context() -> None:
    store = make_store(10)
    vectors = FakeVectors(list(store.sources), words=900)  # ~1,800 estimated tokens each
    result = run(store, vectors, options=SearchOptions(explain=True))
    assert result.budget_tokens == 4000 and result.used_tokens <= 4000
    assert len(result.excerpts) == 2
    assert DROP_BUDGET in {d.reason for d in result.dropped}
    small = run(store, vectors, context_window=8192, options=SearchOptions(explain=True))
    assert small.budget_tokens == 2048 and small.used_tokens <= 2048 and len(small.excerpts) == 1
    tiny = run(store, vectors, context_window=4096)
    assert tiny.budget_tokens == 1024 and tiny.excerpts == () and tiny.block == ""


def test_explanation_has_ranks_and_scores() -> None:
    rrf = {"retrieval": {"fusion": "rrf", "dense_weight": 0.7, "rrf_k": 60}}
    store = replace(make_store(3), settings=rrf)
    result = run(store, FakeVectors(list(store.sources), words=20))
    first = result.excerpts[0].candidate
    assert first.dense_rank is not None and first.lexical_rank is not None
    assert first.dense_score is not None and first.lexical_score is not None
    assert first.fused == pytest.approx(
        0.7 / (60 + first.dense_rank) + 0.3 / (60 + first.lexical_rank)
    )


def test_disabled_sources_are_never_retrieved() -> None:
    store = make_store(4, enabled=2)
    vectors = FakeVectors(list(store.sources), words=20)
    result = run(store, vectors, options=SearchOptions(explain=True))
    assert {e.candidate.source.id for e in result.excerpts} <= {"s0", "s1"}
    disabled = [d for d in result.dropped if d.reason == DROP_DISABLED]
    assert disabled and {d.candidate.source.id for d in disabled} <= {"s2", "s3"}
    assert "s2 chunk" not in result.block and "s3 chunk" not in result.block


def test_parts_can_be_switched_off_per_query_and_per_store() -> None:
    store = make_store(2)
    vectors = FakeVectors(list(store.sources), words=20)
    dense_only = run(store, vectors, options=SearchOptions(lexical=False))
    assert vectors.calls == ["dense"] and all(
        e.candidate.lexical_rank is None for e in dense_only.excerpts
    )
    vectors.calls.clear()
    run(store, vectors, options=SearchOptions(dense=False))
    assert vectors.calls == ["lexical"]
    vectors.calls.clear()
    lexical_store = replace(store, settings={"retrieval": {"dense": False}})
    run(lexical_store, vectors)
    assert vectors.calls == ["lexical"]


def test_limits_never_exceeded_with_many_stores_and_long_chunks() -> None:
    stores = [replace(make_store(6), id=f"st{i}", name=f"S{i}") for i in range(4)]
    vectors = FakeVectors(list(stores[0].sources), words=300)
    embedder = HashEmbedder()
    for window in (None, 2048, 8192, 32768):
        result = retrieve(
            "q",
            stores,
            lambda s, dense: (vectors, embedder),
            context_window=window,
            limits=RetrievalLimits(),
        )
        assert len(result.excerpts) <= 6 and result.used_tokens <= result.budget_tokens
        assert estimate_tokens(result.block) <= result.budget_tokens
