"""Vectors addressed by content, with the real starter model and real snapshots (docs/DESIGN.md §9):
renames, moves, copies, a re-added source, a root that comes back after MISSING and a rebuild with the
same model embed nothing twice.

The oracle is not the product's own counter: every text that reaches the real model goes through
:class:`Counting`, and the summary's figures must agree with it. Search results are compared before
and after, score for score.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kortty_rag.app.search_results import SearchRequest
from kortty_rag.app.workspace import Workspace
from kortty_rag.embedding import loader
from kortty_rag.embedding.base import Embedder, Vectors
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.models import Store, with_heading
from kortty_rag.sync.pipeline import IndexSummary

CORPUS = Path(__file__).parent.parent / "data" / "corpus"


class Counting:
    """The real embedder, counting every document text it is asked to embed."""

    def __init__(self, real: Embedder) -> None:
        self._real = real
        self.texts: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        self.texts.extend(texts)
        return self._real.embed_documents(texts)


@pytest.fixture
def counted(starter_model: InstalledModel, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counting]:
    real = loader.load_embedder(starter_model.identity())
    counting = Counting(real)
    monkeypatch.setattr(loader, "load_embedder", lambda identity: counting)
    yield counting


@pytest.fixture
def workspace() -> Iterator[Workspace]:
    with Workspace() as ws:
        yield ws


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    shutil.copytree(CORPUS, root)
    return root


def create(ws: Workspace, model: InstalledModel, docs: Path, name: str = "Reuse") -> Store:
    store = ws.create_store(name, model.identity())
    summary = ws.add_sources(store, [docs]).summary
    assert summary is not None and summary.chunks_embedded > 0
    return ws.store(name)


def refresh(ws: Workspace, store: Store, counted: Counting) -> IndexSummary:
    counted.texts.clear()
    summary = ws.refresh_sources(ws.store(store.name)).summary
    assert summary is not None
    assert summary.chunks_embedded == len(counted.texts)  # the summary tells the truth
    return summary


def results(ws: Workspace, store: Store, query: str) -> list[tuple[str, str, float | None]]:
    found = ws.search(SearchRequest(query, [ws.store(store.name)]))
    assert found.excerpts
    return [
        (
            Path(e.path).name,
            e.chunk.text,
            e.candidate.dense_score and round(e.candidate.dense_score, 5),
        )
        for e in found.excerpts
    ]


def chunk_count(ws: Workspace, store: Store) -> int:
    return sum(s.counts.chunks for s in ws.store(store.name).sources)


def test_rename_and_folder_move_embed_nothing(
    workspace: Workspace, starter_model: InstalledModel, docs: Path, counted: Counting
) -> None:
    store = create(workspace, starter_model, docs)
    before = results(workspace, store, "magma chamber and lava")
    total = chunk_count(workspace, store)
    (docs / "science" / "volcano.txt").rename(docs / "science" / "eruptions.txt")
    (docs / "garden").rename(docs / "backyard")

    summary = refresh(workspace, store, counted)
    assert summary.chunks_embedded == 0 and counted.texts == []
    assert summary.removed == summary.indexed > 1
    assert summary.chunks_reused > 0
    after = results(workspace, store, "magma chamber and lava")
    renamed = [(name.replace("volcano.txt", "eruptions.txt"), t, s) for name, t, s in before]
    assert after == renamed  # the same vectors: the same scores, under the new name
    assert chunk_count(workspace, store) == total


def test_identical_copy_and_edit_reuse_what_they_can(
    workspace: Workspace, starter_model: InstalledModel, docs: Path, counted: Counting
) -> None:
    long_text = "\n\n".join(
        f"Paragraph {i} tells how the river valley {i} floods in spring and drains by summer." * 6
        for i in range(40)
    )
    (docs / "long.txt").write_text(long_text)
    store = create(workspace, starter_model, docs)
    shutil.copyfile(docs / "long.txt", docs / "hobbies" / "copy-of-long.txt")
    summary = refresh(workspace, store, counted)
    assert summary.indexed == 1 and summary.chunks_embedded == 0 and summary.chunks_reused > 5

    # one paragraph at the end changes: only the chunks that hold it are embedded again
    (docs / "long.txt").write_text(long_text + "\n\nA last paragraph about the dam built in 1950.")
    summary = refresh(workspace, store, counted)
    assert summary.indexed == 1
    assert 1 <= summary.chunks_embedded <= 2 < summary.chunks_reused
    assert any("dam built in 1950" in text for text in counted.texts)


def test_readded_source_and_returning_root_embed_nothing(
    workspace: Workspace,
    starter_model: InstalledModel,
    docs: Path,
    counted: Counting,
    tmp_path: Path,
) -> None:
    store = create(workspace, starter_model, docs)
    total = chunk_count(workspace, store)

    (source,) = workspace.store(store.name).sources
    workspace.remove_source(workspace.store(store.name), source)
    assert chunk_count(workspace, store) == 0
    counted.texts.clear()
    summary = workspace.add_sources(workspace.store(store.name), [docs]).summary
    assert summary is not None and summary.chunks_embedded == 0 == len(counted.texts)
    assert summary.chunks_reused == total

    away = tmp_path / "away"
    docs.rename(away)  # an unplugged drive: the root is MISSING and its chunks go
    gone = refresh(workspace, store, counted)
    assert gone.removed > 0 and chunk_count(workspace, store) == 0
    away.rename(docs)  # plugged in again
    back = refresh(workspace, store, counted)
    assert back.chunks_embedded == 0 and back.chunks_reused == total
    assert chunk_count(workspace, store) == total


def test_rebuild_with_the_same_model_embeds_nothing(
    workspace: Workspace, starter_model: InstalledModel, docs: Path, counted: Counting
) -> None:
    store = create(workspace, starter_model, docs)
    before = results(workspace, store, "magma chamber and lava")
    counted.texts.clear()
    summary = workspace.rebuild_store(workspace.store(store.name))
    assert summary.chunks_embedded == 0 == len(counted.texts)
    assert summary.chunks_reused == chunk_count(workspace, store) > 0
    assert results(workspace, store, "magma chamber and lava") == before


def test_reused_vectors_equal_fresh_embeddings(
    workspace: Workspace, starter_model: InstalledModel, docs: Path, counted: Counting
) -> None:
    """A reused vector is the one the model makes for that text (compared with a fresh embedding
    of the stored text, outside the product)."""
    store = create(workspace, starter_model, docs)
    (docs / "science" / "volcano.txt").rename(docs / "science" / "moved-volcano.txt")
    refresh(workspace, store, counted)
    found = workspace.search(SearchRequest("lava flows", [workspace.store(store.name)])).excerpts
    hits = [e for e in found if e.candidate.dense_score is not None]
    assert any(Path(e.path).name == "moved-volcano.txt" for e in hits)
    real = counted._real
    query = real.embed_query("lava flows")
    for hit in hits:
        fresh = real.embed_documents([with_heading(hit.chunk.heading, hit.chunk.text)])[0]
        assert float(np.dot(fresh, query)) == pytest.approx(hit.candidate.dense_score, abs=1e-3)


def test_moved_source_is_relinked_without_embedding(
    workspace: Workspace,
    starter_model: InstalledModel,
    docs: Path,
    counted: Counting,
    tmp_path: Path,
) -> None:
    store = create(workspace, starter_model, docs)
    total = chunk_count(workspace, store)
    (source,) = workspace.store(store.name).sources
    moved_to = tmp_path / "elsewhere" / "docs"
    moved_to.parent.mkdir()
    docs.rename(moved_to)
    counted.texts.clear()
    reviewed = workspace.move_source(workspace.store(store.name), source, moved_to)
    assert reviewed.summary is not None
    assert reviewed.review.report.summary().to_index == 0  # every document found unchanged
    assert reviewed.summary.chunks_embedded == 0 == len(counted.texts)
    (after,) = workspace.store(store.name).sources
    assert (after.id, after.path, after.status.value) == (source.id, str(moved_to), "READY")
    assert after.counts.chunks == total
    assert results(workspace, store, "magma chamber and lava")[0][0] == "volcano.txt"


def test_source_move_cli_after_missing(
    run_cli: Any, starter_model: InstalledModel, docs: Path, tmp_path: Path
) -> None:
    assert run_cli("store", "create", "M", "--model", starter_model.id).returncode == 0
    assert run_cli("source", "add", "M", str(docs), "--yes").returncode == 0
    total = json.loads(run_cli("source", "list", "M", "--json").stdout)[0]["counts"]["chunks"]
    moved_to = tmp_path / "moved"
    docs.rename(moved_to)
    assert run_cli("source", "refresh", "M", "--yes").returncode == 0
    (missing,) = json.loads(run_cli("source", "list", "M", "--json").stdout)
    assert missing["status"] == "MISSING"
    assert f"kortty-rag source move M {docs} NEW_PATH" in missing["status_reason"]

    other = tmp_path / "other"
    other.mkdir()
    (other / "note.txt").write_text("a file, not a folder")
    refused = run_cli("source", "move", "M", str(docs), str(other / "note.txt"), "--yes")
    assert refused.returncode == 2 and "is a file, but the source" in refused.stderr
    inside = run_cli("source", "move", "M", str(docs), str(tmp_path / "nowhere"), "--yes")
    assert inside.returncode == 2 and "does not exist" in inside.stderr

    moved = run_cli("source", "move", "M", str(docs), str(moved_to), "--yes", "--json")
    assert moved.returncode == 0, moved.stderr
    summary = json.loads(moved.stdout)["summary"]
    assert summary["chunks_embedded"] == 0 and summary["chunks_reused"] == total
    (back,) = json.loads(run_cli("source", "list", "M", "--json").stdout)
    assert back["path"] == str(moved_to) and back["status"] == "READY"
    assert back["counts"]["chunks"] == total
    found = json.loads(run_cli("search", "M", "magma chamber and lava", "--json").stdout)
    assert Path(found["excerpts"][0]["path"]) == moved_to / "science" / "volcano.txt"
