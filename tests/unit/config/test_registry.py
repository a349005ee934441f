"""Store definitions: atomic, never touching files this product did not create (docs/DESIGN.md §1, §2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kortty_rag.config import paths
from kortty_rag.config.atomic import TEMP_MARKER, write_atomic
from kortty_rag.config.registry import STORE_FILE, StoreRegistry
from kortty_rag.errors import AlreadyExistsError, ConfigError, NotFoundError, UsageError
from kortty_rag.models import EmbeddingIdentity, Source, SourceKind, StoreRoles

IDENTITY = EmbeddingIdentity("m", "sha", 8, "mean", "", "", 256, 38)


def test_kortty_home_comes_from_the_environment(kortty_home: Path) -> None:
    assert paths.kortty_home() == kortty_home
    assert paths.stores_dir() == kortty_home / "rag" / "stores"
    assert paths.models_dir() == kortty_home / "models"


def test_create_get_list_round_trip() -> None:
    registry = StoreRegistry()
    store = registry.create("Notes", IDENTITY, roles=StoreRoles(text=True, coding=True))
    assert registry.get("notes") == store  # names match case-insensitively
    assert registry.get(store.id) == store
    assert [s.name for s in registry.list()] == ["Notes"]
    with pytest.raises(AlreadyExistsError):
        registry.create("NOTES", IDENTITY)
    with pytest.raises(NotFoundError):
        registry.get("other")


@pytest.mark.parametrize("name", ["", "   ", "../etc", "a/b", "x" * 65])
def test_invalid_names(name: str) -> None:
    with pytest.raises(UsageError):
        StoreRegistry().create(name, IDENTITY)


def test_update_persists_atomically() -> None:
    registry = StoreRegistry()
    store = registry.create("Notes", IDENTITY)
    source = Source(id="s", path="/tmp/x", kind=SourceKind.FOLDER)
    registry.update(store.id, lambda s: s.with_source(source))
    folder = registry.folder(store)
    assert registry.get("Notes").sources == (source,)
    assert not [p for p in folder.iterdir() if p.name.startswith(TEMP_MARKER)]
    data = json.loads((folder / STORE_FILE).read_text())
    assert data["product"] == "kortty-rag" and data["schema"] == 1


def test_foreign_files_are_never_touched(kortty_home: Path) -> None:
    rag = kortty_home / "rag"
    (rag / "stores" / "foreign").mkdir(parents=True)
    foreign_index = rag / "stores.json"  # another application's file
    foreign_index.write_text('{"theirs": true}')
    (rag / "stores" / "foreign" / "store.json").write_text('{"not": "ours"}')
    registry = StoreRegistry()
    store = registry.create("Mine", IDENTITY)
    (registry.folder(store) / "notes-of-someone.txt").write_text("keep me")
    assert [s.name for s in registry.list()] == ["Mine"]  # the foreign folder is not a store
    report = registry.delete(store)
    assert report.kept_foreign == ("notes-of-someone.txt",)
    assert (registry.folder(store) / "notes-of-someone.txt").read_text() == "keep me"
    assert foreign_index.read_text() == '{"theirs": true}'
    assert (rag / "stores" / "foreign" / "store.json").read_text() == '{"not": "ours"}'


def test_delete_removes_the_whole_own_folder() -> None:
    registry = StoreRegistry()
    store = registry.create("Gone", IDENTITY)
    folder = registry.folder(store)
    (folder / "snapshots").mkdir()
    report = registry.delete(store)
    assert not folder.exists() and report.kept_foreign == ()


def test_newer_schema_is_refused() -> None:
    registry = StoreRegistry()
    store = registry.create("Future", IDENTITY)
    path = registry.folder(store) / STORE_FILE
    data = json.loads(path.read_text())
    data["schema"] = 99
    path.write_text(json.dumps(data))
    assert registry.list() == []  # listed as damaged, never raised for the whole list
    with pytest.raises(ConfigError, match="newer"):
        registry.get("Future")


def test_write_atomic_leaves_old_content_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    target = tmp_path / "f.json"
    write_atomic(target, b"old")

    def broken_replace(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(TEMP_MARKER)]
