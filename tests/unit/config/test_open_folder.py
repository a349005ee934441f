"""Folders opened as descriptors: nothing is followed through a symbolic link, and an open folder keeps
receiving its writes after its path was swapped for a link."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from kortty_rag.config.atomic import write_atomic_in
from kortty_rag.config.open_folder import OpenFolder
from kortty_rag.errors import StoreFolderChangedError


def listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_only_the_checked_components_must_not_be_links(tmp_path: Path) -> None:
    (tmp_path / "real" / "a" / "b").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "alias").symlink_to(tmp_path / "real" / "a")
    with OpenFolder.open(tmp_path / "link" / "a" / "b", nofollow=2) as opened:
        assert os.path.samefile(f"/dev/fd/{opened.fd}", tmp_path / "real" / "a" / "b")
    with pytest.raises(StoreFolderChangedError, match="symbolic link") as refused:
        OpenFolder.open(tmp_path / "link" / "a", nofollow=2)
    assert refused.value.path == tmp_path / "link"
    with pytest.raises(StoreFolderChangedError):
        OpenFolder.open(tmp_path / "real" / "alias" / "b", nofollow=2)
    with OpenFolder.open(tmp_path / "real" / "alias", nofollow=0) as followed:
        assert followed.names() == ["b"]


def test_links_and_files_are_refused_where_folders_or_files_belong(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "file").write_text("x")
    (tmp_path / "f" / "dangling").symlink_to(outside / "created-through-the-link")
    (tmp_path / "f" / "to-folder").symlink_to(outside)
    with OpenFolder.open(tmp_path / "f") as folder:
        with pytest.raises(StoreFolderChangedError, match="is a file"):
            folder.sub("file")
        with pytest.raises(StoreFolderChangedError, match="symbolic link"):
            folder.sub("to-folder", create=True)
        with pytest.raises(StoreFolderChangedError, match="symbolic link"):
            folder.open_file("dangling", os.O_RDWR | os.O_CREAT)
        with pytest.raises(StoreFolderChangedError, match="symbolic link"):
            folder.read_bytes("to-folder")
    assert listing(outside) == []


def test_write_atomic_in_replaces_a_link_instead_of_writing_through_it(tmp_path: Path) -> None:
    victim = tmp_path / "victim.json"
    victim.write_text("the user's")
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "CURRENT").symlink_to(victim)
    with OpenFolder.open(tmp_path / "f") as folder:
        write_atomic_in(folder, "CURRENT", b"new")
    assert not (tmp_path / "f" / "CURRENT").is_symlink()
    assert (tmp_path / "f" / "CURRENT").read_bytes() == b"new"
    assert victim.read_text() == "the user's"
    assert listing(tmp_path / "f") == ["CURRENT"]


def test_an_open_folder_swapped_for_a_link_keeps_its_writes(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (tmp_path / "store").mkdir()
    with OpenFolder.open(tmp_path / "store") as folder:
        (tmp_path / "store").rename(tmp_path / "moved")
        (tmp_path / "store").symlink_to(victim)
        write_atomic_in(folder, "CURRENT", b"pointer")
        folder.mkdir("snapshots")
        if sys.platform.startswith("linux"):  # paths handed to SQLite and hnswlib
            folder.library_path("vectors.hnsw").write_bytes(b"vectors")
    assert listing(victim) == []
    assert (tmp_path / "moved" / "CURRENT").read_bytes() == b"pointer"
    assert (tmp_path / "moved" / "snapshots").is_dir()
    if sys.platform.startswith("linux"):
        assert (tmp_path / "moved" / "vectors.hnsw").read_bytes() == b"vectors"
