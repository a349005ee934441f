"""Qdrant updates that fail in the middle, over real HTTP on loopback (docs/DESIGN.md §10).

A fault-injecting server (tests/helpers/qdrant_server.py) answers the product's ordinary connection
code. For every kind of failure — HTTP 500s, dropped connections, answers slower than the timeout —
at every step of an update (writing chunk points, copying unchanged ones, the commit itself), the
previous generation must stay served, the error must name the endpoint (and never the key), and the
next successful update must leave exactly one copy of every chunk. A fake embedder is enough here:
the storage is under test, not the model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.fakes import HashEmbedder
from tests.helpers.qdrant import create_qdrant_store, isolate_keyring
from tests.helpers.qdrant_server import FaultyQdrant

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.config.secrets import store_api_key
from kortty_rag.errors import RemoteStoreError
from kortty_rag.index import qdrant_connection, qdrant_update
from kortty_rag.index.factory import open_vector_store
from kortty_rag.index.qdrant_connection import ConnectionPolicy
from kortty_rag.models import Store
from kortty_rag.sync.session import StoreSession

KEY = "qk-fault-test-secret"
QUERIES = ["apples and pears", "volcano eruption lava", "topic three words", "fresh document"]


@pytest.fixture
def qdrant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultyQdrant]:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyrings.alt.file.PlaintextKeyring")
    # short timeouts and backoff so that a test takes seconds; several requests per update
    monkeypatch.setattr(
        qdrant_connection, "DEFAULT_POLICY", ConnectionPolicy(timeout=1, attempts=3, backoff=0.01)
    )
    monkeypatch.setattr(qdrant_update, "BATCH", 8)
    faulty = FaultyQdrant(api_key=KEY).start()
    yield faulty
    faulty.stop()


def write_docs(folder: Path) -> None:
    folder.mkdir(exist_ok=True)
    topics = ["apples and pears", "volcano eruption lava", "topic three words", "garden soil"]
    for i, topic in enumerate(topics * 2):
        (folder / f"doc{i}.txt").write_text(f"{topic} number {i}. " + f"{topic} filler " * 60)


def change_docs(folder: Path) -> None:
    (folder / "doc1.txt").write_text("a changed document about volcano eruption lava " * 30)
    (folder / "doc2.txt").unlink()
    (folder / "new.txt").write_text("a fresh document with new words " * 30)


def served(store: Store, embedder: HashEmbedder) -> dict[str, Any]:
    """Everything retrieval can see: documents, version, and every dense and lexical candidate
    of a few queries with its score (sorted, so that the order of equal scores does not matter)."""
    vectors = open_vector_store(store)
    sources = [s.id for s in store.sources]
    try:
        state: dict[str, Any] = {
            "documents": [(d.source_id, d.rel_path, d.sha256) for d in vectors.documents()],
            "version": vectors.version(),
        }
        for query in QUERIES:
            dense = vectors.search(embedder.embed_query(query), 100, sources)
            lexical = vectors.lexical_search(query, 100, sources)
            state[query] = [
                sorted((round(h.score, 4), h.chunk.chunk_id, h.chunk.rel_path) for h in hits)
                for hits in (dense, lexical)
            ]
    finally:
        vectors.close()
    return state


def refresh(store: Store, embedder: HashEmbedder) -> None:
    registry = StoreRegistry()
    with StoreSession(registry.get(store.id), registry=registry) as job:
        job.apply(job.review_refresh(), embedder)


def assert_clean(qdrant: FaultyQdrant, store: Store) -> None:
    """Exactly one point per served chunk: no duplicates, no stale or half-written generations."""
    points = [p.payload or {} for p in qdrant.points(store.settings["qdrant"]["collection"])]
    manifests = {p["source_id"]: p for p in points if p["kind"] == "manifest"}
    chunks = [p for p in points if p["kind"] == "chunk"]
    committed = {f"{sid}@{m['generation']}" for sid, m in manifests.items()}
    assert {c["sg"] for c in chunks} <= committed
    keys = Counter((c["source_id"], c["rel_path"], c["n"]) for c in chunks)
    assert all(n == 1 for n in keys.values())
    expected = sum(row[4] for m in manifests.values() for row in m["documents"])
    assert len(chunks) == expected
    assert sum(p["kind"] == "store" for p in points) == 1


def indexed_store(tmp_path: Path, qdrant: FaultyQdrant, embedder: HashEmbedder) -> Store:
    docs = tmp_path / "docs"
    write_docs(docs)
    registry = StoreRegistry()
    store = create_qdrant_store("Remote", embedder.identity, url=qdrant.url, registry=registry)
    store_api_key(store.id, KEY)
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources([docs]), embedder)
    change_docs(docs)
    return registry.get(store.id)


FAILURES = [
    # (request kind, action, requests of that kind let through first)
    ("upsert", "500", 2),
    ("upsert", "drop", 1),
    ("upsert", "slow", 2),
    ("copy", "500", 1),  # while copying the unchanged documents' points
    ("copy", "drop", 0),
    ("commit", "500", 0),
    ("commit", "drop", 0),
    ("commit", "slow", 0),  # applied, but every answer comes too late
]


@pytest.mark.parametrize(("kind", "action", "after"), FAILURES)
def test_failed_update_keeps_the_previous_generation(
    tmp_path: Path, qdrant: FaultyQdrant, kind: str, action: str, after: int
) -> None:
    embedder = HashEmbedder()
    store = indexed_store(tmp_path, qdrant, embedder)
    before = served(store, embedder)
    fault = qdrant.inject(kind, action, after=after, times=99, delay=1.5)
    with pytest.raises(RemoteStoreError) as caught:
        refresh(store, embedder)
    assert fault.fired == 3  # every try of one request failed: bounded retries, then the error
    error = caught.value
    assert qdrant.url in error.message and KEY not in str(error)
    assert "previous state of the store is still served" in error.hint
    qdrant.heal()
    if kind == "commit" and action == "slow":
        # the commit was applied each time, only its answers were lost: the new state is served
        assert served(store, embedder)["version"] == before["version"] + 1
    else:
        assert served(store, embedder) == before
    refresh(store, embedder)  # the next successful update
    after_state = served(store, embedder)
    paths = {Path(p).name for _, p, _ in after_state["documents"]}
    assert "new.txt" in paths and "doc2.txt" not in paths
    assert_clean(qdrant, store)


def test_transient_failures_are_retried_within_one_update(
    tmp_path: Path, qdrant: FaultyQdrant
) -> None:
    embedder = HashEmbedder()
    store = indexed_store(tmp_path, qdrant, embedder)
    before = served(store, embedder)
    for kind, action in (
        ("upsert", "500"),
        ("upsert", "drop"),
        ("copy", "slow"),
        ("commit", "lost"),
    ):
        qdrant.inject(kind, action, after=1 if kind == "upsert" else 0, times=1, delay=1.5)
    refresh(store, embedder)
    assert all(f.fired == 1 for f in qdrant.faults)
    after = served(store, embedder)
    assert after["version"] == before["version"] + 1
    assert "new.txt" in {Path(p).name for _, p, _ in after["documents"]}
    assert_clean(qdrant, store)


def test_cleanup_failure_after_commit_is_collected_later(
    tmp_path: Path, qdrant: FaultyQdrant
) -> None:
    embedder = HashEmbedder()
    store = indexed_store(tmp_path, qdrant, embedder)
    qdrant.inject("delete", "500", after=1, times=99)  # begin's cleanup passes, later ones fail
    refresh(store, embedder)  # committed; deleting the old generation failed (logged)
    chunks = [p.payload or {} for p in qdrant.points(store.settings["qdrant"]["collection"])]
    generations = {p["generation"] for p in chunks if p["kind"] == "chunk"}
    assert len(generations) == 2  # the old generation is left over, invisible
    assert served(store, embedder)["version"] == 2
    qdrant.heal()
    (Path(store.sources[0].path) / "doc3.txt").write_text("one more change " * 20)
    refresh(store, embedder)
    assert_clean(qdrant, store)


def test_wrong_key_is_reported_without_the_key(tmp_path: Path, qdrant: FaultyQdrant) -> None:
    embedder = HashEmbedder()
    store = indexed_store(tmp_path, qdrant, embedder)
    store_api_key(store.id, "qk-wrong-key")
    with pytest.raises(RemoteStoreError, match="did not accept the API key") as caught:
        refresh(store, embedder)
    assert "qk-wrong-key" not in str(caught.value) and KEY not in str(caught.value)
    assert qdrant.requests.count("collection") >= 1


def test_servers_without_idf_scoping_fall_back_to_global_idf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_keyring(monkeypatch, tmp_path / "keyring", "keyring.backends.null.Keyring")
    legacy = FaultyQdrant(legacy=True).start()
    try:
        embedder = HashEmbedder()
        docs = tmp_path / "docs"
        write_docs(docs)
        registry = StoreRegistry()
        store = create_qdrant_store("Old", embedder.identity, url=legacy.url, registry=registry)
        with StoreSession(store, registry=registry) as job:
            job.apply(job.review_new_sources([docs]), embedder)
        vectors = open_vector_store(registry.get(store.id))
        try:
            hits = vectors.lexical_search(
                "volcano lava", 50, [s.id for s in registry.get(store.id).sources]
            )
            assert {h.chunk.rel_path for h in hits} == {"doc1.txt", "doc5.txt"}
            assert vectors.scoped_idf is False  # type: ignore[attr-defined]
        finally:
            vectors.close()
    finally:
        legacy.stop()
