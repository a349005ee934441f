"""Watching auto sources with real file-system events and the real starter model (docs/DESIGN.md §8)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.helpers.children import LineReader, ignoring_sigint, started, wait_for_exit

from kortty_rag.app.auto_refresh import AutoRefresher, RefreshResult
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.index.factory import open_vector_store
from kortty_rag.models import Store, SyncMode
from kortty_rag.sync import watch as watch_module
from kortty_rag.sync.session import StoreSession
from kortty_rag.sync.watch import SourceWatcher

CORPUS = Path(__file__).parent.parent / "data" / "corpus"


@pytest.fixture
def auto_store(starter_model: InstalledModel, tmp_path: Path) -> tuple[Store, Path]:
    docs = tmp_path / "docs"
    shutil.copytree(CORPUS / "science", docs)
    registry = StoreRegistry()
    store = registry.create("Auto", starter_model.identity())
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources([docs], sync_mode=SyncMode.AUTO))
    return registry.get("Auto"), docs


@pytest.fixture
def running() -> Iterator[Callable[..., tuple[SourceWatcher, AutoRefresher, list[RefreshResult]]]]:
    started: list[tuple[SourceWatcher, AutoRefresher]] = []

    def start(
        store: Store, *, reconcile: bool = False
    ) -> tuple[SourceWatcher, AutoRefresher, list[RefreshResult]]:
        results: list[RefreshResult] = []
        refresher = AutoRefresher(on_result=results.append, retry_delay=0.2).start()
        watcher = SourceWatcher(refresher.request, debounce=0.3)
        watcher.start([store], reconcile=reconcile)
        started.append((watcher, refresher))
        return watcher, refresher, results

    yield start
    for watcher, refresher in started:
        watcher.stop()
        refresher.stop()


def indexed(store: Store) -> dict[str, str]:
    vectors = open_vector_store(StoreRegistry().get(store.name))
    try:
        return {d.rel_path: d.sha256 for d in vectors.documents()}
    finally:
        vectors.close()


def wait_for(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_create_modify_delete_rename_are_picked_up(
    auto_store: tuple[Store, Path],
    running: Callable[..., tuple[SourceWatcher, AutoRefresher, list[RefreshResult]]],
) -> None:
    store, docs = auto_store
    watcher, refresher, results = running(store)
    assert watcher.watched == [(store.id, store.sources[0].id)]
    (docs / "new.md").write_text("Tides rise and fall twice a day because of the Moon.\n")
    (docs / "volcano.txt").write_text((docs / "volcano.txt").read_text() + "\nIceland has many.\n")
    (docs / "vaccines.txt").unlink()
    (docs / "inflation.md").rename(docs / "prices.md")
    wait_for(lambda: set(indexed(store)) == {"new.md", "volcano.txt", "prices.md", "astronomy.md"})
    assert refresher.wait_idle(60)
    assert all(r.error is None for r in results)
    assert sum(r.summary.removed for r in results if r.summary) == 2
    assert StoreRegistry().get("Auto").sources[0].limited_watching is False


def test_reads_do_not_trigger_refreshes(
    auto_store: tuple[Store, Path],
    running: Callable[..., tuple[SourceWatcher, AutoRefresher, list[RefreshResult]]],
) -> None:
    store, docs = auto_store
    _, refresher, results = running(store)
    for path in docs.iterdir():
        path.read_bytes()
    time.sleep(1.0)
    assert refresher.wait_idle(30) and results == []


def test_reconcile_on_start_catches_offline_changes(
    auto_store: tuple[Store, Path],
    running: Callable[..., tuple[SourceWatcher, AutoRefresher, list[RefreshResult]]],
) -> None:
    store, docs = auto_store
    (docs / "offline.txt").write_text("Written while nothing was watching.\n")
    _, refresher, results = running(store, reconcile=True)
    assert refresher.wait_idle(60)
    assert [r.reason for r in results] == ["reconcile"]
    assert "offline.txt" in indexed(store)


def test_overflow_marks_limited_watching_and_refresh_finds_every_change(
    auto_store: tuple[Store, Path],
    running: Callable[..., tuple[SourceWatcher, AutoRefresher, list[RefreshResult]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from watchdog.observers.inotify_c import InotifyConstants, InotifyEvent, InotifyFD

    store, docs = auto_store
    _, refresher, results = running(store)
    monkeypatch.setattr(watch_module._Handler, "dispatch", lambda self, event: None)  # events lost
    (docs / "lost-1.md").write_text("A change whose event never arrived.\n")
    (docs / "astronomy.md").unlink()
    time.sleep(1.0)
    assert results == []  # nothing noticed the changes …
    # … until the kernel reports a queue overflow (through watchdog's real overflow path)
    InotifyFD.get_instance().handle_event(InotifyEvent(-1, InotifyConstants.IN_Q_OVERFLOW, 0, b""))
    assert refresher.wait_idle(60)
    assert [r.reason for r in results] == ["overflow"]
    assert set(indexed(store)) == {"lost-1.md", "volcano.txt", "inflation.md", "vaccines.txt"}
    assert StoreRegistry().get("Auto").sources[0].limited_watching is True


def test_watch_limit_failure_marks_limited_watching(
    auto_store: tuple[Store, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = auto_store

    class LimitedObserver:
        def start(self) -> None: ...
        def stop(self) -> None: ...
        def join(self, timeout: float) -> None: ...

        def schedule(self, *args: object, **kwargs: object) -> None:
            raise OSError(28, "inotify watch limit reached")

    due: list[str] = []
    watcher = SourceWatcher(
        lambda store_id, sources, reason: due.append(reason), observer_factory=LimitedObserver
    )
    watcher.start([store])
    watcher.stop()
    assert due == ["reconcile"]  # still refreshed; just not watched
    assert "watch limit" in next(iter(watcher.limited.values()))
    assert StoreRegistry().get("Auto").sources[0].limited_watching is True


def test_network_file_systems_are_limited(tmp_path: Path) -> None:
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        "22 1 0:21 / / rw - ext4 /dev/vda rw\n"
        "40 22 0:35 / /mnt/share rw,relatime - nfs4 server:/export rw\n"
    )
    assert watch_module.file_system_type("/mnt/share/docs/a.txt", str(mountinfo)) == "nfs4"
    assert watch_module.file_system_type("/home/user/a.txt", str(mountinfo)) == "ext4"
    assert "nfs4" in watch_module.NETWORK_FILE_SYSTEMS


def test_watch_command_in_the_foreground(auto_store: tuple[Store, Path], kortty_home: Path) -> None:
    """Started with SIGINT ignored, as a job in the background of a script starts: Ctrl-C must still
    stop it (every read has a deadline; the watcher is killed in ``finally`` whatever happens)."""
    import os
    import signal
    import subprocess
    import sys

    store, docs = auto_store
    (docs / "while-stopped.md").write_text("Added before the watcher started.\n")
    env = dict(os.environ, KORTTY_HOME=str(kortty_home))
    with started(
        [sys.executable, "-m", "kortty_rag", "watch", "--debounce", "0.3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=ignoring_sigint,
    ) as proc:
        out = LineReader(proc.stdout)
        # the banner and the reconcile, in either order
        out.read_until(lambda line: "refresh after reconcile" in line, timeout=300)
        (docs / "live.md").write_text("Added while the watcher runs.\n")
        out.read_until(lambda line: "refresh after changes" in line, timeout=300)
        proc.send_signal(signal.SIGINT)
        assert wait_for_exit(proc, 60) == 130
    text = "".join(out.lines)
    assert "[Auto] refresh after reconcile: Indexed 1 new" in text
    assert "[Auto] refresh after changes: Indexed 1 new" in text
    assert {"while-stopped.md", "live.md"} <= set(indexed(store))
