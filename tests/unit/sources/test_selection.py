"""Adding sources: roots must exist, never be links, never overlap (docs/DESIGN.md §7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kortty_rag.errors import SourceError, SourceOverlapError
from kortty_rag.models import MiB, Source, SourceKind, SourceOptions
from kortty_rag.sources.selection import select_sources


def folder(path: Path) -> Source:
    return Source(id="existing", path=str(path), kind=SourceKind.FOLDER)


def test_folder_and_files_become_sources(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "a.txt").write_text("a")
    selection = select_sources([], [tmp_path / "docs", tmp_path / "a.txt"])
    assert [(s.kind, Path(s.path).name) for s in selection.sources] == [
        (SourceKind.FOLDER, "docs"),
        (SourceKind.FILE, "a.txt"),
    ]
    assert len({s.id for s in selection.sources}) == 2


@pytest.mark.parametrize("relation", ["same", "inside", "contains"])
def test_overlapping_folders_are_refused_naming_the_existing_source(
    tmp_path: Path, relation: str
) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    existing, new = {
        "same": (tmp_path / "a", tmp_path / "a"),
        "inside": (tmp_path / "a", tmp_path / "a" / "b"),
        "contains": (tmp_path / "a" / "b", tmp_path / "a"),
    }[relation]
    with pytest.raises(SourceOverlapError) as info:
        select_sources([folder(existing)], [new])
    assert str(existing) in str(info.value)


def test_overlap_within_one_selection_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    with pytest.raises(SourceOverlapError):
        select_sources([], [tmp_path / "a", tmp_path / "a" / "b"])


def test_file_covered_by_a_folder_source_is_not_added_twice(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    covered = tmp_path / "docs" / "x.md"
    covered.write_text("x")
    other = tmp_path / "y.md"
    other.write_text("y")
    selection = select_sources([folder(tmp_path / "docs")], [covered, other])
    assert [Path(s.path).name for s in selection.sources] == ["y.md"]
    assert "already covered by the folder source" in selection.rejected[0].reason
    with pytest.raises(SourceError, match="Nothing to add"):
        select_sources([folder(tmp_path / "docs")], [covered])


def test_file_already_a_source(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    path.write_text("x")
    existing = Source(id="f", path=str(path), kind=SourceKind.FILE)
    with pytest.raises(SourceError, match="already a source"):
        select_sources([existing], [path])


def test_symlinked_root_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    with pytest.raises(SourceError, match="symbolic link") as info:
        select_sources([], [tmp_path / "link"])
    assert str(tmp_path / "real") in info.value.hint


def test_missing_and_special_roots_are_refused(tmp_path: Path) -> None:
    import os

    with pytest.raises(SourceError, match="does not exist"):
        select_sources([], [tmp_path / "nope"])
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(SourceError, match="FIFO"):
        select_sources([], [tmp_path / "fifo"])


@pytest.mark.parametrize("size", [MiB - 1, 1024 * MiB + 1])
def test_max_file_size_range(tmp_path: Path, size: int) -> None:
    with pytest.raises(SourceError, match="between 1 MiB and 1 GiB"):
        select_sources([], [tmp_path], options=SourceOptions(max_file_size=size))
