"""The person's judged questions on disk (kortty_rag.app.judgments): kept in the store's own folder
beside its definition, read back as they were written, never any file text, a damaged file a clear
error that is never written over, and the BEIR export as BEIR reads it."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from tests.helpers.fakes import HashEmbedder

from kortty_rag.app.judgments import (
    QRELS_HEADER,
    Location,
    Mark,
    Verdict,
    beir_files,
    export_beir,
    forget_question,
    judgments_path,
    load_judgments,
    query_id,
    record_marks,
)
from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.config.store_files import TOP_FILES
from kortty_rag.errors import ConfigError, DamagedFileError, UsageError
from kortty_rag.models import Source, SourceKind, Store

#: a sentence of the judged document: it must never reach the judgments file
SENTENCE = "The lighthouse keeper polished the brass lens every Tuesday at dawn."


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lighthouse.md").write_text(f"# Keepers\n\n{SENTENCE}\n", encoding="utf-8")
    (folder / "harbour.md").write_text("Tides rise and fall twice a day.\n", encoding="utf-8")
    return folder


@pytest.fixture
def store(docs: Path, tmp_path: Path) -> Store:
    registry = StoreRegistry()
    created = registry.create("Notes", HashEmbedder().identity)
    single = tmp_path / "single.txt"
    single.write_text("One file on its own.\n", encoding="utf-8")
    sources = (
        Source("src-000000000001", str(docs), SourceKind.FOLDER),
        Source("src-000000000002", str(single), SourceKind.FILE),
    )
    return registry.update(created.id, lambda s: s.evolve(sources=sources))


def test_marks_round_trip_beside_the_definition(store: Store, docs: Path) -> None:
    keeper, harbour = str(docs / "lighthouse.md"), str(docs / "harbour.md")
    judged = record_marks(
        store,
        "  Who polished   the lens? ",
        [
            Mark(keeper, Verdict.RELEVANT, Location(None, 10, 80)),
            Mark(harbour, Verdict.NOT_RELEVANT),
        ],
    )
    assert judged.question == "Who polished the lens?"  # white space collapsed
    assert judged.relevant == (keeper,) and judged.not_relevant == (harbour,)
    record_marks(store, "tides", [Mark(harbour, Verdict.RELEVANT)])

    path = judgments_path(store.id)
    assert path.parent.name == store.id and (path.parent / "store.json").is_file()
    assert path.name in TOP_FILES  # removed with the store, never left as someone else's file
    assert not any(p.name == path.name for p in (path.parent / "snapshots").glob("**/*"))

    loaded = load_judgments(store)
    assert [q.question for q in loaded.questions] == ["Who polished the lens?", "tides"]
    first = loaded.find("Who polished the lens?")
    assert first is not None and first == judged
    assert first.marks[0].location == Location(None, 10, 80)
    assert first.marks[0].marked_at  # when, for a later UI
    assert loaded.find("Who   polished the lens?") == judged  # found as it is kept

    again = record_marks(store, "Who polished the lens?", [Mark(keeper, Verdict.NOT_RELEVANT)])
    assert [m.path for m in again.marks] == [keeper, harbour]  # replaced in its place
    assert again.verdict(keeper) is Verdict.NOT_RELEVANT and again.relevant == ()

    assert forget_question(store, "Who polished the lens?") is True
    assert forget_question(store, "Who polished the lens?") is False
    assert [q.question for q in load_judgments(store).questions] == ["tides"]


def test_no_file_text_is_ever_kept(store: Store, docs: Path) -> None:
    record_marks(
        store,
        "who keeps the lens clean?",
        [Mark(str(docs / "lighthouse.md"), Verdict.RELEVANT, Location(None, 0, len(SENTENCE)))],
    )
    raw = judgments_path(store.id).read_text(encoding="utf-8")
    assert SENTENCE not in raw
    for words in ("brass lens", "Keepers", "Tuesday"):
        assert words not in raw
    data = json.loads(raw)
    assert data["product"] == "kortty-rag" and data["kind"] == "judgments" and data["schema"] == 1
    (mark,) = data["questions"][0]["marks"]
    assert set(mark) == {"path", "verdict", "location", "marked_at"}
    assert mark["location"] == {"page": None, "start": 0, "end": len(SENTENCE)}


def test_paths_must_be_documents_of_the_store(store: Store, docs: Path, tmp_path: Path) -> None:
    inside = str(docs / "lighthouse.md")
    for wrong in ("/etc/passwd", "docs/lighthouse.md", str(docs), str(tmp_path / "other.txt")):
        with pytest.raises(UsageError, match="is not a document of store Notes"):
            record_marks(store, "q", [Mark(wrong, Verdict.RELEVANT)])
    with pytest.raises(UsageError, match="named twice"):
        record_marks(
            store, "q", [Mark(inside, Verdict.RELEVANT), Mark(inside, Verdict.NOT_RELEVANT)]
        )
    with pytest.raises(UsageError, match="must not be empty"):
        record_marks(store, "   ", [Mark(inside, Verdict.RELEVANT)])
    with pytest.raises(UsageError, match="Nothing to judge"):
        record_marks(store, "q", [])
    record_marks(
        store, "q", [Mark(str(tmp_path / "single.txt"), Verdict.RELEVANT)]
    )  # a file source


@pytest.mark.parametrize(
    ("content", "field"),
    [
        (b"{not json", ""),
        (
            b'{"product": "kortty-rag", "kind": "judgments", "schema": 1, "questions": 3}',
            "questions",
        ),
        (
            b'{"product": "kortty-rag", "kind": "judgments", "schema": 1, "questions": '
            b'[{"question": "q", "marks": [{"path": "/a", "verdict": "maybe"}]}]}',
            "questions[0].marks[0].verdict",
        ),
        (
            b'{"product": "kortty-rag", "kind": "judgments", "schema": 1, "questions": '
            b'[{"question": "q", "marks": [{"path": "relative", "verdict": "relevant"}]}]}',
            "questions[0].marks[0].path",
        ),
        (b'{"product": "kortty-rag", "kind": "notes", "schema": 1}', "kind"),
        (
            b'{"product": "kortty-rag", "kind": "judgments", "schema": 1, "questions": '
            b'[{"question": "q"}, {"question": "q"}]}',
            "",
        ),
    ],
)
def test_a_damaged_file_is_a_clear_error_and_nothing_is_lost(
    store: Store, docs: Path, content: bytes, field: str
) -> None:
    path = judgments_path(store.id)
    path.write_bytes(content)
    with pytest.raises(DamagedFileError) as caught:
        load_judgments(store)
    assert str(path) in caught.value.message and "is damaged" in caught.value.message
    assert caught.value.field == field
    assert "never writes over it" in caught.value.hint
    with pytest.raises(DamagedFileError):  # a new mark refuses too: the file stays as it was
        record_marks(store, "q", [Mark(str(docs / "harbour.md"), Verdict.RELEVANT)])
    with pytest.raises(DamagedFileError):
        forget_question(store, "q")
    assert path.read_bytes() == content
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".kortty-tmp-")] == []


def test_a_newer_schema_asks_for_an_upgrade(store: Store) -> None:
    path = judgments_path(store.id)
    path.write_text('{"product": "kortty-rag", "kind": "judgments", "schema": 2}')
    with pytest.raises(ConfigError, match="newer kortty-rag"):
        load_judgments(store)


def test_deleting_the_store_deletes_its_judgments(store: Store, docs: Path) -> None:
    record_marks(store, "q", [Mark(str(docs / "harbour.md"), Verdict.RELEVANT)])
    folder = judgments_path(store.id).parent
    report = Workspace().delete_store(store)
    assert "judgments.json" in report.removed and report.kept_foreign == ()
    assert not folder.exists()


def read_beir(folder: Path) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    """Queries and qrels read the way BEIR's GenericDataLoader reads them (not the product's
    code): JSON lines with ``_id`` and ``text``; a tab-separated file, QUOTE_MINIMAL, header row
    skipped, columns query-id, corpus-id, score."""
    with (folder / "queries.jsonl").open(encoding="utf-8") as lines:
        queries = {q["_id"]: q["text"] for q in map(json.loads, lines)}
    qrels: dict[str, dict[str, int]] = {}
    with (folder / "qrels" / "test.tsv").open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_MINIMAL)
        assert next(reader) == ["query-id", "corpus-id", "score"]
        for query, corpus, score in reader:
            qrels.setdefault(query, {})[corpus] = int(score)
    return queries, qrels


def test_the_export_is_beir_queries_and_qrels(store: Store, docs: Path, tmp_path: Path) -> None:
    odd = docs / "tab\there\nand a newline.md"  # a path BEIR's TSV must quote
    odd.write_text("odd\n", encoding="utf-8")
    keeper, harbour = str(docs / "lighthouse.md"), str(docs / "harbour.md")
    record_marks(store, "who keeps the lens?", [Mark(keeper, Verdict.RELEVANT)])
    record_marks(
        store,
        'tides "twice"',
        [Mark(harbour, Verdict.RELEVANT), Mark(str(odd), Verdict.NOT_RELEVANT)],
    )
    with pytest.raises(UsageError):  # another store: nothing judged
        export_beir(StoreRegistry().create("Empty", HashEmbedder().identity), tmp_path / "x")
    exported = export_beir(store, tmp_path / "beir")
    assert (exported.questions, exported.judgments) == (2, 3)
    queries, qrels = read_beir(tmp_path / "beir")
    assert queries == {
        query_id("who keeps the lens?"): "who keeps the lens?",
        query_id('tides "twice"'): 'tides "twice"',
    }
    assert qrels == {
        query_id("who keeps the lens?"): {keeper: 1},
        query_id('tides "twice"'): {harbour: 1, str(odd): 0},
    }
    assert len(set(queries)) == 2 and query_id("x") == query_id("x")
    assert QRELS_HEADER == ("query-id", "corpus-id", "score")
    queries_text, _ = beir_files(load_judgments(store))
    assert exported.queries.read_text(encoding="utf-8") == queries_text
    assert SENTENCE not in exported.qrels.read_text(encoding="utf-8")
