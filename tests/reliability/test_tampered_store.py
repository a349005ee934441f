"""A tampered store folder never makes the product read, write or delete outside it.

Something (another program, a careless script, an attacker with the user's rights) replaces a part of a
store folder with a symbolic link: ``snapshots/``, the active snapshot's folder, the ``CURRENT``
pointer, a lock file, the store folder itself or ``KORTTY_HOME/rag/stores``. Every job on the store must
then be refused with one clear error, and the link's target must be byte-for-byte unchanged. Deleting a
store removes only what the product created and lists the rest.

The indexing is real (the store is built by ``tests/helpers/storage_driver.run_job``: real scanner,
chunker, hnswlib snapshots and store lock, with the fake embedder: the storage is under test here). The
oracle is a plain ``os.walk`` of the target folder (names, kinds, link targets, modes and content
hashes), not the product's own folder helpers.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.helpers.fakes import HashEmbedder
from tests.helpers.reliability import make_corpus, mutate_corpus
from tests.helpers.storage_driver import run_job

from kortty_rag.config.paths import stores_dir
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import StoreFolderChangedError
from kortty_rag.index.snapshot import CURRENT, SNAPSHOTS, read_pointer
from kortty_rag.models import Store
from kortty_rag.sync.session import StoreSession

CHANGED = "changed by something else"


def tree_state(root: Path) -> dict[str, str]:
    """Every entry below ``root`` (links not followed): kind, mode, link target or content hash."""
    state: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                value = f"link {os.readlink(path)}"
            elif stat.S_ISDIR(info.st_mode):
                value = f"dir {stat.S_IMODE(info.st_mode):o}"
            else:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                value = f"file {stat.S_IMODE(info.st_mode):o} {info.st_size} {digest}"
            state[str(path.relative_to(root))] = value
    return state


def indexed_store(tmp_path: Path) -> tuple[Store, Path, Path]:
    """Store S with one real snapshot of a generated corpus, and the corpus changed since, so a
    refresh has something to write. Returns the store, its folder and the corpus."""
    rng = random.Random(8)
    docs = make_corpus(tmp_path / "docs", 12, rng)
    run_job("S", docs)
    run_job("S", docs)  # a second snapshot: the first one was retired and removed
    mutate_corpus(docs, rng, "after", changes=4)
    store = StoreRegistry().get("S")
    return store, StoreRegistry().folder(store), docs


def plant_victim(victim: Path) -> None:
    """Things a cleanup that followed the link would delete: folders named like snapshots and like
    interrupted builds, and a plain file."""
    (victim / "snap-00000001-0badf00d").mkdir(parents=True)
    (victim / "snap-00000001-0badf00d" / "diary.txt").write_text("my diary")
    (victim / ".kortty-tmp-snap-12345678").mkdir()
    (victim / ".kortty-tmp-snap-12345678" / "plan.txt").write_text("my plan")
    (victim / "notes.txt").write_text("my notes")


def refusal(job: Callable[[], object]) -> StoreFolderChangedError | None:
    """The refusal ``job`` raised, or ``None`` if it ran (checked after the damage, so a failure
    shows what the job did)."""
    try:
        job()
    except StoreFolderChangedError as exc:
        return exc
    return None


def swap_for_link(entry: Path, target: Path) -> None:
    """Move ``entry`` to ``target`` (a faithful copy, so a product that followed the link would find
    everything it expects there) and put a symbolic link to it in its place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(entry, target)
    entry.symlink_to(target)


@pytest.mark.parametrize("part", [SNAPSHOTS, "active snapshot", CURRENT, "store.lock"])
def test_refresh_through_a_symlinked_part_is_refused_and_its_target_untouched(
    tmp_path: Path, part: str
) -> None:
    _, folder, docs = indexed_store(tmp_path)
    victim = tmp_path / "victim"
    if part == "active snapshot":
        pointer = read_pointer(folder)
        assert pointer is not None
        swap_for_link(folder / SNAPSHOTS / pointer[0], victim / pointer[0])
    elif part == SNAPSHOTS:
        swap_for_link(folder / SNAPSHOTS, victim)
    else:
        swap_for_link(folder / part, victim / part)
    if part == "store.lock":  # a lock would be truncated and written through the link
        (victim / part).write_text("a file of the user's")
    plant_victim(victim)
    before = tree_state(victim)
    store_before = tree_state(folder)

    refused = refusal(lambda: run_job("S", docs))

    assert tree_state(victim) == before  # first: the damage, if any
    assert tree_state(folder) == store_before  # refused before anything was written
    assert refused is not None, "the job was not refused"
    assert CHANGED in refused.message and str(folder) in refused.message
    assert refused.hint  # and says what to do next


def test_a_symlinked_store_folder_is_refused(tmp_path: Path) -> None:
    store, folder, _ = indexed_store(tmp_path)
    victim = tmp_path / "victim" / store.id
    swap_for_link(folder, victim)
    plant_victim(victim)
    before = tree_state(victim.parent)

    def refresh() -> None:
        with StoreSession(store) as job:
            job.apply(job.review_refresh(), HashEmbedder(dims=32, chunk_tokens=64, record=False))

    refused = refusal(refresh)

    assert tree_state(victim.parent) == before
    assert refused is not None and CHANGED in refused.message


def test_a_symlinked_stores_folder_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    stores_dir().parent.mkdir(parents=True)
    stores_dir().symlink_to(victim)

    docs = make_corpus(tmp_path / "docs", 3, random.Random(1))
    refused = refusal(lambda: run_job("S", docs))

    assert tree_state(victim) == {}
    assert refused is not None and CHANGED in refused.message


def test_store_delete_removes_only_its_own_entries_and_lists_the_rest(tmp_path: Path) -> None:
    store, folder, _ = indexed_store(tmp_path)
    pointer = read_pointer(folder)
    assert pointer is not None
    active = f"{SNAPSHOTS}/{pointer[0]}"
    victim = tmp_path / "victim"
    plant_victim(victim)
    before = tree_state(victim)
    (folder / "top.txt").write_text("mine")
    (folder / SNAPSHOTS / "notes.txt").write_text("mine")
    (folder / active / "mine.txt").write_text("mine")
    (folder / SNAPSHOTS / "snap-00000009-0badf00d").symlink_to(victim)  # looks like a snapshot
    (folder / ".kortty-tmp-foreign").mkdir()  # a temporary name, but a folder: not ours
    kept = [
        ".kortty-tmp-foreign",
        f"{SNAPSHOTS}/notes.txt",
        f"{SNAPSHOTS}/snap-00000009-0badf00d",
        f"{active}/mine.txt",
        "top.txt",
    ]

    with StoreSession(store) as job:
        report = job.delete_store()

    assert sorted(report.kept_foreign) == sorted(kept)
    assert StoreRegistry().list() == []
    assert tree_state(victim) == before
    # what is left is exactly what was kept, and the folders holding it
    assert set(tree_state(folder)) == {*kept, SNAPSHOTS, active}
    assert (folder / active / "mine.txt").read_text() == "mine"


def test_store_delete_keeps_a_symlinked_snapshots_folder_and_its_target(tmp_path: Path) -> None:
    store, folder, _ = indexed_store(tmp_path)
    victim = tmp_path / "victim"
    swap_for_link(folder / SNAPSHOTS, victim)
    plant_victim(victim)
    before = tree_state(victim)

    with StoreSession(store) as job:
        report = job.delete_store()

    assert report.kept_foreign == (SNAPSHOTS,)
    assert tree_state(victim) == before
    assert tree_state(folder) == {SNAPSHOTS: f"link {victim}"}
    assert StoreRegistry().list() == []
