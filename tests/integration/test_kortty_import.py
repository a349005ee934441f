"""`kortty-rag import kortty` with the real starter model (docs/DESIGN.md §14): korTTY's registry and
v1/v2 index files — written here as korTTY writes them (``tests/helpers/kortty_writer``), with vectors
the real model computed for korTTY's chunk texts — become stores with the same sources, sync modes
and rules; korTTY's vectors are kept only for the same model; korTTY's files are never changed."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.kortty_writer import (
    Node,
    korthns_bytes,
    source_entry,
    store_entry,
    write_registry,
)
from tests.helpers.pdfs import text_pdf

from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.embedding.loader import load_embedder

CORPUS = Path(__file__).parent.parent / "data" / "corpus"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's home holds korTTY's sources: an imported source outside it is refused (§14)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): sha(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def korttys_chunks(path: Path) -> list[tuple[str, int, dict[str, str]]]:
    """korTTY cuts its own chunks (800 of its tokens); for these small files: one per paragraph
    group, PDF text one per page — what matters is that they are not kortty-rag's."""
    if path.suffix == ".pdf":
        return [
            ("Deserts are dry and hot.", 0, {"page": "1", "format": ".pdf"}),
            ("Coral reefs grow in warm shallow seas.", 25, {"page": "2", "format": ".pdf"}),
        ]
    text = path.read_text()
    return [(text.strip(), 0, {"format": path.suffix})]


@pytest.fixture
def kortty_java(tmp_path: Path, starter_model: InstalledModel) -> dict[str, Any]:
    """korTTY's data folder with one local store of two sources (a folder and a PDF file)."""
    notes = tmp_path / "notes"
    shutil.copytree(CORPUS / "science", notes)
    (notes / "sub").mkdir()
    (notes / "sub" / "deep.md").write_text("A nested file korTTY did not scan (not recursive).\n")
    pdf = tmp_path / "atlas.pdf"
    text_pdf(pdf, ["Deserts are dry and hot.", "Coral reefs grow in warm shallow seas."])
    home = tmp_path / "kortty-java"
    index_dir = home / "rag" / "indexes" / "store-1"
    index_dir.mkdir(parents=True)
    embedder = load_embedder(starter_model.identity())
    nodes: list[Node] = []
    files = [
        ("src-notes", notes, p.relative_to(notes).as_posix(), p) for p in sorted(notes.glob("*.*"))
    ]
    files.append(("src-pdf", pdf, pdf.name, pdf))
    for source_id, _root, rel, path in files:
        for index, (text, start, metadata) in enumerate(korttys_chunks(path)):
            vector = embedder.embed_documents([text])[0]  # korTTY: the bare chunk text, mean pooled
            nodes.append(
                Node(
                    source_id,
                    rel,
                    sha(path),
                    index,
                    start,
                    start + len(text),
                    text,
                    vector,
                    metadata,
                )
            )
    sources = [
        source_entry("src-notes", notes, automatic=True, exclude=["*.tmp"], recursive=False),
        source_entry("src-pdf", pdf, folder=False),
    ]
    return {
        "home": home,
        "index_dir": index_dir,
        "nodes": nodes,
        "sources": sources,
        "notes": notes,
        "pdf": pdf,
    }


def write(
    setup: dict[str, Any], *, version: int, model_id: str, extra: list[dict[str, Any]] = ()
) -> None:  # type: ignore[assignment]
    (setup["index_dir"] / "index.hnsw").write_bytes(
        korthns_bytes(setup["nodes"], version=version, dimensions=384, model_id=model_id)
    )
    write_registry(
        setup["home"],
        [
            store_entry(
                "store-1", "Research Notes", setup["index_dir"], model_id, 384, setup["sources"]
            ),
            *extra,
        ],
    )


def import_json(run_cli: Any, setup: dict[str, Any], *args: str) -> list[dict[str, Any]]:
    result = run_cli("import", "kortty", "--from", str(setup["home"]), *args, "--json")
    assert result.returncode == 0, result.stderr
    data: list[dict[str, Any]] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize("version", [1, 2])
def test_same_model_keeps_korttys_vectors(
    run_cli: Any, kortty_java: dict[str, Any], starter_model: InstalledModel, version: int
) -> None:
    setup = kortty_java
    write(setup, version=version, model_id=starter_model.id)
    before = tree(setup["home"])
    (outcome,) = import_json(run_cli, setup, "--no-index")
    assert outcome["store"] == "Research Notes" and outcome["reused_chunks"] == len(setup["nodes"])
    assert outcome["reindex"] is False and outcome["indexed"] is False
    assert tree(setup["home"]) == before  # korTTY's files: read, never changed or added to

    (store,) = json.loads(run_cli("store", "list", "--json").stdout)
    assert "secret-that-must-not-travel" not in json.dumps(store)
    sources = {
        s["path"]: s
        for s in json.loads(run_cli("source", "list", "Research Notes", "--json").stdout)
    }
    notes, pdf = sources[str(setup["notes"])], sources[str(setup["pdf"])]
    # korTTY's automatic sync is switched off until the sources are reviewed here (§14)
    assert notes["kind"] == "folder" and notes["sync_mode"] == "manual"
    assert outcome["reset"] == ["automatic sync (sources: 1)"]
    assert notes["needs_review"] and pdf["needs_review"]
    assert notes["options"]["exclude"] == ["*.tmp", "/*/"]  # not recursive: only the folder itself
    assert pdf["kind"] == "file" and pdf["sync_mode"] == "manual"

    found = json.loads(
        run_cli("search", "Research Notes", "coral reefs in warm seas", "--json").stdout
    )
    top = found["excerpts"][0]
    assert Path(top["path"]).name == "atlas.pdf" and top["page"] == 2

    # the documents' hashes are the files' own: a refresh keeps korTTY's chunks, embeds nothing
    refresh = json.loads(run_cli("source", "refresh", "Research Notes", "--yes", "--json").stdout)
    summary = refresh["summary"]
    assert summary["chunks_embedded"] == 0 and summary["unchanged"] == len(
        {(n.source_id, n.document_path) for n in setup["nodes"]}
    )
    listed = json.loads(run_cli("source", "list", "Research Notes", "--json").stdout)
    assert not any(s["needs_review"] for s in listed)  # that review was their first here

    again = import_json(run_cli, setup)
    assert again[0]["store"] is None and "imported before" in again[0]["skipped"]


def test_another_model_reindexes(run_cli: Any, kortty_java: dict[str, Any]) -> None:
    setup = kortty_java
    qdrant = store_entry("store-2", "Team Qdrant", None, "x", 384, [], kind="QDRANT")
    write(setup, version=2, model_id="nomic-embed-text-v1.5", extra=[qdrant])
    outcomes = {o["kortty_name"]: o for o in import_json(run_cli, setup, "--yes")}
    notes = outcomes["Research Notes"]
    assert notes["reused_chunks"] == 0 and notes["reindex"] is True and notes["indexed"] is True
    assert notes["review"]["summary"]["to_index"] > 0  # the review that --yes confirmed
    assert any("indexed again" in n for n in notes["notes"])
    assert (
        outcomes["Team Qdrant"]["store"] is None and "Qdrant" in outcomes["Team Qdrant"]["skipped"]
    )
    found = json.loads(
        run_cli("search", "Research Notes", "magma chamber and lava", "--json").stdout
    )
    assert Path(found["excerpts"][0]["path"]).name == "volcano.txt"


def test_damaged_kortty_index_falls_back_to_indexing(
    run_cli: Any, kortty_java: dict[str, Any], starter_model: InstalledModel
) -> None:
    setup = kortty_java
    write(setup, version=2, model_id=starter_model.id)
    index = setup["index_dir"] / "index.hnsw"
    data = bytearray(index.read_bytes())
    index.write_bytes(bytes(data[: len(data) // 2]))  # korTTY crashed while writing, say
    (outcome,) = import_json(run_cli, setup, "--yes")
    assert outcome["store"] == "Research Notes" and outcome["reindex"] is True
    assert any("cannot be read" in n for n in outcome["notes"]), outcome["notes"]
    found = json.loads(
        run_cli("search", "Research Notes", "magma chamber and lava", "--json").stdout
    )
    assert found["excerpts"]


def test_broken_registry_is_a_clear_error(run_cli: Any, tmp_path: Path) -> None:
    home = tmp_path / "k"
    (home / "rag").mkdir(parents=True)
    (home / "rag" / "stores.json").write_text('{"version": 1, "stores": [{"store": 5}]}')
    result = run_cli("import", "kortty", "--from", str(home))
    assert result.returncode == 2 and "cannot be read" in result.stderr
    missing = run_cli("import", "kortty", "--from", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "`kortty-rag import kortty --from FOLDER`" in missing.stderr
