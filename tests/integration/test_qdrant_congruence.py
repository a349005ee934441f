"""Congruence: the same corpus and queries through a local store and a Qdrant store give the same
results, with the real starter model (docs/DESIGN.md §10, §11).

The Qdrant store runs on qdrant-client's embedded local mode — the same client API and query
semantics as a server, without one (no Qdrant server can be installed here; see the README). Both
stores are built by the ordinary sync job and searched by the ordinary retrieval service, so
everything above the vector store is the same code; what is compared is the stores themselves.
"""

from __future__ import annotations

import shutil
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.qdrant import EmbeddedQdrant, create_qdrant_store

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.index.factory import open_vector_store
from kortty_rag.models import Store
from kortty_rag.retrieval.fusion import FusionWeights
from kortty_rag.retrieval.search import RetrievalService, SearchOptions
from kortty_rag.sync.session import StoreSession

DATA = Path(__file__).parent.parent / "data"
QUESTIONS = [
    "how long should sourdough dough rise before baking?",
    "when do I plant tomato seedlings outside?",
    "what makes a volcano erupt?",
    "how do vaccines train the immune system?",
    "retry a failed request with exponential backoff",
    "debounce a function in javascript",
    "how to practise guitar chords",
    "training plan for a first marathon",
    "memoize remote lookups with an expiry",
    "cosmic inflation after the big bang",
]
KEYWORDS = ["zqx7_hkq_vv2", "sourdough starter", "JSONDecodeError", "lava", "backoff jitter"]


@pytest.fixture
def embedded(monkeypatch: pytest.MonkeyPatch) -> Iterator[EmbeddedQdrant]:
    qdrant = EmbeddedQdrant(monkeypatch)
    yield qdrant
    qdrant.close()


def corpus(tmp_path: Path) -> list[Path]:
    docs = tmp_path / "docs"
    shutil.copytree(DATA / "identifiers", docs)
    shutil.copytree(DATA / "corpus", tmp_path / "corpus")
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for name in ("json/decoder.py", "json/encoder.py", "sched.py", "bisect.py"):
        shutil.copyfile(stdlib / name, docs / name.replace("/", "_"))
    # one source per file; each file is one document, whose 2-excerpt cap cannot hide the ranking
    return sorted(docs.iterdir()) + sorted((tmp_path / "corpus").rglob("*.*"))


def build(store: Store, paths: list[Path]) -> Store:
    registry = StoreRegistry()
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources(paths))
    return registry.get(store.id)


def test_local_and_qdrant_stores_agree(
    tmp_path: Path, starter_model: InstalledModel, embedded: EmbeddedQdrant
) -> None:
    paths = corpus(tmp_path)
    registry = StoreRegistry()
    local = build(registry.create("Local", starter_model.identity()), paths)
    remote = build(create_qdrant_store("Remote", starter_model.identity()), paths)
    assert embedded.opened > 0  # the Qdrant store really went through the embedded client
    local_vectors, remote_vectors = open_vector_store(local), open_vector_store(remote)
    service = RetrievalService()
    try:
        docs = sorted((d.rel_path, d.sha256, d.chunk_count) for d in local_vectors.documents())
        assert (
            sorted((d.rel_path, d.sha256, d.chunk_count) for d in remote_vectors.documents())
            == docs
        )
        ids = {s.id: s.path for s in local.sources}
        by_path = {s.path: s.id for s in remote.sources}

        def same(hits_local: list, hits_remote: list) -> None:  # type: ignore[type-arg]
            left = [(by_path[ids[h.chunk.source_id]], h.chunk.rel_path) for h in hits_local]
            right = [(h.chunk.source_id, h.chunk.rel_path) for h in hits_remote]
            assert left == right
            # chunk ids hash the source id, so compare the chunks by their place in the file
            spans = [(h.chunk.start, h.chunk.end, h.chunk.page) for h in hits_local]
            assert [(h.chunk.start, h.chunk.end, h.chunk.page) for h in hits_remote] == spans

        embedder = service.resources(local, True)[1]
        assert embedder is not None
        for question in QUESTIONS:
            vector = embedder.embed_query(question)
            dense_local = local_vectors.search(vector, 5, list(ids))
            dense_remote = remote_vectors.search(vector, 5, list(by_path.values()))
            same(dense_local, dense_remote)  # identical top 5, in the same order
            for a, b in zip(dense_local, dense_remote, strict=True):
                assert b.score == pytest.approx(a.score, abs=1e-4)
            # the similarity of chunks beyond a search's candidates (what fusion reads for a
            # lexical-only match): from each backend's stored vectors, the search's own values
            exact_local = local_vectors.similarities(vector, [h.label for h in dense_local])
            exact_remote = remote_vectors.similarities(vector, [h.label for h in dense_remote])
            assert [exact_local[h.label] for h in dense_local] == pytest.approx(
                [h.score for h in dense_local], abs=1e-4
            )
            assert [exact_remote[h.label] for h in dense_remote] == pytest.approx(
                [h.score for h in dense_remote], abs=1e-4
            )
        for query in QUESTIONS + KEYWORDS:
            top_local = local_vectors.lexical_search(query, 3, list(ids))
            top_remote = remote_vectors.lexical_search(query, 3, list(by_path.values()))
            same(top_local[:1], top_remote[:1])  # the same best lexical match …
            assert len(top_local) == len(top_remote), query  # … the same chunks match at all …
            # … and nearly the same runners-up: the two BM25s differ only in the IDF formula and
            # the length normalisation (see kortty_rag.index.sparse), which reorders near ties of
            # weak matches, so each local runner-up must be among the remote top 6
            wider = remote_vectors.lexical_search(query, 6, list(by_path.values()))
            right = {(h.chunk.source_id, h.chunk.start) for h in wider}
            left = {(by_path[ids[h.chunk.source_id]], h.chunk.start) for h in top_local}
            assert left <= right, query
            for hit in top_local + top_remote:  # the relevance floor's lexical evidence
                assert hit.coverage is not None and 0.0 < hit.coverage <= 1.0
        rrf = SearchOptions(explain=True, weights=FusionWeights(0.7, 0.3, 60, "rrf"))
        for query in QUESTIONS + KEYWORDS:
            # rank fusion: the same excerpts in the same order, under the same limits: the same
            # context block
            results = [service.search(query, [store], options=rrf) for store in (local, remote)]
            left, right = ([(e.path, e.chunk.start) for e in r.excerpts] for r in results)
            assert left == right, query
            assert results[0].block == results[1].block
            assert results[0].used_tokens == results[1].used_tokens
            # the default convex fusion reads the BM25 scores themselves, which differ a little
            # between the backends: the same best excerpt and nearly the same others
            results = [service.search(query, [store]) for store in (local, remote)]
            left, right = ([(e.path, e.chunk.start) for e in r.excerpts] for r in results)
            assert left[:1] == right[:1] and len(left) == len(right), query
            assert len(set(left) & set(right)) >= len(left) - 1, query
    finally:
        service.close()
        local_vectors.close()
        remote_vectors.close()
