"""The application facade as the front ends use it (``Workspace`` and its parts): watching follows
store writes by itself, the models part reads the models folder, and the parts are reached through
the one entry object. Real watchdog events on a temporary folder; no embedding model is needed."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from kortty_rag.app.model_library import ModelLibrary
from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import NotFoundError
from kortty_rag.models import EmbeddingIdentity, GiB, Source, SourceKind, Store, SyncMode

IDENTITY = EmbeddingIdentity("m", "0" * 64, 8, "mean", "", "", 256, 38)


def until(condition: object, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.02)
    return False


def with_folder(registry: StoreRegistry, store: Store, folder: Path, mode: SyncMode) -> Source:
    """Add ``folder`` as a source, written through another registry than the workspace's own."""
    source = Source(id="src-1", path=str(folder), kind=SourceKind.FOLDER, sync_mode=mode)
    registry.update(store.id, lambda current: current.with_source(source))
    return source


def test_watching_follows_store_writes_without_being_told(
    kortty_home: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    workspace = Workspace()
    store = workspace.create_store("Notes", IDENTITY)
    other = workspace.create_store("Other", IDENTITY)
    due: list[tuple[str, frozenset[str], str]] = []
    got = threading.Event()

    def on_due(store_id: str, sources: frozenset[str], reason: str) -> None:
        due.append((store_id, sources, reason))
        got.set()

    watching = workspace.watch(on_due, debounce=0.1).start()
    only_other = workspace.watch(lambda *_: None, stores=[other]).start()
    try:
        assert watching.watched == [] and due == []
        source = with_folder(StoreRegistry(), store, folder, SyncMode.AUTO)
        assert watching.watched == [(store.id, source.id)]  # at once, on the writing thread
        assert only_other.watched == []  # a watching of other stores leaves it alone

        (folder / "a.md").write_text("# A\n\nfresh text\n")
        assert got.wait(timeout=20)
        assert due[0][:2] == (store.id, frozenset({source.id})) and due[0][2] == "changes"

        workspace.set_sync_mode(workspace.store(store.id), source, SyncMode.MANUAL)
        assert watching.watched == []
        workspace.set_sync_mode(workspace.store(store.id), source, SyncMode.AUTO)
        assert watching.watched == [(store.id, source.id)]
        workspace.delete_store(workspace.store(store.id))
        assert watching.watched == []
    finally:
        watching.stop()
        only_other.stop()
    # stopped: a later write is not followed (and does not fail)
    with_folder(StoreRegistry(), other, folder, SyncMode.AUTO)
    assert watching.watched == [] and only_other.watched == []


def test_a_stopped_watching_is_started_anew_from_the_stores_as_they_are(
    kortty_home: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "code"
    folder.mkdir()
    workspace = Workspace()
    store = workspace.create_store("Code", IDENTITY)
    source = with_folder(workspace.registry, store, folder, SyncMode.AUTO)
    reconciled: list[str] = []
    watching = workspace.watch(lambda store_id, sources, reason: reconciled.append(reason))
    watching.start()
    try:
        assert watching.watched == [(store.id, source.id)]
        assert until(lambda: reconciled == ["reconcile"])  # caught up with changes made meanwhile
        assert watching.limited == {}
    finally:
        watching.stop()
        watching.stop()  # twice is safe


def test_the_models_part_reads_the_models_folder(kortty_home: Path) -> None:
    models = Workspace().models
    assert models.installed() == [] and models.damaged() == {}
    assert models.folder() == kortty_home / "models"
    with pytest.raises(NotFoundError):
        models.get("no-such-model")
    assert models.find("no-such-model") is None
    catalog = models.catalog()
    # offered: what fits the RAM, judged here from the entries' own minimum
    roomy = models.offered(1024 * GiB)
    assert sorted(m.id for m in roomy) == sorted(m.id for m in catalog)
    assert roomy[0].preselected
    small = models.offered(2 * GiB)
    assert {m.id for m in small} == {m.id for m in catalog if m.min_ram_bytes <= 2 * GiB}
    assert all(ModelLibrary.partial_size(m) == 0 for m in catalog)  # nothing downloaded here
    (kortty_home / "models" / catalog[0].id).mkdir(parents=True)
    partial = kortty_home / "models" / catalog[0].id / ".model.gguf.partial"
    partial.write_bytes(b"x" * 1234)
    assert models.partial_size(catalog[0]) == 1234
