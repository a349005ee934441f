"""Promise 9: a burst of file events (10,000 file operations in the CI tier, 50,000 in the soak tier)
plus a forced watch-limit failure → no file missed after the reconcile, "limited watching" shown, no
crash (docs/DESIGN.md §8).

Real inotify events through watchdog into the real debounce and refresh machinery (fake embedder:
the watcher is under test, not the model). Each write produces several kernel events, so the kernel
queue (``fs.inotify.max_queued_events``, 16,384 by default) may overflow; either way the index must end
up equal to the folder. The second source cannot be watched at all (the observer reports the
kernel's "watch limit reached"): it must be marked, left alone by the live watcher, and caught by the
reconcile pass of the next start.
"""

from __future__ import annotations

import errno
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.fakes import HashEmbedder
from tests.helpers.reliability import folder_state, make_corpus, record_figure, size, write_doc
from watchdog.observers import Observer
from watchdog.observers.inotify_c import InotifyFD

from kortty_rag.app.auto_refresh import AutoRefresher, RefreshResult
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.index.factory import open_vector_store
from kortty_rag.models import Store, SyncMode
from kortty_rag.sync.session import StoreSession
from kortty_rag.sync.watch import SourceWatcher

OPERATIONS = size(10_000, 50_000)
LIVE_FILES_MAX = 4_000  # stays under the scan's 5,000-file cap


def indexed(store_name: str, source_path: Path) -> dict[str, str]:
    store = StoreRegistry().get(store_name)
    source = next(s for s in store.sources if s.path == str(source_path))
    vectors = open_vector_store(store)
    try:
        return {d.rel_path: d.sha256 for d in vectors.documents() if d.source_id == source.id}
    finally:
        vectors.close()


def burst(folder: Path, rng: random.Random) -> dict[str, int]:
    """``OPERATIONS`` creations, edits, renames and deletions as fast as Python can make them."""
    creates = min(LIVE_FILES_MAX, OPERATIONS // 5)
    deletes = creates // 2
    renames = OPERATIONS // 10
    edits = OPERATIONS - creates - deletes - renames
    live = [folder / f"burst-{i:05d}.txt" for i in range(creates)]
    for path in live:
        path.write_text(f"new {path.name} alpha")
    for i in range(edits):
        path = live[i % len(live)]
        path.write_text(f"edit {i} of {path.name} " + rng.choice(["river", "stone", "cloud"]))
    for i in range(renames):
        k = rng.randrange(len(live))
        target = folder / f"renamed-{i:05d}.txt"
        live[k].rename(target)
        live[k] = target
    rng.shuffle(live)
    for path in live[:deletes]:
        path.unlink()
    return {"creates": creates, "edits": edits, "renames": renames, "deletes": deletes}


class WatchLimitedObserver(Observer):  # type: ignore[misc,valid-type]
    """The real inotify observer, except that the kernel refuses watches under ``refused``."""

    refused: Path

    def schedule(self, handler: Any, path: str, **kwargs: Any) -> Any:
        if Path(path) == self.refused:
            raise OSError(errno.ENOSPC, "inotify watch limit reached")
        return super().schedule(handler, path, **kwargs)


def settle(watcher: SourceWatcher, refresher: AutoRefresher, timeout: float = 600) -> None:
    """Until no hint waits for its debounce and no refresh runs or waits (twice in a row)."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while quiet < 2:
        assert time.monotonic() < deadline, "the watcher never settled"
        time.sleep(1.0)
        busy = not watcher.settled or not refresher.wait_idle(0.01)
        quiet = 0 if busy else quiet + 1
        if busy:
            refresher.wait_idle(timeout)


def start(
    store: Store, refused: Path, results: list[RefreshResult]
) -> tuple[SourceWatcher, AutoRefresher]:
    embedder = HashEmbedder(record=False)
    refresher = AutoRefresher(
        on_result=results.append, retry_delay=0.2, embedder_for=lambda store_id: embedder
    ).start()
    WatchLimitedObserver.refused = refused
    watcher = SourceWatcher(refresher.request, debounce=0.3, observer_factory=WatchLimitedObserver)
    watcher.start([store])
    return watcher, refresher


def stall_the_event_reader(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """While the returned event is clear, watchdog's reader thread stops reading the inotify file
    descriptor, so a burst fills the kernel's queue until it overflows, for real."""
    reading = threading.Event()
    reading.set()
    original = InotifyFD._read_event_buffer

    def gated(self: InotifyFD, *args: Any, **kwargs: Any) -> bytes:
        reading.wait(timeout=600)  # a test that fails before releasing it cannot block forever
        return original(self, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(InotifyFD, "_read_event_buffer", gated)
    return reading


@pytest.mark.parametrize("reader", ["live", "stalled"])
def test_event_burst_and_watch_limit_miss_nothing_after_reconcile(
    tmp_path: Path, kortty_home: Path, run_cli: Any, monkeypatch: pytest.MonkeyPatch, reader: str
) -> None:
    """``stalled``: the reader pauses during the burst, the kernel queue overflows, every event
    after the overflow is lost: the overflow refresh must still find every change."""
    queue = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    if reader == "stalled" and queue > 2 * OPERATIONS:  # at least two kernel events per operation
        pytest.skip(f"fs.inotify.max_queued_events is {queue}: the burst cannot overflow it")
    reading = stall_the_event_reader(monkeypatch)
    rng = random.Random(9)
    watched = make_corpus(tmp_path / "watched", 50, rng)
    refused = make_corpus(tmp_path / "refused", 20, rng)
    embedder = HashEmbedder(record=False)
    registry = StoreRegistry()
    store = registry.create("W", embedder.identity)
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources([watched, refused], sync_mode=SyncMode.AUTO), embedder)
    store = registry.get("W")

    results: list[RefreshResult] = []
    watcher, refresher = start(store, refused, results)
    try:
        settle(watcher, refresher)  # the start-up reconcile
        results.clear()
        if reader == "stalled":
            reading.clear()
        began = time.monotonic()
        operations = burst(watched, rng)
        burst_seconds = time.monotonic() - began
        reading.set()
        for i in range(10):  # changes nothing watches
            write_doc(refused / f"unseen-{i}.txt", rng)
        settle(watcher, refresher)
        settled_seconds = time.monotonic() - began
        live_complete = indexed("W", watched) == folder_state(watched)
        refused_stale = indexed("W", refused) != folder_state(refused)
        reasons = sorted({r.reason for r in results})
        errors = [str(r.error) for r in results if r.error is not None]
        overflowed = any("overflow" in reason for reason in watcher.limited.values())
    finally:
        watcher.stop()
        refresher.stop()

    listing = run_cli("source", "list", "W", check=True).stdout
    assert f"{refused}" in listing and "limited watching" in listing, listing
    flags = {s.path: s.limited_watching for s in StoreRegistry().get("W").sources}
    assert flags[str(refused)] is True

    # the next start reconciles every auto source, watched or not
    results.clear()
    watcher, refresher = start(StoreRegistry().get("W"), refused, results)
    try:
        settle(watcher, refresher)
    finally:
        watcher.stop()
        refresher.stop()
    record_figure(
        "watcher burst",
        reader=reader,
        operations=sum(operations.values()),
        mix=operations,
        burst_seconds=round(burst_seconds, 2),
        settled_seconds=round(settled_seconds, 2),
        refreshes=reasons,
        kernel_queue_overflowed=overflowed,
        complete_before_reconcile=live_complete,
        files_after=len(folder_state(watched)),
    )
    assert errors == []
    if reader == "stalled":  # a live reader usually keeps up, but a busy machine may overflow too
        assert overflowed and "overflow" in reasons
    assert live_complete  # the live watcher alone (events, or the overflow refresh) missed nothing
    assert refused_stale  # the refused source really was not watched …
    assert "reconcile" in {r.reason for r in results}
    assert indexed("W", refused) == folder_state(refused)  # … and the reconcile caught it up
    assert indexed("W", watched) == folder_state(watched)
