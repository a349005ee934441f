"""File watching for ``auto`` sources (docs/DESIGN.md §8): events are hints, content hashes are the truth.

A :class:`SourceWatcher` watches the roots of a store's auto sources with ``watchdog``, collects events
per source, and after a quiet period (the debounce) asks for a refresh through ``on_due``. It never
decides what changed: the refresh scans the source and compares hashes. When a source cannot be watched
reliably — the inotify watch or instance limit is reached, the kernel queue overflowed and events were
lost, or the root is on a network file system that does not report remote changes — the source is
marked "limited watching" and stays manually refreshable; an overflow also triggers a refresh so the
lost events cannot hide a change. Starting the watcher reconciles every auto source once, which catches
changes made while nothing was running.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.messages import msg
from kortty_rag.models import DEFAULT_DEBOUNCE_SECONDS, Source, SourceKind, Store, SyncMode

#: File systems whose changes made on other machines never reach inotify.
NETWORK_FILE_SYSTEMS = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "9p",
        "afs",
        "ceph",
        "glusterfs",
        "lustre",
        "fuse.sshfs",
        "sshfs",
        "fuse.rclone",
        "davfs",
        "fuse.s3fs",
        "fuse.gcsfuse",
    }
)
_OVERFLOW_LOGGER = "watchdog.observers.inotify_c"
#: Reads (ours included: the refresh opens every file) are not changes.
_IGNORED_EVENTS = frozenset({"opened", "closed_no_write"})

#: on_due(store id, source ids, reason): a refresh of these sources is due.
DueCallback = Callable[[str, frozenset[str], str], None]


def file_system_type(path: str, mountinfo: str = "/proc/self/mountinfo") -> str | None:
    """The type of the file system ``path`` lives on (Linux), or ``None`` if unknown."""
    try:
        lines = Path(mountinfo).read_text().splitlines()
    except OSError:
        return None
    real = os.path.realpath(path)
    best, best_type = "", None
    for line in lines:
        left, _, right = line.partition(" - ")
        fields = left.split()
        if len(fields) < 5 or not right:
            continue
        mount_point = fields[4].replace("\\040", " ")
        inside = real == mount_point or real.startswith(mount_point.rstrip("/") + "/")
        if inside and len(mount_point) >= len(best):
            best, best_type = mount_point, right.split()[0]
    return best_type


@dataclass(frozen=True)
class WatchedSource:
    store_id: str
    source: Source


class _Handler:
    """watchdog handler for one source; forwards change hints to the watcher."""

    def __init__(self, watcher: SourceWatcher, watched: WatchedSource) -> None:
        self.watcher = watcher
        self.watched = watched
        source = watched.source
        self.only = os.path.realpath(source.path) if source.kind is SourceKind.FILE else None

    def dispatch(self, event: Any) -> None:
        if event.event_type in _IGNORED_EVENTS:
            return
        if self.only is not None:
            paths = {
                os.path.realpath(os.fsdecode(p)) for p in (event.src_path, event.dest_path) if p
            }
            if self.only not in paths:
                return
        self.watcher.hint(self.watched.store_id, self.watched.source.id)


class _OverflowLog(logging.Handler):
    """watchdog reports a kernel queue overflow only in its log; this turns it into a callback."""

    def __init__(self, callback: Callable[[], None]) -> None:
        super().__init__(logging.WARNING)
        self.callback = callback

    def emit(self, record: logging.LogRecord) -> None:
        if "overflow" in record.getMessage().lower():
            self.callback()


class SourceWatcher:
    def __init__(
        self,
        on_due: DueCallback,
        *,
        registry: StoreRegistry | None = None,
        debounce: float = DEFAULT_DEBOUNCE_SECONDS,
        observer_factory: Callable[[], Any] | None = None,
    ) -> None:
        self.on_due = on_due
        self.registry = registry or StoreRegistry()
        self.debounce = debounce
        self._observer_factory = observer_factory
        self._observer: Any = None
        self._watches: dict[tuple[str, str], Any] = {}
        self._pending: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()
        #: held while watches are scheduled or dropped (a registry write may resync from any thread)
        self._schedule_lock = threading.RLock()
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self._overflow_log = _OverflowLog(self._on_overflow)
        self.limited: dict[tuple[str, str], str] = {}

    # -- lifecycle ----------------------------------------------------------------------------------

    def start(self, stores: Iterable[Store] | None = None, *, reconcile: bool = True) -> None:
        from watchdog.observers import Observer

        self._observer = (self._observer_factory or Observer)()
        self._observer.start()
        logging.getLogger(_OVERFLOW_LOGGER).addHandler(self._overflow_log)
        self._thread = threading.Thread(
            target=self._debounce_loop, name="kortty-watch", daemon=True
        )
        self._thread.start()
        targets = list(stores) if stores is not None else self.registry.list()
        with self._schedule_lock:
            for store in targets:
                self._watch_store(store)
        if reconcile:
            for store in targets:
                due = frozenset(w.source.id for w in self._auto_sources(store))
                if due:
                    self.on_due(store.id, due, "reconcile")

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
        logging.getLogger(_OVERFLOW_LOGGER).removeHandler(self._overflow_log)
        with self._schedule_lock:
            observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join(timeout=10)
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        self._watches.clear()

    def resync(self, store: Store) -> None:
        """Follow configuration changes of ``store`` (sources added, removed, switched mode)."""
        wanted = {w.source.id for w in self._auto_sources(store)}
        with self._schedule_lock:
            if self._observer is None:  # stopped (or not started): nothing to follow
                return
            self._drop(lambda key: key[0] == store.id and key[1] not in wanted)
            self._watch_store(store)

    def forget(self, store_id: str) -> None:
        """Stop watching every source of a store that is gone."""
        with self._schedule_lock:
            if self._observer is not None:
                self._drop(lambda key: key[0] == store_id)

    def _drop(self, which: Callable[[tuple[str, str]], bool]) -> None:
        for key in [k for k in self._watches if which(k)]:
            self._observer.unschedule(self._watches.pop(key))
        for key in [k for k in self.limited if which(k)]:
            del self.limited[key]

    @property
    def watched(self) -> list[tuple[str, str]]:
        return sorted(self._watches)

    @property
    def settled(self) -> bool:
        """No change hint is waiting for its debounce to pass."""
        with self._lock:
            return not self._pending

    # -- watching -------------------------------------------------------------------------------------

    @staticmethod
    def _auto_sources(store: Store) -> list[WatchedSource]:
        return [
            WatchedSource(store.id, s)
            for s in store.sources
            # a source waiting for its first review here is never watched (docs/DESIGN.md §14)
            if s.sync_mode is SyncMode.AUTO and s.enabled and not s.needs_review
        ]

    def _watch_store(self, store: Store) -> None:
        for watched in self._auto_sources(store):
            key = (store.id, watched.source.id)
            if key in self._watches:
                continue
            source = watched.source
            fs_type = file_system_type(source.path)
            if fs_type in NETWORK_FILE_SYSTEMS:
                self._mark_limited(
                    key,
                    msg(
                        "{type} file system: changes made elsewhere are not reported", type=fs_type
                    ),
                )
                continue
            target = (
                source.path if source.kind is SourceKind.FOLDER else str(Path(source.path).parent)
            )
            try:
                handle = self._observer.schedule(
                    _Handler(self, watched), target, recursive=source.kind is SourceKind.FOLDER
                )
            except OSError as exc:
                self._mark_limited(
                    key, msg("cannot watch ({error})", error=exc.strerror or str(exc))
                )
                continue
            self._watches[key] = handle
            if source.limited_watching:
                self._set_limited(key, False)

    def _mark_limited(self, key: tuple[str, str], reason: str) -> None:
        self.limited[key] = reason
        self._set_limited(key, True)

    def _set_limited(self, key: tuple[str, str], limited: bool) -> None:
        store_id, source_id = key

        def change(store: Store) -> Store:
            try:
                source = store.source(source_id)
            except KeyError:
                return store
            return store.with_source(replace(source, limited_watching=limited))

        try:
            self.registry.update(store_id, change)
        except Exception:  # the store may have been deleted meanwhile
            logging.getLogger(__name__).debug("could not record watching state", exc_info=True)

    def _on_overflow(self) -> None:
        """Events were lost: every watched source is limited now and gets a full refresh."""
        with self._lock:
            keys = list(self._watches)
        by_store: dict[str, set[str]] = {}
        for key in keys:
            self._mark_limited(key, msg("the kernel's event queue overflowed; events were lost"))
            by_store.setdefault(key[0], set()).add(key[1])
        for store_id, sources in by_store.items():
            self.on_due(store_id, frozenset(sources), "overflow")

    # -- debounce -----------------------------------------------------------------------------------

    def hint(self, store_id: str, source_id: str) -> None:
        with self._lock:
            self._pending[(store_id, source_id)] = time.monotonic()
        self._wake.set()

    def _debounce_loop(self) -> None:
        while not self._stopped.is_set():
            with self._lock:
                now = time.monotonic()
                due = [k for k, at in self._pending.items() if now - at >= self.debounce]
                for key in due:
                    del self._pending[key]
                waits = [self.debounce - (now - at) for at in self._pending.values()]
            by_store: dict[str, set[str]] = {}
            for store_id, source_id in due:
                by_store.setdefault(store_id, set()).add(source_id)
            for store_id, sources in by_store.items():
                self.on_due(store_id, frozenset(sources), "changes")
            self._wake.wait(min(waits) if waits else None)
            self._wake.clear()
