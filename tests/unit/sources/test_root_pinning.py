"""A root is pinned to the real folder it named when it was added (symlinked parents, swapped later).

Attack: ``linkparent → victimhome``, add ``linkparent/docs``, re-point ``linkparent → other``: the next
refresh must not index ``other/docs``. The expected real paths are taken from the file system layout the
test built (``os.path.realpath`` of folders it created), not from the code under test.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.helpers.fakes import HashEmbedder

from kortty_rag.config.registry import STORE_FILE, StoreRegistry
from kortty_rag.errors import SourceError
from kortty_rag.extract.pdf import PdfExtractor
from kortty_rag.index.factory import open_vector_store
from kortty_rag.models import Document, Source, SourceKind, SourceStatus
from kortty_rag.sources.review import RootState
from kortty_rag.sources.scan import Scanner
from kortty_rag.sources.selection import select_sources
from kortty_rag.sync.session import StoreSession

SECRET = "zorblat private key of the other home"


@pytest.fixture
def pdf() -> Iterator[PdfExtractor]:
    with PdfExtractor() as extractor:
        yield extractor


@pytest.fixture
def homes(tmp_path: Path) -> tuple[Path, Path]:
    """``victimhome/docs`` with a note, ``other/docs`` with a secret."""
    victim, other = tmp_path / "victimhome", tmp_path / "other"
    for home, text in ((victim, "the victim's public note"), (other, SECRET)):
        (home / "docs").mkdir(parents=True)
        (home / "docs" / "note.txt").write_text(text)
    return victim, other


def repoint(link: Path, target: Path) -> None:
    """Atomically re-point a symbolic link (or replace a real folder by a link) at ``target``."""
    temporary = link.with_name(link.name + ".new")
    temporary.symlink_to(target, target_is_directory=True)
    if link.is_dir() and not link.is_symlink():
        link.rename(link.with_name(link.name + ".moved"))
    os.replace(temporary, link)


@pytest.mark.parametrize("kind", ["folder", "file"])
def test_a_root_under_a_symlinked_parent_is_refused(
    tmp_path: Path, homes: tuple[Path, Path], kind: str
) -> None:
    victim, _ = homes
    link = tmp_path / "linkparent"
    link.symlink_to(victim, target_is_directory=True)
    root = link / "docs" if kind == "folder" else link / "docs" / "note.txt"
    with pytest.raises(SourceError) as info:
        select_sources([], [root])
    message = info.value.message
    assert str(link) in message and "symbolic link" in message
    expected_real = os.path.realpath(victim / "docs" / ("" if kind == "folder" else "note.txt"))
    assert info.value.hint == f"Add the real path instead: {expected_real.rstrip('/')}"


def test_a_deeper_symlinked_ancestor_is_refused(tmp_path: Path, homes: tuple[Path, Path]) -> None:
    victim, _ = homes
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").symlink_to(victim.parent, target_is_directory=True)
    with pytest.raises(SourceError, match="symbolic link"):
        select_sources([], [tmp_path / "a" / "b" / "victimhome" / "docs"])


def test_the_real_path_is_recorded_at_add_time(homes: tuple[Path, Path]) -> None:
    victim, _ = homes
    (source,) = select_sources([], [victim / "docs"]).sources
    assert source.real_path == os.path.realpath(victim / "docs") == source.path
    assert Source.from_json(json.loads(json.dumps(source.to_json()))) == source


def test_a_scan_refuses_a_root_that_resolves_elsewhere_now(
    pdf: PdfExtractor, homes: tuple[Path, Path]
) -> None:
    victim, other = homes
    (source,) = select_sources([], [victim / "docs"]).sources
    repoint(victim, other)  # the parent folder is now a link to another home
    review = Scanner(pdf=pdf).scan([source]).sources[0]
    assert review.root_state is RootState.ERROR
    assert str(victim / "docs") in review.root_error
    assert os.path.realpath(other / "docs") in review.root_error
    assert review.rows == ()  # nothing of the other home was read


def index(registry: StoreRegistry, name: str, paths: list[Path], embedder: HashEmbedder) -> None:
    with StoreSession(registry.create(name, embedder.identity), registry=registry) as job:
        job.apply(job.review_new_sources(paths), embedder)


def refresh(registry: StoreRegistry, name: str, embedder: HashEmbedder) -> None:
    with StoreSession(registry.get(name), registry=registry) as job:
        job.apply(job.review_refresh(), embedder)


def documents(registry: StoreRegistry, name: str) -> list[Document]:
    vectors = open_vector_store(registry.get(name))
    try:
        return vectors.documents()
    finally:
        vectors.close()


def test_a_refresh_after_the_swap_is_an_error_and_keeps_the_old_chunks(
    homes: tuple[Path, Path],
) -> None:
    victim, other = homes
    embedder = HashEmbedder()
    registry = StoreRegistry()
    index(registry, "S", [victim / "docs"], embedder)
    before = documents(registry, "S")
    assert [d.rel_path for d in before] == ["note.txt"]
    assert any("public note" in text for text in embedder.calls)

    repoint(victim, other)
    refresh(registry, "S", embedder)

    (source,) = registry.get("S").sources
    assert source.status is SourceStatus.ERROR
    assert os.path.realpath(other / "docs") in source.status_reason
    assert source.counts.files == 1  # the counts of the kept chunks stay
    assert documents(registry, "S") == before  # the previous snapshot still serves
    assert all(SECRET not in text for text in embedder.calls)


def test_a_swap_between_review_and_indexing_indexes_nothing_through_the_new_path(
    homes: tuple[Path, Path],
) -> None:
    victim, other = homes
    (other / "docs" / "note.txt").write_text((victim / "docs" / "note.txt").read_text())
    (other / "docs" / "extra.txt").write_text(SECRET)
    embedder = HashEmbedder()
    registry = StoreRegistry()
    with StoreSession(registry.create("T", embedder.identity), registry=registry) as job:
        review = job.review_new_sources([victim / "docs"])
        repoint(victim, other)  # identical note.txt: its reviewed hash would still match
        summary = job.apply(review, embedder)
    (outcome,) = summary.sources
    assert outcome.status is SourceStatus.ERROR
    assert embedder.calls == []  # nothing was read through the re-pointed path


def test_a_source_saved_without_a_real_path_records_it_at_its_next_refresh(
    tmp_path: Path, homes: tuple[Path, Path]
) -> None:
    """Stores written by an older version: the first successful refresh trusts and records the path
    the root resolves to then; a later swap is refused."""
    victim, other = homes
    link = tmp_path / "linkparent"
    link.symlink_to(victim, target_is_directory=True)
    embedder = HashEmbedder()
    registry = StoreRegistry()
    store = registry.create("Old", embedder.identity)
    legacy = Source(id="src-legacy", path=str(link / "docs"), kind=SourceKind.FOLDER)
    registry.update(store.id, lambda s: s.with_source(legacy))
    definition = registry.folder(store) / STORE_FILE
    data = json.loads(definition.read_text())
    del data["store"]["sources"][0]["real_path"]  # as an older version wrote it
    definition.write_text(json.dumps(data))

    refresh(registry, "Old", embedder)
    (source,) = registry.get("Old").sources
    assert source.status is SourceStatus.READY
    assert source.real_path == os.path.realpath(victim / "docs")

    link.unlink()
    link.symlink_to(other, target_is_directory=True)
    calls = len(embedder.calls)
    refresh(registry, "Old", embedder)
    (source,) = registry.get("Old").sources
    assert source.status is SourceStatus.ERROR
    assert "symbolic link" in source.status_reason and str(link) in source.status_reason
    assert all(SECRET not in text for text in embedder.calls[calls:])


def test_a_swap_while_the_walk_runs_discards_what_it_read(
    pdf: PdfExtractor, homes: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kortty_rag.sources import scan as scan_module

    victim, other = homes
    legacy = Source(id="src-old", path=str(victim / "docs"), kind=SourceKind.FOLDER)  # no real_path
    walk_folder = scan_module._Walk.folder_tree

    def swapped_midway(self: object, root: Path) -> None:
        repoint(victim, other)  # before the walk reads anything: it reads the other home
        walk_folder(self, root)  # type: ignore[arg-type]

    monkeypatch.setattr(scan_module._Walk, "folder_tree", swapped_midway)
    review = Scanner(pdf=pdf).scan([legacy]).sources[0]
    assert review.root_state is RootState.ERROR
    assert "when the scan started" in review.root_error
    assert review.rows == ()
