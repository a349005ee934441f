"""Old state or new state, never anything else: kill -9 at random points, full disks, two writers.

The indexing runs in real separate processes (forked from ``tests/helpers/storage_driver.py``, or
``tests/helpers/index_driver.py``) with the fake embedder: the storage is under test here, not the model.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from tests.helpers.children import started
from tests.helpers.reliability import (
    folder_state,
    make_corpus,
    mutate_corpus,
    record_figure,
    size,
    write_doc,
)
from tests.helpers.storage_driver import EXIT_OK, ForkServer, served_state

from kortty_rag.config.atomic import TEMP_MARKER
from kortty_rag.config.paths import stores_dir
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.index.local import LocalStore
from kortty_rag.index.snapshot import SNAPSHOTS, read_pointer

#: promise 2: 200 kills in the CI tier, 5,000 in the soak tier
KILLS = size(200, 5000, env="KORTTY_CRASH_KILLS")
#: the kill window's steps; p·ln(1/NARROWER) = (1 − p)·ln(WIDER) settles at p ≈ 0.18 finished runs
WIDER, NARROWER = 1.05, 0.8


def driver(
    kortty_home: Path, folder: Path, *extra: str
) -> AbstractContextManager[subprocess.Popen[str]]:
    """The indexing driver as a context manager that kills it (if still running) when the block ends."""
    env = dict(os.environ, KORTTY_HOME=str(kortty_home))
    return started(
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


def served_docs() -> tuple[dict[str, str], LocalStore]:
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


def test_kill_9_at_random_points_leaves_old_or_new(
    server: ForkServer, kortty_home: Path, tmp_path: Path
) -> None:
    """Refreshes of store S (edits, deletions, renames, additions) and, every fifth time, a full first
    index of a new store F, each ``kill -9``-ed at a random moment of its run."""
    rng = random.Random(20261130)
    folder = make_corpus(tmp_path / "docs", 60, rng)
    started = time.monotonic()
    code, outcome = server.run(home=kortty_home, store="S", folder=folder)
    assert code == EXIT_OK, outcome
    durations = {"full": time.monotonic() - started, "refresh": 0.0}
    mutate_corpus(folder, rng, "calibrate")
    started = time.monotonic()
    assert server.run(home=kortty_home, store="S", folder=folder)[0] == EXIT_OK
    durations["refresh"] = time.monotonic() - started
    served = folder_state(folder)
    # Kills fall uniformly in [0, window]. A killed refresh leaves its changes to the next one, and
    # a loaded machine slows runs down: with a window fixed at the calibration, a run of kills made
    # every later refresh longer until none could reach its end (CI once saw 200 kills, all "old").
    # So the folder changes again only once the store has caught up with it, and the window adapts:
    # wider after each kill, narrower after a run that finished first, settling where about one run
    # in five or six finishes.
    window = {kind: seconds * 1.15 for kind, seconds in durations.items()}
    outcomes: Counter[str] = Counter()
    started = time.monotonic()
    for kill in range(KILLS):
        kind = "full" if kill % 5 == 4 else "refresh"
        if kind == "refresh":
            if served == folder_state(folder):
                mutate_corpus(folder, rng, str(kill))
            store, old = "S", served
        else:
            store, old = "F", {}
        new = folder_state(folder)
        delay = rng.uniform(0.0, window[kind])
        server.start(home=kortty_home, store=store, folder=folder, kill_after=delay)
        killed = server.wait() == -9
        window[kind] *= WIDER if killed else NARROWER
        after = served_state(store)  # opening removes leftovers
        assert "error" not in after, f"kill {kill} ({kind}): {after['error']}"
        assert after["docs"] in (old, new), (
            f"kill {kill} ({kind}): served state is neither old nor new"
        )
        assert after["leftovers"] == [], f"kill {kill} ({kind}): leftovers {after['leftovers']}"
        assert after["searchable"], f"kill {kill} ({kind}): the served snapshot cannot be searched"
        which = "new" if after["docs"] == new and new != old else "old"
        outcomes[f"{kind} {'killed' if killed else 'finished'} {which}"] += 1
        if kind == "refresh":
            served = after["docs"]
        else:
            for entry in stores_dir().iterdir():  # forget F (and any folder a kill left behind)
                if entry.name != StoreRegistry().get("S").id:
                    shutil.rmtree(entry)
    seconds = time.monotonic() - started
    record_figure(
        "kill -9",
        kills=KILLS,
        seconds=round(seconds, 1),
        run_seconds={k: round(v, 3) for k, v in durations.items()},
        final_window={k: round(v, 3) for k, v in window.items()},
        outcomes=dict(sorted(outcomes.items())),
    )
    killed = sum(n for key, n in outcomes.items() if "killed" in key)
    assert killed >= KILLS * 0.7  # most runs were really interrupted, not finished first
    assert sum(n for key, n in outcomes.items() if key.endswith("new")) > 0


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
    before, vectors = served_docs()
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
    assert "still answers from its last completed index" in message
    assert fails_in in message or "File too large" in message or "not written completely" in message
    after, vectors = served_docs()
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
    # 5 s per batch: the second process (a fresh interpreter, slow to start on a loaded machine) must
    # ask while the first still holds the lock; with 0.5 s it sometimes came after the first finished
    with driver(kortty_home, folder, "--slow", "5", "--ready", str(ready)) as first:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.01)
        code, outcome = run_driver(kortty_home, folder)
        assert code == 2 and "busy" in str(outcome["busy"])
        assert first.poll() is None  # refused while the first one was still running
        out, _ = first.communicate(timeout=600)
    assert first.returncode == 0 and json.loads(out)["indexed"] == 1
