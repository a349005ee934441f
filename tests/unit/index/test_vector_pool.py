"""Retired vectors (docs/DESIGN.md §9): kept once per content, reused, and collected — past the grace
period, and the oldest beyond the cap — so a store does not grow without bound."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from kortty_rag.index import vector_pool
from kortty_rag.index.chunkdb import ChunkWriter, NewChunk
from kortty_rag.index.local import LocalStore
from kortty_rag.index.vector_pool import GRACE_DAYS, StoredChunk, VectorPool, text_sha
from kortty_rag.models import Document, EmbeddingIdentity

DIM = 8
IDENTITY = EmbeddingIdentity("fake", "0" * 64, DIM, "mean", "", "", 64, 10)
NOW = datetime(2026, 6, 1, tzinfo=UTC)


def unit(seed: int, n: int = 1) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def pool(tmp_path: Path) -> VectorPool:
    writer = ChunkWriter(tmp_path / "chunks.sqlite", DIM)
    return writer.pool


def chunks(text: str, n: int) -> list[StoredChunk]:
    return [StoredChunk(None, i * 10, i * 10 + 9, 3, f"{text} {i}", "") for i in range(n)]


def doc(sha: str, n: int) -> Document:
    return Document("src-1", f"{sha}.txt", sha, 100, "text", n)


def when(days_ago: float) -> str:
    return (NOW - timedelta(days=days_ago)).replace(microsecond=0).isoformat()


def test_retired_document_is_kept_once_and_found_by_content(tmp_path: Path) -> None:
    p = pool(tmp_path)
    vectors = unit(1, 3)
    p.retire(doc("a" * 64, 3), chunks("alpha", 3), vectors, when(1))
    p.retire(doc("a" * 64, 3), chunks("alpha", 3), unit(2, 3), when(0))  # same content again
    assert p.retired_chunks() == 3
    match = p.retired_document("a" * 64, "text")
    assert match is not None and match.vectors is not None
    np.testing.assert_array_equal(match.vectors, vectors)  # the first copy kept, not replaced
    assert [c.text for c in match.chunks] == ["alpha 0", "alpha 1", "alpha 2"]
    assert p.retired_document("a" * 64, "markdown") is None  # another format cuts other chunks
    found = p.retired_vector(text_sha("", "alpha 1"))
    assert found is not None
    np.testing.assert_array_equal(found, vectors[1])
    assert p.retired_vector(text_sha("Heading", "alpha 1")) is None  # the heading is embedded too


def test_grace_period_and_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_pool, "MIN_RETIRED_CAP", 10)
    p = pool(tmp_path)
    p.retire(doc("o" * 64, 4), chunks("old", 4), unit(3, 4), when(GRACE_DAYS + 1))
    p.retire(doc("b" * 64, 4), chunks("b", 4), unit(4, 4), when(3))
    p.retire(doc("c" * 64, 4), chunks("c", 4), unit(5, 4), when(2))
    p.retire(doc("d" * 64, 4), chunks("d", 4), unit(6, 4), when(1))
    assert p.retired_chunks() == 16
    dropped = p.collect(live=0, now=NOW)
    # past the grace period: gone; then the oldest until at most the cap (10) is left
    assert dropped == 8 and p.retired_chunks() == 8
    assert p.retired_document("o" * 64, "text") is None
    assert p.retired_document("b" * 64, "text") is None
    assert p.retired_document("d" * 64, "text") is not None
    # the cap follows the most live chunks the store ever had
    p.retire(doc("e" * 64, 12), chunks("e", 12), unit(7, 12), when(0))
    assert p.collect(live=25, now=NOW) == 0
    assert p.collect(live=0, now=NOW) == 0  # 25 live once: 20 retired still fit
    assert p.retired_chunks() == 20


def test_damaged_vector_blob_is_not_reused(tmp_path: Path) -> None:
    path = tmp_path / "chunks.sqlite"
    writer = ChunkWriter(path, DIM)
    writer.pool.retire(doc("a" * 64, 2), chunks("alpha", 2), unit(1, 2), when(0))
    writer.finish(vacuum=False)
    db = sqlite3.connect(path)
    db.execute("UPDATE retired_chunks SET vector = x'0011' WHERE ordinal = 1")
    db.commit()
    db.close()
    p = ChunkWriter(path, DIM).pool
    assert p.retired_vector(text_sha("", "alpha 1")) is None
    assert p.retired_vector(text_sha("", "alpha 0")) is not None
    assert p.retired_document("a" * 64, "text") is None  # a document is reused whole or not at all


def test_old_chunk_rows_get_their_address(tmp_path: Path) -> None:
    """A chunk table written before content addresses (or by an older version after it) is
    addressed when the next snapshot is built from it."""
    path = tmp_path / "chunks.sqlite"
    writer = ChunkWriter(path, DIM)
    writer.add_document(
        Document("s", "a.txt", "a" * 64, 1, "text", 1),
        "now",
        [NewChunk(0, "id", None, 0, 5, 2, "hello")],
    )
    writer.finish(vacuum=False)
    db = sqlite3.connect(path)
    db.execute("UPDATE chunks SET text_sha = NULL")
    db.commit()
    db.close()
    assert ChunkWriter(path, DIM).pool.live_label(text_sha("", "hello")) == 0


def test_snapshot_builder_reuses_removed_vectors_across_activations(tmp_path: Path) -> None:
    """Removed in one activation, reused in a later one: the pool lives inside the snapshot."""
    store = LocalStore(tmp_path / "store", IDENTITY)
    vectors = unit(9, 2)
    document = Document("s", "a.txt", "a" * 64, 10, "text", 2)
    new = [NewChunk(0, f"id{i}", None, i, i + 1, 1, f"text {i}") for i in range(2)]
    update = store.begin()
    update.add_document(document, new, vectors)
    update.commit()
    update = store.begin()
    update.remove_source("s")
    update.commit()
    assert store.documents() == []
    update = store.begin()
    reused = update.reuse_document(
        Document("t", "b.txt", "a" * 64, 10, "text", 0), lambda c: f"new-{c.start}"
    )
    assert reused == 2
    assert update.vector_for(text_sha("", "text 1")) is not None  # live again
    update.commit()
    (found,) = store.documents()
    assert (found.source_id, found.rel_path, found.chunk_count) == ("t", "b.txt", 2)
    hits = store.search(vectors[1], 1, ["t"])
    assert hits[0].chunk.text == "text 1" and hits[0].score == pytest.approx(1.0, abs=1e-5)
    snapshot = store.snapshot
    assert snapshot is not None
    store.close()
