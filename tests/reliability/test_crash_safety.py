"""Old state or new state, never anything else: kill -9 at random points, full disks, two writers.

The indexing runs in a real separate process (``tests/helpers/index_driver.py``, with the fake
embedder: the storage is under test here, not the model).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.helpers.fakes import HashEmbedder

from kortty_rag.config.atomic import TEMP_MARKER
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.index.local import LocalStore
from kortty_rag.index.snapshot import SNAPSHOTS, read_pointer

KILLS = int(os.environ.get("KORTTY_CRASH_KILLS", "60" if os.environ.get("KORTTY_SOAK") else "50"))
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "river",
    "stone",
    "cloud",
    "forest",
    "ember",
    "quartz",
    "meadow",
    "harbor",
]


def driver(kortty_home: Path, folder: Path, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ, KORTTY_HOME=str(kortty_home))
    return subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.index_driver", "S", str(folder), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=Path(__file__).parents[2],
    )


def run_driver(kortty_home: Path, folder: Path, *extra: str) -> tuple[int, dict[str, object]]:
    with driver(kortty_home, folder, *extra) as proc:
        out, err = proc.communicate(timeout=600)
    assert out, err
    return proc.returncode, json.loads(out.splitlines()[-1])


def write_doc(path: Path, rng: random.Random) -> None:
    path.write_text(" ".join(rng.choice(WORDS) for _ in range(rng.randrange(50, 600))))


def folder_state(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in folder.rglob("*.txt")
    }


def served_state() -> tuple[dict[str, str], LocalStore]:
    """What retrieval would serve now: documents of configured sources in the active snapshot."""
    store = StoreRegistry().get("S")
    vectors = LocalStore(StoreRegistry().folder(store), store.embedding)
    configured = {s.id for s in store.sources}
    docs = {d.rel_path: d.sha256 for d in vectors.documents() if d.source_id in configured}
    return docs, vectors


def assert_no_leftovers(folder: Path) -> None:
    snapshots = sorted(p.name for p in (folder / SNAPSHOTS).iterdir())
    pointer = read_pointer(folder)
    assert snapshots == ([pointer[0]] if pointer else [])
    assert not [p for p in folder.iterdir() if p.name.startswith(TEMP_MARKER)]


def test_kill_9_at_random_points_leaves_old_or_new(kortty_home: Path, tmp_path: Path) -> None:
    rng = random.Random(20261130)
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(150):
        write_doc(folder / f"d{i:03d}.txt", rng)
    started = time.monotonic()
    code, _ = run_driver(kortty_home, folder)
    assert code == 0
    duration = time.monotonic() - started
    old = folder_state(folder)
    outcomes = {"old": 0, "new": 0}
    for kill in range(KILLS):
        for path in rng.sample(sorted(folder.glob("*.txt")), 5):  # change, delete, add, rename
            action = rng.choice(["edit", "delete", "rename"])
            if action == "edit":
                write_doc(path, rng)
            elif action == "delete":
                path.unlink()
            else:
                path.rename(path.with_name(f"r{kill}-{path.name}"))
        for i in range(rng.randrange(0, 6)):
            write_doc(folder / f"n{kill}-{i}.txt", rng)
        new = folder_state(folder)
        with driver(kortty_home, folder) as proc:
            time.sleep(rng.uniform(0.0, duration * 1.1))
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
        served, vectors = served_state()  # opening also removes leftovers
        try:
            assert served in (old, new), f"kill {kill}: served state is neither old nor new"
            if served:
                vector = HashEmbedder().embed_query(" ".join(WORDS[:3]))
                assert vectors.search(vector, 3, {d.source_id for d in vectors.documents()})
        finally:
            vectors.close()
        assert_no_leftovers(StoreRegistry().folder(StoreRegistry().get("S")))
        which = "new" if served == new and served != old else "old"
        outcomes[which] += 1
        old = served
    print(f"kill -9 outcomes over {KILLS} runs: {outcomes}")
    assert outcomes["old"] + outcomes["new"] == KILLS


@pytest.mark.parametrize(("dims", "fails_in"), [(32, "chunk table"), (1024, "vector index")])
def test_disk_full_mid_snapshot_keeps_the_old_one(
    kortty_home: Path, tmp_path: Path, dims: int, fails_in: str
) -> None:
    """RLIMIT_FSIZE makes every write past the limit fail (EFBIG) like a full disk would."""
    rng = random.Random(dims)
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(40):
        write_doc(folder / f"d{i:03d}.txt", rng)
    assert run_driver(kortty_home, folder, "--dims", str(dims))[0] == 0
    before, vectors = served_state()
    vectors.close()
    snap = next((StoreRegistry().folder(StoreRegistry().get("S")) / SNAPSHOTS).iterdir())
    sizes = {p.name: p.stat().st_size for p in snap.iterdir()}
    for i in range(40, 120):
        write_doc(folder / f"d{i:03d}.txt", rng)
    limit = max(sizes.values()) + 4096  # the bigger file can be copied but not grow much more
    code, outcome = run_driver(
        kortty_home, folder, "--dims", str(dims), "--limit-file-size", str(limit)
    )
    assert code == 3, outcome
    message = str(outcome["snapshot_error"])
    assert "previous snapshot is still active" in message
    assert fails_in in message or "File too large" in message or "not written completely" in message
    after, vectors = served_state()
    vectors.close()
    assert after == before
    assert_no_leftovers(snap.parent.parent)


def test_two_processes_indexing_one_store_exactly_one_runs(
    kortty_home: Path, tmp_path: Path
) -> None:
    rng = random.Random(7)
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(40):
        write_doc(folder / f"d{i:03d}.txt", rng)
    assert run_driver(kortty_home, folder)[0] == 0
    write_doc(folder / "extra.txt", rng)
    ready = tmp_path / "ready"
    with driver(kortty_home, folder, "--slow", "0.5", "--ready", str(ready)) as first:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.01)
        code, outcome = run_driver(kortty_home, folder)
        assert code == 2 and "busy" in str(outcome["busy"])
        assert first.poll() is None  # refused while the first one was still running
        out, _ = first.communicate(timeout=600)
    assert first.returncode == 0 and json.loads(out)["indexed"] == 1
