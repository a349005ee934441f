"""The local snapshot: verified before loading, activated atomically, cleaned up after crashes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from tests.helpers.children import LineReader, started

from kortty_rag.errors import IncompatibleIndexError, SnapshotError, StoreBusyError
from kortty_rag.index import snapshot as snapshot_module
from kortty_rag.index.chunkdb import NewChunk
from kortty_rag.index.local import LocalStore
from kortty_rag.index.lock import StoreLock
from kortty_rag.index.snapshot import (
    CHUNKS,
    CURRENT,
    FORMAT_VERSION,
    MANIFEST,
    SNAPSHOTS,
    VECTORS,
    read_pointer,
)
from kortty_rag.models import Document, EmbeddingIdentity

DIM = 16
IDENTITY = EmbeddingIdentity("fake", "0" * 64, DIM, "mean", "", "", 64, 10)


def vectors(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.normal(size=(n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def add_docs(
    store: LocalStore, names: list[str], seed: int = 0, source: str = "s1"
) -> dict[str, np.ndarray]:
    update = store.begin()
    added = {}
    for i, name in enumerate(names):
        vecs = vectors(3, seed + i)
        chunks = [
            NewChunk(0, f"{name}-{j}", None, j, j + 1, 1, f"{name} chunk {j}") for j in range(3)
        ]
        update.add_document(
            Document(source, name, f"sha-{name}-{seed}", 10, "Text", 3), chunks, vecs
        )
        added[name] = vecs
    update.commit()
    return added


def top(store: LocalStore, vector: np.ndarray, k: int = 1) -> list[str]:
    return [h.chunk.text for h in store.search(vector, k, ["s1", "s2"])]


def test_round_trip_and_search(tmp_path: Path) -> None:
    store = LocalStore(tmp_path, IDENTITY)
    added = add_docs(store, ["a.txt", "b.txt"])
    reopened = LocalStore(tmp_path, IDENTITY)
    assert top(reopened, added["b.txt"][1]) == ["b.txt chunk 1"]
    assert sorted(d.rel_path for d in reopened.documents()) == ["a.txt", "b.txt"]
    assert reopened.version() == 1


def test_incremental_update_keeps_unchanged_vectors(tmp_path: Path) -> None:
    store = LocalStore(tmp_path, IDENTITY)
    added = add_docs(store, ["a.txt", "b.txt", "c.txt"])
    update = store.begin()
    assert update.remove_document("s1", "b.txt") == 3
    update.commit()
    assert top(store, added["a.txt"][0]) == ["a.txt chunk 0"]
    assert "b.txt chunk 1" not in top(store, added["b.txt"][1], k=9)
    add_docs(store, ["d.txt"], seed=50)
    assert store.version() == 3
    assert sorted(d.rel_path for d in store.documents()) == ["a.txt", "c.txt", "d.txt"]


def test_compaction_after_many_deletions(tmp_path: Path) -> None:
    store = LocalStore(tmp_path, IDENTITY)
    names = [f"{i}.txt" for i in range(60)]
    added = add_docs(store, names)
    update = store.begin()
    for name in names[:40]:
        update.remove_document("s1", name)
    update.commit()
    snap = store.snapshot
    assert snap is not None
    from kortty_rag.index.hnsw_file import validate_hnsw_file

    info = validate_hnsw_file(snap.path / VECTORS, DIM)
    assert info.deleted == 0 and info.count == 60  # rebuilt without the deleted elements
    assert top(store, added["59.txt"][2]) == ["59.txt chunk 2"]


def test_source_filter(tmp_path: Path) -> None:
    store = LocalStore(tmp_path, IDENTITY)
    added = add_docs(store, ["a.txt"], source="s1")
    add_docs(store, ["b.txt"], seed=9, source="s2")
    assert [h.chunk.source_id for h in store.search(added["a.txt"][0], 6, ["s2"])] == ["s2"] * 3


def test_other_embedding_identity_is_refused(tmp_path: Path) -> None:
    add_docs(LocalStore(tmp_path, IDENTITY), ["a.txt"])
    other = EmbeddingIdentity("other-model", "1" * 64, DIM, "cls", "", "", 64, 10)
    with pytest.raises(IncompatibleIndexError) as info:
        LocalStore(tmp_path, other)
    assert "rebuild" in info.value.hint


def _snapshot_dir(folder: Path) -> Path:
    pointer = read_pointer(folder)
    assert pointer is not None
    return folder / SNAPSHOTS / pointer[0]


@pytest.mark.parametrize("name", [VECTORS, CHUNKS, MANIFEST])
def test_truncated_files_are_refused(tmp_path: Path, name: str) -> None:
    add_docs(LocalStore(tmp_path, IDENTITY), ["a.txt", "b.txt"])
    path = _snapshot_dir(tmp_path) / name
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(SnapshotError):
        LocalStore(tmp_path, IDENTITY)


def test_damaged_pointer_is_refused(tmp_path: Path) -> None:
    add_docs(LocalStore(tmp_path, IDENTITY), ["a.txt"])
    (tmp_path / CURRENT).write_text("{not json")
    with pytest.raises(SnapshotError, match="pointer"):
        LocalStore(tmp_path, IDENTITY)


BIT_FLIP_SCRIPT = textwrap.dedent(
    """
    import random, shutil, sys
    from pathlib import Path
    from kortty_rag.errors import SnapshotError
    from kortty_rag.index.local import LocalStore
    from kortty_rag.models import EmbeddingIdentity
    folder, work, count = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    identity = EmbeddingIdentity("fake", "0" * 64, 16, "mean", "", "", 64, 10)
    rng = random.Random(1234)
    refused = 0
    for i in range(count):
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(folder, work)
        snap = next((work / "snapshots").iterdir())
        files = sorted(p for p in snap.iterdir())
        target = rng.choice(files)
        data = bytearray(target.read_bytes())
        pos = rng.randrange(len(data))
        data[pos] ^= 1 << rng.randrange(8)
        target.write_bytes(bytes(data))
        try:
            LocalStore(work, identity, clean=False)
        except SnapshotError:
            refused += 1
    print(refused)
    """
)


def test_bit_flips_are_refused_without_crashing(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    add_docs(LocalStore(folder, IDENTITY), [f"{i}.txt" for i in range(20)])
    (folder / "store.lock").unlink()
    result = subprocess.run(
        [sys.executable, "-c", BIT_FLIP_SCRIPT, str(folder), str(tmp_path / "work"), "150"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr  # no segfault, no abort
    assert int(result.stdout) == 150  # every single flip was refused


@pytest.mark.parametrize(
    "step", ["files-written", "files-synced", "manifest-written", "snapshot-renamed"]
)
def test_failure_before_activation_keeps_the_old_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    store = LocalStore(tmp_path, IDENTITY)
    added = add_docs(store, ["a.txt"])
    before = read_pointer(tmp_path)

    def fail(name: str) -> None:
        if name == step:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(snapshot_module, "checkpoint", fail)
    with pytest.raises(SnapshotError, match="still answers from its last completed index"):
        add_docs(store, ["b.txt"], seed=7)
    monkeypatch.setattr(snapshot_module, "checkpoint", lambda name: None)
    assert read_pointer(tmp_path) == before
    reopened = LocalStore(tmp_path, IDENTITY)
    assert [d.rel_path for d in reopened.documents()] == ["a.txt"]
    assert top(reopened, added["a.txt"][0]) == ["a.txt chunk 0"]
    assert [p.name for p in (tmp_path / SNAPSHOTS).iterdir()] == [before[0]]  # type: ignore[index]


def test_leftovers_are_removed_on_the_next_open(tmp_path: Path) -> None:
    add_docs(LocalStore(tmp_path, IDENTITY), ["a.txt"])
    snaps = tmp_path / SNAPSHOTS
    (snaps / ".kortty-tmp-snap-deadbeef").mkdir()
    (snaps / ".kortty-tmp-snap-deadbeef" / VECTORS).write_bytes(b"partial")
    (snaps / "snap-00000009-0badf00d").mkdir()  # renamed but never activated
    (tmp_path / ".kortty-tmp-CURRENT.1234abcd").write_text("{}")
    (snaps / "someone-elses-folder").mkdir()
    LocalStore(tmp_path, IDENTITY)
    names = sorted(p.name for p in snaps.iterdir())
    assert names == sorted([read_pointer(tmp_path)[0], "someone-elses-folder"])  # type: ignore[index]
    assert not (tmp_path / ".kortty-tmp-CURRENT.1234abcd").exists()


def test_leftovers_are_kept_while_a_job_runs(tmp_path: Path) -> None:
    add_docs(LocalStore(tmp_path, IDENTITY), ["a.txt"])
    building = tmp_path / SNAPSHOTS / ".kortty-tmp-snap-cafecafe"
    building.mkdir()
    with StoreLock(tmp_path, purpose="index"):
        LocalStore(tmp_path, IDENTITY)
    assert building.exists()


def test_lock_is_exclusive_within_and_across_processes(tmp_path: Path) -> None:
    with StoreLock(tmp_path, purpose="index"):
        with pytest.raises(StoreBusyError, match="index running in process"):
            StoreLock(tmp_path, purpose="scan").acquire()
        code = (
            "import sys; from pathlib import Path; from kortty_rag.index.lock import StoreLock\n"
            "from kortty_rag.errors import StoreBusyError\n"
            "try:\n    StoreLock(Path(sys.argv[1]), purpose='x').acquire()\nexcept StoreBusyError:\n"
            "    sys.exit(3)\n"
        )
        result = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path)], check=False, timeout=300
        )
        assert result.returncode == 3
    StoreLock(tmp_path, purpose="again").acquire().release()


def test_lock_is_released_when_the_holder_dies(tmp_path: Path) -> None:
    code = (
        "import os, sys, time; from pathlib import Path; from kortty_rag.index.lock import StoreLock\n"
        "StoreLock(Path(sys.argv[1]), purpose='doomed').acquire(); print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    with started(
        [sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True
    ) as proc:
        assert LineReader(proc.stdout).readline(timeout=300).strip() == "held"
        with pytest.raises(StoreBusyError):
            StoreLock(tmp_path, purpose="x").acquire()
    StoreLock(tmp_path, purpose="x").acquire().release()


def test_manifest_lists_sizes_and_checksums(tmp_path: Path) -> None:
    add_docs(LocalStore(tmp_path, IDENTITY), ["a.txt"])
    manifest = json.loads((_snapshot_dir(tmp_path) / MANIFEST).read_text())
    assert manifest["format"] == FORMAT_VERSION and manifest["embedding"]["model_id"] == "fake"
    for name in (VECTORS, CHUNKS):
        entry = manifest["files"][name]
        assert entry["size"] == os.path.getsize(_snapshot_dir(tmp_path) / name)
        assert len(entry["sha256"]) == 64
