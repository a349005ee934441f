"""The BM25 index inside the snapshot: built incrementally, queried safely, persisted."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from tests.helpers.fakes import HashEmbedder

from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.index.lexical import match_query
from kortty_rag.index.local import LocalStore
from kortty_rag.index.snapshot import SNAPSHOTS, read_pointer
from kortty_rag.models import Document

IDENTITY = HashEmbedder().identity
TEXTS = {
    "retry.py": "def fetch_with_backoff(url, attempts):\n    return urllib.request.urlopen(url)",
    "notes.md": "Running shoes should be replaced every 800 kilometres of running.",
    "cafe.txt": "Le café crème était délicieux.",
    "mix.txt": "The parser uses os.path.join and pathlib to build paths.",
}


def build(folder: Path, texts: dict[str, str], source: str = "s1") -> LocalStore:
    store = LocalStore(folder, IDENTITY)
    update = store.begin()
    embedder = HashEmbedder()
    for name, text in texts.items():
        update.add_document(
            Document(source, name, f"sha-{name}", len(text), "Text", 1),
            [NewChunk(0, f"id-{name}", None, 0, len(text), 10, text)],
            embedder.embed_documents([text]),
        )
    update.commit()
    return store


def names(store: LocalStore, query: str, sources: list[str] | None = None) -> list[str]:
    return [h.chunk.rel_path for h in store.lexical_search(query, 5, sources or ["s1", "s2"])]


def test_exact_identifiers_and_stemming(tmp_path: Path) -> None:
    store = build(tmp_path, TEXTS)
    assert names(store, "fetch_with_backoff") == ["retry.py"]
    assert names(store, "os.path.join") == ["mix.txt"]
    assert names(store, "runner runs")[0] == "notes.md"  # Porter stemming
    assert names(store, "cafe creme") == ["cafe.txt"]  # diacritics folded
    assert "mix.txt" in names(store, "the and")  # a query of only stopwords still searches them
    hits = store.lexical_search("running shoes", 5, ["s1"])
    assert hits[0].score > 0


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        "NEAR(a b)",
        "a AND OR NOT b",
        "col:value",
        "*",
        "^x",
        "')); DROP TABLE chunks; --",
        "\x00",
        "🙂 emoji",
    ],
)
def test_hostile_queries_are_plain_terms(tmp_path: Path, query: str) -> None:
    store = build(tmp_path, TEXTS)
    store.lexical_search(query, 5, ["s1"])  # never a syntax error
    expression = match_query(query)
    assert expression is None or all(part.startswith('"') for part in expression.split(" OR "))


def test_source_filter_and_incremental_updates(tmp_path: Path) -> None:
    store = build(tmp_path, TEXTS)
    build_more = store.begin()
    build_more.add_document(
        Document("s2", "other.py", "sha", 10, "Python", 1),
        [NewChunk(0, "x", None, 0, 10, 3, "def fetch_with_backoff(): pass")],
        np.ones((1, IDENTITY.dimensions), np.float32),
    )
    build_more.remove_document("s1", "notes.md")
    build_more.commit()
    assert names(store, "fetch_with_backoff", ["s2"]) == ["other.py"]
    assert sorted(names(store, "fetch_with_backoff")) == ["other.py", "retry.py"]
    assert names(store, "running shoes") == []  # removed from the lexical index too


def test_format_1_snapshot_is_migrated_atomically(kortty_home: Path) -> None:
    fixture = Path(__file__).parents[2] / "data" / "snapshot-format-1" / "legacy-209b39"
    folder = kortty_home / "rag" / "stores" / fixture.name
    shutil.copytree(fixture, folder)
    old = read_pointer(folder)
    store = LocalStore(folder, IDENTITY)
    assert store.snapshot is not None and store.snapshot.manifest.format == 2
    new = read_pointer(folder)
    assert new is not None and old is not None and new[0] != old[0]
    assert [p.name for p in (folder / SNAPSHOTS).iterdir()] == [new[0]]
    assert sorted(d.rel_path for d in store.documents()) == [
        "lighthouse.txt",
        "report.md",
        "widget.py",
    ]
    assert names(store, "frobnicate_widget", [store.documents()[0].source_id]) == ["widget.py"]
    vector = HashEmbedder().embed_query("lighthouse keeper lens")
    assert (
        store.search(vector, 1, {d.source_id for d in store.documents()})[0].chunk.rel_path
        == "lighthouse.txt"
    )


@pytest.mark.parametrize(
    ("damage", "read"),
    [
        ("UPDATE chunks SET \"end\" = 'damaged'", "chunks"),
        ("UPDATE documents SET size = 'damaged'", "documents"),
        ("UPDATE chunks SET page = 'seven'", "chunks"),
    ],
)
def test_wrong_typed_values_are_a_damaged_snapshot(tmp_path: Path, damage: str, read: str) -> None:
    """SQLite keeps whatever a damaged record holds (text in an INTEGER column, for one); a reader
    that trusted the types failed with a raw TypeError (found by the corruption soak)."""
    import sqlite3

    from kortty_rag.errors import SnapshotError
    from kortty_rag.index.chunkdb import ChunkReader

    build(tmp_path / "store", TEXTS).close()
    path = tmp_path / "store" / SNAPSHOTS / read_pointer(tmp_path / "store")[0] / "chunks.sqlite"  # type: ignore[index]
    db = sqlite3.connect(path)
    with db:
        db.execute(damage)
    db.close()
    reader = ChunkReader(path)
    try:
        with pytest.raises(SnapshotError, match="damaged"):
            if read == "chunks":
                reader.chunks(range(10))
            else:
                reader.documents()
    finally:
        reader.close()
