"""The generation/manifest logic of Qdrant stores, on qdrant-client's embedded (in-memory) mode.

What must hold (docs/DESIGN.md §10): nothing of an update is visible before its commit, a source switches from
its old to its new generation in one step, unchanged documents keep their stored vectors (copied,
never re-embedded), failed or crashed updates leave invisible points that the next update removes,
and a store never touches another store's points or another collection.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest
from qdrant_client import QdrantClient, models

from kortty_rag.errors import IncompatibleCollectionError, IncompatibleIndexError, UsageError
from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.index.qdrant import QdrantStore
from kortty_rag.index.qdrant_connection import QdrantConnection
from kortty_rag.index.qdrant_layout import (
    KIND_CHUNK,
    SourceManifest,
    chunk_point_id,
    default_collection,
    label_of,
    manifest_point_id,
    store_point_id,
    validate_collection,
)
from kortty_rag.models import Document, EmbeddingIdentity

DIMS = 8
IDENTITY = EmbeddingIdentity("fake", "0" * 64, DIMS, "mean", "", "", 64, 10)


@pytest.fixture
def client() -> Iterator[QdrantClient]:
    client = QdrantClient(location=":memory:")
    yield client
    client.close()


def open_store(
    client: QdrantClient,
    store_id: str = "store-1",
    identity: EmbeddingIdentity = IDENTITY,
    *,
    collection: str = "kb",
    ignore_active: bool = False,
) -> QdrantStore:
    connection = QdrantConnection(
        client, endpoint="embedded", collection=collection, embedded=True, owns_client=False
    )
    return QdrantStore(connection, store_id, identity, ignore_active=ignore_active)


def vectors_for(texts: list[str]) -> np.ndarray:
    """Deterministic unit vectors (one per text)."""
    rows = []
    for text in texts:
        rng = np.random.default_rng(abs(hash(text)) % 2**32)
        row = rng.normal(size=DIMS).astype(np.float32)
        rows.append(row / np.linalg.norm(row))
    return np.stack(rows)


def add(update: object, source: str, path: str, *texts: str) -> np.ndarray:
    chunks = [
        NewChunk(0, f"{path}-{i}", None, i * 10, i * 10 + 9, 5, t) for i, t in enumerate(texts)
    ]
    document = Document(source, path, f"sha-{path}-{'|'.join(texts)}", 100, "txt", len(texts))
    vectors = vectors_for(list(texts))
    update.add_document(document, chunks, vectors)  # type: ignore[attr-defined]
    return vectors


def chunk_points(
    client: QdrantClient, collection: str = "kb", **payload: str
) -> list[models.Record]:
    must = [models.FieldCondition(key="kind", match=models.MatchValue(value=KIND_CHUNK))] + [
        models.FieldCondition(key=k, match=models.MatchValue(value=v)) for k, v in payload.items()
    ]
    records, _ = client.scroll(
        collection, scroll_filter=models.Filter(must=must), limit=10_000, with_vectors=True
    )
    return records


def paths(store: QdrantStore, source_ids: list[str], query: np.ndarray) -> list[str]:
    return sorted(h.chunk.rel_path for h in store.search(query, 50, source_ids))


# -- layout -----------------------------------------------------------------------------------------


def test_point_ids_are_deterministic_and_distinct() -> None:
    assert chunk_point_id("s", "src", "g1", "a.txt", 0) == chunk_point_id(
        "s", "src", "g1", "a.txt", 0
    )
    ids = {
        chunk_point_id("s", "src", "g1", "a.txt", 0),
        chunk_point_id("s", "src", "g2", "a.txt", 0),
        chunk_point_id("s", "src", "g1", "a.txt", 1),
        chunk_point_id("s2", "src", "g1", "a.txt", 0),
        manifest_point_id("s", "src"),
        store_point_id("s"),
    }
    assert len(ids) == 6
    assert label_of(store_point_id("s")) == label_of(store_point_id("s"))


def test_manifest_payload_round_trip() -> None:
    docs = (
        Document("src", "a.pdf", "h1", 10, "pdf", 3, 2),
        Document("src", "b.md", "h2", 5, "md", 1),
    )
    manifest = SourceManifest("s", "src", "g1", 7, "key", docs)
    assert SourceManifest.from_payload(manifest.payload()) == manifest
    assert manifest.sg == "src@g1"


def test_collection_names() -> None:
    assert default_collection("Notes-1a2b3c") == "kortty_rag_notes_1a2b3c"
    assert validate_collection(" team-docs_2 ") == "team-docs_2"
    for bad in ("", "a/b", "has space", "x" * 256, "ü"):
        with pytest.raises(UsageError):
            validate_collection(bad)


# -- transactions -----------------------------------------------------------------------------------


def test_nothing_is_visible_before_the_commit(client: QdrantClient) -> None:
    store = open_store(client)
    update = store.begin()
    query = add(update, "src", "a.txt", "alpha one", "alpha two")[0]
    update._flush()  # as after a full batch
    assert store.documents() == [] and store.version() == 0
    assert store.search(query, 5, ["src"]) == []
    assert chunk_points(client)  # written, but not served
    update.commit()
    assert [d.rel_path for d in store.documents()] == ["a.txt"]
    assert store.version() == 1
    hits = store.search(query, 5, ["src"])
    assert hits[0].chunk.text == "alpha one" and hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert store.search(query, 5, ["other-source"]) == []


def test_unchanged_documents_keep_their_stored_vectors(client: QdrantClient) -> None:
    store = open_store(client)
    update = store.begin()
    kept = add(update, "src", "keep.txt", "kept text")
    add(update, "src", "change.txt", "old text", "old text two")
    update.commit()
    before = {r.payload["rel_path"]: r for r in chunk_points(client)}  # type: ignore[index]

    update = store.begin()
    assert update.remove_document("src", "change.txt") == 2
    add(update, "src", "change.txt", "new text")
    update.commit()
    after = chunk_points(client)
    assert sorted(r.payload["rel_path"] for r in after) == ["change.txt", "keep.txt"]  # type: ignore[index]
    copy = next(r for r in after if r.payload["rel_path"] == "keep.txt")  # type: ignore[index]
    assert copy.payload["generation"] != before["keep.txt"].payload["generation"]  # type: ignore[index]
    assert np.allclose(copy.vector["dense"], kept[0], atol=1e-6)  # type: ignore[index,call-overload]
    assert copy.vector["lexical"] == before["keep.txt"].vector["lexical"]  # type: ignore[index,call-overload]
    assert store.version() == 2
    # exactly the served points remain: the chunks, one manifest, the store marker
    assert client.count("kb").count == 2 + 1 + 1


def test_abort_keeps_the_previous_generation(client: QdrantClient) -> None:
    store = open_store(client)
    update = store.begin()
    query = add(update, "src", "a.txt", "first")[0]
    update.commit()
    update = store.begin()
    update.remove_source("src")
    add(update, "src", "b.txt", "second")
    update.abort()
    assert [d.rel_path for d in store.documents()] == ["a.txt"]
    assert paths(store, ["src"], query) == ["a.txt"]
    assert store.version() == 1
    assert len(chunk_points(client)) == 1  # what the aborted update wrote is gone


def test_a_crashed_update_is_invisible_and_cleaned_up_by_the_next(client: QdrantClient) -> None:
    store = open_store(client)
    update = store.begin()
    query = add(update, "src", "a.txt", "first")[0]
    update.commit()
    crashed = store.begin()
    add(crashed, "src", "a.txt", "rewritten")
    add(crashed, "src", "b.txt", "new")
    crashed._flush()  # the process dies here: points written, no commit, no abort
    assert len(chunk_points(client)) == 3
    reopened = open_store(client)
    assert paths(reopened, ["src"], query) == ["a.txt"]
    assert [h.chunk.text for h in reopened.search(query, 5, ["src"])] == ["first"]
    reopened.begin().commit()  # the next update (even one that changes nothing) cleans up
    assert len(chunk_points(client)) == 1
    assert reopened.version() == 1  # and a commit without changes activates nothing


def test_failure_while_committing_keeps_the_old_generation(
    client: QdrantClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(client)
    update = store.begin()
    query = add(update, "src", "a.txt", "first")[0]
    add(update, "src", "b.txt", "second")
    update.commit()
    update = store.begin()
    add(update, "src", "c.txt", "third")
    calls = {"n": 0}
    real_upsert = store.connection.upsert

    def failing_upsert(what: str, points: list[models.PointStruct]) -> None:
        calls["n"] += 1
        if what == "commit the update":
            raise RuntimeError("connection lost")
        real_upsert(what, points)

    monkeypatch.setattr(store.connection, "upsert", failing_upsert)
    with pytest.raises(RuntimeError):
        update.commit()
    update.abort()  # the pipeline aborts; the commit's outcome is unknown, so nothing is deleted
    monkeypatch.undo()
    assert paths(store, ["src"], query) == ["a.txt", "b.txt"]
    assert store.version() == 1
    store.begin().commit()
    assert len(chunk_points(client)) == 2  # the uncommitted copy and c.txt were collected


def test_add_then_remove_within_one_update_leaves_nothing(client: QdrantClient) -> None:
    store = open_store(client)
    update = store.begin()
    add(update, "src", "a.txt", "one", "two", "three")
    update._flush()
    add(update, "src", "a.txt", "only one now")  # replaced within the same update
    add(update, "src", "gone.txt", "temporary")
    update.remove_document("src", "gone.txt")
    update.commit()
    assert sorted(r.payload["text"] for r in chunk_points(client)) == ["only one now"]  # type: ignore[index]
    assert [(d.rel_path, d.chunk_count) for d in store.documents()] == [("a.txt", 1)]


def test_removing_a_source_drops_its_manifest_and_points(client: QdrantClient) -> None:
    store = open_store(client)
    update = store.begin()
    query = add(update, "one", "a.txt", "alpha")[0]
    add(update, "two", "b.txt", "beta")
    update.commit()
    update = store.begin()
    assert update.remove_source("one") == 1
    update.commit()
    assert [d.source_id for d in store.documents()] == ["two"]
    assert store.search(query, 5, ["one"]) == []
    assert client.retrieve("kb", [manifest_point_id("store-1", "one")]) == []
    assert {r.payload["source_id"] for r in chunk_points(client)} == {"two"}  # type: ignore[index]


def test_stores_sharing_a_collection_stay_apart(client: QdrantClient) -> None:
    first, second = open_store(client, "first"), open_store(client, "second")
    for store, text in ((first, "shared words first"), (second, "shared words second")):
        update = store.begin()
        add(update, "src", "doc.txt", text)
        update.commit()
    client.create_collection(
        "someone-else", vectors_config=models.VectorParams(size=3, distance=models.Distance.DOT)
    )
    query = vectors_for(["shared words first"])[0]
    assert [h.chunk.text for h in first.search(query, 5, ["src"])] == ["shared words first"]
    assert [h.chunk.text for h in first.lexical_search("shared", 5, ["src"])] == [
        "shared words first"
    ]
    assert first.delete_store_points(["src"]) == 1
    assert first.documents() == [] and first.version() == 0
    assert [d.rel_path for d in second.documents()] == ["doc.txt"]
    assert len(chunk_points(client)) == 1 and client.count("kb").count == 3
    assert client.collection_exists("kb") and client.collection_exists("someone-else")


def test_another_embedding_configuration_is_refused(client: QdrantClient) -> None:
    store = open_store(client)
    update = store.begin()
    add(update, "src", "a.txt", "alpha")
    update.commit()
    other = replace(IDENTITY, model_id="other-model")
    with pytest.raises(IncompatibleIndexError, match="other embedding configuration"):
        open_store(client, identity=other)
    # a rebuild starts from nothing and serves nothing of the old model until it commits
    rebuild = open_store(client, identity=other, ignore_active=True)
    assert rebuild.documents() == [] and rebuild.version() == 0
    update = rebuild.begin()
    assert update.documents() == []
    add(update, "src", "b.txt", "beta")
    update.commit()
    assert [d.rel_path for d in open_store(client, identity=other).documents()] == ["b.txt"]
    assert len(chunk_points(client)) == 1
    assert rebuild.version() == 2


@pytest.mark.parametrize(
    ("vectors", "problem"),
    [
        (models.VectorParams(size=DIMS, distance=models.Distance.COSINE), "unnamed vector"),
        ({"dense": models.VectorParams(size=4, distance=models.Distance.COSINE)}, "4 dimensions"),
        ({"dense": models.VectorParams(size=DIMS, distance=models.Distance.DOT)}, "Dot distance"),
    ],
)
def test_a_mismatched_collection_is_refused_and_left_alone(
    client: QdrantClient, vectors: object, problem: str
) -> None:
    client.create_collection("kb", vectors_config=vectors)  # type: ignore[arg-type]
    client.upsert("kb", [models.PointStruct(id=1, vector={}, payload={"theirs": True})])
    config = client.get_collection("kb").config
    with pytest.raises(IncompatibleCollectionError, match=problem) as caught:
        open_store(client)
    assert "left unchanged" in caught.value.message
    assert client.get_collection("kb").config == config
    assert client.count("kb").count == 1
