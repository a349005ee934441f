"""The BM25 index inside the snapshot: built incrementally, queried safely, persisted, migrated."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from tests.helpers.fakes import HashEmbedder

from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.index.local import LocalStore
from kortty_rag.index.snapshot import FORMAT_VERSION, SNAPSHOTS, read_pointer
from kortty_rag.models import Document

IDENTITY = HashEmbedder().identity
TEXTS = {
    "retry.py": "def fetch_with_backoff(url, attempts):\n    return urllib.request.urlopen(url)",
    "notes.md": "Running shoes should be replaced every 800 kilometres of running.",
    "cafe.txt": "Le café crème était délicieux.",
    "mix.txt": "The parser uses os.path.join and pathlib to build paths.",
}


def build(
    folder: Path, texts: dict[str, str], source: str = "s1", language: str = "en"
) -> LocalStore:
    store = LocalStore(folder, IDENTITY, language=language)
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
    assert names(store, "run replacing")[0] == "notes.md"  # Snowball stemming
    assert names(store, "cafe creme") == ["cafe.txt"]  # diacritics folded
    assert names(store, "the and") == []  # stopwords are not indexed: nothing to find
    hits = store.lexical_search("running shoes", 5, ["s1"])
    assert hits[0].score > 0 and hits[0].coverage == 1.0


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
    hits = store.lexical_search(query, 5, ["s1"])  # plain terms: no syntax, no error
    assert all(h.chunk.rel_path in TEXTS for h in hits)
    assert {h.chunk.rel_path for h in store.lexical_search(query + " backoff", 5, ["s1"])} >= {
        "retry.py"
    }


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
    assert store.snapshot is not None and store.snapshot.manifest.format == FORMAT_VERSION
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


def test_format_2_snapshot_is_migrated_to_the_analyzer_index(tmp_path: Path) -> None:
    """Format 2 kept an FTS5 table; opening it builds the analyzer's index from the chunk texts (no
    embedding), activates it atomically and drops the FTS5 table."""
    import sqlite3

    fixture = Path(__file__).parents[2] / "data" / "snapshot-format-2" / "legacy-3c5e71"
    folder = tmp_path / fixture.name
    shutil.copytree(fixture, folder)
    old = read_pointer(folder)
    store = LocalStore(folder, IDENTITY)
    assert store.snapshot is not None and store.snapshot.manifest.format == FORMAT_VERSION
    new = read_pointer(folder)
    assert old is not None and new is not None and new[0] != old[0]
    assert [p.name for p in (folder / SNAPSHOTS).iterdir()] == [new[0]]
    assert names(store, "frobnicate_widget", ["src-v2docs"]) == ["widget.py"]
    assert names(store, "lighthouse keepers", ["src-v2docs"]) == ["lighthouse.txt"]
    db = sqlite3.connect(folder / SNAPSHOTS / new[0] / "chunks.sqlite")
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    db.close()
    assert "chunks_fts" not in tables and "lexical_terms" in tables
    store.close()


GERMAN = {
    "schluessel.md": "Die Schlüssel für die Sicherung werden jeden Monat gewechselt.",
    "kuchen.md": "Der Kuchen braucht drei Eier und eine Stunde im Ofen.",
    "server.md": "Der Server startet nach jedem Update neu und prüft die Festplatten.",
}


def test_german_store_is_detected_and_stemmed(tmp_path: Path) -> None:
    """``auto`` detects German from the text; the German Snowball stemmer joins inflections."""
    store = build(tmp_path, GERMAN, language="auto")
    assert store.snapshot is not None
    assert store.snapshot.lexical_language == "de"
    assert names(store, "Schlüsseln Sicherungen") == ["schluessel.md"]
    assert names(store, "schluessel") == ["schluessel.md"]  # Snowball German reads "ue" as "ü"
    assert names(store, "Kuchens") == ["kuchen.md"]
    assert names(store, "die der und") == []  # German stopwords


def test_changing_the_language_reanalyses_every_chunk(tmp_path: Path) -> None:
    """A language set by the user replaces the detected one at the next activation, with no new
    documents and no embedding; searching then uses the new analyzer."""
    store = build(tmp_path, GERMAN, language="en")
    assert names(store, "Sicherungen") == []  # the English stemmer does not join German inflections
    store.close()
    german = LocalStore(tmp_path, IDENTITY, language="de")
    update = german.begin()
    assert update.changed  # worth activating although no document changed
    update.commit()
    assert names(german, "Sicherungen") == ["schluessel.md"]
    german.close()


def test_back_to_auto_detects_the_language_again(tmp_path: Path) -> None:
    """``auto`` keeps a language it detected, not one a person had set: after ``none`` or ``en``,
    going back to ``auto`` detects German again (once: the next update changes nothing)."""
    for first in ("none", "en"):
        folder = tmp_path / first
        store = build(folder, GERMAN, language=first)
        assert store.snapshot is not None and store.snapshot.lexical_language == first
        store.close()
        auto = LocalStore(folder, IDENTITY, language="auto")
        update = auto.begin()
        assert update.changed
        update.commit()
        assert auto.snapshot is not None and auto.snapshot.lexical_language == "de"
        assert names(auto, "Sicherungen") == ["schluessel.md"]
        again = auto.begin()
        assert not again.changed
        again.abort()
        auto.close()


def test_coverage_is_the_idf_weighted_share_of_query_terms(tmp_path: Path) -> None:
    """A query term found nowhere counts with the largest IDF, so a chunk matching only a common
    word of an unrelated question has low coverage."""
    texts = {
        f"bread{i}.md": f"Knead the bread dough, bake the bread {i} minutes." for i in range(8)
    }
    texts["capital.md"] = "The capital letters of the bread recipe title."
    store = build(tmp_path, texts)
    hits = store.lexical_search("What is the capital of Mongolia?", 10, ["s1"])
    assert [h.chunk.rel_path for h in hits] == ["capital.md"]
    assert hits[0].coverage is not None and 0.2 < hits[0].coverage < 0.5
    both = store.lexical_search("bread capital", 10, ["s1"])
    assert both[0].chunk.rel_path == "capital.md" and both[0].coverage == 1.0
    assert all(h.coverage is not None and h.coverage < 0.5 for h in both[1:])


def test_a_format_2_snapshot_is_served_as_it_is_while_a_job_holds_the_store(tmp_path: Path) -> None:
    """Migration needs the store lock; while another job holds it the old snapshot is served,
    chunk table without headings included (and without a lexical index until it is migrated)."""
    from kortty_rag.index.lock import StoreLock

    fixture = Path(__file__).parents[2] / "data" / "snapshot-format-2" / "legacy-3c5e71"
    folder = tmp_path / fixture.name
    shutil.copytree(fixture, folder)
    with StoreLock(folder, purpose="test"):
        store = LocalStore(folder, IDENTITY, clean=False)
        assert store.snapshot is not None and store.snapshot.manifest.format == 2
        vector = HashEmbedder().embed_query("lighthouse keeper lens")
        hits = store.search(vector, 3, ["src-v2docs"])
        assert {h.chunk.rel_path for h in hits} == {"lighthouse.txt", "report.md", "widget.py"}
        assert all(h.chunk.heading == "" for h in hits)
        assert store.lexical_search("lighthouse", 3, ["src-v2docs"]) == []
        store.close()


def test_an_index_of_an_older_analyzer_is_analysed_again_on_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new analyzer version changes the terms of the same text: a snapshot indexed by the older one
    is migrated when opened (chunk texts analysed again, nothing re-embedded)."""
    from kortty_rag.index import analysis

    with monkeypatch.context() as patch:
        patch.setattr(analysis, "ANALYZER_VERSION", analysis.ANALYZER_VERSION - 1)
        build(tmp_path, TEXTS).close()
    old = read_pointer(tmp_path)
    store = LocalStore(tmp_path, IDENTITY, language="en")
    assert store.snapshot is not None and store.snapshot.lexical_current
    assert read_pointer(tmp_path) != old
    assert names(store, "fetch_with_backoff") == ["retry.py"]
    store.close()


def test_similarities_of_lexical_matches_are_the_dense_search_s_values(tmp_path: Path) -> None:
    store = build(tmp_path, TEXTS)
    vector = HashEmbedder().embed_query("running shoes")
    dense = store.search(vector, len(TEXTS), ["s1"])
    # computed independently from the embedder's own vectors (unit length: cosine = dot product)
    embedded = {name: HashEmbedder().embed_documents([text])[0] for name, text in TEXTS.items()}
    expected = {h.label: float(embedded[h.chunk.rel_path] @ vector) for h in dense}
    found = store.similarities(vector, [*expected, 9999])  # a label the snapshot lacks: left out
    assert found.keys() == expected.keys()
    for label, score in expected.items():
        assert found[label] == pytest.approx(score, abs=1e-5)
    assert {h.label: h.score for h in dense} == pytest.approx(found, abs=1e-5)
    assert store.similarities(vector, []) == {}


COMPOUND_NOTES = {
    "vorschau.txt": "Die Vorschau zeigt die Seite auf dem Bildschirm, bevor sie gedruckt wird.",
    "netz.txt": "Alle Verbindungen im Netzwerk werden mit ihren Adressen aufgelistet.",
    "drucker.txt": "Der Drucker wartet auf Papier und meldet sich dann wieder.",
    "voll.txt": "Das Dateisystem ist voll.",
    "datei.txt": "Die Datei liegt irgendwo im System.",
}


def test_a_compound_no_chunk_holds_is_searched_as_its_parts(tmp_path: Path) -> None:
    store = build(tmp_path, COMPOUND_NOTES, language="de")
    # "Bildschirmvorschau" is in no text; "Bildschirm" and "Vorschau" are, in one of them
    hits = store.lexical_search("Bildschirmvorschau", 5, ["s1"])
    assert [h.chunk.rel_path for h in hits] == ["vorschau.txt"]
    assert hits[0].coverage == pytest.approx(1.0)
    # with the linking -s- of "Netzwerksverbindungen"
    assert names(store, "Netzwerksverbindungen anzeigen") == ["netz.txt"]
    # a compound whose parts are not both known stays one term the index does not hold
    assert names(store, "Druckerwarteschlange") == []
    # a term the index holds is never split
    assert names(store, "Dateisystem") == ["voll.txt"]


def test_compound_splitting_by_hand() -> None:
    from kortty_rag.index.compounds import split_compound, with_compounds_split

    known = {"netzwerk", "dateisystem", "netzwerkdatei", "system", "verbind"}
    assert split_compound("netzwerkdateisystem", known) == ("netzwerk", "dateisystem")
    assert split_compound("netzwerksverbind", known) == ("netzwerk", "verbind")
    assert split_compound("dateisystem", {"datei"}) is None  # one part unknown
    assert split_compound("abcsystem", {"abc", "system"}) is None  # a part under four letters
    assert split_compound("os.path", {"os", "path"}) is None
    terms = ["netzwerkdateisystem", "anzeig"]
    assert with_compounds_split(terms, lambda words: known & words, {"netzwerkdateisystem"}) == [
        "netzwerk",
        "dateisystem",
        "anzeig",
    ]
    assert with_compounds_split(terms, lambda words: set(), set()) == terms
    # a run of letters longer than a word is not split (the candidates grow with its square)
    long = "netzwerk" * 6
    assert split_compound(long, {"netzwerk", long[8:]}) is None
    assert with_compounds_split([long], set, {long}) == [long]
